//! Benchmarks of the strategic merge engine: three-way + apply against one `serde_json` parse of
//! the same inputs (the goal is a ratio of at most 5).
//!
//! `cargo bench --bench engine`. Inputs are generated here, deterministic:
//! - `deployment_10mb`: a Deployment with thousands of containers, each with an env list;
//!   last-applied, local (an image and an env value changed, a container removed and one added)
//!   and live (defaults added by the server);
//! - `configmap_50k`: a ConfigMap with 50,000 keys, 1% changed, 1% removed, 1% added;
//! - `merge_list_20k`: a merge-keyed list (container ports) of 20,000 items, a few changed.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use applyscope::engine::schema::Schema;
use applyscope::engine::smp;
use applyscope::json;
use applyscope::value::Value;

/// The binary's allocator (`src/main.rs`), so the bench measures what the binary runs.
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() {
    for (name, inputs) in [
        ("deployment_10mb", deployment_10mb::inputs()),
        ("configmap_50k", configmap_50k::inputs()),
        ("merge_list_20k", merge_list_20k::inputs()),
    ] {
        println!("{name}: {} bytes of input", inputs.bytes());
    }
    divan::main();
}

/// One input set: three documents as JSON text.
struct Inputs {
    original: String,
    modified: String,
    current: String,
}

impl Inputs {
    fn bytes(&self) -> usize {
        self.original.len() + self.modified.len() + self.current.len()
    }
}

fn container(i: usize, image: &str, envs: usize, live: bool) -> Value {
    let env: Vec<Value> = (0..envs)
        .map(|e| json!({"name": format!("VAR_{e}"), "value": format!("value-{i}-{e}-abcdefghijklmnop")}))
        .collect();
    let mut c = json!({
        "name": format!("c{i}"),
        "image": image,
        "args": ["--port", "8080", "--verbose"],
        "env": env,
        "ports": [{"containerPort": 8080, "name": "http"}],
        "resources": {"limits": {"cpu": "500m", "memory": "128Mi"}},
    });
    if live {
        c["imagePullPolicy"] = json!("IfNotPresent");
        c["terminationMessagePath"] = json!("/dev/termination-log");
        c["ports"][0]["protocol"] = json!("TCP");
    }
    c
}

fn deployment(containers: Vec<Value>, live: bool) -> Value {
    let mut d = json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "big", "namespace": "default", "labels": {"app": "big"}},
        "spec": {
            "selector": {"matchLabels": {"app": "big"}},
            "template": {"metadata": {"labels": {"app": "big"}}, "spec": {"containers": containers}},
        },
    });
    if live {
        d["spec"]["replicas"] = json!(3);
        d["spec"]["strategy"] = json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}});
    }
    d
}

fn deployment_inputs() -> Inputs {
    let (n, envs) = (2500, 20);
    let original: Vec<Value> = (0..n)
        .map(|i| container(i, "app:1.0", envs, false))
        .collect();
    let current: Vec<Value> = (0..n)
        .map(|i| container(i, "app:1.0", envs, true))
        .collect();
    let mut modified: Vec<Value> = (0..n)
        .filter(|i| i % 500 != 7)
        .map(|i| {
            container(
                i,
                if i % 100 == 0 { "app:1.1" } else { "app:1.0" },
                envs,
                false,
            )
        })
        .collect();
    for c in modified.iter_mut().step_by(250) {
        c["env"][3]["value"] = json!("changed");
    }
    modified.push(container(n, "sidecar:2.0", 2, false));
    Inputs {
        original: deployment(original, false).to_string(),
        modified: deployment(modified, false).to_string(),
        current: deployment(current, true).to_string(),
    }
}

fn configmap_inputs() -> Inputs {
    let n = 50_000;
    let data = |f: &dyn Fn(usize) -> Option<String>, extra: usize| {
        let mut m = applyscope::value::Map::new();
        for i in 0..n + extra {
            if let Some(v) = f(i) {
                m.insert(format!("key-{i:05}"), Value::String(v.into()));
            }
        }
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm", "namespace": "default"}, "data": m})
    };
    let original = data(&|i| (i < n).then(|| format!("value {i}")), 0);
    let current = original.clone();
    let modified = data(
        &|i| match i {
            i if i >= n => Some(format!("new {i}")),
            i if i % 100 == 1 => None,
            i if i % 100 == 2 => Some(format!("changed {i}")),
            i => Some(format!("value {i}")),
        },
        n / 100,
    );
    Inputs {
        original: original.to_string(),
        modified: modified.to_string(),
        current: current.to_string(),
    }
}

fn merge_list_inputs() -> Inputs {
    let n = 20_000;
    let pod = |ports: Vec<Value>| {
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "default"},
               "spec": {"containers": [{"name": "c", "image": "x", "ports": ports}]}})
    };
    let port = |i: usize, name: &str| json!({"containerPort": i + 1, "name": format!("{name}{i}")});
    let original: Vec<Value> = (0..n).map(|i| port(i, "p")).collect();
    let mut current = original.clone();
    for p in &mut current {
        p["protocol"] = json!("TCP");
    }
    let modified: Vec<Value> = (0..n)
        .filter(|i| i % 1000 != 3)
        .map(|i| port(i, if i % 1000 == 5 { "q" } else { "p" }))
        .collect();
    Inputs {
        original: pod(original).to_string(),
        modified: pod(modified).to_string(),
        current: pod(current).to_string(),
    }
}

fn parse(inputs: &Inputs) -> (Value, Value, Value) {
    (
        serde_json::from_str(&inputs.original).unwrap_or_default(),
        serde_json::from_str(&inputs.modified).unwrap_or_default(),
        serde_json::from_str(&inputs.current).unwrap_or_default(),
    )
}

fn three_way_and_apply(docs: &(Value, Value, Value), api_version: &str, kind: &str) -> Value {
    let schema = Schema::embedded();
    let meta = schema
        .root_for_gvk(api_version, kind)
        .unwrap_or_else(|| panic!("{kind}"));
    let patch = smp::diff3(&docs.0, &docs.1, &docs.2, meta, true).unwrap_or_else(|e| panic!("{e}"));
    smp::apply(docs.2.clone(), patch, meta).unwrap_or_else(|e| panic!("{e}"))
}

macro_rules! bench_set {
    ($module:ident, $inputs:expr, $api:expr, $kind:expr) => {
        mod $module {
            use super::*;

            pub(super) fn inputs() -> &'static Inputs {
                static INPUTS: std::sync::OnceLock<Inputs> = std::sync::OnceLock::new();
                INPUTS.get_or_init(|| $inputs)
            }

            /// One serde_json parse of the three inputs: the baseline.
            #[divan::bench]
            fn parse_baseline(b: divan::Bencher) {
                let inputs = inputs();
                b.bench(|| parse(divan::black_box(inputs)));
            }

            /// Three-way diff + apply of the parsed inputs (the clone of live, which apply
            /// consumes, included).
            #[divan::bench]
            fn three_way_apply(b: divan::Bencher) {
                let docs = parse(inputs());
                let _ = Schema::embedded();
                b.bench(|| three_way_and_apply(divan::black_box(&docs), $api, $kind));
            }
        }
    };
}

bench_set!(
    deployment_10mb,
    deployment_inputs(),
    "apps/v1",
    "Deployment"
);
bench_set!(configmap_50k, configmap_inputs(), "v1", "ConfigMap");
bench_set!(merge_list_20k, merge_list_inputs(), "v1", "Pod");
