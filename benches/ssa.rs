//! The server-side plan against the client-side plan of the same object (issue 15's goal: at
//! most 2x), on Deployments of about 1 KB, 100 KB, 1 MB and 10 MB (named by the file applied,
//! the shape of `bench/gen.py`: N containers with an env list each).
//!
//! `cargo bench --bench ssa`. Inputs are generated here, deterministic: the configuration applied
//! last time (`original`), the file applied now (`local`: replicas 3 → 5, the image of every
//! 50th container, an env value in every 25th, the last container replaced), and two live
//! objects as an API server stores them (defaults, status, `metadata.managedFields`):
//! - `migrated`: made by client-side apply (the last-applied annotation, owned by a
//!   `kubectl-client-side-apply` Update entry): the server-side plan is kubectl's whole
//!   migration (apply, save the annotation, csaupgrade, apply again with its pruning);
//! - `applied`: made by `kubectl apply --server-side` (a `kubectl` Apply entry): one apply,
//!   which prunes the container the file dropped.
//!
//! Each is timed from parsed values to the plan (no reading, no writing):
//! `client_side` (`session::plan::compute` of local and the `migrated` live object),
//! `server_side_migrated` and `server_side_applied` (`session::ssa::plan_server_side`), with
//! one `serde_json` parse of local + live as the floor.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::{Arc, OnceLock};

use applyscope::engine::plan::encode_annotation;
use applyscope::engine::ssa::request::Request;
use applyscope::json;
use applyscope::session::plan::{Docs, compute};
use applyscope::session::ssa::{SsaInput, SsaOutcome, plan_server_side};
use applyscope::value::Value;

/// The binary's allocator (`src/main.rs`), so the bench measures what the binary runs.
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

const SIZES: [&str; 4] = ["1KB", "100KB", "1MB", "10MB"];
const TIME: &str = "2026-11-25T10:00:00Z";

fn main() {
    // `SSA_DUMP=DIR cargo bench --bench ssa` also writes the inputs (`DIR/SIZE/local.json`,
    // `live-migrated.json`, `live-applied.json`), to time or profile the binary on them.
    // Otherwise each size's inputs are built when a bench first asks for them (not timed):
    // a run filtered to small sizes does not build, and page in, the 10 MB ones.
    if let Some(dir) = std::env::var_os("SSA_DUMP").map(std::path::PathBuf::from) {
        for size in SIZES {
            let i = inputs(size);
            let dir = dir.join(size);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("local.json"), &i.local_text).unwrap();
            std::fs::write(dir.join("live-migrated.json"), &i.migrated_text).unwrap();
            std::fs::write(dir.join("live-applied.json"), &i.applied_text).unwrap();
        }
    }
    // `SSA_PAIRS=1KB,100KB cargo bench --bench ssa` times the client-side plan and the
    // migrated server-side plan in alternating rounds instead (each a batch of plans of one
    // kind), and prints the median of the rounds' ratios: a load that comes and goes slows both
    // of a pair alike, where divan's separate benches may catch it in one and not the other.
    if let Ok(sizes) = std::env::var("SSA_PAIRS") {
        for size in sizes.split(',').filter(|s| !s.is_empty()) {
            pairs(size);
        }
        return;
    }
    divan::main();
}

/// [`main`]'s `SSA_PAIRS`: 200 rounds (20 from 1 MB), each a batch of client-side plans then
/// one of migrated server-side plans, the batch sized to about a millisecond of plans.
fn pairs(size: &str) {
    let i = inputs(size);
    let docs = Docs {
        local: Value::clone(&i.local),
        live: Some(i.migrated.clone()),
        last_applied: None,
    };
    let (rounds, batch) = match size {
        "1KB" => (200, 20),
        "100KB" => (200, 1),
        _ => (20, 1),
    };
    let time = |f: &dyn Fn()| {
        let t = std::time::Instant::now();
        for _ in 0..batch {
            f();
        }
        t.elapsed().as_secs_f64() / f64::from(batch) * 1e6
    };
    let (mut client, mut migrated, mut ratio) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds {
        let c = time(&|| {
            drop(divan::black_box(compute(
                divan::black_box(&docs),
                None,
                true,
            )))
        });
        let m = time(&|| {
            drop(divan::black_box(server_side(
                divan::black_box(&i.local),
                &i.migrated,
            )))
        });
        client.push(c);
        migrated.push(m);
        ratio.push(m / c);
    }
    for v in [&mut client, &mut migrated, &mut ratio] {
        v.sort_by(f64::total_cmp);
    }
    let (mid, q1, q3) = (rounds / 2, rounds / 4, rounds * 3 / 4);
    println!(
        "{size}: client-side median {:.1} µs, migrated median {:.1} µs; ratio of the pairs: median {:.2}x (quartiles {:.2}x, {:.2}x), of the fastest {:.2}x",
        client[mid],
        migrated[mid],
        ratio[mid],
        ratio[q1],
        ratio[q3],
        migrated[0] / client[0]
    );
}

/// (containers, env vars per container), as `bench/gen.py` sizes them.
fn shape(size: &str) -> (usize, usize) {
    match size {
        "1KB" => (1, 6),
        "100KB" => (63, 20),
        "1MB" => (626, 20),
        _ => (6256, 20),
    }
}

struct Inputs {
    /// Shared, as the binary hands the file it read to the server-side plan.
    local: Arc<Value>,
    migrated: Value,
    applied: Value,
    local_text: String,
    migrated_text: String,
    applied_text: String,
}

fn inputs(size: &str) -> &'static Inputs {
    static ALL: [OnceLock<Inputs>; 4] = [const { OnceLock::new() }; 4];
    let at = SIZES.iter().position(|s| *s == size).unwrap();
    ALL[at].get_or_init(|| {
        let (n, envs) = shape(size);
        let i = build(n, envs);
        eprintln!(
            "{size}: local {} bytes, live {} bytes (migrated), {} bytes (applied)",
            i.local_text.len(),
            i.migrated_text.len(),
            i.applied_text.len()
        );
        i
    })
}

fn container(i: usize, envs: usize, image: &str) -> Value {
    let env: Vec<Value> = (0..envs)
        .map(|e| json!({"name": format!("VAR_{e}"), "value": format!("value-{i}-{e}-abcdefghij")}))
        .collect();
    json!({
        "name": format!("c{i}"),
        "image": format!("registry.example.com/team/app-{i}:{image}"),
        "args": ["--port=8080", "--log-level=info"],
        "ports": [{"name": "http", "containerPort": 8080}],
        "env": env,
        "resources": {"limits": {"cpu": "500m", "memory": "128Mi"},
                      "requests": {"cpu": "100m", "memory": "64Mi"}},
    })
}

fn config(containers: Vec<Value>, replicas: i64) -> Value {
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "big", "namespace": "default", "labels": {"app": "big", "tier": "backend"}},
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": {"app": "big"}},
            "template": {"metadata": {"labels": {"app": "big"}}, "spec": {"containers": containers}},
        },
    })
}

fn local_config(n: usize, envs: usize) -> Value {
    let mut cs: Vec<Value> = (0..n)
        .map(|i| container(i, envs, if i % 50 == 0 { "1.1.0" } else { "1.0.0" }))
        .collect();
    for c in cs.iter_mut().step_by(25) {
        if envs > 1 {
            c["env"][1]["value"] = json!("changed");
        }
    }
    if n > 1 {
        cs.pop();
        cs.push(container(n, envs.min(2), "2.0.0"));
    }
    config(cs, 5)
}

/// What the API server stores for `cfg`: defaults, server metadata, status.
fn with_defaults(cfg: &Value) -> Value {
    let mut obj = cfg.clone();
    let meta = &mut obj["metadata"];
    meta["uid"] = json!("5b9c0000-8c8e-4c3e-9a57-1e0f8f1d2a3b");
    meta["resourceVersion"] = json!("123456");
    meta["generation"] = json!(1);
    meta["creationTimestamp"] = json!("2026-01-01T00:00:00Z");
    meta["annotations"] = json!({"deployment.kubernetes.io/revision": "1"});
    let spec = &mut obj["spec"];
    spec["progressDeadlineSeconds"] = json!(600);
    spec["revisionHistoryLimit"] = json!(10);
    spec["strategy"] = json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}});
    let pod = &mut spec["template"]["spec"];
    pod["dnsPolicy"] = json!("ClusterFirst");
    pod["restartPolicy"] = json!("Always");
    pod["schedulerName"] = json!("default-scheduler");
    pod["securityContext"] = json!({});
    pod["terminationGracePeriodSeconds"] = json!(30);
    for c in pod["containers"].as_array_mut().unwrap() {
        c["imagePullPolicy"] = json!("IfNotPresent");
        c["terminationMessagePath"] = json!("/dev/termination-log");
        c["terminationMessagePolicy"] = json!("File");
        for p in c["ports"].as_array_mut().unwrap() {
            p["protocol"] = json!("TCP");
        }
    }
    obj["status"] = json!({"observedGeneration": 1, "replicas": 3, "readyReplicas": 3,
        "availableReplicas": 3, "updatedReplicas": 3});
    obj
}

fn request() -> Request<'static> {
    Request::embedded("apps/v1", "Deployment", "2026-01-01T00:00:00Z").unwrap()
}

fn build(n: usize, envs: usize) -> Inputs {
    let original = config((0..n).map(|i| container(i, envs, "1.0.0")).collect(), 3);
    let local = local_config(n, envs);
    let req = request();
    // Client-side apply created it: the annotation, every field owned by the Update entry.
    let mut created = with_defaults(&original);
    created["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"] =
        json!(encode_annotation(&original).unwrap());
    let migrated = req
        .update(&Value::Null, &created, "kubectl-client-side-apply")
        .unwrap();
    // Server-side apply created it: the defaults are nobody's.
    let applied_entry = req
        .apply(&Value::Null, &original, "kubectl", false)
        .unwrap();
    let mut applied = with_defaults(&original);
    applied["metadata"]["managedFields"] = applied_entry["metadata"]["managedFields"].clone();
    Inputs {
        local_text: local.to_string(),
        migrated_text: migrated.to_string(),
        applied_text: applied.to_string(),
        local: Arc::new(local),
        migrated,
        applied,
    }
}

/// The plan, returned (not dropped while timed: the binary never frees it, and the client-side
/// bench's plan is dropped after its timing too).
fn server_side(local: &Arc<Value>, live: &Value) -> Box<applyscope::session::ssa::SsaPlan> {
    let input = SsaInput {
        local,
        live: Some(live),
        local_name: "local",
        live_name: "live",
        manager: "kubectl",
        force: false,
        migrate: &[],
        time: TIME,
        schema: None,
        resource: None,
    };
    match plan_server_side(&input).unwrap() {
        SsaOutcome::Planned(plan) => plan,
        SsaOutcome::Conflicts { conflicts, .. } => panic!("{conflicts}"),
        SsaOutcome::Refused(r) => panic!("{}", r.message),
    }
}

/// One `serde_json` parse of local + live: the floor.
#[divan::bench(args = SIZES, sample_count = 5)]
fn parse_baseline(b: divan::Bencher, size: &str) {
    let i = inputs(size);
    b.bench(|| {
        let local: Value = serde_json::from_str(divan::black_box(&i.local_text)).unwrap();
        let live: Value = serde_json::from_str(divan::black_box(&i.migrated_text)).unwrap();
        (local, live)
    });
}

/// `plan` (client-side apply) of local against the object client-side apply made.
#[divan::bench(args = SIZES, sample_count = 5)]
fn client_side(b: divan::Bencher, size: &str) {
    let i = inputs(size);
    let docs = Docs {
        local: Value::clone(&i.local),
        live: Some(i.migrated.clone()),
        last_applied: None,
    };
    b.bench(|| compute(divan::black_box(&docs), None, true).unwrap());
}

/// `plan --server-side` of the same: kubectl's migration of a client-side object.
#[divan::bench(args = SIZES, sample_count = 5)]
fn server_side_migrated(b: divan::Bencher, size: &str) {
    let i = inputs(size);
    b.bench(|| server_side(divan::black_box(&i.local), &i.migrated));
}

/// `plan --server-side` against the object an earlier server-side apply made.
#[divan::bench(args = SIZES, sample_count = 5)]
fn server_side_applied(b: divan::Bencher, size: &str) {
    let i = inputs(size);
    b.bench(|| server_side(divan::black_box(&i.local), &i.applied));
}
