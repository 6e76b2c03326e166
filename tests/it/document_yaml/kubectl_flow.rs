//! Flow collections and tags as kubectl 1.37.1 reads them (go-yaml v2's flow rules: indentation
//! not looked at, `?` and `:` always indicators, comments without a blank before them; tags
//! taking `,` `[` `]` `!` and not `#`, in any context), recorded with `python3 bench/yaml_table.py` (`kubectl label --local -f FILE
//! a=b -o json` on a ConfigMap whose extra top-level fields are the body). Each answer is the
//! object kubectl printed without `apiVersion`, `kind` and `metadata`, as compact JSON, or `ERR `
//! and kubectl's error. Do not edit by hand.

pub const FLOW: &[(&str, &str)] = &[
    (
        "spec:\n  args: [a,\n  b]\n",
        "{\"spec\":{\"args\":[\"a\",\"b\"]}}",
    ),
    (
        "spec:\n  containers:\n  - command: [\"sh\", \"-c\",\n    \"echo hi\"]\n",
        "{\"spec\":{\"containers\":[{\"command\":[\"sh\",\"-c\",\"echo hi\"]}]}}",
    ),
    ("spec:\n  v: [a,\nb]\n", "{\"spec\":{\"v\":[\"a\",\"b\"]}}"),
    (
        "spec:\n  v: {a: 1,\n  b: 2}\n",
        "{\"spec\":{\"v\":{\"a\":1,\"b\":2}}}",
    ),
    (
        "spec:\n  v:\n  - [a,\n  b]\n",
        "{\"spec\":{\"v\":[[\"a\",\"b\"]]}}",
    ),
    (
        "spec:\n  v: {\n  a: 1\n  }\n",
        "{\"spec\":{\"v\":{\"a\":1}}}",
    ),
    (
        "spec:\n  v: [\n\"é\",\nü]\n",
        "{\"spec\":{\"v\":[\"é\",\"ü\"]}}",
    ),
    (
        "spec:\n  v: [a,\n  b] # c\n  w: 1\n",
        "{\"spec\":{\"v\":[\"a\",\"b\"],\"w\":1}}",
    ),
    (
        "spec:\n  v: [a,\n  b]#c\n",
        "{\"spec\":{\"v\":[\"a\",\"b\"]}}",
    ),
    (
        "spec:\n  v: [a\n\tb]\n",
        "ERR error: error parsing FILE: error converting YAML to JSON: yaml: line 7: found a tab character that violates indentation",
    ),
    (
        "spec:\n  v: [&x a,\n  b]\n  w: *x\n",
        "{\"spec\":{\"v\":[\"a\",\"b\"],\"w\":\"a\"}}",
    ),
    (
        "spec:\n  v: [a,\n  b] c\n",
        "ERR error: error parsing FILE: error converting YAML to JSON: yaml: line 6: did not find expected key",
    ),
    ("v: [?x, yes!]\n", "{\"v\":[{\"x\":null},\"yes!\"]}"),
    ("v: {?x: y}\n", "{\"v\":{\"x\":true}}"),
    ("v: [?x: 1, b]\n", "{\"v\":[{\"x\":1},\"b\"]}"),
    (
        "v: [a?b]\n",
        "ERR error: error parsing FILE: error converting YAML to JSON: yaml: line 4: did not find expected ',' or ']'",
    ),
    (
        "v: [http://h/p?q=1]\n",
        "ERR error: error parsing FILE: error converting YAML to JSON: yaml: line 4: did not find expected ',' or ']'",
    ),
    (
        "v: {a: x?y}\n",
        "ERR error: error parsing FILE: error converting YAML to JSON: yaml: line 4: did not find expected ',' or '}'",
    ),
    ("v: [? x]\n", "{\"v\":[{\"x\":null}]}"),
    ("v: [?\"x\", ?'y']\n", "{\"v\":[{\"x\":null},{\"y\":null}]}"),
    (
        "v: [?]\n",
        "ERR error: error parsing FILE: error converting YAML to JSON: yaml: line 5: did not find expected ',' or ']'",
    ),
    (
        "v: {a: ?x}\n",
        "ERR error: error parsing FILE: error converting YAML to JSON: yaml: line 4: did not find expected node content",
    ),
    ("v: [x:]\n", "{\"v\":[\"x:\"]}"),
    ("v: {a: b:}\n", "{\"v\":{\"a\":\"b:\"}}"),
    (
        "v: [:x]\n",
        "ERR error: error parsing FILE: error converting YAML to JSON: yaml: line 4: did not find expected node content",
    ),
    ("v: [a:b, c: d]\n", "{\"v\":[\"a:b\",{\"c\":\"d\"}]}"),
    ("v: [!!str, .5]\n", "{\"v\":[\".5\"]}"),
    ("v: [a, !!int, 5]\n", "{\"v\":[\"a\",\"5\"]}"),
    (
        "v: [!!str]\n",
        "ERR error: error parsing FILE: error converting YAML to JSON: yaml: line 5: did not find expected ',' or ']'",
    ),
    (
        "v: {a: !!str}\n",
        "ERR error: error parsing FILE: error converting YAML to JSON: yaml: line 5: did not find expected whitespace or line break",
    ),
    ("v: [!x,y, b]\n", "{\"v\":[\"b\"]}"),
    (
        "v: [!a#b]\n",
        "ERR error: error parsing FILE: error converting YAML to JSON: yaml: line 5: did not find expected whitespace or line break",
    ),
    ("v: [a,#c\n  b]\n", "{\"v\":[\"a\",\"b\"]}"),
    ("v: {a: 1}#c\n", "{\"v\":{\"a\":1}}"),
    ("v: [&a, b]\n", "{\"v\":[null,\"b\"]}"),
    ("v: [&a x, *a]\n", "{\"v\":[\"x\",\"x\"]}"),
    (
        "v: [\"a\n  b\": 1]\n",
        "ERR error: error parsing FILE: error converting YAML to JSON: yaml: line 5: did not find expected ',' or ']'",
    ),
    (
        "v: [-x, - y]\n",
        "ERR error: error parsing FILE: error converting YAML to JSON: yaml: line 4: did not find expected node content",
    ),
    ("v: {a: 1\n  , b: 2}\n", "{\"v\":{\"a\":1,\"b\":2}}"),
    ("v: [a, b,]\n", "{\"v\":[\"a\",\"b\"]}"),
    ("v: [a b\n  c, d]\n", "{\"v\":[\"a b c\",\"d\"]}"),
    ("v: !!str,x\n", "{\"v\":\"\"}"),
    ("v: !foo[1]\n", "{\"v\":\"\"}"),
    ("v: !!str!x\n", "{\"v\":\"\"}"),
    (
        "v: !a#b\n",
        "ERR error: error parsing FILE: error converting YAML to JSON: yaml: line 5: did not find expected whitespace or line break",
    ),
    ("v: !x,y z\n", "{\"v\":\"z\"}"),
    ("v: !!str[1] x\n", "{\"v\":\"x\"}"),
    ("v:\n- !x,y\n- b\n", "{\"v\":[\"\",\"b\"]}"),
    ("v: &a !x,y z\nw: *a\n", "{\"v\":\"z\",\"w\":\"z\"}"),
    ("v: !x,y &a z\nw: *a\n", "{\"v\":\"z\",\"w\":\"z\"}"),
    ("v: !x,y\n  [a, b]\n", "{\"v\":[\"a\",\"b\"]}"),
    ("v: !<tag:yaml.org,2002:str> 5\n", "{\"v\":\"5\"}"),
    ("v: !!binary aGk=\n", "{\"v\":\"hi\"}"),
    ("v: !!int \"7\"\n", "{\"v\":7}"),
    ("v: ! x\n", "{\"v\":\"x\"}"),
    (
        "v: !e!foo x\n",
        "ERR error: error parsing FILE: error converting YAML to JSON: yaml: line 4: found undefined tag handle",
    ),
    ("v: !!str\n", "{\"v\":\"\"}"),
    ("v: &a !!str 5\nw: *a\n", "{\"v\":\"5\",\"w\":\"5\"}"),
    (
        "v: !a#b [a]\n",
        "ERR error: error parsing FILE: error converting YAML to JSON: yaml: line 5: did not find expected whitespace or line break",
    ),
    (
        "v: !a#b\n  k: 1\n",
        "ERR error: error parsing FILE: error converting YAML to JSON: yaml: line 5: did not find expected whitespace or line break",
    ),
    ("v: !x,y [a]\n", "{\"v\":[\"a\"]}"),
    ("v: !!!\n", "{\"v\":\"\"}"),
    ("v: !![: 5\n", "{\"v\":\"5\"}"),
    (
        "v: &a[1]\n",
        "ERR error: error parsing FILE: error converting YAML to JSON: yaml: line 5: did not find expected alphabetic or numeric character",
    ),
    (
        "v: ![ &a[a, b]\n",
        "ERR error: error parsing FILE: error converting YAML to JSON: yaml: line 5: did not find expected alphabetic or numeric character",
    ),
    (
        "v: &a{k: 1}\n",
        "ERR error: error parsing FILE: error converting YAML to JSON: yaml: line 5: did not find expected alphabetic or numeric character",
    ),
    ("v: &a\n  [1]\n", "{\"v\":[1]}"),
    (
        "v:\n  - [?!!str,!x!x!x,y's'\n]\n",
        "{\"v\":[[{\"\":null}]]}",
    ),
];
