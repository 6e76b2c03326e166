//! Structure (merges, aliases, duplicate keys, flow and block syntax, escapes) and whole streams
//! (document separators, line ends, JSON and the JSON-to-YAML fallback) as kubectl 1.37.1 reads
//! them, recorded like `kubectl_scalars.rs`. In `STREAMS` and `JSON_STREAMS` the case is the
//! whole file and the answer the list of objects kubectl read (without the label it was asked
//! to add), `ERR ` and kubectl's error, or `NOT-AN-OBJECT ` and kubectl's error when the file
//! reads fine but a document is not an object with a kind (the loader returns it; callers
//! refuse it). Do not edit by hand.

/// Bodies after a ConfigMap header, as in `kubectl_scalars.rs`.
pub const STRUCTURE: &[(&str, &str)] = &[
    (
        "base: &b {a: 1, b: 2}\nv: {<<: *b, b: 3}\n",
        "{\"base\":{\"a\":1,\"b\":2},\"v\":{\"a\":1,\"b\":3}}",
    ),
    (
        "base: &b {a: 1, b: 2}\nv: {b: 3, <<: *b}\n",
        "{\"base\":{\"a\":1,\"b\":2},\"v\":{\"a\":1,\"b\":2}}",
    ),
    (
        "base: &b {a: 1, b: 2}\nv:\n  b: 3\n  <<: *b\n  a: 4\n",
        "{\"base\":{\"a\":1,\"b\":2},\"v\":{\"a\":4,\"b\":2}}",
    ),
    (
        "a1: &a {x: 1, y: 1}\nb1: &b {x: 2, z: 2}\nv: {<<: [*a, *b]}\n",
        "{\"a1\":{\"true\":1,\"x\":1},\"b1\":{\"x\":2,\"z\":2},\"v\":{\"true\":1,\"x\":1,\"z\":2}}",
    ),
    (
        "a1: &a {x: 1, y: 1}\nb1: &b {x: 2, z: 2}\nv: {<<: [*b, *a], z: 9}\n",
        "{\"a1\":{\"true\":1,\"x\":1},\"b1\":{\"x\":2,\"z\":2},\"v\":{\"true\":1,\"x\":2,\"z\":9}}",
    ),
    ("v: {<<: {a: 1}, b: 2}\n", "{\"v\":{\"a\":1,\"b\":2}}"),
    (
        "v: {<<: [{a: 1}, {a: 2, b: 2}]}\n",
        "{\"v\":{\"a\":1,\"b\":2}}",
    ),
    ("v: {\"<<\": {a: 1}}\n", "{\"v\":{\"<<\":{\"a\":1}}}"),
    ("v: {'<<': {a: 1}}\n", "{\"v\":{\"<<\":{\"a\":1}}}"),
    (
        "s: &s hello\nv: {<<: *s}\n",
        "ERR error converting YAML to JSON: yaml: map merge requires map or sequence of maps as the value",
    ),
    (
        "v: {<<: [1]}\n",
        "ERR error converting YAML to JSON: yaml: map merge requires map or sequence of maps as the value",
    ),
    (
        "v: {<<: ~}\n",
        "ERR error converting YAML to JSON: yaml: map merge requires map or sequence of maps as the value",
    ),
    ("v: {<<: []}\n", "{\"v\":{}}"),
    (
        "a1: &a {x: 1, <<: {deep: 1}}\nv: {<<: *a}\n",
        "{\"a1\":{\"deep\":1,\"x\":1},\"v\":{\"deep\":1,\"x\":1}}",
    ),
    ("v:\n  a: 1\n  a: 2\n", "{\"v\":{\"a\":2}}"),
    (
        "v:\n  a: {x: 1}\n  a: {y: 2}\n",
        "{\"v\":{\"a\":{\"true\":2}}}",
    ),
    ("v:\n  n: 1\n  no: 2\n  off: 3\n", "{\"v\":{\"false\":3}}"),
    ("v:\n  true: 1\n  \"true\": 2\n", "{\"v\":{\"true\":2}}"),
    ("v:\n  1: a\n  \"1\": b\n", "{\"v\":{\"1\":\"b\"}}"),
    ("a: &x 1\nv: *x\n", "{\"a\":1,\"v\":1}"),
    (
        "a: &x [1, 2]\nv: [*x, *x]\n",
        "{\"a\":[1,2],\"v\":[[1,2],[1,2]]}",
    ),
    (
        "v: *undefined\n",
        "ERR error converting YAML to JSON: yaml: unknown anchor 'undefined' referenced",
    ),
    ("a: &x 1\na2: &x 2\nv: *x\n", "{\"a\":1,\"a2\":2,\"v\":2}"),
    (
        "v: &x [*x]\n",
        "ERR error converting YAML to JSON: yaml: anchor 'x' value contains itself",
    ),
    (
        "v: &x {a: *x}\n",
        "ERR error converting YAML to JSON: yaml: anchor 'x' value contains itself",
    ),
    (
        "a: &x {k: 1}\nv: {*x : 1}\n",
        "ERR error converting YAML to JSON: yaml: invalid map key: map[interface {}]interface {}{\"k\":1}",
    ),
    ("a: &x k\nv: {*x : 1}\n", "{\"a\":\"k\",\"v\":{\"k\":1}}"),
    ("v: {a, b: 1}\n", "{\"v\":{\"a\":null,\"b\":1}}"),
    ("v: [a, b, ]\n", "{\"v\":[\"a\",\"b\"]}"),
    ("v: {a: 1, }\n", "{\"v\":{\"a\":1}}"),
    ("v: [a: 1, b]\n", "{\"v\":[{\"a\":1},\"b\"]}"),
    ("v: {\"a\":1}\n", "{\"v\":{\"a\":1}}"),
    (
        "v: {\"a\":1, \"b\":[1,2]}\n",
        "{\"v\":{\"a\":1,\"b\":[1,2]}}",
    ),
    ("v: [\"a\":1]\n", "{\"v\":[{\"a\":1}]}"),
    ("v: {a:1}\n", "{\"v\":{\"a:1\":null}}"),
    ("v: [a:1]\n", "{\"v\":[\"a:1\"]}"),
    ("v: a:b\n", "{\"v\":\"a:b\"}"),
    (
        "v: \"a\\x41\\u00e9\\U0001F600\\/\\N\\_\\L\\P\\e\\0\\a\\t\\ b\"\n",
        "ERR error converting YAML to JSON: yaml: line 5: found unknown escape character",
    ),
    ("v: \"tab\\\tx\"\n", "{\"v\":\"tab\\tx\"}"),
    ("v: 'it''s'\n", "{\"v\":\"it's\"}"),
    ("v: |\n  line1\n  line2\n", "{\"v\":\"line1\\nline2\\n\"}"),
    ("v: |-\n  yes\n", "{\"v\":\"yes\"}"),
    ("v: |+\n  keep\n\n", "{\"v\":\"keep\\n\\n\"}"),
    (
        "v: >\n  folded\n  text\n\n  para\n",
        "{\"v\":\"folded text\\npara\\n\"}",
    ),
    ("v: |2\n   indented\n", "{\"v\":\" indented\\n\"}"),
    (
        "v: plain\n  continued\n   more\n",
        "{\"v\":\"plain continued more\"}",
    ),
    ("v: a # comment\n", "{\"v\":\"a\"}"),
    ("v: a#b\n", "{\"v\":\"a#b\"}"),
    ("v:\ttab\n", "{\"v\":\"tab\"}"),
    ("v: a\t# tab comment\n", "{\"v\":\"a\"}"),
    (
        "? complex\n: value\nv: 1\n",
        "{\"complex\":\"value\",\"v\":1}",
    ),
    (
        "? [a, b]\n: value\n",
        "ERR error converting YAML to JSON: yaml: invalid map key: []interface {}{\"a\", \"b\"}",
    ),
    ("v:\n- a\n- b\n", "{\"v\":[\"a\",\"b\"]}"),
    ("v:\n  - a\n  -\n  - c\n", "{\"v\":[\"a\",null,\"c\"]}"),
    (
        "v: -\n",
        "ERR error converting YAML to JSON: yaml: line 5: block sequence entries are not allowed in this context",
    ),
    (
        "v: - a\n",
        "ERR error converting YAML to JSON: yaml: line 5: block sequence entries are not allowed in this context",
    ),
    (
        "v: &anchor.with.dot 1\nw: *anchor.with.dot\n",
        "ERR error converting YAML to JSON: yaml: line 5: did not find expected alphabetic or numeric character",
    ),
    (
        "v: &a/b 1\nw: *a/b\n",
        "ERR error converting YAML to JSON: yaml: line 5: did not find expected alphabetic or numeric character",
    ),
    ("v: [&a 1, *a]\n", "{\"v\":[1,1]}"),
    (
        "v: x: y\n",
        "ERR error converting YAML to JSON: yaml: line 5: mapping values are not allowed in this context",
    ),
    (
        "v: a: b: c\n",
        "ERR error converting YAML to JSON: yaml: line 5: mapping values are not allowed in this context",
    ),
    ("v: \"multi\n  line\"\n", "{\"v\":\"multi line\"}"),
    ("v: 'multi\n\n  line'\n", "{\"v\":\"multi\\nline\"}"),
    (
        "v: @foo\n",
        "ERR error converting YAML to JSON: yaml: line 5: found character that cannot start any token",
    ),
    (
        "v: `foo\n",
        "ERR error converting YAML to JSON: yaml: line 5: found character that cannot start any token",
    ),
    (
        "v: %foo\n",
        "ERR error converting YAML to JSON: yaml: line 5: found character that cannot start any token",
    ),
    (
        "v: !foo!bar x\n",
        "ERR error converting YAML to JSON: yaml: line 4: found undefined tag handle",
    ),
    ("v: a  \n", "{\"v\":\"a\"}"),
    (
        "v: 'a' x\n",
        "ERR error converting YAML to JSON: yaml: line 4: did not find expected key",
    ),
    ("v: [1, [2, [3]]]\n", "{\"v\":[1,[2,[3]]]}"),
    (
        "v: {a: {b: {c: [1, {d: e}]}}}\n",
        "{\"v\":{\"a\":{\"b\":{\"c\":[1,{\"d\":\"e\"}]}}}}",
    ),
    ("v: ?x\n", "{\"v\":\"?x\"}"),
    ("v: :x\n", "{\"v\":\":x\"}"),
    (
        "v: x:\n",
        "ERR error converting YAML to JSON: yaml: line 5: mapping values are not allowed in this context",
    ),
    ("v: x:y:z\n", "{\"v\":\"x:y:z\"}"),
    ("v: {x: 1, x: 2}\n", "{\"v\":{\"x\":2}}"),
    ("v: [{a: 1}, {a: 2}]\n", "{\"v\":[{\"a\":1},{\"a\":2}]}"),
    ("v:  \t  spaced\n", "{\"v\":\"spaced\"}"),
    (
        "v: \"\"x\n",
        "ERR error converting YAML to JSON: yaml: line 4: did not find expected key",
    ),
    ("\"v\": 1\n", "{\"v\":1}"),
    ("v: é\n", "{\"v\":\"é\"}"),
    ("v: \"\\u0000\"\n", "{\"v\":\"\\u0000\"}"),
    ("v: \"\\x80\"\n", "{\"v\":\"\u{80}\"}"),
    ("v: \"it\\'s\"\n", "{\"v\":\"it's\"}"),
    (
        "v: \"a\\'b\\'c\"\nw: 'x'\n",
        "{\"v\":\"a'b'c\",\"w\":\"x\"}",
    ),
    ("v: [\"\\'\", \"b\"]\n", "{\"v\":[\"'\",\"b\"]}"),
    (
        "v:\t- a\n",
        "ERR error converting YAML to JSON: yaml: line 5: block sequence entries are not allowed in this context",
    ),
    ("v:\t\ttwo tabs\n", "{\"v\":\"two tabs\"}"),
    ("v:\n- a:\tb\n", "{\"v\":[{\"a\":\"b\"}]}"),
    ("v: {a:\tb}\n", "{\"v\":{\"a\":\"b\"}}"),
    ("? a\n: b\n", "{\"a\":\"b\"}"),
    ("? |\n  block key\n: v\n", "{\"block key\\n\":\"v\"}"),
    ("v:\n  ? a\n", "{\"v\":{\"a\":null}}"),
    ("v: {? a}\n", "{\"v\":{\"a\":null}}"),
    ("v: [? a : b]\n", "{\"v\":[{\"a\":\"b\"}]}"),
    ("v: {? a : b, c: d}\n", "{\"v\":{\"a\":\"b\",\"c\":\"d\"}}"),
    (
        "k: &k key\nv: {*k : 1}\n",
        "{\"k\":\"key\",\"v\":{\"key\":1}}",
    ),
    ("&k key: 1\nv: *k\n", "{\"key\":1,\"v\":\"key\"}"),
    (
        "a: &a {x: 1}\nb: &b {<<: *a, y: 2}\nv: {<<: *b, z: 3}\n",
        "{\"a\":{\"x\":1},\"b\":{\"true\":2,\"x\":1},\"v\":{\"true\":2,\"x\":1,\"z\":3}}",
    ),
    (
        "a: &a {x: 1, y: *c}\n",
        "ERR error converting YAML to JSON: yaml: unknown anchor 'c' referenced",
    ),
    (
        "a: &a [1, 2]\nv: {<<: *a}\n",
        "ERR error converting YAML to JSON: yaml: map merge requires map or sequence of maps as the value",
    ),
    (
        "a: &a {x: 1}\nv: {<<: [*a, {y: 2}]}\n",
        "{\"a\":{\"x\":1},\"v\":{\"true\":2,\"x\":1}}",
    ),
    (
        "v:\n  <<: {a: 1}\n  <<: {a: 2, b: 2}\n",
        "{\"v\":{\"a\":2,\"b\":2}}",
    ),
    ("v: [{<<: {a: 1}, b: 2}]\n", "{\"v\":[{\"a\":1,\"b\":2}]}"),
    (
        "v: {\"<<\": {a: 1}, b: 2}\n",
        "{\"v\":{\"<<\":{\"a\":1},\"b\":2}}",
    ),
    ("v: {!!merge \"<<\": {a: 1}}\n", "{\"v\":{\"a\":1}}"),
    ("v: {! <<: {a: 1}}\n", "{\"v\":{\"a\":1}}"),
    ("v: |+\n  keep\n\n", "{\"v\":\"keep\\n\\n\"}"),
    ("v: |-\n  strip\n\n\n", "{\"v\":\"strip\"}"),
    (
        "v: >-\n  folded\n    more indented\n  back\n",
        "{\"v\":\"folded\\n  more indented\\nback\"}",
    ),
    ("v: >\n  a\n\n  b\n\n\n", "{\"v\":\"a\\nb\\n\"}"),
    ("v: |1\n  x\n", "{\"v\":\" x\\n\"}"),
    (
        "v: |\n   indented more\n  less\n",
        "ERR error converting YAML to JSON: yaml: line 6: did not find expected key",
    ),
    (
        "v: a\n  # not a comment\n  b\n",
        "ERR error converting YAML to JSON: yaml: line 6: did not find expected key",
    ),
    ("v: a\n  # comment? \nx: 1\n", "{\"v\":\"a\",\"x\":1}"),
    (
        "v: [a, [b, c], {d: e}, [], {}]\n",
        "{\"v\":[\"a\",[\"b\",\"c\"],{\"d\":\"e\"},[],{}]}",
    ),
    (
        "v: {a: [1, 2], b: {c: d}, e: []}\n",
        "{\"v\":{\"a\":[1,2],\"b\":{\"c\":\"d\"},\"e\":[]}}",
    ),
    ("v: ---\n", "{\"v\":\"---\"}"),
    ("v: ...\n", "{\"v\":\"...\"}"),
    ("v: a---b\n", "{\"v\":\"a---b\"}"),
    ("v: b #c\nw: b#c\n", "{\"v\":\"b\",\"w\":\"b#c\"}"),
    ("v:\n  - a\n  # comment\n  - b\n", "{\"v\":[\"a\",\"b\"]}"),
    ("v:\n    - a\n    - b\n", "{\"v\":[\"a\",\"b\"]}"),
    (
        "v:\n  -   a: 1\n      b: 2\n",
        "{\"v\":[{\"a\":1,\"b\":2}]}",
    ),
    (
        "v:\n  - - a\n    - b\n  - - c\n",
        "{\"v\":[[\"a\",\"b\"],[\"c\"]]}",
    ),
    ("v: a\tb\n", "{\"v\":\"a\\tb\"}"),
    ("v: \"a\tb\"\n", "{\"v\":\"a\\tb\"}"),
    ("v: \"a   \n  b\"\n", "{\"v\":\"a b\"}"),
    (
        "ключ: значение\nv: 😀\n",
        "{\"v\":\"😀\",\"ключ\":\"значение\"}",
    ),
    ("v: 'a''b'\n", "{\"v\":\"a'b\"}"),
    ("v: ''''\n", "{\"v\":\"'\"}"),
    ("v: '\n  a\n  '\n", "{\"v\":\" a \"}"),
    ("v: \"\\\n  a\"\n", "{\"v\":\"a\"}"),
    ("v: !!str\n", "{\"v\":\"\"}"),
    ("v: !!binary |\n  aGVs\n  bG8=\n", "{\"v\":\"hello\"}"),
    (
        "v: &a\n  x: 1\nw: *a\n",
        "{\"v\":{\"x\":1},\"w\":{\"x\":1}}",
    ),
    (
        "v: &a !!str 1\nw: !!int *a\n",
        "ERR error converting YAML to JSON: yaml: line 5: did not find expected key",
    ),
    (
        "v: [*a]\n",
        "ERR error converting YAML to JSON: yaml: unknown anchor 'a' referenced",
    ),
    ("v: 1\nv: 2\nv: 3\n", "{\"v\":3}"),
    ("v: {a: 1, a: {b: 2}}\n", "{\"v\":{\"a\":{\"b\":2}}}"),
    ("v:\n  x: 1\n  <<: {x: 2}\n  x: 3\n", "{\"v\":{\"x\":3}}"),
    ("v: !custom {a: 1}\n", "{\"v\":{\"a\":1}}"),
    ("v: !!set {a, b}\n", "{\"v\":{\"a\":null,\"b\":null}}"),
    ("v: !!omap [a: 1, b: 2]\n", "{\"v\":[{\"a\":1},{\"b\":2}]}"),
    ("v: 0o17\nw: 0O17\n", "{\"v\":15,\"w\":15}"),
    (
        "v: 1e3\nw: -1e3\nx: +1e3\n",
        "{\"v\":1000,\"w\":-1000,\"x\":1000}",
    ),
    ("v: 0.1e1\nw: 10e-1\n", "{\"v\":1,\"w\":1}"),
    ("v: 123_456_789\n", "{\"v\":123456789}"),
    ("v: 0x_\n", "{\"v\":\"0x_\"}"),
    ("v: 0b_\n", "{\"v\":\"0b_\"}"),
    ("v: 1__\n", "{\"v\":1}"),
    ("v: +_1\n", "{\"v\":1}"),
    ("v: -_1\n", "{\"v\":-1}"),
    ("v: 0_\n", "{\"v\":0}"),
    ("v: 00_1\n", "{\"v\":1}"),
    ("v: 1_._5\n", "{\"v\":1.5}"),
    ("v: 0.0e0\n", "{\"v\":0}"),
    ("v: 1e+0\n", "{\"v\":1}"),
    ("v: 9223372036854775807.5\n", "{\"v\":9223372036854776000}"),
    ("v: 100000000000000000000000\n", "{\"v\":1e+23}"),
    ("v: 0.30000000000000004\n", "{\"v\":0.30000000000000004}"),
    ("v: 1.0000000000000002\n", "{\"v\":1.0000000000000002}"),
    ("v: 123456789012345678\n", "{\"v\":123456789012345678}"),
    ("v: 1.23456789012345678e17\n", "{\"v\":123456789012345680}"),
];

/// Whole YAML files.
pub const STREAMS: &[(&str, &str)] = &[
    (
        "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}},{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\"}}]",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\n---\n# only comment\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n...\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}},{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\"}}]",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n--- # comment\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}},{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\"}}]",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n--- \t\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}},{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\"}}]",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n--- {a: 1}\n",
        "ERR invalid Yaml document separator: {a: 1}",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n----\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n",
        "ERR invalid Yaml document separator: -",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---x\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n",
        "ERR invalid Yaml document separator: x",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n...\nv: 2\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}]",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n...\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}},{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\"}}]",
    ),
    ("# just a comment\n", "[]"),
    ("---\n", "[]"),
    ("~\n", "[]"),
    ("null\n", "[]"),
    (
        "hello\n",
        "NOT-AN-OBJECT unable to decode \"F\": json: cannot unmarshal string into Go value of type unstructured.detector",
    ),
    (
        "[]\n",
        "NOT-AN-OBJECT unable to decode \"F\": json: cannot unmarshal array into Go value of type unstructured.detector",
    ),
    (
        "[{}]\n",
        "NOT-AN-OBJECT unable to decode \"F\": json: cannot unmarshal array into Go value of type unstructured.detector",
    ),
    (
        "%YAML 1.1\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
        "ERR error converting YAML to JSON: yaml: line 1: did not find expected <document start>",
    ),
    (
        "%YAML 1.2\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
        "ERR error converting YAML to JSON: yaml: found incompatible YAML document",
    ),
    (
        "\u{feff}apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}]",
    ),
    (
        "\u{feff}{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":1.0}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":1}]",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: a\nb\n",
        "ERR error converting YAML to JSON: yaml: line 7: could not find expected ':'",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: \"a\u{2028}b\"\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"a\u{2028}b\"}]",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: a\u{2028}b\n",
        "ERR error converting YAML to JSON: yaml: line 7: could not find expected ':'",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: a\u{85}b\n",
        "ERR error converting YAML to JSON: yaml: line 7: could not find expected ':'",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: \u{a0}x\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"\u{a0}x\"}]",
    ),
    (
        "  apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}]",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: \"\\/\"\n",
        "ERR error converting YAML to JSON: yaml: line 5: found unknown escape character",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: \"\\x41\"\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"A\"}]",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: \"\\u00e9\\U0001F600\"\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"é😀\"}]",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: \"\\N\\_\\L\\P\"\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"\u{85}\u{a0}\u{2028}\u{2029}\"}]",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: \"\\e\\0\\a\\t\\ \\v\\f\\b\\r\"\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"\\u001b\\u0000\\u0007\\t \\u000b\\f\\b\\r\"}]",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: \"\\x80\"\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"\u{80}\"}]",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: \"\\ud800\"\n",
        "ERR error converting YAML to JSON: yaml: line 5: found invalid Unicode character escape code",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: \"\\\"\"\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"\\\"\"}]",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: \"\\'\"\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"'\"}]",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n\tv: 1\n",
        "ERR error converting YAML to JSON: yaml: line 5: found a tab character that violates indentation",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv:\n\t- 1\n",
        "ERR error converting YAML to JSON: yaml: line 6: found character that cannot start any token",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: 1\n v2: 2\n",
        "ERR error converting YAML to JSON: yaml: line 6: mapping values are not allowed in this context",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: [1, 2\n",
        "ERR error converting YAML to JSON: yaml: line 5: did not find expected ',' or ']'",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: 'unterminated\n",
        "ERR error converting YAML to JSON: yaml: line 6: found unexpected end of stream",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: x\u{1}y\n",
        "ERR error converting YAML to JSON: yaml: control characters are not allowed",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: x\u{7f}y\n",
        "ERR error converting YAML to JSON: yaml: control characters are not allowed",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: \"x\u{1}y\"\n",
        "ERR error converting YAML to JSON: yaml: control characters are not allowed",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: x\u{0}y\n",
        "ERR error converting YAML to JSON: yaml: control characters are not allowed",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv:\n  - a\n   - b\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":[\"a - b\"]}]",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv:\n    a: 1\n  b: 2\n",
        "ERR error converting YAML to JSON: yaml: line 6: did not find expected key",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: |\n  a\n ---\n",
        "ERR error converting YAML to JSON: yaml: line 6: did not find expected key",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: |\n  a\n---\nb: |\n  x\n",
        "NOT-AN-OBJECT unable to decode \"F\": Object 'Kind' is missing in '{\"b\":\"x\\n\"}'",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: [\n---\n]\n",
        "ERR error converting YAML to JSON: yaml: line 5: did not find expected node content",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: !!str &a 1\nw: *a\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"1\",\"w\":\"1\"}]",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: &a !!int '1'\nw: *a\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":1,\"w\":1}]",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n%TAG ! tag:example.com,2000:\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}]",
    ),
    (
        "%TAG !e! tag:example.com,2000:\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: !e!foo 1\n",
        "ERR error converting YAML to JSON: yaml: line 1: did not find expected <document start>",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: *a\n",
        "ERR error converting YAML to JSON: yaml: unknown anchor 'a' referenced",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: &a\nw: *a\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":null,\"w\":null}]",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: &a [1]\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\nw: *a\n",
        "ERR error converting YAML to JSON: yaml: unknown anchor 'a' referenced",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: |\n  text",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"text\\n\"}]",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: |-\n  text",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"text\"}]",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: >\n  text",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"text\\n\"}]",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: |\n  a\n  b\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"a\\nb\\n\"}]",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: 'x\n  y'\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"x y\"}]",
    ),
    (
        "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}]",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---#c\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}},{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\"}}]",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n--- |\n  x\n",
        "ERR invalid Yaml document separator: |",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n--- !!map\n",
        "ERR invalid Yaml document separator: !!map",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n--- &a\n",
        "ERR invalid Yaml document separator: &a",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\t\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}},{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\"}}]",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n\n---\n\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}},{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\"}}]",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n...\n...\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}},{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\"}}]",
    ),
    (
        "# c\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n# trailing\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}]",
    ),
    (
        "   \napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}]",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: |\r\n  a\r\n  b\r\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"a\\nb\\n\"}]",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: 'x\r\n  y'\r\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"x y\"}]",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: \"x\r\n  y\"\r\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"x y\"}]",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: a\r\n  b\r\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"a b\"}]",
    ),
    (
        "---\r\napiVersion: v1\r\nkind: ConfigMap\r\nmetadata:\r\n  name: a\r\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}]",
    ),
    (
        "apiVersion: v1\r\nkind: ConfigMap\r\nmetadata:\r\n  name: a\r\n---\r\napiVersion: v1\r\nkind: ConfigMap\r\nmetadata:\r\n  name: b\r\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}},{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\"}}]",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: a\rb\n",
        "ERR error converting YAML to JSON: yaml: line 7: could not find expected ':'",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: |\n  a\r  b\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"a\\nb\\n\"}]",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: x\r",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"x\"}]",
    ),
    (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nv: >\r\n  a\r\n  b\r\n\r\n  c\r\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"a b\\nc\\n\"}]",
    ),
];

/// Whole files starting with `{`.
pub const JSON_STREAMS: &[(&str, &str)] = &[
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":1.0}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":1}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":[1.0, 1e3, 1E3, 1.5e3, 12345678901234567890, 9223372036854775807, 9223372036854775808, -0, -0.0, 0.1, 1e21, 1e20, 1e-7, 100000000000000000000]}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":[1,1000,1000,1500,12345678901234567000,9223372036854775807,9223372036854776000,0,-0,0.1,1e+21,100000000000000000000,1e-7,100000000000000000000]}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":1E400}\n",
        "ERR unable to decode \"F\": json: cannot unmarshal number 1E400 into Go value of type float64",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":yes}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":true}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"x\",}}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"x\"}]",
    ),
    (
        "{apiVersion: v1, kind: ConfigMap, metadata: {name: a}, v: yes, w: 010}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":true,\"w\":8}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\"}}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}},{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\"}}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}\n{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\"}}\n{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\"}}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}},{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\"}},{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\"}}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\nv: yes\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}},{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\"},\"v\":true}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}\n{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\"}}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n",
        "ERR invalid character '-' in numeric literal",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}\nv: 1\n",
        "NOT-AN-OBJECT unable to decode \"F\": Object 'Kind' is missing in '{\"v\":1}'",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":1,\"v\":2}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":2}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"\\u00e9\\ud83d\\ude00\\/\"}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"é😀/\"}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"\\ud800\"}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"�\"}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"\\x41\"}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"A\"}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"tab\there\"}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"tab\\there\"}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"\u{1}\"}\n",
        "ERR json: offset 68: invalid character '\\x01' in string literal",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":01}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":1}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":.5}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":0.5}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":+1}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":1}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":1.}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":1}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":null, \"w\": true, \"x\": false}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":null,\"w\":true,\"x\":false}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":NaN}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"NaN\"}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}} trailing garbage\n",
        "NOT-AN-OBJECT unable to decode \"F\": json: cannot unmarshal string into Go value of type unstructured.detector",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}\n[1]\n",
        "NOT-AN-OBJECT unable to decode \"F\": json: cannot unmarshal array into Go value of type unstructured.detector",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}\n\"str\"\n",
        "NOT-AN-OBJECT unable to decode \"F\": json: cannot unmarshal string into Go value of type unstructured.detector",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}\nnull\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}\n123\n",
        "NOT-AN-OBJECT unable to decode \"F\": json: cannot unmarshal number into Go value of type unstructured.detector",
    ),
    (
        "\n \t{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":{\"a\":{\"b\":[{\"c\":1}]}}}",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":{\"a\":{\"b\":[{\"c\":1}]}}}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"a\\u0000b\"}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"a\\u0000b\"}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}, // comment\n\"v\":1}\n",
        "[{\"// comment \\\"v\\\":1\":null,\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"V\":1,\"v\":2}\n",
        "[{\"V\":1,\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":2}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"ÿ\"}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"ÿ\"}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":[1,2,]}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":[1,2]}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":1}}\n",
        "ERR json: offset 69: invalid character '}' looking for beginning of value",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}\n{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\"}}\n{bad\n",
        "ERR invalid character 'b' looking for beginning of object key string",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}\n{bad\n",
        "ERR json: offset 65: invalid character 'b' looking for beginning of object key string",
    ),
    ("{\"a\":1 ", "ERR unexpected EOF"),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":-}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"-\"}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":1e}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"1e\"}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":-01}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":-1}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":1.5e+3}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":1500}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"\\u0076\":1}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":1}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\n\"v\":\n1.0\n}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":1}]",
    ),
    (
        "{}\n",
        "NOT-AN-OBJECT unable to decode \"F\": Object 'Kind' is missing in '{}'",
    ),
    (
        "{}\n{}\n",
        "NOT-AN-OBJECT unable to decode \"F\": Object 'Kind' is missing in '{}'\nunable to decode \"F\": Object 'Kind' is missing in '{}'",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}\n{}\n",
        "NOT-AN-OBJECT unable to decode \"F\": Object 'Kind' is missing in '{}'",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":[1E+2,-1.5e-3,1e-7,-9223372036854775809,0.1,1e0]}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":[100,-0.0015,1e-7,-9223372036854776000,0.1,1]}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"\\u0041\\n\\t\\\"\\\\\\/\"}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"A\\n\\t\\\"\\\\/\"}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"é\u{2028}\"}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"é\u{2028}\"}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":true,\"w\":false,\"x\":null,\"y\":{},\"z\":[]}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":true,\"w\":false,\"x\":null,\"y\":{},\"z\":[]}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}\n\n\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}   {\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\"}}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}},{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\"}}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}\n---\n{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\"}}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}},{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\"}}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}},{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\"}}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}\n# comment\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}},{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\"}}]",
    ),
    (
        "{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"ConfigMap\",\n  \"metadata\": {\"name\": \"a\"},\n  \"v\": [1, 2,\n  3]\n}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":[1,2,3]}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":0}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":0}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":-0.0e0}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":-0}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":1e308}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":1e+308}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":1e309}\n",
        "ERR unable to decode \"F\": json: cannot unmarshal number 1e309 into Go value of type float64",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":123456789012345678901234567890}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":1.2345678901234568e+29}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"tab\there\"}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"tab\\there\"}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"a\u{7f}b\"}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"a\u{7f}b\"}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"\\u00\"}\n",
        "ERR json: offset 72: invalid character '\"' in \\u hexadecimal character escape",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"\\ud83d\\ude00\\udc00\\ud800x\"}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"😀��x\"}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"x\"} {\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\"}} {\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\"}}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":\"x\"},{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\"}},{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\"}}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}\n\"v\": 1\n",
        "ERR unable to decode \"F\": json: cannot unmarshal string into Go value of type unstructured.detector\nerror parsing F: invalid character ':' looking for beginning of value",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}\n- item\n",
        "NOT-AN-OBJECT unable to decode \"F\": json: cannot unmarshal array into Go value of type unstructured.detector",
    ),
    (
        "{ \"apiVersion\" : \"v1\" , \"kind\" : \"ConfigMap\" , \"metadata\" : { \"name\" : \"a\" } }\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}]",
    ),
    (
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":{\"k\":1,\"k\":2}}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"v\":{\"k\":2}}]",
    ),
    (
        "\t{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}]",
    ),
    (
        "\u{a0}{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}\n",
        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}]",
    ),
];
