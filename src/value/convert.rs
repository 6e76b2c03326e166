//! Conversions into a [`Value`] (from Rust values, from `serde_json::Value`, [`to_value`], the
//! `json!` macro) and out of it as JSON text (`Display`).

use std::fmt;

use serde::Serialize;

use super::{Map, Number, Str, Value};

impl fmt::Display for Value {
    /// The value as JSON text; `{:#}` indents it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = if f.alternate() {
            serde_json::to_string_pretty(self)
        } else {
            serde_json::to_string(self)
        };
        f.write_str(&text.map_err(|_| fmt::Error)?)
    }
}

macro_rules! eq_via {
    ($($t:ty => $conv:expr),* $(,)?) => {$(
        impl PartialEq<$t> for Value {
            fn eq(&self, other: &$t) -> bool {
                #[allow(clippy::redundant_closure_call)]
                ($conv)(self, other)
            }
        }
        impl PartialEq<Value> for $t {
            fn eq(&self, other: &Value) -> bool {
                other == self
            }
        }
    )*};
}

eq_via! {
    str => |v: &Value, s: &str| v.as_str() == Some(s),
    &str => |v: &Value, s: &&str| v.as_str() == Some(*s),
    String => |v: &Value, s: &String| v.as_str() == Some(s.as_str()),
    bool => |v: &Value, b: &bool| v.as_bool() == Some(*b),
    i32 => |v: &Value, n: &i32| v.as_i64() == Some(i64::from(*n)),
    i64 => |v: &Value, n: &i64| v.as_i64() == Some(*n),
    u32 => |v: &Value, n: &u32| v.as_u64() == Some(u64::from(*n)),
    u64 => |v: &Value, n: &u64| v.as_u64() == Some(*n),
    usize => |v: &Value, n: &usize| v.as_u64() == u64::try_from(*n).ok(),
    f64 => |v: &Value, n: &f64| v.as_f64() == Some(*n),
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::String(s.into())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::String(s.into())
    }
}

impl From<Str> for Value {
    fn from(s: Str) -> Value {
        Value::String(s)
    }
}

impl From<Number> for Value {
    fn from(n: Number) -> Value {
        Value::Number(n)
    }
}

macro_rules! from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for Value {
            fn from(n: $t) -> Value {
                Value::Number(n.into())
            }
        }
    )*};
}

from_int!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

impl From<f64> for Value {
    /// `null` for NaN and the infinities, as `serde_json` does.
    fn from(f: f64) -> Value {
        Number::from_f64(f).map_or(Value::Null, Value::Number)
    }
}

impl From<Map> for Value {
    fn from(m: Map) -> Value {
        Value::Object(m)
    }
}

impl From<Vec<Value>> for Value {
    fn from(a: Vec<Value>) -> Value {
        Value::Array(a)
    }
}

impl From<serde_json::Value> for Value {
    fn from(v: serde_json::Value) -> Value {
        match v {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(b),
            serde_json::Value::Number(n) => Value::Number(n),
            serde_json::Value::String(s) => Value::String(s.into()),
            serde_json::Value::Array(a) => Value::Array(a.into_iter().map(Value::from).collect()),
            serde_json::Value::Object(m) => {
                Value::Object(m.into_iter().map(|(k, v)| (k, Value::from(v))).collect())
            }
        }
    }
}

/// Any serializable value as a [`Value`].
///
/// # Errors
/// As `serde_json::to_value`: a map whose keys are not strings.
pub fn to_value<T: Serialize>(t: T) -> Result<Value, serde_json::Error> {
    serde_json::to_value(t).map(Value::from)
}

/// A [`Value`] from JSON-like syntax, as `serde_json::json!` writes it (the values
/// interpolated may be any serializable value, [`Value`]s included).
#[macro_export]
macro_rules! json {
    ($($t:tt)+) => {
        $crate::value::Value::from(::serde_json::json!($($t)+))
    };
}
