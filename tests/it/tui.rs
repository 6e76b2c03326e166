//! TUI: key scripts through the real keymap and `update` (no terminal), whole-screen text
//! snapshots (gutter glyphs show every action without colour), one style snapshot, the
//! secret/escape guarantees, and a tmux smoke test of the real binary.

use applyscope::app::keys::BINDINGS;
use applyscope::app::{App, Message, Mode, ModeKind, Model, PaneKind, Source};
use applyscope::engine::plan::Action;
use applyscope::examples::EXAMPLES;
use applyscope::keymap;
use applyscope::session::Docs;

use crate::tui_support::Harness;

const NGINX: &str = "nginx-scale-image";

fn doc(yaml: &str) -> applyscope::value::Value {
    applyscope::document::parse_documents(yaml, "t.yaml")
        .unwrap()
        .remove(0)
        .value
}

fn harness_of(last_applied: Option<&str>, local: &str, live: Option<&str>) -> Harness {
    let source = Source {
        title: "test".into(),
        about: String::new(),
        docs: Docs {
            local: doc(local),
            live: live.map(doc),
            last_applied: last_applied.map(doc),
        },
    };
    Harness::of(Model::new(source).unwrap())
}

fn field_action(h: &Harness) -> Action {
    h.model
        .plan
        .nth_field(h.model.current_field().unwrap())
        .unwrap()
        .action
}

// ---- key scripts ------------------------------------------------------------------------

#[test]
fn moving_selects_fields_in_plan_order() {
    let mut h = Harness::example(NGINX);
    assert_eq!(h.path(), "apiVersion");
    h.press("j");
    assert_eq!(h.path(), "kind");
    h.press("<Down> <Down>");
    assert_eq!(h.path(), "metadata.name");
    h.press("k <Up>");
    assert_eq!(h.path(), "kind");
    h.press("G");
    let last = h.model.nav.len() - 1;
    assert_eq!(h.model.cursor, last);
    h.press("g");
    assert_eq!(h.model.cursor, 0);
    h.press("<End>");
    assert_eq!(h.model.cursor, last);
    h.press("<Home> <PageDown>");
    let page = h.model.page() as usize;
    assert_eq!(h.model.cursor, page.min(last));
    h.press("<PageUp>");
    assert_eq!(h.model.cursor, 0);
    h.press("<C-d>");
    assert_eq!(h.model.cursor, page.min(last));
    h.press("<C-u> k");
    assert_eq!(h.model.cursor, 0, "stays at the top");
}

#[test]
fn n_and_shift_n_visit_the_changes() {
    let mut h = Harness::example(NGINX);
    let mut seen = Vec::new();
    for _ in 0..4 {
        h.press("n");
        assert!(field_action(&h).is_change(), "{}", h.path());
        seen.push(h.path());
    }
    assert!(
        seen.contains(&"spec.minReadySeconds".to_owned()),
        "{seen:?}"
    );
    assert!(
        seen.contains(&"spec.template.spec.containers[name=nginx].image".to_owned()),
        "{seen:?}"
    );
    let here = h.path();
    h.press("n N");
    assert_eq!(h.path(), here);
}

#[test]
fn tab_changes_the_focused_pane() {
    let mut h = Harness::example(NGINX);
    assert_eq!(h.model.panes[h.model.focus].kind, PaneKind::Result);
    h.press("<Tab>");
    assert_eq!(h.model.panes[h.model.focus].kind, PaneKind::LastApplied);
    h.press("<S-Tab> <S-Tab>");
    assert_eq!(h.model.panes[h.model.focus].kind, PaneKind::Live);
}

/// The runtime sends `Idle` while no key waits: the patch view's documents are written then,
/// so `p` finds them ready; nothing on screen changes, not even a notice.
#[test]
fn idle_prepares_the_patch_view_and_changes_nothing_shown() {
    let mut app = App::One(Box::new(Harness::example(NGINX).model));
    assert!(app.has_idle_work());
    assert!(app.update(Message::Idle).is_empty());
    assert!(!app.has_idle_work());

    let mut h = Harness::example(NGINX);
    h.press("j x");
    assert!(h.model.notice.is_some());
    let before = h.text();
    assert!(h.model.patches.is_none());
    h.send(Message::Idle);
    assert!(h.model.patches.is_some());
    assert_eq!(h.text(), before);
    let prepared = h.model.patches.clone();
    h.press("p");
    assert_eq!(h.model.patches, prepared);
    // Revealing secrets writes them again (unmasked), on the next idle moment.
    h.press("p s");
    assert!(h.model.patches.is_none());
}

/// A large object (its annotation past 1 MB) writes no patch view ahead: `p` writes it; the
/// JSON Patch tab, on any object, waits until it is shown.
#[test]
fn a_large_object_writes_its_patch_view_on_p_and_the_json_patch_when_shown() {
    let mut data = applyscope::value::Map::new();
    for i in 0..40_000 {
        data.insert(
            format!("key-{i:06}"),
            format!("value {i} abcdefghij").into(),
        );
    }
    let local = applyscope::json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "big"}, "data": applyscope::value::Value::Object(data)});
    let source = Source {
        title: "big".into(),
        about: String::new(),
        docs: Docs {
            local: local.clone(),
            live: Some(local.clone()),
            last_applied: Some(local),
        },
    };
    let mut h = Harness::of(Model::new(source).unwrap());
    assert!(h.model.plan.is_large());
    assert!(!h.model.has_idle_work());
    h.send(Message::Idle);
    assert!(h.model.patches.is_none());
    h.press("p");
    let pending = |h: &Harness| h.model.patches.as_ref().unwrap()[1].pending;
    assert!(pending(&h), "the JSON Patch tab waits");
    h.press("<Tab>");
    assert!(!pending(&h));
    assert!(h.text().contains("RFC 6902"));
}

#[test]
fn toggles_why_patch_secrets_help_legend() {
    let mut h = Harness::example(NGINX);
    assert!(h.model.why);
    h.press("w");
    assert!(!h.model.why);
    h.press("p");
    assert_eq!(h.model.mode.kind(), ModeKind::Patch);
    h.press("<Tab> <Right>");
    assert!(matches!(h.model.mode, Mode::Patch(p) if p.tab == 2));
    h.press("<S-Tab> <Left> j j <Down> k <Up> <PageDown> <PageUp> G g");
    assert!(matches!(h.model.mode, Mode::Patch(p) if p.tab == 0 && p.scroll == 0));
    h.press("? <Esc>");
    assert_eq!(
        h.model.mode.kind(),
        ModeKind::Patch,
        "help returns to the patch view"
    );
    h.press("p");
    assert_eq!(h.model.mode, Mode::Browse);
    h.press("p <Esc>");
    assert_eq!(h.model.mode, Mode::Browse);
    h.press("s");
    assert!(h.model.reveal);
    h.press("s");
    assert!(!h.model.reveal);
    h.press("? j <Down> k <Up> ?");
    assert_eq!(h.model.mode, Mode::Browse);
    h.press("? q");
    assert_eq!(h.model.mode, Mode::Browse);
    assert!(!h.quit_requested(), "q closes help");
    h.press("? <Esc> l");
    assert_eq!(h.model.mode, Mode::Legend);
    h.press("l l <Esc> l q");
    assert_eq!(h.model.mode, Mode::Browse);
    assert!(!h.quit_requested());
}

#[test]
fn quit_keys() {
    for script in ["q", "<Esc>", "<C-c>", "p q", "! q"] {
        let mut h = Harness::example("probe-handler-no-annotation");
        h.press(script);
        assert!(h.quit_requested(), "{script}");
    }
}

#[test]
fn search_goes_to_matching_paths_and_values() {
    let mut h = Harness::example(NGINX);
    h.press("/ i m a g e");
    assert_eq!(h.model.mode.kind(), ModeKind::Search);
    assert!(h.path().ends_with(".image"), "{}", h.path());
    h.press("<BS> <BS> <BS> <BS> <BS>");
    assert_eq!(h.model.cursor, 0, "an empty query goes back");
    h.press("1 . 1 1");
    assert!(
        h.path().ends_with(".image"),
        "values match too: {}",
        h.path()
    );
    h.press("<Enter>");
    assert_eq!(h.model.mode, Mode::Browse);
    assert!(h.model.notice.as_deref().unwrap().starts_with("match 1 of"));
    h.press("/ n g i n x <Down> <C-n> <Up> <C-p>");
    let at = h.path();
    h.press("<Esc>");
    assert!(at.contains("nginx") || at.starts_with("spec"), "{at}");
    assert!(h.path().ends_with(".image"), "Esc restores the cursor");
    h.press("/ z z z q <Enter>");
    assert_eq!(h.model.notice.as_deref(), Some("no match for \"zzzq\""));
    h.press("/ x <C-c>");
    assert_eq!(h.model.mode, Mode::Browse);
}

#[test]
fn fold_hides_a_subtree_in_every_pane() {
    let mut h = Harness::example(NGINX);
    h.press("/ s p e c <Enter>");
    assert_eq!(h.path(), "spec");
    let before = h.model.nav.len();
    let lines: Vec<usize> = h.model.panes.iter().map(|p| p.visible.len()).collect();
    h.press("z");
    assert!(h.model.nav.len() < before);
    assert_eq!(h.path(), "spec");
    for (p, n) in h.model.panes.iter().zip(lines) {
        assert!(p.visible.len() < n || n == 0, "{:?}", p.kind);
    }
    assert!(h.text().contains("spec: …"));
    h.press("z");
    assert_eq!(h.model.nav.len(), before);
    h.press("g z");
    assert_eq!(h.model.notice.as_deref(), Some("nothing to fold here"));
}

#[test]
fn warnings_list_jumps_to_the_field() {
    let mut h = Harness::example("probe-handler-no-annotation");
    h.press("!");
    assert_eq!(h.model.mode, Mode::Warnings(0));
    h.press("j <Down> k <Up> j");
    let Mode::Warnings(i) = h.model.mode else {
        panic!()
    };
    let target = h.model.plan.warnings[i].path.clone().unwrap();
    h.press("<Enter>");
    assert_eq!(h.path(), target);
    assert!(h.model.why);
    h.press("! ! ! <Esc>");
    assert_eq!(h.model.mode, Mode::Browse);
    let mut quiet = Harness::example(NGINX);
    quiet.press("!");
    assert_eq!(quiet.model.mode, Mode::Browse);
    assert_eq!(quiet.model.notice.as_deref(), Some("no warnings"));
}

#[test]
fn every_binding_is_exercised_by_a_script_above() {
    // The scripts above press every key notation of the table at least once; this guards the
    // table itself: every binding resolves to its own message.
    for b in BINDINGS {
        let key = keymap::parse_key(b.key).unwrap();
        assert_eq!(
            keymap::resolve(b.mode, key),
            Some(b.message.clone()),
            "{}",
            b.key
        );
    }
}

#[test]
fn mouse_click_selects_the_line() {
    let mut h = Harness::example(NGINX);
    h.resize(140, 40);
    let area = ratatui::layout::Rect::new(0, 0, 140, 40);
    // Row 3 is the second line of the first pane (header, border, line 1, line 2).
    let msg = applyscope::ui::click(&h.model, area, 5, 3).unwrap();
    assert_eq!(msg, Message::Select { pane: 0, field: 1 });
    h.send(msg);
    assert_eq!(h.path(), "kind");
    assert_eq!(h.model.focus, 0);
}

// ---- guarantees -----------------------------------------------------------------------------

const SECRET_LAST: &str =
    "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\ndata:\n  same: YQ==\n  old: Yg==\n";
const SECRET_LOCAL: &str =
    "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\ndata:\n  same: YQ==\n  old: Yw==\n";

#[test]
fn secrets_are_masked_until_revealed() {
    let live = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  namespace: default\ndata:\n  same: YQ==\n  old: Yg==\n";
    let mut h = harness_of(Some(SECRET_LAST), SECRET_LOCAL, Some(live));
    h.resize(140, 30);
    let screen = h.text();
    for secret in ["YQ==", "Yg==", "Yw=="] {
        assert!(!screen.contains(secret), "{secret} shown:\n{screen}");
    }
    assert!(screen.contains("same: ***"), "{screen}");
    assert!(screen.contains("old: *** (before)"), "{screen}");
    assert!(screen.contains("old: *** (after)"), "{screen}");
    h.press("p");
    let patch = h.text();
    assert!(!patch.contains("Yw=="), "{patch}");
    h.press("<Tab>");
    assert!(!h.text().contains("Yw=="));
    h.press("<Esc> s");
    assert!(h.text().contains("Yw=="), "s reveals");
    h.press("p");
    assert!(h.text().contains("Yw=="), "and in the patch view");
}

#[test]
fn control_characters_cannot_reach_the_terminal() {
    let local = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  evil: \"\\e]0;pwned\\a\\e[2J x\\u202Ey\"\n  \"k\\e[31m\": v\n";
    let mut h = harness_of(None, local, None);
    for keys in ["", "G", "p", "<Tab>"] {
        h.press(keys);
        let buf = h.buffer();
        for cell in buf.content() {
            assert!(
                !cell.symbol().chars().any(applyscope::app::yaml::is_unsafe),
                "{:?} after {keys:?}",
                cell.symbol()
            );
        }
    }
    h.press("<Esc> g");
    let text = h.text();
    assert!(
        text.contains("\\e]0;pwned\\u{7}\\e[2J x\\u{202e}y"),
        "{text}"
    );
}

#[test]
fn tiny_and_huge_terminals_do_not_panic() {
    let mut h = Harness::example(NGINX);
    for (w, hh) in [
        (1, 1),
        (19, 5),
        (20, 6),
        (30, 8),
        (119, 30),
        (120, 30),
        (300, 100),
    ] {
        h.resize(w, hh);
        for keys in ["", "p", "<Esc> ?", "<Esc> l", "<Esc> w", "w /", "<Esc>"] {
            h.press(keys);
            let _ = h.buffer();
        }
    }
}

#[test]
fn view_through_a_frame_draws_what_render_draws() {
    let mut h = Harness::example(NGINX);
    h.press("n");
    assert_eq!(h.terminal().backend().buffer(), &h.buffer());
}

// ---- snapshots ------------------------------------------------------------------------------

#[test]
fn snapshot_every_example() {
    for example in EXAMPLES {
        let mut h = Harness::example(example.name);
        h.press("n");
        insta::assert_snapshot!(format!("example_{}_100x30", example.name), h.text());
        h.resize(60, 20);
        insta::assert_snapshot!(format!("example_{}_60x20", example.name), h.text());
    }
}

/// The help box says which lines it shows, and scrolling stops at the last line.
#[test]
fn help_scrolls_to_its_end_and_says_where_it_is() {
    let mut h = Harness::example(NGINX);
    h.resize(60, 20);
    h.press("?");
    let total = applyscope::app::keys::help_len();
    assert!(total > 16, "help fits: nothing to scroll");
    let first_page = h.text();
    assert!(
        first_page.contains(&format!("1–16 of {total} ↓")),
        "{first_page}"
    );
    for _ in 0..total + 10 {
        h.press("j");
    }
    let end = h.text();
    let first = total - 16 + 1;
    assert!(
        end.contains(&format!("{first}–{total} of {total}")),
        "{end}"
    );
    assert!(!end.contains(&format!("of {total} ↓")), "{end}");
    // One step back up is one line up: no hidden overscroll to climb out of.
    h.press("k");
    assert!(
        h.text()
            .contains(&format!("{}–{} of {total} ↓", first - 1, total - 1))
    );
}

/// However short the why panel, the row of the merge table that applied is on screen.
#[test]
fn the_deciding_row_shows_in_a_short_why_panel() {
    for example in EXAMPLES {
        let mut h = Harness::example(example.name);
        h.resize(60, 20);
        for _ in 0..6 {
            h.press("n");
            // Every field has a deciding row (the tables are the engine's data).
            if h.model.current_field().is_some() {
                let text = h.text();
                assert!(text.contains('▶'), "{}:\n{text}", example.name);
            }
        }
    }
}

fn scenes() -> Vec<(&'static str, &'static str, &'static str)> {
    vec![
        ("help", NGINX, "?"),
        ("legend", NGINX, "l"),
        ("why_clear", NGINX, "/ m i n R e a d y <Enter>"),
        (
            "why_list_element",
            "containers-merged-by-name",
            "/ h e l p e r - a <Enter>",
        ),
        ("patch_smp", NGINX, "p"),
        ("patch_json_patch", NGINX, "p <Tab>"),
        ("patch_deletions", NGINX, "p <Tab> <Tab>"),
        ("patch_delta", NGINX, "p <Tab> <Tab> <Tab>"),
        ("patch_merge_cr", "widget-list-replaced", "p"),
        ("warnings", "probe-handler-no-annotation", "!"),
        ("warning_jump", "probe-handler-no-annotation", "! j <Enter>"),
        ("search", NGINX, "/ r e p l"),
        ("fold", NGINX, "/ s p e c <Enter> z"),
        ("no_why", NGINX, "w n n"),
        (
            "edit_drop",
            "hpa-handover",
            "/ s p e c . r e p l i c a s <Enter> x",
        ),
        (
            "edit_marked",
            "hpa-handover",
            "/ s p e c . r e p l i c a s <Enter> x j",
        ),
        (
            "edit_commit",
            "hpa-handover",
            "/ s p e c . r e p l i c a s <Enter> x W",
        ),
        (
            "edit_annotation",
            "hpa-handover",
            "/ s p e c . r e p l i c a s <Enter> x A",
        ),
    ]
}

#[test]
fn snapshot_scenes() {
    for (name, example, keys) in scenes() {
        let mut h = Harness::example(example);
        h.press(keys);
        insta::assert_snapshot!(format!("scene_{name}_100x30"), h.text());
        h.resize(60, 20);
        insta::assert_snapshot!(format!("scene_{name}_60x20"), h.text());
    }
}

#[test]
fn snapshot_styles_of_the_legend_and_a_change() {
    let mut h = Harness::example(NGINX);
    h.resize(100, 14);
    h.press("w n n");
    insta::assert_debug_snapshot!("styles_panes_100x14", h.buffer());
    h.press("l");
    insta::assert_debug_snapshot!("styles_legend_100x14", h.buffer());
}

#[test]
fn no_color_theme_has_no_colours() {
    let mut h = Harness::example(NGINX);
    h.theme = applyscope::theme::Theme::monochrome();
    h.press("n l");
    for cell in h.buffer().content() {
        assert_eq!(cell.fg, ratatui::style::Color::Reset);
        assert_eq!(cell.bg, ratatui::style::Color::Reset);
    }
}

// ---- the real binary ------------------------------------------------------------------------

#[test]
fn smoke_tmux_real_binary() {
    let bin = env!("CARGO_BIN_EXE_applyscope");
    let Some(tui) =
        crate::tmux::Session::start("smoke", &format!("{bin} --example {NGINX}"), 120, 40)
    else {
        return;
    };
    tui.wait_for("last-applied");
    tui.keys(&["j", "j", "n"]);
    tui.wait_for("why: ");
    tui.keys(&["?"]);
    tui.wait_for("help: keys");
    tui.keys(&["Escape"]);
    std::thread::sleep(std::time::Duration::from_millis(300));
    tui.keys(&["q"]);
    let (status, stty) = tui.exit();
    assert_eq!(status, 0);
    crate::tmux::assert_cooked(&stty);
}
