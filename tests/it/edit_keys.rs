//! Editing last-applied in the TUI (issue 5): key scripts for drop (`x`), adopt (`a`) and the
//! editor (`e`, driven through `EditorDone` messages), undo/redo chains, the annotation bytes,
//! the plan against the CLI's and kubectl's (case 88), and commits to files through the
//! runtime's own file code (`tui::perform`): happy path, refusal when the file changed on
//! disk, reload, `--dry-run`, `--read-only`, `--write-last-applied`. A fake `$EDITOR` runs the
//! real binary under tmux for the invalid-then-valid loop and for cancel.

use std::path::{Path, PathBuf};
use std::process::Command as Process;

use applyscope::app::editor::HEADER;
use applyscope::app::{Command, Docs, EditOptions, Message, Mode, ModeKind};
use applyscope::engine::plan::{Action, LAST_APPLIED, encode_annotation};
use applyscope::value::Value;

use crate::tui_support::Harness;

const HPA: &str = "hpa-handover";

fn cases() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases")
}

fn expected(case: &str) -> Value {
    let text = std::fs::read_to_string(cases().join(case).join("expected.json")).unwrap();
    applyscope::engine::smp::parse_json(&text).unwrap()
}

/// Select a plan field by its path text.
fn select(h: &mut Harness, path: &str) {
    let steps: applyscope::engine::plan::FieldPath = path.parse().unwrap();
    let id = h
        .model
        .plan
        .tree
        .find(&steps.0)
        .unwrap_or_else(|| panic!("no path {path}"));
    let field = h.model.field_of_path(id).unwrap();
    let pane = h.model.focus;
    h.send(Message::Select { pane, field });
    assert_eq!(h.path(), path);
}

fn last_applied(h: &Harness) -> Value {
    h.model.plan.last_applied.clone().unwrap()
}

fn action(h: &Harness, path: &str) -> Action {
    let steps: applyscope::engine::plan::FieldPath = path.parse().unwrap();
    let tree = &h.model.plan.tree;
    tree.action(
        tree.find(&steps.0)
            .unwrap_or_else(|| panic!("no field {path}")),
    )
}

fn notice(h: &Harness) -> String {
    h.model.notice.clone().unwrap_or_default()
}

/// Run the commands `update` returned through the runtime's file code, feeding the reports
/// back; returns how many ran.
fn perform(h: &mut Harness) -> usize {
    let commands = std::mem::take(&mut h.commands);
    let n = commands.len();
    for c in commands {
        let report = h.effects.perform(&c).expect("a file command");
        h.send(report);
    }
    n
}

/// The TUI opened on `args` as the CLI opens it, with `options`: the command line's request,
/// the session's open (each file read once), the runtime's screen.
fn open_as_cli(args: &[String], options: EditOptions) -> Harness {
    let cli = <applyscope::cli::Cli as clap::Parser>::try_parse_from(args).unwrap();
    let mut request = cli.open.request().unwrap();
    request.options = options;
    let open = applyscope::session::open::open(&request).unwrap();
    let (app, _) = applyscope::tui::app_of(open).unwrap();
    let applyscope::app::App::One(model) = app else {
        panic!("one object")
    };
    Harness::of(*model)
}

/// The TUI opened on files in `dir` (`-f local.yaml --live live.yaml`), as the CLI opens it.
fn open_files(dir: &Path, local: &str, live: &str, options: EditOptions) -> Harness {
    std::fs::write(dir.join("local.yaml"), local).unwrap();
    std::fs::write(dir.join("live.yaml"), live).unwrap();
    let path = |name: &str| dir.join(name).display().to_string();
    let args = [
        "applyscope".to_owned(),
        "-f".to_owned(),
        path("local.yaml"),
        "--live".to_owned(),
        path("live.yaml"),
    ];
    open_as_cli(&args, options)
}

/// Case 03 (replicas in last-applied, gone from the file, live scaled to 5) as files: the live
/// object as YAML with a comment, so a rewrite must keep other bytes.
fn case_03_files(dir: &Path, options: EditOptions) -> (Harness, String) {
    let case = cases().join("03-deploy-replicas-removed-cleared");
    let local = std::fs::read_to_string(case.join("modified.yaml")).unwrap();
    let live = format!(
        "# kubectl get deploy worker -o yaml\n{}",
        applyscope::engine::jsonmerge::to_yaml(
            &expected("03-deploy-replicas-removed-cleared")["live"]
        )
    );
    (open_files(dir, &local, &live, options), live)
}

/// The open reads each file once: the digest a commit checks is the digest of the bytes it
/// parsed (the live file's, or `--write-last-applied`'s file's, read with the documents); the
/// bytes themselves are not kept.
#[test]
fn the_open_keeps_the_digest_of_the_file_a_commit_writes() {
    use applyscope::fsutil::FileDigest;
    let dir = tempfile::tempdir().unwrap();
    let (h, live) = case_03_files(dir.path(), EditOptions::default());
    assert_eq!(
        h.model.edit.target_digest,
        Some(FileDigest::of(live.as_bytes()))
    );
    let out = dir.path().join("last-applied.yaml");
    std::fs::write(&out, "a: 1\n").unwrap();
    let other = tempfile::tempdir().unwrap();
    let options = EditOptions {
        write_last_applied: Some(out.clone()),
        ..EditOptions::default()
    };
    let (h, _) = case_03_files(other.path(), options);
    assert_eq!(h.model.edit.target_digest, Some(FileDigest::of(b"a: 1\n")));
    assert_ne!(h.model.edit.target_digest, Some(FileDigest::of(b"a: 2\n")));
}

fn annotation_in(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let v = applyscope::document::parse_documents(&text, "f")
        .unwrap()
        .remove(0)
        .value;
    v["metadata"]["annotations"][LAST_APPLIED]
        .as_str()
        .unwrap()
        .to_owned()
}

// ---- x: drop ------------------------------------------------------------------------------

#[test]
fn x_drops_replicas_and_the_plan_is_recomputed_keeping_the_view() {
    let mut h = Harness::example(HPA);
    select(&mut h, "spec.replicas");
    h.press("w <Tab>");
    let focus = h.model.focus;
    assert_eq!(action(&h, "spec.replicas"), Action::Set);
    let committed = last_applied(&h).pointer("/spec/replicas").unwrap().clone();
    assert_eq!(applyscope::app::edit::edit_note(&h.model), None);
    h.press("x");
    assert!(
        notice(&h).starts_with("dropped spec.replicas from last-applied"),
        "{}",
        notice(&h)
    );
    assert!(last_applied(&h).pointer("/spec/replicas").is_none());
    assert!(h.model.edits_pending());
    // The committed document is what the plan held before the edit (taken over, not copied).
    assert_eq!(
        applyscope::app::edit::edit_note(&h.model).as_deref(),
        Some(
            format!("last-applied edited here (not committed): was {committed}, now absent")
                .as_str()
        )
    );
    let edited: Vec<String> = h
        .model
        .edited
        .iter()
        .map(|id| h.model.plan.path(*id).to_string())
        .collect();
    assert_eq!(edited, ["spec.replicas"]);
    // The view is kept: cursor, focus, why panel.
    assert_eq!(h.path(), "spec.replicas");
    assert_eq!(h.model.focus, focus);
    assert!(!h.model.why);
    // The file still sets 3: the apply still sets it.
    assert_eq!(action(&h, "spec.replicas"), Action::Set);
    // Marked until committed: the pane title, a gutter mark, the status bar.
    h.resize(140, 36).press("w");
    let screen = h.text();
    assert!(screen.contains("last-applied * edited"), "{screen}");
    assert!(screen.contains("*~ spec:"), "{screen}");
    h.send(Message::Resized {
        width: 140,
        height: 36,
    });
    assert!(h.text().contains("* 1 field edited"), "{}", h.text());
    // Dropping again: nothing there.
    h.press("x");
    assert!(notice(&h).contains("not in last-applied"), "{}", notice(&h));
}

#[test]
fn after_x_and_the_file_change_the_plan_retains_live_replicas_as_the_cli_plans_it() {
    let mut h = Harness::example(HPA);
    select(&mut h, "spec.replicas");
    h.press("x");
    // The recipe's second step: replicas leaves the file.
    let mut docs: Docs = h.model.full_docs();
    docs.local["spec"]
        .as_object_mut()
        .unwrap()
        .shift_remove("replicas");
    h.model.replan(docs.clone()).unwrap();
    assert_eq!(action(&h, "spec.replicas"), Action::Retain);
    assert_eq!(h.model.plan.result["spec"]["replicas"], 7);
    assert!(h.model.edits_pending(), "still uncommitted");

    // The CLI, given the same documents and the edited last-applied, plans the same.
    let dir = tempfile::tempdir().unwrap();
    // JSON keeps each document's key order, which the plan's field order follows.
    let write = |name: &str, v: &Value| {
        let p = dir.path().join(name);
        std::fs::write(&p, serde_json::to_string_pretty(v).unwrap()).unwrap();
        p
    };
    let local = write("local.json", &docs.local);
    let live = write("live.json", docs.live.as_ref().unwrap());
    let la = write("la.json", &last_applied(&h));
    let out = Process::new(env!("CARGO_BIN_EXE_applyscope"))
        .args(["plan", "-o", "json", "--local"])
        .arg(&local)
        .arg("--live")
        .arg(&live)
        .arg("--last-applied")
        .arg(&la)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let ours =
        applyscope::cli::plan::render(&h.model.plan, applyscope::cli::plan::Format::Json).unwrap();
    pretty_assertions::assert_eq!(String::from_utf8(out.stdout).unwrap(), ours);
}

#[test]
fn x_on_case_03_gives_kubectls_annotation_and_plan_of_case_88() {
    let dir = tempfile::tempdir().unwrap();
    let (mut h, _) = case_03_files(dir.path(), EditOptions::default());
    assert_eq!(action(&h, "spec.replicas"), Action::Clear);
    select(&mut h, "spec.replicas");
    h.press("x");
    let kubectl = expected("88-deploy-replicas-handed-over");
    let want = kubectl["live"]["metadata"]["annotations"][LAST_APPLIED]
        .as_str()
        .unwrap();
    assert_eq!(encode_annotation(&last_applied(&h)).unwrap(), want);
    // kubectl with that annotation sends nothing and keeps the live replicas.
    assert_eq!(h.model.plan.patch, None);
    assert_eq!(h.model.plan.result, kubectl["result"]);
    assert_eq!(action(&h, "spec.replicas"), Action::Retain);
}

// ---- a: adopt -----------------------------------------------------------------------------

#[test]
fn a_adopts_the_live_value_and_u_takes_it_back() {
    let mut h = Harness::example(HPA);
    select(&mut h, "spec.revisionHistoryLimit");
    assert_eq!(action(&h, "spec.revisionHistoryLimit"), Action::Retain);
    h.press("a");
    assert_eq!(last_applied(&h)["spec"]["revisionHistoryLimit"], 10);
    // In last-applied and not in the file: the next apply clears it.
    assert_eq!(action(&h, "spec.revisionHistoryLimit"), Action::Clear);
    assert!(notice(&h).contains("the apply: clear"), "{}", notice(&h));
    h.press("u");
    assert_eq!(action(&h, "spec.revisionHistoryLimit"), Action::Retain);
    assert!(!h.model.edits_pending());
    select(&mut h, "spec.replicas");
    h.press("a");
    assert_eq!(
        last_applied(&h)["spec"]["replicas"],
        7,
        "the live 7 taken over"
    );
}

#[test]
fn edits_need_a_live_object_and_a_field() {
    let mut h = Harness::example("create-service");
    h.press("j x");
    assert!(notice(&h).contains("no live object"), "{}", notice(&h));
    h.press("a e W");
    assert!(h.commands.is_empty());
    let mut h = Harness::example(HPA);
    h.press("g");
    select(&mut h, "apiVersion");
    h.press("a");
    assert!(notice(&h).starts_with("no change"), "{}", notice(&h));
}

// ---- undo / redo --------------------------------------------------------------------------

#[test]
fn undo_redo_chains_are_unlimited_and_a_new_edit_clears_redo() {
    let mut h = Harness::example(HPA);
    let mut states = vec![last_applied(&h)];
    for (path, key) in [
        ("spec.replicas", "x"),
        ("spec.revisionHistoryLimit", "a"),
        ("spec.template.spec.containers[name=web].image", "x"),
        (
            "spec.template.spec.containers[name=web].imagePullPolicy",
            "a",
        ),
    ] {
        select(&mut h, path);
        h.press(key);
        assert_ne!(&last_applied(&h), states.last().unwrap(), "{path}");
        states.push(last_applied(&h));
    }
    assert_eq!(h.model.edit.undo.len(), 4);
    // Undo all.
    for i in (0..4).rev() {
        h.press("u");
        assert_eq!(last_applied(&h), states[i], "undo to {i}");
    }
    assert!(!h.model.edits_pending());
    assert!(h.model.edited.is_empty());
    h.press("u");
    assert_eq!(notice(&h), "nothing to undo");
    // Redo some.
    h.press("<C-r> <C-r>");
    assert_eq!(last_applied(&h), states[2]);
    assert!(
        notice(&h).starts_with("redone: 2 more to redo"),
        "{}",
        notice(&h)
    );
    // A new edit clears what was left to redo.
    select(&mut h, "spec.selector.matchLabels.app");
    h.press("x");
    assert!(h.model.edit.redo.is_empty());
    h.press("<C-r>");
    assert_eq!(notice(&h), "nothing to redo");
    h.press("u");
    assert_eq!(last_applied(&h), states[2]);
    h.press("u u");
    assert_eq!(last_applied(&h), states[0]);
}

// ---- e: the editor, through update ----------------------------------------------------------

fn edit_text(h: &Harness) -> String {
    match h.commands.last() {
        Some(Command::Edit { text }) => text.clone(),
        other => panic!("no editor command: {other:?}"),
    }
}

#[test]
fn e_invalid_reopens_with_the_error_then_valid_applies() {
    let mut h = Harness::example(HPA);
    h.press("e");
    assert_eq!(h.model.mode.kind(), ModeKind::Editor);
    let shown = edit_text(&h);
    assert!(shown.starts_with(HEADER), "{shown}");
    assert!(shown.contains("  replicas: 3\n"), "{shown}");
    // Nothing is bound while the editor runs; not even quit does anything.
    assert_eq!(
        applyscope::keymap::resolve(
            ModeKind::Editor,
            applyscope::keymap::parse_key("q").unwrap()
        ),
        None
    );
    h.send(Message::Quit);
    assert!(!h.quit_requested());

    // Invalid YAML: reopened, the error on top as comments, the user's text kept.
    let broken = shown.replace("replicas: 3", "replicas: [3");
    h.send(Message::EditorDone(Ok(broken.clone())));
    assert_eq!(h.model.mode.kind(), ModeKind::Editor);
    let reopened = edit_text(&h);
    assert!(reopened.starts_with(HEADER), "{reopened}");
    assert!(
        reopened.contains("\n# The edited file had a syntax error: "),
        "{reopened}"
    );
    assert!(reopened.contains("replicas: [3"), "{reopened}");
    assert_eq!(
        reopened.matches(HEADER).count(),
        1,
        "the old header is stripped"
    );

    // Valid now (a map, not an object at the top: still invalid), then fixed.
    h.send(Message::EditorDone(Ok("- just\n- a list\n".into())));
    assert!(
        edit_text(&h).contains("expected an object"),
        "{}",
        edit_text(&h)
    );
    let fixed = reopened.replace("replicas: [3", "replicas: 5");
    h.send(Message::EditorDone(Ok(fixed)));
    assert_eq!(h.model.mode, Mode::Browse);
    assert_eq!(last_applied(&h)["spec"]["replicas"], 5);
    assert!(
        notice(&h).starts_with("edited last-applied"),
        "{}",
        notice(&h)
    );
    assert_eq!(h.model.edit.undo.len(), 1);
    h.press("u");
    assert_eq!(last_applied(&h)["spec"]["replicas"], 3);
}

#[test]
fn e_cancels_on_no_change_empty_file_same_invalid_text_and_editor_failure() {
    let mut h = Harness::example(HPA);
    let before = last_applied(&h);
    type Answer = fn(&str) -> Result<String, applyscope::error::Error>;
    let cases: [(&str, Answer); 4] = [
        ("no changes made", |t| Ok(t.to_owned())),
        ("no changes made", |t| {
            Ok(t.replacen("# Please", "#  Please", 1))
        }),
        ("the saved file was empty", |_| Ok("# nothing\n\n".into())),
        ("editor: cannot run \"nope\"", |_| {
            Err(applyscope::error::Error::EditorStart {
                editor: "nope".into(),
                source: std::sync::Arc::new(std::io::ErrorKind::NotFound.into()),
            })
        }),
    ];
    for (want, answer) in cases {
        h.press("e");
        let text = edit_text(&h);
        h.send(Message::EditorDone(answer(&text)));
        assert_eq!(h.model.mode, Mode::Browse, "{want}");
        assert!(notice(&h).contains(want), "{want}: {}", notice(&h));
        assert_eq!(last_applied(&h), before);
    }
    // The same invalid text saved twice: cancelled.
    h.press("e");
    let broken = edit_text(&h).replace("kind: Deployment", "kind: [");
    h.send(Message::EditorDone(Ok(broken.clone())));
    let again = edit_text(&h);
    h.send(Message::EditorDone(Ok(again)));
    assert_eq!(h.model.mode, Mode::Browse);
    assert!(notice(&h).contains("no valid changes"), "{}", notice(&h));
    assert!(!h.model.edits_pending());
    // A stray report outside an editor session changes nothing.
    h.send(Message::EditorDone(Ok("a: 1\n".into())));
    assert_eq!(last_applied(&h), before);
}

// ---- the annotation ---------------------------------------------------------------------------

#[test]
fn annotation_preview_is_kubectls_encoding_of_the_edited_document() {
    let mut h = Harness::example(HPA);
    select(&mut h, "spec.replicas");
    h.press("x");
    select(&mut h, "spec.revisionHistoryLimit");
    h.press("a A");
    let Mode::Annotation { preview, .. } = &h.model.mode else {
        panic!("{:?}", h.model.mode)
    };
    let want = encode_annotation(&last_applied(&h)).unwrap();
    assert_eq!(preview.text.as_deref(), Some(want.as_str()));
    assert_eq!(preview.bytes, want.len());
    assert_eq!(preview.map_bytes, LAST_APPLIED.len() + want.len());
    assert!(!preview.over_limit());
    h.resize(140, 36);
    let screen = h.text();
    assert!(
        screen.contains(&format!("annotation: {} bytes", want.len())),
        "{screen}"
    );
    assert!(screen.contains("of 262,144 bytes"), "{screen}");
    h.press("j k <Esc>");
    assert_eq!(h.model.mode, Mode::Browse);
}

#[test]
fn annotation_preview_warns_past_the_limit() {
    let big = "x".repeat(270_000);
    let dir = tempfile::tempdir().unwrap();
    let local = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: b\n";
    let live = format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: default\n  annotations:\n    note: {big}\ndata:\n  a: b\n"
    );
    let mut h = open_files(dir.path(), local, &live, EditOptions::default());
    select(&mut h, "data.a");
    h.press("a A");
    let Mode::Annotation { preview, .. } = &h.model.mode else {
        panic!()
    };
    assert!(preview.over_limit());
    assert!(h.text().contains("over the server's 262,144-byte limit"));
}

// ---- commit -----------------------------------------------------------------------------------

#[test]
fn commit_rewrites_only_the_annotation_in_the_live_file() {
    let dir = tempfile::tempdir().unwrap();
    let (mut h, original) = case_03_files(dir.path(), EditOptions::default());
    let live = dir.path().join("live.yaml");
    h.press("W");
    assert_eq!(
        notice(&h),
        "nothing to commit: last-applied is as committed"
    );
    select(&mut h, "spec.replicas");
    h.press("x W");
    let Mode::Confirm(p) = &h.model.mode else {
        panic!("{:?}", h.model.mode)
    };
    assert!(
        p.action.starts_with("commit: rewrite the annotation in"),
        "{}",
        p.action
    );
    assert!(p.action.ends_with("live.yaml.bak)"), "{}", p.action);
    assert!(
        p.diff.iter().any(|(_, l)| l == "  replicas: 3"),
        "{:?}",
        p.diff
    );
    h.resize(140, 36);
    let screen = h.text();
    assert!(screen.contains("-  replicas: 3"), "{screen}");
    h.press("j k y");
    assert!(matches!(h.commands.as_slice(), [Command::WriteFile { .. }]));
    assert_eq!(perform(&mut h), 1);
    assert!(notice(&h).starts_with("wrote "), "{}", notice(&h));
    assert!(!h.model.edits_pending(), "committed");
    assert!(h.model.edited.is_empty());

    let kubectl = expected("88-deploy-replicas-handed-over");
    let want = kubectl["live"]["metadata"]["annotations"][LAST_APPLIED]
        .as_str()
        .unwrap();
    assert_eq!(annotation_in(&live), want, "kubectl's bytes");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("live.yaml.bak")).unwrap(),
        original
    );
    // Every other line is as it was.
    let now = std::fs::read_to_string(&live).unwrap();
    let differ: Vec<(&str, &str)> = original
        .lines()
        .zip(now.lines())
        .filter(|(a, b)| a != b)
        .collect();
    // The annotation is a literal block, as `kubectl get -o yaml` prints it, and stays one:
    // only its content line changes.
    assert!(
        original.contains(&format!("{LAST_APPLIED}: |\n")),
        "{original}"
    );
    assert_eq!(differ.len(), 1, "{differ:?}");
    assert_eq!(differ[0].1.trim(), want.trim_end());
    assert_eq!(original.lines().count(), now.lines().count());

    // The plan is the one the file now gives: kubectl's case 88.
    let reopened = open_files(
        dir.path(),
        &std::fs::read_to_string(dir.path().join("local.yaml")).unwrap(),
        &now,
        EditOptions::default(),
    );
    assert_eq!(reopened.model.plan.patch, None);
    assert_eq!(reopened.model.plan.result, h.model.plan.result);
    assert_eq!(h.model.plan.result, kubectl["result"]);

    // A second commit is guarded by the bytes just written.
    select(&mut h, "spec.revisionHistoryLimit");
    h.press("a W y");
    assert_eq!(perform(&mut h), 1);
    assert!(notice(&h).starts_with("wrote "), "{}", notice(&h));
    assert_eq!(
        annotation_in(&live),
        encode_annotation(&last_applied(&h)).unwrap()
    );
}

#[test]
fn commit_is_refused_when_the_file_changed_on_disk_and_reload_reads_it_again() {
    let dir = tempfile::tempdir().unwrap();
    let (mut h, _) = case_03_files(dir.path(), EditOptions::default());
    let live = dir.path().join("live.yaml");
    select(&mut h, "spec.replicas");
    h.press("x W");
    // Someone else changes the file between load and commit.
    let theirs = std::fs::read_to_string(&live)
        .unwrap()
        .replace("replicas: 5", "replicas: 9");
    std::fs::write(&live, &theirs).unwrap();
    h.press("<Enter>");
    assert_eq!(perform(&mut h), 1);
    let Mode::Refused(message) = &h.model.mode else {
        panic!("{:?}", h.model.mode)
    };
    assert!(message.contains("changed on disk"), "{message}");
    assert_eq!(std::fs::read_to_string(&live).unwrap(), theirs, "untouched");
    assert!(!dir.path().join("live.yaml.bak").exists());
    assert!(h.model.edits_pending(), "edits kept until reload");
    assert!(h.text().contains("commit refused"));
    // Esc keeps the edits; W again is refused again, at once (the file read for the
    // confirmation is not what was read); r reloads.
    h.press("<Esc> W");
    assert_eq!(h.model.mode.kind(), ModeKind::Refused);
    h.press("r");
    assert!(matches!(h.commands.as_slice(), [Command::Reload(_)]));
    perform(&mut h);
    assert_eq!(h.model.mode, Mode::Browse);
    assert!(
        notice(&h).contains("edits were discarded"),
        "{}",
        notice(&h)
    );
    assert!(!h.model.edits_pending());
    assert!(h.model.edit.undo.is_empty());
    assert_eq!(h.model.live().unwrap()["spec"]["replicas"], 9);
    assert_eq!(h.path(), "spec.replicas", "the cursor stays");
    // Now the commit goes through.
    h.press("x W y");
    perform(&mut h);
    assert!(notice(&h).starts_with("wrote "), "{}", notice(&h));
    assert!(
        std::fs::read_to_string(&live)
            .unwrap()
            .contains("replicas: 9")
    );
}

#[test]
fn dry_run_shows_what_would_be_written_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let options = EditOptions {
        dry_run: true,
        ..EditOptions::default()
    };
    let (mut h, original) = case_03_files(dir.path(), options);
    select(&mut h, "spec.replicas");
    h.press("x W");
    let Mode::Confirm(p) = &h.model.mode else {
        panic!()
    };
    assert!(p.action.starts_with("dry run"), "{}", p.action);
    let content = p.content.clone().unwrap();
    let kubectl = expected("88-deploy-replicas-handed-over");
    let want = kubectl["live"]["metadata"]["annotations"][LAST_APPLIED]
        .as_str()
        .unwrap();
    let shown = applyscope::document::parse_documents(&content, "c")
        .unwrap()
        .remove(0)
        .value;
    assert_eq!(shown["metadata"]["annotations"][LAST_APPLIED], want);
    h.resize(140, 40);
    assert!(h.text().contains("what would be written:"), "{}", h.text());
    h.press("y");
    assert!(h.commands.is_empty());
    assert!(
        notice(&h).starts_with("dry run: nothing written"),
        "{}",
        notice(&h)
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("live.yaml")).unwrap(),
        original
    );
    assert!(!dir.path().join("live.yaml.bak").exists());
    assert!(h.model.edits_pending());
}

#[test]
fn read_only_disables_the_edit_and_commit_keys() {
    let dir = tempfile::tempdir().unwrap();
    let options = EditOptions {
        read_only: true,
        ..EditOptions::default()
    };
    let (mut h, _) = case_03_files(dir.path(), options);
    select(&mut h, "spec.replicas");
    for key in ["x", "a", "e", "u", "<C-r>", "W"] {
        h.press(key);
        assert!(notice(&h).starts_with("read-only"), "{key}: {}", notice(&h));
        assert_eq!(h.model.mode, Mode::Browse, "{key}");
    }
    assert!(h.commands.is_empty());
    assert!(!h.model.edits_pending());
    h.press("A");
    assert_eq!(h.model.mode.kind(), ModeKind::Annotation, "viewing is fine");
}

#[test]
fn examples_can_be_edited_but_have_no_file_to_write() {
    let mut h = Harness::example(HPA);
    select(&mut h, "spec.replicas");
    h.press("x W");
    let Mode::Confirm(p) = &h.model.mode else {
        panic!()
    };
    assert!(p.write.is_none());
    h.press("y");
    assert!(h.commands.is_empty());
    assert!(notice(&h).starts_with("no file to write"), "{}", notice(&h));
    h.press("R");
    assert!(
        notice(&h).starts_with("nothing to reload"),
        "{}",
        notice(&h)
    );
}

#[test]
fn write_last_applied_writes_the_document_alone() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("last-applied.yaml");
    let options = EditOptions {
        write_last_applied: Some(out.clone()),
        ..EditOptions::default()
    };
    let args = ["applyscope", "--example", HPA].map(str::to_owned);
    let mut h = open_as_cli(&args, options);
    select(&mut h, "spec.replicas");
    h.press("x W y");
    let [Command::WriteFile { path, expected, .. }] = h.commands.as_slice() else {
        panic!("{:?}", h.commands)
    };
    assert_eq!(path, &out);
    assert_eq!(expected, &None, "the file must not exist yet");
    perform(&mut h);
    assert!(notice(&h).starts_with("wrote "), "{}", notice(&h));
    let written = applyscope::session::files::object("f", &std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(written, last_applied(&h));
    assert!(!h.model.edits_pending());
    // Changed behind our back: refused.
    std::fs::write(&out, "changed: by someone\n").unwrap();
    h.press("u W y");
    perform(&mut h);
    assert_eq!(h.model.mode.kind(), ModeKind::Refused);
}

// ---- a fake $EDITOR, through the real binary ------------------------------------------------

#[test]
fn fake_editor_invalid_then_valid_and_cancel_under_tmux() {
    let dir = tempfile::tempdir().unwrap();
    let (_, _) = case_03_files(dir.path(), EditOptions::default());
    let d = dir.path();
    // The editor: 1st run saves invalid YAML, 2nd run fixes it (replicas: 4), 3rd saves the
    // file unchanged (cancel). It records what it was shown.
    let script = d.join("editor.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nn=$(cat {d}/n 2>/dev/null || echo 0); n=$((n+1)); echo $n > {d}/n\ncp \"$1\" {d}/shown-$n.yaml\ncase $n in\n1) sed -i 's/^  replicas: 3$/  replicas: [3/' \"$1\" ;;\n2) sed -i 's/^  replicas: \\[3$/  replicas: 4/' \"$1\" ;;\nesac\n",
            d = d.display()
        ),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let bin = env!("CARGO_BIN_EXE_applyscope");
    let Some(tui) = crate::tmux::Session::start(
        "editor",
        &format!(
            "cd {d} && KUBE_EDITOR={script} {bin} -f local.yaml --live live.yaml",
            d = d.display(),
            script = script.display()
        ),
        140,
        40,
    ) else {
        return;
    };
    tui.wait_for("last-applied");
    tui.keys(&["e"]);
    tui.wait_for("edited last-applied");
    tui.keys(&["e"]);
    tui.wait_for("edit cancelled: no changes made");
    tui.keys(&["W"]);
    tui.wait_for("commit: rewrite the annotation");
    tui.keys(&["y"]);
    tui.wait_for("wrote ");
    tui.keys(&["q"]);
    assert_eq!(tui.exit().0, 0);
    let first = std::fs::read_to_string(d.join("shown-1.yaml")).unwrap();
    assert!(first.starts_with(HEADER), "{first}");
    let second = std::fs::read_to_string(d.join("shown-2.yaml")).unwrap();
    assert!(
        second.contains("# The edited file had a syntax error"),
        "{second}"
    );
    assert!(second.contains("replicas: [3"), "{second}");
    let third = std::fs::read_to_string(d.join("shown-3.yaml")).unwrap();
    assert!(third.contains("  replicas: 4\n"), "{third}");
    let annotation = annotation_in(&d.join("live.yaml"));
    let doc: Value = serde_json::from_str(&annotation).unwrap();
    assert_eq!(doc["spec"]["replicas"], 4);
    assert_eq!(annotation, encode_annotation(&doc).unwrap());
}
