//! TUI benchmarks (TestBackend-sized buffer, no terminal): the first frame of an object of
//! 1,000 and 100,000 lines (plan + model + render), and key press → rendered frame, in the
//! client-side view and in the server-side view of a Deployment made by client-side apply
//! (626 and 6,256 containers: about 48,000 and 481,000 fields of the server-side plan).
//!
//! `cargo bench --bench tui`

use applyscope::app::{Command, Message, Model, Source, update};
use applyscope::engine::plan::encode_annotation;
use applyscope::engine::ssa::request::Request;
use applyscope::json;
use applyscope::session::Docs;
use applyscope::theme::Theme;
use applyscope::ui;
use applyscope::value::{Map, Value};
use divan::Bencher;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

/// The binary's allocator (`src/main.rs`), so the bench measures what the binary runs.
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() {
    divan::main();
}

/// A ConfigMap of about `lines` lines: every 100th key changes, every 250th is dropped.
fn source(lines: usize) -> Source {
    let data = |f: &dyn Fn(usize) -> Option<String>| -> Value {
        let mut m = Map::new();
        for i in 0..lines {
            if let Some(v) = f(i) {
                m.insert(format!("key-{i:06}"), Value::String(v.into()));
            }
        }
        Value::Object(m)
    };
    let obj = |d: Value| json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "big", "namespace": "default"}, "data": d});
    let last = obj(data(&|i| Some(format!("value {i}"))));
    let local = obj(data(&|i| {
        (i % 250 != 0).then(|| {
            if i % 100 == 0 {
                format!("changed {i}")
            } else {
                format!("value {i}")
            }
        })
    }));
    Source {
        title: format!("{lines} lines"),
        about: String::new(),
        docs: Docs {
            local,
            live: Some(last.clone()),
            last_applied: Some(last),
        },
    }
}

fn frame(model: &Model, theme: &Theme) -> Buffer {
    let area = Rect::new(0, 0, 160, 50);
    let mut buf = Buffer::empty(area);
    ui::render(model, theme, area, &mut buf);
    buf
}

/// Plan, model and the first frame. The model is returned, so freeing it (not part of showing
/// the first frame) happens outside the timing.
#[divan::bench(args = [1_000, 100_000], sample_count = 10)]
fn first_frame(bencher: Bencher, lines: usize) {
    let theme = Theme::default();
    bencher.with_inputs(|| source(lines)).bench_values(|s| {
        let model = Model::new(s).ok()?;
        let buf = frame(&model, &theme);
        Some((model, buf))
    });
}

#[divan::bench(args = [1_000, 100_000], sample_count = 10)]
fn model_and_frame_without_plan(bencher: Bencher, lines: usize) {
    let theme = Theme::default();
    let s = source(lines);
    let plan = applyscope::session::plan::compute(&s.docs, None, true).ok();
    bencher
        .with_inputs(|| (source(lines), plan.clone()))
        .bench_values(|(s, plan)| {
            let model = Model::with_plan(s, plan?);
            let buf = frame(&model, &theme);
            Some((model, buf))
        });
}

#[divan::bench(args = [1_000, 100_000])]
fn key_to_frame(bencher: Bencher, lines: usize) {
    let Ok(mut model) = Model::new(source(lines)) else {
        return;
    };
    resize(&mut model);
    keys_to_frames(bencher, &mut model);
}

/// The terminal the frames are drawn in (160×50).
fn resize(model: &mut Model) {
    update(
        model,
        Message::Resized {
            width: 160,
            height: 50,
        },
    );
}

/// Key press → rendered frame, the keys alternating `n` and down so that the cursor keeps
/// moving across the object.
fn keys_to_frames(bencher: Bencher, model: &mut Model) {
    let theme = Theme::default();
    let mut down = true;
    bencher.bench_local(|| {
        let m = if down {
            Message::NextChange
        } else {
            Message::Down
        };
        down = !down;
        update(model, m);
        frame(model, &theme)
    });
}

/// A Deployment of `n` containers of 20 env vars, made by client-side apply (the annotation,
/// every field owned by `kubectl-client-side-apply`), and the file applied now (replicas, an
/// image in every 50th container, the last container dropped), as `benches/ssa.rs` builds it.
fn migrated(n: usize) -> Option<Source> {
    let container = |i: usize, image: &str| {
        let env: Vec<Value> = (0..20)
            .map(|e| json!({"name": format!("VAR_{e}"), "value": format!("value-{i}-{e}")}))
            .collect();
        json!({"name": format!("c{i}"), "image": format!("app-{i}:{image}"), "env": env})
    };
    let config = |containers: Vec<Value>, replicas: i64| {
        json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "big", "namespace": "default"},
            "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": "big"}},
                "template": {"metadata": {"labels": {"app": "big"}},
                    "spec": {"containers": containers}}}})
    };
    let original = config((0..n).map(|i| container(i, "1.0")).collect(), 3);
    let local = config(
        (0..n - 1)
            .map(|i| container(i, if i % 50 == 0 { "1.1" } else { "1.0" }))
            .collect(),
        5,
    );
    let mut created = original.clone();
    created["metadata"]["annotations"] = json!({
        "kubectl.kubernetes.io/last-applied-configuration": encode_annotation(&original).ok()
    });
    let req = Request::embedded("apps/v1", "Deployment", "2026-01-01T00:00:00Z")?;
    let live = req
        .update(&Value::Null, &created, "kubectl-client-side-apply")
        .ok()?;
    Some(Source {
        title: format!("{n} containers"),
        about: String::new(),
        docs: Docs {
            local,
            live: Some(live),
            last_applied: Some(original),
        },
    })
}

#[divan::bench(args = [626, 6_256], sample_count = 20)]
fn server_side_key_to_frame(bencher: Bencher, containers: usize) {
    let Some(Ok(mut model)) = migrated(containers).map(Model::new) else {
        return;
    };
    resize(&mut model);
    let commands = update(&mut model, Message::ToggleServerSide);
    let [Command::PlanServerSide(request)] = commands.as_slice() else {
        return;
    };
    let outcome = request.plan("2026-11-26T12:00:00Z");
    update(&mut model, Message::ServerSidePlanned(Box::new(outcome)));
    assert!(model.server.is_some(), "the server-side view is open");
    keys_to_frames(bencher, &mut model);
}
