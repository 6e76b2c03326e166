//! Many objects: 1,000 objects (a kustomize-sized application times ten) planned in parallel.
//! The goal: under 2 s on the 2-core CI machine, from YAML text to the JSON lines printed.
//!
//! `cargo bench --bench many`. Inputs are generated here, deterministic: 400 Deployments (an
//! image bump; live objects with server defaults and an autoscaled replica count), 300 Services,
//! 300 ConfigMaps (a changed, a removed and an added key), each with its live object and the
//! last-applied annotation kubectl would have written.
//! - `read_pair_plan_print`: parse both YAML streams, match objects, plan, write JSON lines;
//! - `thaw_packed` / `parse_local`: the local objects thawed from their packed bytes (as
//!   `plan` over many objects holds them until their turn), or parsed again from YAML;
//! - `plan_parallel` / `plan_sequential`: planning alone, on every core or on one;
//! - `diff_all`: plan, then both YAML sides and the unified diff of every object.
//! - `list_first_frame`: the TUI's object list: parse, match, plan, sum up and sort the rows,
//!   draw the first frame (160x50); `list_build_and_draw` the same from planned objects.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fmt::Write as _;

use applyscope::cli::diff::{self, Options};
use applyscope::cli::plan::{Format, print_many};
use applyscope::engine::plan::encode_annotation;
use applyscope::json;
use applyscope::session::objects::{self, Pair};
use applyscope::session::plan::{plan_all, plan_pair};
use applyscope::value::Value;
use applyscope::value::packed::Packed;

/// The binary's allocator (`src/main.rs`), so the bench measures what the binary runs.
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

const OBJECTS: usize = 1_000;

fn main() {
    let (local, live) = inputs();
    println!(
        "{OBJECTS} objects: {} bytes of local YAML, {} bytes of live YAML, {} cores",
        local.len(),
        live.len(),
        std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
    );
    // `MANY_DUMP=DIR cargo bench --bench many` also writes the inputs, to time the binary.
    if let Some(dir) = std::env::var_os("MANY_DUMP") {
        let dir = std::path::PathBuf::from(dir);
        std::fs::write(dir.join("local.yaml"), &local).unwrap();
        std::fs::write(dir.join("live.yaml"), &live).unwrap();
    }
    divan::main();
}

fn deployment(i: usize, image: &str) -> Value {
    json!({"apiVersion": "apps/v1", "kind": "Deployment",
           "metadata": {"name": format!("app-{i}"), "namespace": "shop", "labels": {"app": format!("app-{i}")}},
           "spec": {"replicas": 2,
                    "selector": {"matchLabels": {"app": format!("app-{i}")}},
                    "template": {"metadata": {"labels": {"app": format!("app-{i}")}},
                                 "spec": {"containers": [
                                     {"name": "app", "image": image,
                                      "env": [{"name": "MODE", "value": "prod"}, {"name": "ID", "value": i.to_string()}],
                                      "ports": [{"containerPort": 8080, "name": "http"}],
                                      "resources": {"requests": {"cpu": "100m", "memory": "128Mi"}}},
                                     {"name": "proxy", "image": "envoy:1.30", "args": ["--config", "/etc/envoy.yaml"]}]}}}})
}

fn service(i: usize, port: u16) -> Value {
    json!({"apiVersion": "v1", "kind": "Service",
           "metadata": {"name": format!("svc-{i}"), "namespace": "shop"},
           "spec": {"selector": {"app": format!("app-{i}")},
                    "ports": [{"name": "http", "port": 80, "targetPort": port}]}})
}

fn config_map(i: usize, version: usize) -> Value {
    let mut data = applyscope::value::Map::new();
    for k in 0..20 {
        if version == 1 && k == 19 {
            continue;
        }
        data.insert(
            format!("key-{k}"),
            json!(format!(
                "value {i} {k} v{}",
                if k == 3 { version } else { 0 }
            )),
        );
    }
    if version == 1 {
        data.insert("key-new", json!("added"));
    }
    json!({"apiVersion": "v1", "kind": "ConfigMap",
           "metadata": {"name": format!("cm-{i}"), "namespace": "shop"}, "data": data})
}

/// `obj` as the server holds it after an apply of `applied`: the annotation, some defaults.
fn live_of(applied: &Value, mut obj: Value) -> Value {
    let annotation = encode_annotation(applied).unwrap();
    obj["metadata"]["annotations"] =
        json!({"kubectl.kubernetes.io/last-applied-configuration": annotation});
    obj["metadata"]["uid"] = json!("6f1c0a52-0000-4000-8000-000000000000");
    obj["metadata"]["resourceVersion"] = json!("123456");
    if obj["kind"] == "Deployment" {
        obj["spec"]["replicas"] = json!(5);
        obj["spec"]["revisionHistoryLimit"] = json!(10);
        for c in obj["spec"]["template"]["spec"]["containers"]
            .as_array_mut()
            .unwrap()
        {
            c["imagePullPolicy"] = json!("IfNotPresent");
            c["terminationMessagePath"] = json!("/dev/termination-log");
        }
    }
    if obj["kind"] == "Service" {
        obj["spec"]["clusterIP"] = json!("10.96.0.10");
        obj["spec"]["ports"][0]["protocol"] = json!("TCP");
    }
    obj
}

/// Two YAML streams (local, live) as `kustomize build` and `kubectl get -o yaml` would give.
fn inputs() -> (String, String) {
    let (mut local, mut live) = (String::new(), String::new());
    for i in 0..OBJECTS {
        let (before, after) = match i % 10 {
            0..=3 => (deployment(i, "shop/app:1.0"), deployment(i, "shop/app:1.1")),
            4..=6 => (service(i, 8080), service(i, 8081)),
            _ => (config_map(i, 0), config_map(i, 1)),
        };
        let live_obj = live_of(&before, before.clone());
        let _ = write!(
            local,
            "---\n{}",
            applyscope::engine::jsonmerge::to_yaml(&after)
        );
        let _ = write!(
            live,
            "---\n{}",
            applyscope::engine::jsonmerge::to_yaml(&live_obj)
        );
    }
    (local, live)
}

fn pairs(local: &str, live: &str) -> Vec<Pair> {
    let locals = objects::objects_of(local.as_bytes(), "local.yaml").unwrap();
    let lives = objects::objects_of(live.as_bytes(), "live.yaml").unwrap();
    objects::pair(locals, lives, None).unwrap()
}

#[divan::bench(sample_count = 10)]
fn read_pair_plan_print(bencher: divan::Bencher) {
    let (local, live) = inputs();
    bencher.bench(|| {
        let pairs = pairs(&local, &live);
        let plans = plan_all(&pairs, None, true);
        assert!(plans.iter().all(Result::is_ok));
        print_many(&pairs, &plans, Format::Json).unwrap()
    });
}

#[divan::bench(sample_count = 10)]
fn plan_parallel(bencher: divan::Bencher) {
    let (local, live) = inputs();
    let pairs = pairs(&local, &live);
    bencher.bench(|| plan_all(&pairs, None, true));
}

#[divan::bench(sample_count = 10)]
fn plan_sequential(bencher: divan::Bencher) {
    let (local, live) = inputs();
    let pairs = pairs(&local, &live);
    bencher.bench(|| {
        pairs
            .iter()
            .map(|p| plan_pair(p, None, true))
            .collect::<Vec<_>>()
    });
}

#[divan::bench(sample_count = 10)]
fn diff_all(bencher: divan::Bencher) {
    let (local, live) = inputs();
    bencher.bench(|| {
        let pairs = pairs(&local, &live);
        let plans = plan_all(&pairs, None, true);
        let diffs: Vec<_> = pairs
            .iter()
            .zip(&plans)
            .map(|(pair, plan)| diff::object_diff(pair, plan.as_ref().unwrap(), Options::default()))
            .collect();
        diff::render(&diffs, false)
    });
}

#[divan::bench(sample_count = 5)]
fn read_pair(bencher: divan::Bencher) {
    let (local, live) = inputs();
    bencher.bench(|| pairs(&local, &live));
}

/// What `plan` over many objects pays per object for not holding it parsed: thawing its packed
/// bytes (`value::packed`), against parsing its YAML again (`read_pair`'s local half).
#[divan::bench(sample_count = 5)]
fn thaw_packed(bencher: divan::Bencher) {
    let (local, _) = inputs();
    let packed: Vec<Packed> = objects::objects_of(local.as_bytes(), "local.yaml")
        .unwrap()
        .iter()
        .map(|o| Packed::pack(&o.value).unwrap())
        .collect();
    bencher.bench(|| {
        packed
            .iter()
            .map(|p| p.unpack().unwrap())
            .collect::<Vec<_>>()
    });
}

#[divan::bench(sample_count = 5)]
fn parse_local(bencher: divan::Bencher) {
    let (local, _) = inputs();
    bencher.bench(|| objects::objects_of(local.as_bytes(), "local.yaml").unwrap());
}

#[divan::bench(sample_count = 5)]
fn print_json(bencher: divan::Bencher) {
    let (local, live) = inputs();
    let pairs = pairs(&local, &live);
    let plans = plan_all(&pairs, None, true);
    bencher.bench(|| print_many(&pairs, &plans, Format::Json).unwrap());
}

/// The list's first frame; the list is returned so that dropping it is not timed.
fn first_frame(
    items: Vec<applyscope::app::list::Item>,
) -> (applyscope::app::App, ratatui::buffer::Buffer) {
    use applyscope::app::{App, EditOptions, List, Message};
    let list = List::new("bench".into(), items, EditOptions::default());
    let mut app = App::Many(Box::new(list));
    app.update(Message::Resized {
        width: 160,
        height: 50,
    });
    let area = ratatui::layout::Rect::new(0, 0, 160, 50);
    let mut buf = ratatui::buffer::Buffer::empty(area);
    let theme = applyscope::theme::Theme::colour();
    applyscope::ui::render_app(&app, &theme, area, &mut buf);
    (app, buf)
}

#[divan::bench(sample_count = 10)]
fn list_first_frame(bencher: divan::Bencher) {
    let (local, live) = inputs();
    bencher.bench(|| first_frame(applyscope::session::open::plan_items(pairs(&local, &live))));
}

#[divan::bench(sample_count = 10)]
fn list_build_and_draw(bencher: divan::Bencher) {
    let (local, live) = inputs();
    bencher
        .with_inputs(|| applyscope::session::open::plan_items(pairs(&local, &live)))
        .bench_values(first_frame);
}
