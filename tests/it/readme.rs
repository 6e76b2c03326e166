//! The README's key table is generated from the keymap (so it cannot drift from what the keys
//! do). `UPDATE_README=1 cargo test --test it readme` rewrites it.

use std::fmt::Write as _;
use std::path::Path;

use applyscope::app::ModeKind;
use applyscope::app::keys::BINDINGS;

const START: &str = "<!-- keys:start (generated from src/app/keys.rs by tests/it/readme.rs) -->\n";
const END: &str = "<!-- keys:end -->";

fn table() -> String {
    let mut out = String::from("| where | keys | does |\n|---|---|---|\n");
    for mode in ModeKind::ALL {
        // Keys with the same description are listed together.
        let mut rows: Vec<(Vec<&str>, &str)> = Vec::new();
        for b in BINDINGS.iter().filter(|b| b.mode == mode) {
            match rows.iter_mut().find(|(_, d)| *d == b.description) {
                Some((keys, _)) => keys.push(b.key),
                None => rows.push((vec![b.key], b.description)),
            }
        }
        for (keys, description) in rows {
            let keys: Vec<String> = keys
                .iter()
                .map(|k| format!("`{}`", k.replace('|', "\\|")))
                .collect();
            let _ = writeln!(
                out,
                "| {} | {} | {description} |",
                mode.name(),
                keys.join(" ")
            );
        }
    }
    out
}

#[test]
fn readme_key_table_is_generated_from_the_keymap() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    let (Some(start), Some(end)) = (readme.find(START), readme.find(END)) else {
        panic!("README.md lacks the key table markers");
    };
    let current = &readme[start + START.len()..end];
    let want = table();
    if current != want {
        if std::env::var_os("UPDATE_README").is_some() {
            let new = format!("{}{START}{want}{}", &readme[..start], &readme[end..]);
            std::fs::write(&path, new).unwrap();
        } else {
            panic!(
                "README.md's key table is stale: run UPDATE_README=1 cargo test --test it readme"
            );
        }
    }
}
