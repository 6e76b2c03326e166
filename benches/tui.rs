//! TUI benchmarks (TestBackend-sized buffer, no terminal): the first frame of an object of
//! 1,000 and 100,000 lines (plan + model + render), and key press → rendered frame.
//!
//! `cargo bench --bench tui`

use applyscope::app::{Message, Model, Source, update};
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
    let theme = Theme::default();
    let Ok(mut model) = Model::new(source(lines)) else {
        return;
    };
    update(
        &mut model,
        Message::Resized {
            width: 160,
            height: 50,
        },
    );
    let mut down = true;
    bencher.bench_local(|| {
        // Alternate n and N so the cursor keeps moving across the object.
        let m = if down {
            Message::NextChange
        } else {
            Message::Down
        };
        down = !down;
        update(&mut model, m);
        frame(&model, &theme)
    });
}
