//! Unit tests of the loader as a whole; the big table recorded from kubectl is in
//! `tests/it/document_yaml.rs`.

use super::*;

fn one(src: &str) -> Value {
    match parse_documents(src, "t.yaml") {
        Ok(mut docs) if docs.len() == 1 => docs.remove(0).value,
        other => panic!("{src:?}: {other:?}"),
    }
}

#[test]
fn yaml_basics() {
    let v = one("a: yes\nb: 010\nc: 1.0\nd: '1.0'\n");
    assert_eq!(v.to_string(), r#"{"a":true,"b":8,"c":1,"d":"1.0"}"#);
}

#[test]
fn json_or_yaml_by_first_character() {
    // JSON: 1.0 stays a float; YAML: it becomes 1.
    assert!(one(r#"{"a": 1.0}"#)["a"].is_f64());
    assert!(one("a: 1.0")["a"].is_i64());
    // Not valid JSON: kubectl reads the same text as YAML.
    assert_eq!(one("{a: yes}").to_string(), r#"{"a":true}"#);
    // After a good JSON value, the rest may be YAML.
    let docs = parse_documents("{\"a\": 1}\n---\nb: on\n", "t").map(|d| d.len());
    assert_eq!(docs, Ok(2));
}

#[test]
fn go_yaml_escape_single_quote() {
    let v = one("a: \"it\\'s\"\nb: \"x\\'\n  y\" # c\nc: 1\n");
    assert_eq!(v.to_string(), r#"{"a":"it's","b":"x' y","c":1}"#);
    let docs = parse_documents("a: \"\\'\"\nb: [1, 2\n", "t");
    assert_eq!(docs.map_err(|e| (e.line, e.col)).err(), Some((3, 1)));
    assert!(parse_documents("a: \"\\'\\q\"\n", "t").is_err());
}

#[test]
fn tab_after_colon() {
    assert_eq!(one("a:\tbee\n").to_string(), r#"{"a":"bee"}"#);
}

#[test]
fn first_document_of_each_piece_only() {
    // go-yaml reads one document per piece; what follows `...` or a closed flow root is ignored.
    assert_eq!(one("a: 1\n...\nb: 2\n").to_string(), r#"{"a":1}"#);
    assert_eq!(one("[a]]\n").to_string(), r#"["a"]"#);
    assert!(parse_documents("[a, b\n", "t").is_err());
    assert!(parse_documents("{a: 1}: x\n}\n", "t").is_err());
}

#[test]
fn merge_order_is_go_yaml_v2() {
    let v = one("b: &b {x: 1, y: 1}\nm1: {x: 0, <<: *b}\nm2: {<<: *b, x: 0}\n");
    assert_eq!(v["m1"]["x"], 1, "a merge overwrites keys written before it");
    assert_eq!(v["m2"]["x"], 0, "keys written after a merge win");
}

#[test]
fn values_only_reading_gives_the_same_errors() {
    // Without spans the tree keeps no positions; an error reads the document again to say where.
    for src in [
        "a: 1\n---\nb:\n  c: [1, {d: .inf}]\n",
        "\u{feff}x: \u{e9}\n? [a]\n: b\n",
        "a: &a [*a]\n",
        "a: 1\r\nb:\r\n  <<: [x]\r\n",
        "[a, b]: 1\n",
        "é: {k: !!int x}\n",
    ] {
        let with_spans = parse_documents_bytes(src.as_bytes(), "t").map(|d| d.len());
        let values_only = parse_values_bytes(src.as_bytes(), "t").map(|d| d.len());
        assert!(with_spans.is_err(), "{src:?}");
        assert_eq!(with_spans, values_only, "{src:?}");
    }
}
