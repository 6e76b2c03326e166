//! Reading YAML and JSON as kubectl reads them (`applyscope::document`).
//!
//! The tables in `document_yaml/kubectl_*.rs` hold kubectl 1.37.1's answers for several
//! hundred inputs; the tests here replay them and check what the tables cannot show: number
//! types, positions, error messages, limits, speed.

mod kubectl_flow;
mod kubectl_scalars;
mod kubectl_streams;

use applyscope::document::{
    Document, LoadError, MAX_DEPTH, PathSeg, Pos, parse_documents, parse_documents_bytes,
};
use applyscope::value::Value;

/// A Go-formatted float, as `encoding/json` writes it.
fn go_float(f: f64) -> String {
    let a = f.abs();
    if a != 0.0 && !(1e-6..1e21).contains(&a) {
        let s = format!("{f:e}");
        let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
        let e: i32 = e.parse().unwrap_or(0);
        format!("{m}e{}{}", if e < 0 { '-' } else { '+' }, e.abs())
    } else {
        format!("{f}")
    }
}

/// A value as kubectl prints it: Go's `encoding/json` (keys sorted, Go number format).
fn go_json(v: &Value) -> String {
    match v {
        Value::Null | Value::Bool(_) | Value::String(_) => v.to_string(),
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i.to_string(),
            (None, Some(u), _) => u.to_string(),
            (None, None, Some(f)) => go_float(f),
            _ => n.to_string(),
        },
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(go_json).collect();
            format!("[{}]", items.join(","))
        }
        Value::Object(map) => {
            let mut keys: Vec<&applyscope::value::Str> = map.keys().collect();
            keys.sort();
            let items: Vec<String> = keys
                .iter()
                .map(|k| format!("{}:{}", Value::from(k.as_str()), go_json(&map[k.as_str()])))
                .collect();
            format!("{{{}}}", items.join(","))
        }
    }
}

/// Cases where we knowingly read differently from kubectl, and why. [`replay`] checks that
/// they still differ, so this list stays true.
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: a\u{2028}b\n",
        "U+2028 is a line break in YAML 1.1 only",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: a\u{85}b\n",
        "U+0085 is a line break in YAML 1.1 only",
    ),
];

/// Whether our reading matches kubectl's answer `want` (see the tables' notation).
fn matches(want: &str, got: &Result<Vec<Document>, LoadError>, whole_file: bool) -> bool {
    if want.starts_with("ERR ") {
        return got.is_err();
    }
    let Ok(docs) = got else { return false };
    if want.starts_with("NOT-AN-OBJECT ") {
        return docs.iter().any(|d| d.value.get("kind").is_none());
    }
    let got = if whole_file {
        let docs: Vec<String> = docs.iter().map(|d| go_json(&d.value)).collect();
        format!("[{}]", docs.join(","))
    } else {
        match docs.as_slice() {
            [doc] => go_json(&doc.value),
            _ => format!("{} documents", docs.len()),
        }
    };
    got == want
}

/// Whether a value holds a number kubectl could not hold: an unsigned integer beyond int64
/// (kubectl has int64 or float64, nothing else).
fn has_big_unsigned(v: &Value) -> bool {
    match v {
        Value::Number(n) => n.is_u64() && !n.is_i64(),
        Value::Array(items) => items.iter().any(has_big_unsigned),
        Value::Object(map) => map.values().any(has_big_unsigned),
        Value::Null | Value::Bool(_) | Value::String(_) => false,
    }
}

/// Replays a table; every mismatch is listed before failing.
fn replay(table: &[(&str, &str)], whole_file: bool) {
    let mut bad = Vec::new();
    for &(case, want) in table {
        let got = parse_documents(case, "case.yaml");
        if let Ok(docs) = &got {
            assert!(
                !docs.iter().any(|d| has_big_unsigned(&d.value)),
                "u64 in {case:?}"
            );
        }
        let ok = matches(want, &got, whole_file);
        let known = KNOWN_DIFFERENCES.iter().find(|(c, _)| *c == case);
        match (ok, known) {
            (true, None) | (false, Some(_)) => {}
            (true, Some((_, why))) => bad.push(format!("case {case:?} no longer differs ({why})")),
            (false, None) => {
                let got =
                    got.map(|docs| docs.iter().map(|d| go_json(&d.value)).collect::<Vec<_>>());
                bad.push(format!(
                    "case {case:?}\n  kubectl: {want}\n  ours:    {got:?}"
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} cases differ:\n{}",
        bad.len(),
        table.len(),
        bad.join("\n")
    );
}

#[test]
fn kubectl_scalars() {
    replay(kubectl_scalars::SCALARS, false);
}

#[test]
fn kubectl_keys() {
    replay(kubectl_scalars::KEYS, false);
}

#[test]
fn kubectl_structure() {
    replay(kubectl_streams::STRUCTURE, false);
}

#[test]
fn kubectl_flow_collections() {
    replay(kubectl_flow::FLOW, false);
}

#[test]
fn kubectl_streams() {
    replay(kubectl_streams::STREAMS, true);
}

#[test]
fn kubectl_json_streams() {
    replay(kubectl_streams::JSON_STREAMS, true);
}

fn one(src: &str) -> Document {
    match parse_documents(src, "t.yaml") {
        Ok(mut docs) if docs.len() == 1 => docs.remove(0),
        other => panic!("{src:?}: {other:?}"),
    }
}

fn err(src: &str) -> LoadError {
    match parse_documents(src, "t.yaml") {
        Err(e) => e,
        Ok(docs) => panic!("{src:?} read without error: {} documents", docs.len()),
    }
}

#[test]
fn number_types_follow_the_json_round_trip() {
    let v = one(
        "a: 1.0\nb: 1e3\nc: 1.5\nd: 9223372036854775807\ne: 9223372036854775808\n\
                 f: 4611686018427387904.0\ng: 1e20\nh: 0x10\n",
    )
    .value;
    assert!(v["a"].is_i64() && v["a"] == 1);
    assert!(v["b"].is_i64() && v["b"] == 1000);
    assert!(v["c"].is_f64());
    assert_eq!(v["d"].as_i64(), Some(i64::MAX));
    assert!(v["e"].is_f64(), "beyond int64: float64, never a u64");
    assert_eq!(
        v["f"].as_i64(),
        Some(4611686018427388000),
        "shortest digits, zero padded"
    );
    assert!(v["g"].is_f64(), "1e20 does not fit int64");
    assert!(v["h"].is_i64());
    // JSON keeps `1.0` a float (kubectl's JSON path does not go through YAML).
    let j = one(r#"{"a": 1.0, "b": 1e3, "c": 1, "d": -0}"#).value;
    assert!(j["a"].is_f64() && j["b"].is_f64());
    assert!(j["c"].is_i64() && j["d"].is_i64());
}

#[test]
fn spans_of_keys_and_values() {
    let src =
        "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: app\n    image: \"nginx\"\n";
    let doc = one(src);
    let s = doc
        .spans
        .get_str(&["spec", "containers", "0", "image"])
        .unwrap();
    assert_eq!(s.key, Some(Pos { line: 6, col: 5 }));
    assert_eq!(s.value, Pos { line: 6, col: 12 });
    assert_eq!(s.end, Pos { line: 6, col: 19 });
    let path = [
        PathSeg::from("spec"),
        PathSeg::from("containers"),
        PathSeg::from(0),
    ];
    let item = doc.spans.get(&path).unwrap();
    assert_eq!((item.key, item.value.line), (None, 5));
    assert_eq!(
        doc.spans.root().map(|r| r.value),
        Some(Pos { line: 1, col: 1 })
    );
    assert!(doc.spans.get_str(&["spec", "nope"]).is_none());
    // Later documents keep file lines; columns count characters.
    let docs = parse_documents("a: 1\n---\né: x\nb: [1, \"é\", 3]\n", "t").unwrap();
    let b2 = docs[1].spans.get_str(&["b", "2"]).unwrap();
    assert_eq!(b2.value, Pos { line: 4, col: 13 });
}

#[test]
fn spans_through_aliases_merges_and_duplicates() {
    let src = "base: &b {x: 1}\nm:\n  <<: *b\n  k: *b\n  k: 2\n";
    let doc = one(src);
    assert_eq!(doc.value["m"]["x"], 1);
    // x was merged from the anchored mapping on line 1.
    assert_eq!(
        doc.spans.get_str(&["m", "x"]).map(|s| s.value),
        Some(Pos { line: 1, col: 14 })
    );
    // The duplicate k: the later one wins, with its position.
    assert_eq!(
        doc.spans.get_str(&["m", "k"]).map(|s| s.value),
        Some(Pos { line: 5, col: 6 })
    );
    assert_eq!(doc.value["m"]["k"], 2);
    let doc = one("a: &a {k: v}\nb: *a\n");
    let b = doc.spans.get_str(&["b"]).unwrap();
    assert_eq!(
        b.value,
        Pos { line: 2, col: 4 },
        "an alias value is where the alias is written"
    );
    assert_eq!(
        doc.spans.get_str(&["b", "k"]).map(|s| s.value.line),
        Some(1)
    );
}

#[test]
fn json_spans() {
    let doc = one("{\n  \"a\": {\"b\": [10, \"x\"]},\n  \"c\": null\n}\n");
    let s = doc.spans.get_str(&["a", "b", "1"]).unwrap();
    assert_eq!(s.value, Pos { line: 2, col: 19 });
    let a = doc.spans.get_str(&["a"]).unwrap();
    assert_eq!(
        (a.key, a.value),
        (Some(Pos { line: 2, col: 3 }), Pos { line: 2, col: 8 })
    );
}

#[test]
fn errors_are_one_line_with_positions() {
    let e = err("a: 1\nb: [1, 2\n");
    assert_eq!((e.line, e.file.as_str()), (3, "t.yaml"));
    assert!(!e.to_string().contains('\n'));
    assert!(e.to_string().starts_with("t.yaml:3:"), "{e}");
    let e = err("a: 1\n---\nb: .inf\n");
    assert_eq!((e.line, e.col), (3, 4));
    assert!(e.message.contains("unsupported value: +Inf"), "{e}");
    let e = err("a: 1\n--- x\n");
    assert_eq!(
        (e.line, e.col, e.message.as_str()),
        (2, 5, "invalid YAML document separator: x")
    );
    let e = err("x: 1\ny: *nope\n");
    assert_eq!((e.line, e.col), (2, 4));
    assert_eq!(e.message, "unknown anchor 'nope' referenced");
    let e = err("a: &x [*x]\n");
    assert_eq!(e.message, "anchor 'x' value contains itself");
    let e = err("a:\n  ~: 1\n");
    assert_eq!((e.line, e.col), (2, 3));
    let e = err("a: \"x\\/y\"\n");
    assert_eq!((e.line, e.col), (1, 6));
    let e = err("a: &a.b 1\n");
    assert_eq!((e.line, e.col), (1, 4));
    let e = err("a: x\u{1}\n");
    assert_eq!((e.line, e.col), (1, 5));
}

#[test]
fn bytes_input() {
    let e = parse_documents_bytes(b"a: 1\nb: \xff\n", "f.yaml").unwrap_err();
    assert_eq!((e.line, e.col), (2, 4));
    assert!(e.message.contains("UTF-8"), "{e}");
    let e = parse_documents_bytes(b"a: 1\nb: x\0\n", "f.yaml").unwrap_err();
    assert_eq!((e.line, e.col), (2, 5));
    assert!(e.message.contains("NUL"), "{e}");
    assert!(parse_documents_bytes(b"\xff\xfea\x00", "f").is_err());
    let docs = parse_documents_bytes("\u{feff}a: é\n".as_bytes(), "f").unwrap();
    assert_eq!(docs[0].value["a"], "é");
}

#[test]
fn empty_inputs_have_no_documents() {
    for src in [
        "",
        "\n\n",
        "# c\n",
        "---\n",
        "---\n---\n",
        "~\n",
        "null\n",
        "--- # c\n...\n",
    ] {
        assert!(parse_documents(src, "t").unwrap().is_empty(), "{src:?}");
    }
}

fn nested(open: &str, close: &str, n: usize) -> String {
    format!("v: {}{}\n", open.repeat(n), close.repeat(n))
}

#[test]
fn depth_is_limited_without_overflowing_the_stack() {
    assert!(parse_documents(&nested("[", "]", MAX_DEPTH - 1), "t").is_ok());
    let e = err(&nested("[", "]", MAX_DEPTH));
    assert!(e.message.contains("deeper than"), "{e}");
    assert_eq!(e.line, 1);
    for (open, close) in [("[", "]"), ("{a: ", "}")] {
        let src = nested(open, close, 100_000);
        assert!(err(&src).message.contains("deeper than"), "{open}");
    }
    let dashes = format!("{}x\n", "- ".repeat(100_000));
    assert!(err(&dashes).message.contains("deeper than"));
    let block: String = (0..1000).map(|i| format!("{}-\n", " ".repeat(i))).collect();
    assert!(err(&format!("v:\n{block}")).message.contains("deeper than"));
    let block: String = (0..1000)
        .map(|i| format!("{}k:\n", " ".repeat(i)))
        .collect();
    assert!(err(&block).message.contains("deeper than"));
    let json = format!("{{\"v\": {}{}}}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(err(&json).message.contains("deeper than"));
    let json = format!(
        "{{\"v\": {}1{}}}",
        "{\"a\": ".repeat(100_000),
        "}".repeat(100_000)
    );
    assert!(err(&json).message.contains("deeper than"));
    // Through aliases, too.
    let mut chain = format!("a0: &a0 {}{}\n", "[".repeat(200), "]".repeat(200));
    for i in 1..3 {
        chain += &format!(
            "a{i}: &a{i} {}*a{}{}\n",
            "[".repeat(100),
            i - 1,
            "]".repeat(100)
        );
    }
    assert!(err(&chain).message.contains("deeper than"));
}

#[test]
fn alias_bombs_are_refused() {
    let mut src = String::from(
        "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
    for w in names.windows(2) {
        let refs = vec![format!("*{}", w[0]); 9].join(",");
        src += &format!("{}: &{} [{refs}]\n", w[1], w[1]);
    }
    let start = std::time::Instant::now();
    assert_eq!(err(&src).message, "document contains excessive aliasing");
    assert!(start.elapsed().as_secs() < 5);
    // go-yaml's budget, to the node: kubectl reads 199 aliases of a 200-item list here, and
    // refuses 200 (`document contains excessive aliasing`).
    let list = format!("a: &a [{}]\n", vec!["x"; 200].join(","));
    let with = |m: usize| format!("{list}b: [{}]\n", vec!["*a"; m].join(","));
    assert!(parse_documents(&with(199), "t").is_ok());
    assert!(parse_documents(&with(200), "t").is_err());
    // Moderate reuse is fine.
    let ok = "a: &a {x: 1}\nb: [*a, *a, *a]\n";
    assert_eq!(one(ok).value["b"][2]["x"], 1);
}

#[test]
fn long_keys_and_values() {
    let long = "k".repeat(1100);
    // An implicit key longer than 1024 characters is an error, as in kubectl.
    assert!(parse_documents(&format!("{long}: 1\n"), "t").is_err());
    let doc = one(&format!("? {long}\n: 1\nv: {}\n", "x".repeat(2000)));
    assert_eq!(doc.value[long.as_str()], 1);
}

#[test]
fn one_long_line_stays_linear() {
    // Positions on a long line must not cost a scan from its start each time.
    let items: Vec<String> = (0..20_000)
        .map(|i| format!("k{i}: &a{i} \"é/{i}\", r{i}: *a{i}"))
        .collect();
    let src = format!("v: {{{}}}\n", items.join(", "));
    let start = std::time::Instant::now();
    let doc = one(&src);
    assert_eq!(doc.value["v"]["r19999"], "é/19999");
    assert!(
        doc.spans
            .get_str(&["v", "r19999"])
            .is_some_and(|s| s.value.line == 1)
    );
    assert!(start.elapsed().as_secs() < 10, "{:?}", start.elapsed());
}

#[test]
fn a_megabyte_loads_quickly() {
    let item = "- apiVersion: apps/v1\n  kind: Deployment\n  metadata: {name: web, labels: {app: web}}\n  spec:\n    replicas: 3\n    template:\n      spec:\n        containers:\n        - name: app\n          image: \"nginx:1.27\"\n          ports: [{containerPort: 80}, {containerPort: 443}]\n          env: [{name: A, value: \"yes\"}, {name: B, value: 010}]\n";
    let mut src = String::from("items:\n");
    while src.len() < 1 << 20 {
        src += item;
    }
    let start = std::time::Instant::now();
    let docs = parse_documents(&src, "big.yaml").unwrap();
    let took = start.elapsed();
    eprintln!("{} bytes of YAML read in {took:?}", src.len());
    assert_eq!(docs.len(), 1);
    // Generous for debug builds on a busy machine; release takes a few tens of milliseconds.
    assert!(took.as_secs() < 10, "{took:?}");
}
