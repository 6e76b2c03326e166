//! `screenshots/*.svg`: the real rendering of a few scenes. Stale images fail this test;
//! `UPDATE_SCREENSHOTS=1 cargo test --test it screenshots` rewrites them.

use std::path::PathBuf;

use crate::list_screen::ListHarness;
use crate::tui_support::Harness;
use crate::tui_svg::to_svg;

/// (file, example, keys, width, height)
const SCENES: &[(&str, &str, &str, u16, u16)] = &[
    (
        "overview",
        "nginx-scale-image",
        "/ i m a g e <Enter>",
        140,
        36,
    ),
    (
        "why-list-element",
        "containers-merged-by-name",
        "/ h e l p e r - a <Enter>",
        140,
        36,
    ),
    ("patch-view", "nginx-scale-image", "p", 120, 24),
    ("warnings", "probe-handler-no-annotation", "!", 120, 24),
    ("narrow", "nginx-scale-image", "n n", 80, 24),
    ("legend", "nginx-scale-image", "l", 120, 24),
    (
        "edit-drop",
        "hpa-handover",
        "/ s p e c . r e p l i c a s <Enter> x k",
        140,
        36,
    ),
    (
        "edit-commit",
        "hpa-handover",
        "/ s p e c . r e p l i c a s <Enter> x W",
        140,
        36,
    ),
];

#[test]
fn screenshots_are_fresh() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("screenshots");
    let update = std::env::var_os("UPDATE_SCREENSHOTS").is_some_and(|v| v == "1");
    let mut stale = Vec::new();
    let mut scenes = Vec::new();
    for (name, example, keys, w, h) in SCENES {
        let mut harness = Harness::example(example);
        if name.starts_with("edit-") {
            // As if run with `--write-last-applied hpa-last-applied.yaml` (a file not there yet).
            harness.model.edit.options.write_last_applied = Some("hpa-last-applied.yaml".into());
        }
        harness.resize(*w, *h).press(keys);
        scenes.push((name.to_string(), harness.buffer()));
    }
    // Server-side apply (`-f assets/ssa/autoscaled/local.yaml --live …/live.yaml`, `S`): the
    // pruned env var of the client-side object's migration, with owners and kubectl's requests.
    let mut ssa = crate::tui_ssa::autoscaled(140, 40);
    ssa.press("S");
    crate::tui_ssa::run_plans(&mut ssa);
    crate::tui_ssa::select(&mut ssa, "env[name=DEBUG]");
    scenes.push(("server-side".into(), ssa.buffer()));
    // The owners column of the client-side plan (`o`) at 120 columns, on the autoscaled field.
    let mut owners = crate::tui_ssa::autoscaled(120, 32);
    owners.press("o");
    crate::tui_ssa::select(&mut owners, "spec.replicas");
    scenes.push(("owners".into(), owners.buffer()));
    // The object list (`-f assets/apps/shop/local --live assets/apps/shop/live`).
    let mut list = ListHarness::shop();
    list.resize(140, 30).press("j j");
    scenes.push(("list".into(), list.buffer()));
    scenes.push(("loading".into(), loading_screen(120, 16)));
    for (name, buffer) in scenes {
        let svg = to_svg(&buffer);
        let path = dir.join(format!("{name}.svg"));
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &svg).unwrap();
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(svg.as_str()) {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "stale screenshots: {stale:?}\nrun: UPDATE_SCREENSHOTS=1 cargo test --test it screenshots"
    );
}

/// The screen while the GET of the live object hangs, 4 s in
/// (`applyscope -f web.yaml` against a slow API server).
fn loading_screen(width: u16, height: u16) -> ratatui::buffer::Buffer {
    use applyscope::app::{App, Loading, Message, Waiting};
    use applyscope::cluster::Activity;
    use applyscope::session::progress::Event;
    use std::time::{Duration, Instant};
    let t0 = Instant::now();
    let at = |ms| t0 + Duration::from_millis(ms);
    let mut app = App::Loading(Box::new(Loading::new(
        "web.yaml".into(),
        Waiting::since(t0),
    )));
    app.update(Message::Resized { width, height });
    let server = "https://10.0.0.1:6443";
    for (event, ms) in [
        (Event::Step("reading web.yaml".into()), 0),
        (
            Event::Request(Activity::Sent {
                id: 0,
                what: "discovery apps/v1".into(),
            }),
            10,
        ),
        (Event::Request(Activity::Ended { id: 0 }), 60),
        (
            Event::Request(Activity::Sent {
                id: 1,
                what: format!("reading deployments.apps/web from {server}"),
            }),
            70,
        ),
    ] {
        app.update(Message::Report {
            event: Box::new(event),
            at: at(ms),
        });
    }
    app.update(Message::Tick(at(4_230)));
    let area = ratatui::layout::Rect::new(0, 0, width, height);
    let mut buf = ratatui::buffer::Buffer::empty(area);
    applyscope::ui::render_app(&app, &applyscope::theme::Theme::colour(), area, &mut buf);
    buf
}
