//! Who a managedFields entry belongs to ([`ManagerId`], `BuildManagerIdentifier`) and the
//! identity JSON managers are keyed by ([`ManagerId::key`]).

use std::fmt;

use crate::engine::gojson;
use crate::value::Value;

/// `metav1.ManagedFieldsOperationType`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Operation {
    Apply,
    Update,
}

impl Operation {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Operation::Apply => "Apply",
            Operation::Update => "Update",
        }
    }
}

/// Who a managedFields entry belongs to (`BuildManagerIdentifier`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ManagerId {
    pub manager: String,
    pub operation: Operation,
    /// Empty for Apply entries (one entry whatever version they applied).
    pub api_version: String,
    pub subresource: String,
}

impl ManagerId {
    /// An applier.
    #[must_use]
    pub fn apply(manager: &str) -> ManagerId {
        ManagerId {
            manager: manager.to_owned(),
            operation: Operation::Apply,
            api_version: String::new(),
            subresource: String::new(),
        }
    }

    /// An updater at an API version.
    #[must_use]
    pub fn update(manager: &str, api_version: &str) -> ManagerId {
        ManagerId {
            manager: manager.to_owned(),
            operation: Operation::Update,
            api_version: api_version.to_owned(),
            subresource: String::new(),
        }
    }

    /// The identity JSON the reference keys managers by.
    #[must_use]
    pub fn key(&self) -> String {
        // The JSON of the fields set, in this order, as `gojson` writes strings: written
        // directly (managers are keyed by it on every request).
        let mut out = String::with_capacity(
            48 + self.manager.len() + self.api_version.len() + self.subresource.len(),
        );
        let mut field = |name: &str, value: &str| {
            out.push(if out.is_empty() { '{' } else { ',' });
            out.push('"');
            out.push_str(name);
            out.push_str("\":");
            gojson::write_string(value, &mut out);
        };
        if !self.manager.is_empty() {
            field("manager", &self.manager);
        }
        field("operation", self.operation.as_str());
        if self.operation == Operation::Update && !self.api_version.is_empty() {
            field("apiVersion", &self.api_version);
        }
        if !self.subresource.is_empty() {
            field("subresource", &self.subresource);
        }
        out.push('}');
        out
    }

    /// Reads an identity JSON back: its string members `manager`, `operation` (`Apply` or
    /// `Update`), `apiVersion` and `subresource`; a member that is absent or not a string
    /// reads as empty.
    #[must_use]
    pub fn from_key(key: &str) -> Option<ManagerId> {
        ManagerId::from_own_key(key).or_else(|| ManagerId::from_any_key(key))
    }

    /// [`ManagerId::from_key`] of a key as [`ManagerId::key`] writes it for a named manager
    /// (its members in that order, no whitespace) whose strings need no unescaping, read in
    /// place; `None` for anything else (read by [`ManagerId::from_any_key`]). Names and
    /// punctuation are matched whole and only the values scanned: managers are read back from
    /// their keys many times a request.
    fn from_own_key(key: &str) -> Option<ManagerId> {
        /// A JSON string's contents without escapes or control characters, up to its closing
        /// quote, and the rest after it.
        fn plain(s: &str) -> Option<(&str, &str)> {
            /// The bytes that end a string read in place: its quote, an escape, a control
            /// character.
            const STOPS: [bool; 256] = gojson::string_stops(&[]);
            let end = s.bytes().position(|b| STOPS[usize::from(b)])?;
            // The quote is ASCII: `end` falls on a character boundary.
            (s.as_bytes()[end] == b'"').then(|| (&s[..end], &s[end + 1..]))
        }
        /// The value of an optional member, when `rest` starts with it (`,"name":"`), and the
        /// rest after it.
        fn optional<'k>(rest: &'k str, member: &str) -> Option<(&'k str, &'k str)> {
            match rest.strip_prefix(member) {
                Some(s) => plain(s),
                None => Some(("", rest)),
            }
        }
        let (manager, rest) = plain(key.strip_prefix("{\"manager\":\"")?)?;
        let (operation, rest) = plain(rest.strip_prefix(",\"operation\":\"")?)?;
        let (api_version, rest) = optional(rest, ",\"apiVersion\":\"")?;
        let (subresource, rest) = optional(rest, ",\"subresource\":\"")?;
        if rest != "}" {
            return None;
        }
        ManagerId::from_members(manager, operation, api_version, subresource)
    }

    /// [`ManagerId::from_key`] of any JSON.
    fn from_any_key(key: &str) -> Option<ManagerId> {
        let v: Value = serde_json::from_str(key).ok()?;
        let s = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("");
        ManagerId::from_members(
            s("manager"),
            s("operation"),
            s("apiVersion"),
            s("subresource"),
        )
    }

    /// The identity of these members (empty: absent); `None` for an operation other than
    /// `Apply` and `Update`.
    fn from_members(
        manager: &str,
        operation: &str,
        api_version: &str,
        subresource: &str,
    ) -> Option<ManagerId> {
        let operation = match operation {
            "Apply" => Operation::Apply,
            "Update" => Operation::Update,
            _ => return None,
        };
        Some(ManagerId {
            manager: manager.to_owned(),
            operation,
            api_version: api_version.to_owned(),
            subresource: subresource.to_owned(),
        })
    }
}

impl fmt::Display for ManagerId {
    /// `printManager`: `"kubectl"`, `"kube-controller-manager" with subresource "scale" using
    /// autoscaling/v1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", crate::engine::ssa::order::go_quote(&self.manager))?;
        if !self.subresource.is_empty() {
            write!(
                f,
                " with subresource {}",
                crate::engine::ssa::order::go_quote(&self.subresource)
            )?;
        }
        if self.operation == Operation::Update {
            write!(f, " using {}", self.api_version)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Map;

    #[test]
    fn identity_keys_match_the_reference() {
        assert_eq!(
            ManagerId::apply("kubectl").key(),
            r#"{"manager":"kubectl","operation":"Apply"}"#
        );
        let u = ManagerId::update("kubectl-client-side-apply", "apps/v1");
        assert_eq!(
            u.key(),
            r#"{"manager":"kubectl-client-side-apply","operation":"Update","apiVersion":"apps/v1"}"#
        );
        assert_eq!(ManagerId::from_key(&u.key()), Some(u.clone()));
        assert_eq!(u.to_string(), "\"kubectl-client-side-apply\" using apps/v1");
    }

    /// The key is the JSON `gojson` writes of the identity's members (escapes included), and
    /// reads back whatever the shape of the JSON.
    #[test]
    fn keys_are_the_identity_json_and_read_back() {
        let ids = [
            ManagerId::apply(""),
            ManagerId::apply("a \"quoted\" <b>&c\u{2028}\n\u{1}é"),
            ManagerId {
                subresource: "scale".to_owned(),
                ..ManagerId::update("kube-controller-manager", "autoscaling/v1")
            },
            ManagerId {
                api_version: "v1".to_owned(),
                ..ManagerId::apply("applier")
            },
            ManagerId::update("m", ""),
        ];
        for id in ids {
            let mut m = Map::new();
            if !id.manager.is_empty() {
                m.insert("manager", Value::from(id.manager.as_str()));
            }
            m.insert("operation", Value::from(id.operation.as_str()));
            if id.operation == Operation::Update && !id.api_version.is_empty() {
                m.insert("apiVersion", Value::from(id.api_version.as_str()));
            }
            if !id.subresource.is_empty() {
                m.insert("subresource", Value::from(id.subresource.as_str()));
            }
            let key = id.key();
            assert_eq!(key, gojson::to_string_in_order(&Value::Object(m)).unwrap());
            let back = ManagerId::from_key(&key).unwrap();
            assert_eq!(back.key(), key);
            // Read in place when it names a manager and no string needs unescaping.
            let own = ManagerId::from_own_key(&key);
            assert_eq!(
                own.is_some(),
                !id.manager.is_empty() && !key.contains('\\'),
                "{key}"
            );
            assert!(own.is_none() || own == Some(back), "{key}");
        }
        let read = |s: &str| ManagerId::from_key(s);
        // Members that are not strings read as empty; duplicates, the last one.
        assert_eq!(
            read(r#"{"manager":5,"operation":"Apply","x":[1]}"#),
            Some(ManagerId::apply(""))
        );
        assert_eq!(
            read(r#"{"manager":"a","manager":"b","operation":"Apply"}"#),
            Some(ManagerId::apply("b"))
        );
        assert_eq!(
            read(r#"{"manager":null,"operation":"Update","apiVersion":"v1"}"#),
            Some(ManagerId::update("", "v1"))
        );
        assert_eq!(read(r#"{"manager":"a","operation":"Patch"}"#), None);
        assert_eq!(read(r#"{"manager":"a"}"#), None);
        assert_eq!(read(r#""Apply""#), None);
        assert_eq!(read("not json"), None);
        // Read in place or through a value, the same identity.
        for key in [
            r#"{"manager":"kubectl","operation":"Apply"}"#,
            r#"{"operation":"Update","apiVersion":"v1","subresource":"status"}"#,
            r#"{"subresource":"scale","operation":"Update","manager":"hpa"}"#,
            r#"{"manager":"a\"b","operation":"Apply"}"#,
            r#"{"manager":"a","operation":"Apply","other":"x"}"#,
            r#"{ "manager":"a","operation":"Apply"}"#,
            r#"{"manager":"a","operation":"Apply","manager":"b"}"#,
            r#"{"manager":"\u003c","operation":"Apply"}"#,
            r#"{"manager":"a","operation":"Apply",}"#,
            r#"{,"manager":"a","operation":"Apply"}"#,
            r#"{"manager":"a""operation":"Apply"}"#,
            r#"{"manager":"a","operation":"Apply"} "#,
            r#"{"manager":"a","operation":"Apply","apiVersion":"v1"}"#,
            r#"{"operation":"Update","apiVersion":"v1","subresource":"a}"}"#,
            r#"{"manager":"a}"#,
            "{}",
            "{\"manager\":\"a\u{1}\",\"operation\":\"Apply\"}",
            "{\"manager\":\"\u{e9}\u{7f}\u{2028}\",\"operation\":\"Apply\"}",
        ] {
            let own = ManagerId::from_own_key(key);
            assert!(
                own.is_none() || own == ManagerId::from_any_key(key),
                "{key}"
            );
            assert_eq!(read(key), ManagerId::from_any_key(key), "{key}");
        }
        // Only the writer's order is read in place; any other goes through a value.
        let reordered = r#"{"operation":"Apply","manager":"kubectl"}"#;
        assert_eq!(ManagerId::from_own_key(reordered), None);
        assert_eq!(read(reordered), Some(ManagerId::apply("kubectl")));
    }
}
