//! The layers hold: the engine is pure (no file, terminal, network or clock in `src/engine/`),
//! each module names only the layers below it, and no source file grows past one concern.

use std::path::Path;

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn engine_has_no_io_or_ui_dependencies() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = vec![root.join("engine.rs")];
    rust_files(&root.join("engine"), &mut files);
    assert!(files.len() > 10, "found only {} engine files", files.len());
    let forbidden = [
        "std::fs",
        "std::io",
        "std::net",
        "std::process",
        "std::env",
        "SystemTime",
        "Instant::",
        "ratatui",
        "crossterm",
        "syntect",
        "tokio",
        "kube::",
        "println!",
        "eprintln!",
    ];
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for word in forbidden {
                if code.contains(word) {
                    found.push(format!("{}:{}: {word}", file.display(), n + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "the engine must stay pure:\n{}",
        found.join("\n")
    );
}

/// The top-level modules of the crate a source file names: `crate::m`, `crate::{m, …}`, and
/// `super::…::m` where the `super`s reach the crate root. Comments are left out.
fn modules_named(root: &Path, file: &Path) -> Vec<String> {
    // The file's module path: `src/cli/plan.rs` is `cli::plan`, `src/cli.rs` is `cli`.
    let rel = file.strip_prefix(root).unwrap().with_extension("");
    let depth = rel.components().count();
    let text = std::fs::read_to_string(file).unwrap();
    let mut out = Vec::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        for (i, _) in code.match_indices("crate::") {
            let before = code[..i].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
                continue;
            }
            let rest = &code[i + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let group = group.split('}').next().unwrap_or("");
                out.extend(group.split(',').map(|p| ident(p.trim())));
            } else {
                out.push(ident(rest));
            }
        }
        for (i, _) in code.match_indices("super::") {
            if code[..i].ends_with("super::") {
                continue;
            }
            let mut rest = &code[i..];
            let mut ups = 0;
            while let Some(r) = rest.strip_prefix("super::") {
                rest = r;
                ups += 1;
            }
            // `super` from `a/b.rs` (module `a::b`) reaches `a`; `depth` of them reach the root.
            if ups == depth {
                out.push(ident(rest));
            }
        }
    }
    out.retain(|m| !m.is_empty());
    out
}

/// Every `.rs` file of a top-level module: `src/NAME.rs` and `src/NAME/…`.
fn module_files(root: &Path, name: &str) -> Vec<std::path::PathBuf> {
    let mut files = vec![root.join(format!("{name}.rs"))];
    let dir = root.join(name);
    if dir.is_dir() {
        rust_files(&dir, &mut files);
    }
    files
}

/// Where a module names one it must not: `file: module`.
fn violations(module: &str, forbidden: &[&str]) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    for file in module_files(&root, module) {
        for named in modules_named(&root, &file) {
            if forbidden.contains(&named.as_str()) {
                found.push(format!("{}: crate::{named}", file.display()));
            }
        }
    }
    found
}

/// The layers, bottom up: `value`/`document` → `engine` → `cluster` (the kube-rs client and the
/// requests as data) → `error` (the one error, whose sources are the layers' own) → `session` (inputs, identity, planning, risk, what a run opens) → the
/// front ends: `cli` (only `main` uses it) and the TUI (`app`, `ui`, `tui`, `keymap`,
/// `theme`), which never name each other.
#[test]
fn layers_depend_only_downward_and_front_ends_never_name_each_other() {
    const TUI: [&str; 5] = ["app", "ui", "tui", "keymap", "theme"];
    let above = |layer: &[&'static str], more: &[&'static str]| -> Vec<&'static str> {
        layer.iter().chain(more).copied().collect()
    };
    let front_ends = above(&TUI, &["cli"]);
    let rules: Vec<(&str, Vec<&str>)> = vec![
        (
            "value",
            above(
                &front_ends,
                &["session", "error", "cluster", "engine", "document"],
            ),
        ),
        (
            "document",
            above(&front_ends, &["session", "error", "cluster", "engine"]),
        ),
        (
            "engine",
            above(&front_ends, &["session", "error", "cluster"]),
        ),
        ("cluster", above(&front_ends, &["session", "error"])),
        ("error", above(&front_ends, &["session"])),
        ("session", front_ends.clone()),
        ("cli", TUI.to_vec()),
        ("app", vec!["cli", "tui"]),
        ("ui", vec!["cli", "tui"]),
        ("tui", vec!["cli"]),
        ("keymap", vec!["cli", "tui"]),
        ("theme", vec!["cli", "app", "tui", "ui"]),
    ];
    let mut found = Vec::new();
    for (module, forbidden) in &rules {
        found.extend(violations(module, forbidden));
    }
    assert!(
        found.is_empty(),
        "a layer names one above it, or a front end names another:\n{}",
        found.join("\n")
    );
}

/// Only `main` ends the process: the library returns what a run did (`Run::Report`, an
/// `Error` with its `exit_code()`), and `main` turns it into the exit status.
#[test]
fn only_main_ends_the_process() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    assert!(files.len() > 50, "found only {} source files", files.len());
    let found: Vec<String> = files
        .iter()
        .filter(|f| *f != &root.join("main.rs"))
        .filter(|f| {
            let text = std::fs::read_to_string(f).unwrap();
            text.contains("process::exit") || text.contains("process::abort")
        })
        .map(|f| f.display().to_string())
        .collect();
    assert!(
        found.is_empty(),
        "only src/main.rs may end the process:\n{}",
        found.join("\n")
    );
}

/// Errors are typed outside the engine and the document reader (which keep their own typed
/// errors, the sources of `applyscope::error::Error`): no `Result<_, String>`.
#[test]
fn errors_are_not_strings_above_the_engine() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let mut found = Vec::new();
    for file in &files {
        if file.starts_with(root.join("engine")) || file.starts_with(root.join("document")) {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        for (i, line) in text.lines().enumerate() {
            let typed = line
                .find("Result<")
                .is_some_and(|at| line[at..].contains(", String>"));
            if typed {
                found.push(format!("{}:{}: {}", file.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "a Result with a String error:\n{}",
        found.join("\n")
    );
}

/// `cli` is a leaf: no module but `main` (the binary) names it.
#[test]
fn only_main_names_the_cli() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let cli = module_files(&root, "cli");
    let mut found = Vec::new();
    for file in files.iter().filter(|f| !cli.contains(f)) {
        if modules_named(&root, file).iter().any(|m| m == "cli") {
            found.push(file.display().to_string());
        }
    }
    assert!(
        found.is_empty(),
        "only main may use the cli:\n{}",
        found.join("\n")
    );
}

/// The scan itself: every way a file can name a top-level module is seen.
#[test]
fn the_layer_scan_sees_crate_grouped_and_super_paths() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("a/b")).unwrap();
    let file = root.join("a/b/c.rs");
    std::fs::write(
        &file,
        "use crate::x::Y;\nuse crate::{p, q::R};\nuse super::sib;\nuse super::super::super::z;\n// crate::comment\n",
    )
    .unwrap();
    let mut named = modules_named(root, &file);
    named.sort();
    assert_eq!(named, ["p", "q", "x", "z"]);
}

/// The most lines a source file under `src/` holds outside its unit tests: one concern per file
/// (STYLE.md rule 11), so a newcomer can name the one file that owns each behaviour.
const MAX_LINES: usize = 500;

/// Files allowed past [`MAX_LINES`], each with why. Keep this list short and say when an entry
/// can go.
const LONGER_ALLOWED: &[(&str, &str)] = &[];

/// The file of module `name` declared in `file` (`src/lib.rs` and `src/main.rs` declare
/// `src/name.rs`; `src/a.rs` declares `src/a/name.rs`).
fn child_module_file(file: &Path, name: &str) -> std::path::PathBuf {
    let stem = file.file_stem().unwrap();
    let dir = file.parent().unwrap();
    if stem == "lib" || stem == "main" {
        dir.join(format!("{name}.rs"))
    } else {
        dir.join(stem).join(format!("{name}.rs"))
    }
}

/// The files that are test modules: declared `#[cfg(test)] mod name;`, or inside one.
fn test_module_files(files: &[std::path::PathBuf]) -> Vec<std::path::PathBuf> {
    let mut tests = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if line.trim() != "#[cfg(test)]" {
                continue;
            }
            // `#[cfg(test)]`, maybe `#[path = "x_tests.rs"]` (beside the declaring file), then
            // `mod name;`.
            let path = lines.get(i + 1).and_then(|l| {
                l.trim()
                    .strip_prefix("#[path = \"")
                    .and_then(|rest| rest.strip_suffix("\"]"))
            });
            let at = i + 1 + usize::from(path.is_some());
            let declared = lines.get(at).and_then(|l| {
                l.trim()
                    .strip_prefix("mod ")
                    .and_then(|rest| rest.strip_suffix(';'))
            });
            match (path, declared) {
                (Some(path), Some(_)) => tests.push(file.with_file_name(path)),
                (None, Some(name)) => tests.push(child_module_file(file, name)),
                _ => {}
            }
        }
    }
    let inside_one =
        |file: &std::path::PathBuf| tests.iter().any(|t| file.starts_with(t.with_extension("")));
    let nested: Vec<_> = files.iter().filter(|f| inside_one(f)).cloned().collect();
    tests.extend(nested);
    tests
}

/// A file's lines outside its `#[cfg(test)] mod … { … }` blocks (rustfmt closes a top-level
/// module with `}` at the start of a line).
fn lines_outside_tests(text: &str) -> usize {
    let mut count = 0;
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let opens_test_module = line.trim() == "#[cfg(test)]"
            && lines
                .peek()
                .is_some_and(|next| next.starts_with("mod ") && next.ends_with('{'));
        if opens_test_module {
            for inner in lines.by_ref() {
                if inner == "}" {
                    break;
                }
            }
        } else {
            count += 1;
        }
    }
    count
}

#[test]
fn no_source_file_is_over_500_lines_outside_its_tests() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&manifest.join("src"), &mut files);
    assert!(files.len() > 100, "found only {} source files", files.len());
    let tests = test_module_files(&files);
    let mut over = Vec::new();
    let mut allowed_seen = Vec::new();
    for file in files.iter().filter(|f| !tests.contains(f)) {
        let n = lines_outside_tests(&std::fs::read_to_string(file).unwrap());
        let name = file
            .strip_prefix(manifest)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if n > MAX_LINES {
            match LONGER_ALLOWED.iter().find(|(f, _)| *f == name) {
                Some(_) => allowed_seen.push(name),
                None => over.push(format!("{name}: {n} lines")),
            }
        }
    }
    assert!(
        over.is_empty(),
        "split these by behaviour (one concern per file, at most {MAX_LINES} lines outside the \
         tests):\n{}",
        over.join("\n")
    );
    let stale: Vec<_> = LONGER_ALLOWED
        .iter()
        .filter(|(f, _)| !allowed_seen.iter().any(|s| s == f))
        .map(|(f, _)| *f)
        .collect();
    assert!(
        stale.is_empty(),
        "these are no longer over {MAX_LINES} lines: take them off LONGER_ALLOWED: {stale:?}"
    );
}

#[test]
fn the_size_count_leaves_out_test_modules() {
    let text = "fn a() {}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {}\n}\n";
    assert_eq!(lines_outside_tests(text), 2);
    assert_eq!(
        lines_outside_tests("fn a() {}\n#[cfg(test)]\nmod tests;\n"),
        3
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let tests = test_module_files(&[
        root.join("value.rs"),
        root.join("engine/schema.rs"),
        root.join("cli/plan/ssa/fold.rs"),
    ]);
    assert!(tests.contains(&root.join("value/tests.rs")), "{tests:?}");
    assert!(
        tests.contains(&root.join("cli/plan/ssa/fold_tests.rs")),
        "a test module named by #[path]: {tests:?}"
    );
    assert!(
        tests.contains(&root.join("engine/schema/tests.rs")),
        "{tests:?}"
    );
}
