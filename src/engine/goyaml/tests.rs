use super::keys::key_order;
use super::*;
use crate::json;

#[test]
fn block_style_lists_not_indented_under_keys() {
    let v = json!({"b": [1, {"x": "v", "w": null}, [2, 3]], "a": {"c": true, "d": [], "e": {}}});
    assert_eq!(
        to_yaml(&v),
        "a:\n  c: true\n  d: []\n  e: {}\nb:\n- 1\n- w: null\n  x: v\n- - 2\n  - 3\n"
    );
}

#[test]
fn strings_quoted_as_go_yaml_quotes_them() {
    let y = |s: &str| to_yaml(&json!({ "k": s }));
    assert_eq!(y("plain text"), "k: plain text\n");
    assert_eq!(y("true"), "k: \"true\"\n");
    assert_eq!(y("y"), "k: \"y\"\n");
    assert_eq!(y(""), "k: \"\"\n");
    assert_eq!(y("1.5"), "k: \"1.5\"\n");
    assert_eq!(y("0755"), "k: \"0755\"\n");
    assert_eq!(y("08"), "k: \"08\"\n");
    assert_eq!(y("1e400"), "k: 1e400\n");
    assert_eq!(y("12:30"), "k: \"12:30\"\n");
    assert_eq!(y("2024-01-01T00:00:00Z"), "k: \"2024-01-01T00:00:00Z\"\n");
    assert_eq!(y("2024-02-30"), "k: 2024-02-30\n");
    assert_eq!(y("2024-1-2 3:04:05.5"), "k: \"2024-1-2 3:04:05.5\"\n");
    assert_eq!(y("***"), "k: '***'\n");
    assert_eq!(y("*** (before)"), "k: '*** (before)'\n");
    assert_eq!(y("a: b"), "k: 'a: b'\n");
    assert_eq!(y("it's"), "k: it's\n");
    assert_eq!(y("'q'"), "k: '''q'''\n");
    assert_eq!(y("- x"), "k: '- x'\n");
    assert_eq!(y("-x"), "k: -x\n");
    assert_eq!(y("a #b"), "k: 'a #b'\n");
    assert_eq!(y("a#b"), "k: a#b\n");
    assert_eq!(y(" lead"), "k: ' lead'\n");
    assert_eq!(y("tab\there"), "k: \"tab\\there\"\n");
    assert_eq!(y("é ü"), "k: é ü\n");
    assert_eq!(y("smile 😀"), "k: \"smile \\U0001F600\"\n");
    assert_eq!(y("v1.2.3"), "k: v1.2.3\n");
    assert_eq!(y("0x1F"), "k: \"0x1F\"\n");
    assert_eq!(y("1_000"), "k: \"1_000\"\n");
    assert_eq!(y("+.inf"), "k: \"+.inf\"\n");
}

#[test]
fn multi_line_strings_are_literal_blocks() {
    let y = |s: &str| to_yaml(&json!({ "k": s }));
    assert_eq!(y("a\nb\n"), "k: |\n  a\n  b\n");
    assert_eq!(y("a\nb"), "k: |-\n  a\n  b\n");
    assert_eq!(y("a\n\n"), "k: |+\n  a\n\n");
    assert_eq!(y(" a\nb"), "k: |2-\n   a\n  b\n");
    assert_eq!(y("a \nb"), "k: \"a \\nb\"\n");
    assert_eq!(y("a\tb\nc"), "k: \"a\\tb\\nc\"\n");
    assert_eq!(
        to_yaml(&json!({"a": {"b": ["x\ny"]}})),
        "a:\n  b:\n  - |-\n    x\n    y\n"
    );
}

#[test]
fn long_strings_fold_past_column_80() {
    let words = vec!["word"; 30].join(" ");
    let out = to_yaml(&json!({ "description": words }));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].chars().count() > 80 && lines[0].chars().count() <= 86);
    assert!(lines[1].starts_with("  word"));
    let long = format!("x{}", "y".repeat(200));
    assert_eq!(to_yaml(&json!({ "k": long })).lines().count(), 1);
}

#[test]
fn numbers_as_go_yaml_reads_go_json_back() {
    assert_eq!(
        to_yaml(&json!({"a": 1, "b": 1.5, "c": -3})),
        "a: 1\nb: 1.5\nc: -3\n"
    );
    assert_eq!(
        to_yaml(&json!({"a": 1e21, "b": 1e20, "c": 1_234_567.5})),
        "a: 1e+21\nb: 1e+20\nc: 1.2345675e+06\n"
    );
    assert_eq!(
        to_yaml(&json!({"a": 18_446_744_073_709_551_615u64})),
        "a: 1.8446744073709552e+19\n"
    );
}

#[test]
fn keys_in_go_yaml_order() {
    let mut keys = vec![
        "item10", "item2", "b", "B", "_x", "a.b", "a", "1", "10", "2",
    ];
    keys.sort_by(|a, b| key_order(a, b));
    assert_eq!(
        keys,
        [
            "_x", "1", "2", "10", "B", "a", "a.b", "b", "item2", "item10"
        ]
    );
    assert_eq!(
        to_yaml(&json!({"true": 1, "": 2})),
        "\"\": 2\n\"true\": 1\n"
    );
}

#[test]
fn long_keys_are_complex_keys() {
    let key = "k".repeat(129);
    assert_eq!(
        to_yaml(&json!({ key.clone(): 1 })),
        format!("? {key}\n: 1\n")
    );
}

/// Recorded from kubectl 1.37.1: `kubectl patch --local -f cm.json -p '{}' --type merge -o yaml`
/// (the same `sigs.k8s.io/yaml` printer `kubectl diff` uses).
const KUBECTL_INPUT: &str = r##"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"t","annotations":{"desc":"this is a long description with many words that will certainly go past the eighty column limit of go-yaml v2 emitter"}},
 "data":{"_x":"a","1":"b","10":"c","2":"d","B":"e","a":"f","a.b":"g","b":"h","item2":"i","item10":"j","a0":"k","a/":"l","x:":"m","x1":"n","01":"o","1a":"p",
 "s1":"true","s2":"","s3":"1.5","s4":"0755","s5":"08","s6":"1e400","s7":"12:30","s8":"2024-01-01T00:00:00Z","s9":"2024-02-30","s10":"***","s11":"a: b","s12":"it's","s13":"'q'","s14":"- x","s15":"-x","s16":"a #b","s17":"a#b","s18":" lead","s19":"tab\there","s20":"é ü","s21":"smile 😀","s22":"0x1F","s23":"1_000","s24":"+.inf","s25":"a\nb\n","s26":"a\nb","s27":"a\n\n","s28":" a\nb","s29":"a \nb","s30":"a\tb\nc","s31":"2024-1-2 3:04:05.5","s32":"y","s33":"~","s34":"null","s35":"1e3","s36":".5","s37":"1.","s38":"0b101","s39":"-0x1F","s40":"+5","s41":"9999999999999999999999","s42":"2024-01-01t10:00:00+02:00","s43":"\u00a0nbsp","s44":"x\u0085y","s45":"\ufeffbom","s46":"ctrl\u0001","s47":"long \"quoted\" text with spaces that goes beyond the eighty columns limit for sure, yes indeed it does","s48":"'single long text with spaces that goes beyond the eighty columns limit for sure, yes indeed it does'","s49":"\"","s50":"a: b c d e f g h i j k l m n o p q r s t u v w x y z a b c d e f g h i j k l m n o p q r s t u v w x y z",
 "multiline-with-tab":"line one\n\tindented with tab\n","x2":"  two leading spaces and a long text so that the folding might kick in at some point past eighty  columns","ends":"text\n\n\n","k":"-","q":"?","c":":","h":"#","e":"!foo","pct":"%x","at":"@x","bt":"`x","dash3":"---","dots":"...","comma":"a,b","br":"[x]","colon_end":"key:","sp_hash":"a # b"}}"##;
const KUBECTL_OUTPUT: &str = r##"apiVersion: v1
data:
  _x: a
  "1": b
  1a: p
  "01": o
  "2": d
  "10": c
  B: e
  a: f
  a.b: g
  a/: l
  a0: k
  at: '@x'
  b: h
  br: '[x]'
  bt: '`x'
  c: ':'
  colon_end: 'key:'
  comma: a,b
  dash3: '---'
  dots: '...'
  e: '!foo'
  ends: |+
    text


  h: '#'
  item2: i
  item10: j
  k: '-'
  multiline-with-tab: "line one\n\tindented with tab\n"
  pct: '%x'
  q: '?'
  s1: "true"
  s2: ""
  s3: "1.5"
  s4: "0755"
  s5: "08"
  s6: 1e400
  s7: "12:30"
  s8: "2024-01-01T00:00:00Z"
  s9: 2024-02-30
  s10: '***'
  s11: 'a: b'
  s12: it's
  s13: '''q'''
  s14: '- x'
  s15: -x
  s16: 'a #b'
  s17: a#b
  s18: ' lead'
  s19: "tab\there"
  s20: é ü
  s21: "smile \U0001F600"
  s22: "0x1F"
  s23: "1_000"
  s24: "+.inf"
  s25: |
    a
    b
  s26: |-
    a
    b
  s27: |+
    a

  s28: |2-
     a
    b
  s29: "a \nb"
  s30: "a\tb\nc"
  s31: "2024-1-2 3:04:05.5"
  s32: "y"
  s33: "~"
  s34: "null"
  s35: "1e3"
  s36: ".5"
  s37: "1."
  s38: "0b101"
  s39: "-0x1F"
  s40: "+5"
  s41: "9999999999999999999999"
  s42: "2024-01-01t10:00:00+02:00"
  s43:  nbsp
  s44: x y
  s45: "\uFEFF\x62\x6F\x6D"
  s46: "ctrl\x01"
  s47: long "quoted" text with spaces that goes beyond the eighty columns limit for
    sure, yes indeed it does
  s48: '''single long text with spaces that goes beyond the eighty columns limit for
    sure, yes indeed it does'''
  s49: '"'
  s50: 'a: b c d e f g h i j k l m n o p q r s t u v w x y z a b c d e f g h i j k
    l m n o p q r s t u v w x y z'
  sp_hash: 'a # b'
  'x:': m
  x1: "n"
  x2: '  two leading spaces and a long text so that the folding might kick in at some
    point past eighty  columns'
kind: ConfigMap
metadata:
  annotations:
    desc: this is a long description with many words that will certainly go past the
      eighty column limit of go-yaml v2 emitter
  name: t
"##;

#[test]
fn matches_kubectl_on_tricky_keys_and_strings() {
    let v: Value = serde_json::from_str(KUBECTL_INPUT).unwrap();
    pretty_assertions::assert_eq!(to_yaml(&v), KUBECTL_OUTPUT);
}

#[test]
fn null_root() {
    assert_eq!(to_yaml(&Value::Null), "null\n");
}

/// The byte scan of ASCII text finds what the character scan finds: every string of up to
/// four characters from those the analysis looks at.
#[test]
fn ascii_analysis_matches_the_character_scan() {
    use super::analyze::{analyze_ascii, analyze_chars};
    let alphabet = [
        ' ', '\t', '\n', '\r', ':', '#', '-', '?', '.', 'a', '\'', '{', '\0', '\u{7f}', '~',
    ];
    let mut texts = vec![String::new()];
    for _ in 0..4 {
        let longer: Vec<String> = texts
            .iter()
            .filter(|t| t.len() == texts.last().map_or(0, String::len))
            .flat_map(|t| alphabet.iter().map(move |c| format!("{t}{c}")))
            .collect();
        texts.extend(longer);
    }
    texts.extend(["---x", "...", "a: b", "a #b", "{\"k\":\"v\"}"].map(String::from));
    // Longer texts (the scan looks at eight bytes at a time): two characters at every place
    // of a 20-character ordinary text.
    let ordinary = "abcdefghij0123456789";
    for a in alphabet {
        for b in alphabet {
            for at in 0..=ordinary.len() {
                let (head, tail) = ordinary.split_at(at);
                texts.push(format!("{head}{a}{b}{tail}"));
                texts.push(format!("{head}{a}{tail}{b}"));
            }
        }
    }
    assert!(texts.len() > 50_000);
    for t in &texts {
        assert_eq!(
            analyze_ascii(t.as_bytes()),
            analyze_chars(t, t.chars()),
            "{t:?}"
        );
    }
}
