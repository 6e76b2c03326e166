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
