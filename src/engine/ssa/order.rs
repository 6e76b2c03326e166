//! How SMD orders, compares and prints values (`value/value.go`): a total order over JSON
//! values used for list keys and set items: numbers (integers and floats compared numerically)
//! < strings < booleans < lists < maps < null.

use std::cmp::Ordering;

use crate::engine::gojson;
use crate::value::{Map, Number, Value};

/// A number as SMD sees it: an int64 or a float64.
#[derive(Clone, Copy)]
enum Num {
    Int(i64),
    Float(f64),
}

fn num(n: &Number) -> Num {
    if let Some(i) = n.as_i64() {
        Num::Int(i)
    } else if let Some(u) = n.as_u64() {
        // Beyond int64: SMD reads such a number as a float64.
        #[allow(clippy::cast_precision_loss)]
        Num::Float(u as f64)
    } else {
        Num::Float(n.as_f64().unwrap_or(0.0))
    }
}

#[allow(clippy::cast_precision_loss)]
fn as_float(n: Num) -> f64 {
    match n {
        Num::Int(i) => i as f64,
        Num::Float(f) => f,
    }
}

fn float_cmp(a: f64, b: f64) -> Ordering {
    if a < b {
        Ordering::Less
    } else if a == b {
        Ordering::Equal
    } else {
        Ordering::Greater
    }
}

fn rank(v: &Value) -> u8 {
    match v {
        Value::Number(_) => 0,
        Value::String(_) => 2,
        Value::Bool(_) => 3,
        Value::Array(_) => 4,
        Value::Object(_) => 5,
        Value::Null => 6,
    }
}

/// `value.Compare`.
#[must_use]
pub fn compare(a: &Value, b: &Value) -> Ordering {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (num(x), num(y)) {
            (Num::Int(i), Num::Int(j)) => i.cmp(&j),
            (x, y) => float_cmp(as_float(x), as_float(y)),
        },
        (Value::String(x), Value::String(y)) => x.as_bytes().cmp(y.as_bytes()),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::Array(x), Value::Array(y)) => {
            for (l, r) in x.iter().zip(y) {
                let c = compare(l, r);
                if c != Ordering::Equal {
                    return c;
                }
            }
            x.len().cmp(&y.len())
        }
        (Value::Object(x), Value::Object(y)) => compare_maps(x, y),
        (Value::Null, Value::Null) => Ordering::Equal,
        _ => rank(a).cmp(&rank(b)),
    }
}

/// `value.MapCompare`: keys zipped in lexical order.
fn compare_maps(l: &Map, r: &Map) -> Ordering {
    if l.is_empty() && r.is_empty() {
        return Ordering::Equal;
    }
    let mut keys: Vec<&str> = l.keys().chain(r.keys()).map(|k| k.as_str()).collect();
    keys.sort_unstable();
    keys.dedup();
    for (i, key) in keys.into_iter().enumerate() {
        let c = if i == l.len() {
            Ordering::Less
        } else if i == r.len() {
            Ordering::Greater
        } else {
            match (l.get(key), r.get(key)) {
                (None, _) => Ordering::Greater,
                (_, None) => Ordering::Less,
                (Some(a), Some(b)) => compare(a, b),
            }
        };
        if c != Ordering::Equal {
            return c;
        }
    }
    Ordering::Equal
}

/// `value.Equals`: as `==`, but an integer equals the float of the same value.
#[must_use]
pub fn equals(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (num(x), num(y)) {
            (Num::Int(i), Num::Int(j)) => i == j,
            (x, y) => {
                #[allow(clippy::float_cmp)]
                let same = as_float(x) == as_float(y);
                same
            }
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(l, r)| equals(l, r))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| equals(v, w)))
        }
        _ => a == b,
    }
}

/// `value.ToString`: how a key or set item prints in a path (`[name="a"]`, `[port=443]`).
#[must_use]
pub fn to_string(v: &Value) -> String {
    match v {
        Value::Null => "null".to_owned(),
        Value::Number(n) => match num(n) {
            Num::Int(i) => i.to_string(),
            Num::Float(f) => gojson::go_format_g(f),
        },
        Value::String(s) => go_quote(s),
        Value::Bool(b) => b.to_string(),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(to_string).collect();
            format!("[{}]", parts.join(","))
        }
        Value::Object(m) => m
            .iter()
            .map(|(k, v)| format!("{k}={}", to_string(v)))
            .collect(),
    }
}

/// Go's `%q` (`strconv.Quote`): one implementation for the engine, the schema's.
pub(crate) use crate::engine::schema::go_quote;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn v(j: serde_json::Value) -> Value {
        Value::from(j)
    }

    #[test]
    fn numbers_compare_across_int_and_float() {
        assert_eq!(compare(&v(json!(1)), &v(json!(1.0))), Ordering::Equal);
        assert!(equals(&v(json!(1)), &v(json!(1.0))));
        assert_eq!(compare(&v(json!(2)), &v(json!(1.5))), Ordering::Greater);
        assert_eq!(compare(&v(json!(9)), &v(json!("a"))), Ordering::Less);
        assert_eq!(compare(&v(json!(true)), &v(json!(null))), Ordering::Less);
    }

    #[test]
    fn prints_as_go() {
        assert_eq!(to_string(&v(json!("a\"b"))), "\"a\\\"b\"");
        assert_eq!(to_string(&v(json!(443))), "443");
        assert_eq!(to_string(&v(json!(1e6))), "1e+06");
    }
}
