//! The engine is pure: no file, terminal, network or clock in `src/engine/`.

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
