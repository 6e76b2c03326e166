//! Reads YAML cases from stdin, separated by lines `@@CASE@@`, and prints one JSON line per case:
//! `{"json": "<the first document as JSON>"}` or `{"error": "<message>"}`.
//!
//! ```text
//! printf 'a: [?x]\n@@CASE@@\nb: 1\n' | cargo run --example read_yaml
//! ```
//!
//! For differential checks of the YAML reader against go-yaml v2 (a program doing the same with
//! `sigs.k8s.io/yaml.YAMLToJSON`).

use std::io::Read;

fn main() {
    let mut input = String::new();
    if std::io::stdin().read_to_string(&mut input).is_err() {
        eprintln!("read_yaml: stdin is not UTF-8 text");
        std::process::exit(2);
    }
    for case in input.split("\n@@CASE@@\n") {
        let line = match applyscope::document::parse_documents(case, "case") {
            Ok(docs) => {
                let json = match docs.first() {
                    Some(d) => serde_json::to_string(&d.value).unwrap_or_default(),
                    None => "null".to_owned(),
                };
                serde_json::json!({ "json": json })
            }
            Err(e) => serde_json::json!({ "error": e.to_string() }),
        };
        println!("{line}");
    }
}
