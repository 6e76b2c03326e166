use super::*;
use crate::json;

fn keys(m: &Map) -> Vec<&str> {
    m.keys().map(Str::as_str).collect()
}

/// A map of `n` keys `k0`, `k1`, … with values 0, 1, …
fn numbered(n: usize) -> Map {
    (0..n).map(|i| (format!("k{i}"), Value::from(i))).collect()
}

#[test]
fn values_are_as_small_as_serde_json_values() {
    assert_eq!(std::mem::size_of::<Value>(), 32);
    assert_eq!(std::mem::size_of::<Map>(), 32);
}

#[test]
fn insert_keeps_the_first_place_and_the_last_value() {
    let mut m = Map::new();
    assert_eq!(m.insert("a", json!(1)), None);
    assert_eq!(m.insert("b", json!(2)), None);
    assert_eq!(m.insert("a", json!(3)), Some(json!(1)));
    assert_eq!(keys(&m), ["a", "b"]);
    assert_eq!(m["a"], 3);
    let collected: Map = [("x", json!(1)), ("y", json!(2)), ("x", json!(3))]
        .into_iter()
        .collect();
    assert_eq!(keys(&collected), ["x", "y"]);
    assert_eq!(collected["x"], 3);
}

#[test]
fn removals_match_serde_json_with_preserve_order() {
    for n in [4, UNINDEXED_MAX + 5] {
        let mut ours = numbered(n);
        let mut theirs: serde_json::Map<String, serde_json::Value> = (0..n)
            .map(|i| (format!("k{i}"), serde_json::Value::from(i)))
            .collect();
        for key in ["k1", "k0", "missing", "k2"] {
            assert_eq!(ours.remove(key).is_some(), theirs.remove(key).is_some());
        }
        assert_eq!(
            ours.shift_remove("k3"),
            theirs.shift_remove("k3").map(Value::from)
        );
        let theirs_keys: Vec<&str> = theirs.keys().map(String::as_str).collect();
        assert_eq!(keys(&ours), theirs_keys, "{n} keys");
        // Every key is still found through the index.
        for k in theirs.keys() {
            assert_eq!(
                ours.get(k),
                theirs.get(k).cloned().map(Value::from).as_ref()
            );
        }
        assert!(!ours.contains_key("k1"));
    }
}

#[test]
fn an_indexed_map_finds_every_key_after_each_kind_of_change() {
    let mut m = numbered(UNINDEXED_MAX * 3);
    m.swap_remove("k5");
    m.shift_remove("k7");
    m.retain(|k, _| k != "k9");
    m.shift_insert(2, "new", json!("x"));
    m.entry("k11").or_insert(json!("kept"));
    m.entry("added").or_insert_with(|| json!("end"));
    // Every key leads to its own entry (the index follows every move).
    for (i, (k, v)) in m.iter().enumerate() {
        assert!(
            m.get(k).is_some_and(|found| std::ptr::eq(found, v)),
            "{i}: {k}"
        );
    }
    assert_eq!(keys(&m)[2], "new");
    assert_eq!(m["k11"], 11);
    assert_eq!(*keys(&m).last().unwrap(), "added");
    for gone in ["k5", "k7", "k9"] {
        assert!(m.get(gone).is_none(), "{gone}");
    }
    assert_eq!(m["k20"], 20);
}

#[test]
fn object_equality_ignores_order() {
    assert_eq!(
        json!({"a": 1, "b": [1, {"c": null}]}),
        json!({"b": [1, {"c": null}], "a": 1})
    );
    assert_ne!(json!({"a": 1}), json!({"a": 1, "b": 2}));
    assert_ne!(json!({"a": 1, "b": 2}), json!({"a": 1, "c": 2}));
    assert_ne!(json!([1, 2]), json!([2, 1]));
    assert_ne!(json!(1), json!(1.0));
}

#[test]
fn json_text_round_trips_in_order() {
    let text =
        r#"{"z":1,"a":[true,null,-2,1.5,"s"],"m":{"y":{},"x":[]},"big":18446744073709551615}"#;
    let v: Value = serde_json::from_str(text).unwrap();
    assert_eq!(serde_json::to_string(&v).unwrap(), text);
    assert_eq!(v.to_string(), text);
    let theirs: serde_json::Value = serde_json::from_str(text).unwrap();
    assert_eq!(Value::from(theirs), v);
    // Duplicate keys: the last value, in the first place (as serde_json reads them).
    let v: Value = serde_json::from_str(r#"{"a":1,"b":2,"a":3}"#).unwrap();
    assert_eq!(v.to_string(), r#"{"a":3,"b":2}"#);
}

#[test]
fn lookups_and_pointers() {
    let v = json!({"a": {"b/c": [10, {"d~e": "x"}]}});
    assert_eq!(v.pointer("/a/b~1c/1/d~0e"), Some(&json!("x")));
    assert_eq!(v.pointer("/a/b~1c/01"), None);
    assert_eq!(v.pointer(""), Some(&v));
    assert_eq!(v["a"]["b/c"][0], 10);
    assert!(v["missing"][3].is_null());
    assert_eq!(
        v.get("a").and_then(|a| a.get("b/c")).and_then(|l| l.get(0)),
        Some(&json!(10))
    );
    let mut w = v.clone();
    *w.pointer_mut("/a/b~1c/0").unwrap() = json!(11);
    w["a"]["new"] = json!(true);
    assert_eq!(w["a"]["b/c"][0], 11);
    assert_eq!(w["a"]["new"], true);
}

#[test]
fn long_strings_and_keys_keep_their_text() {
    let long = "x".repeat(100);
    let mut m = Map::new();
    m.insert(long.as_str(), Value::from(long.clone()));
    assert_eq!(m[long.as_str()], long.as_str());
    assert_eq!(Value::from(f64::NAN), Value::Null);
}

/// A transient parse is the parse: nested lists and maps, a repeated key (the last wins),
/// numbers of each kind, escapes; and it refuses what the parse refuses (text after the value,
/// a truncated document).
#[test]
fn a_transient_parse_reads_what_the_parse_reads() {
    for text in [
        r#"{"a":[1,2.5,-3,{"b":null,"c":[true,false]}],"d":"x\ny","a2":{},"e":[]}"#,
        r#"{"k":1,"k":2,"m":{"n":{"o":[[],[{}]]}}}"#,
        r#"[18446744073709551615,-9223372036854775808,1e300,"\u00e9"]"#,
        "null",
        "  \"s\"  ",
    ] {
        let parsed: Value = serde_json::from_str(text).unwrap();
        assert_eq!(
            crate::value::from_str_transient(text).unwrap(),
            parsed,
            "{text}"
        );
    }
    for bad in [r#"{"a":1} x"#, r#"{"a":[1,"#, ""] {
        assert!(serde_json::from_str::<Value>(bad).is_err());
        assert!(crate::value::from_str_transient(bad).is_err(), "{bad}");
    }
}
