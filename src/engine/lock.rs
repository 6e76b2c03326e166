//! The API server's optimistic lock on `metadata.resourceVersion` (apiserver
//! `registry/generic/registry/store.go`, `Update`, the same for a strategic merge patch, a
//! JSON merge patch and a server-side apply): once the request is merged into the stored
//! object, the resourceVersion the merged object carries decides.
//!
//! | the merged object carries | answer |
//! | --- | --- |
//! | none, `""` or a number that is 0 | an unconditional update (the stored one is filled in) |
//! | the stored one | the update goes on |
//! | another number | HTTP 409, `Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again` ([`conflict_message`]) |
//! | not a number | HTTP 500, Go's `strconv.ParseUint: parsing "abc": invalid syntax` |
//!
//! A file written by `kubectl get -o yaml` carries the resourceVersion the object had then:
//! kubectl sends it (client-side apply: in the patch, where it differs from the live one;
//! server-side apply: in the body), so applying it after the object changed is refused. A
//! create ignores it (kubectl's `Helper.Create` clears it; an apply that creates stores the
//! object with a new one).

use std::borrow::Cow;

use crate::value::Value;

use super::object::ObjectRef;
use super::plan::Warning;
use super::plan::warnings::{Code, WayOut};

/// What the lock answers a request ([`check`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lock {
    /// The update goes on.
    Holds,
    /// HTTP 409: the merged object carries a resourceVersion that is not the stored one.
    Stale {
        /// The resourceVersion sent.
        sent: String,
    },
    /// HTTP 500: the resourceVersion sent is no number.
    Unreadable {
        sent: String,
        /// Go's message.
        message: String,
    },
}

/// The resourceVersion the merged object carries: `sent`'s, the body's or the patch's (`None`
/// where it carries none: the stored one stays). `stored`: the stored object's, when known;
/// `written`: whether the object was written since it was read (by an earlier request of the
/// same command), so that any number sent is stale.
#[must_use]
pub fn check(sent: Option<&str>, stored: Option<&str>, written: bool) -> Lock {
    let Some(sent) = sent.filter(|s| !s.is_empty()) else {
        return Lock::Holds;
    };
    let number = match parse_uint(sent) {
        Ok(0) => return Lock::Holds,
        Ok(n) => n,
        Err(why) => {
            return Lock::Unreadable {
                sent: sent.to_owned(),
                message: format!(
                    "strconv.ParseUint: parsing {}: {why}",
                    crate::engine::schema::go_quote(sent)
                ),
            };
        }
    };
    let stale = written
        || stored
            .and_then(|s| parse_uint(s).ok())
            .is_some_and(|s| s != number);
    if stale {
        Lock::Stale {
            sent: sent.to_owned(),
        }
    } else {
        Lock::Holds
    }
}

/// `metadata.resourceVersion` of an object, when it is a string.
#[must_use]
pub fn resource_version(obj: &Value) -> Option<&str> {
    obj.get("metadata")
        .and_then(|m| m.get("resourceVersion"))
        .and_then(Value::as_str)
}

/// Go's `strconv.ParseUint(s, 10, 64)`: decimal digits only; its error's reason.
fn parse_uint(s: &str) -> Result<u64, &'static str> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err("invalid syntax");
    }
    s.parse().map_err(|_| "value out of range")
}

/// The 409's message: `Operation cannot be fulfilled on deployments.apps "web": the object has
/// been modified; please apply your changes to the latest version and try again` (apimachinery
/// `NewConflict` with the registry's `OptimisticLockErrorMsg`). `group_resource`: as
/// [`group_resource`] writes it.
#[must_use]
pub fn conflict_message(group_resource: &str, name: &str) -> String {
    format!(
        "Operation cannot be fulfilled on {group_resource} {}: the object has been modified; please apply your changes to the latest version and try again",
        crate::engine::schema::go_quote(name)
    )
}

/// The resource an object is served as, with its group (`deployments.apps`, `configmaps`), as
/// the API server's messages name it (`GroupResource.String()`): `resource` when the caller
/// knows it (discovery), else the embedded schema's, else guessed from the kind
/// ([`guess_resource`]).
#[must_use]
pub fn group_resource(obj: &ObjectRef<'_>, resource: Option<&str>) -> String {
    let resource = resource_of(obj, resource);
    match obj.group() {
        "" => resource.into_owned(),
        group => format!("{resource}.{group}"),
    }
}

/// The resource (plural) of an object's kind: `resource` when known, else the embedded
/// schema's, else [`guess_resource`].
#[must_use]
pub fn resource_of<'r>(obj: &ObjectRef<'_>, resource: Option<&'r str>) -> Cow<'r, str> {
    if let Some(r) = resource {
        return Cow::Borrowed(r);
    }
    match crate::engine::schema::Schema::embedded().resource(obj.api_version, obj.kind) {
        Some(r) => Cow::Borrowed(r),
        None => Cow::Owned(guess_resource(obj.kind)),
    }
}

/// The plural of a kind the schema does not know (a custom resource's, whose CRD names it):
/// lower case, `-s` → `-ses`, `-ch`/`-x` → `-es`, `-y` → `-ies`, else `-s`, as the CRD
/// generators pluralise.
#[must_use]
pub fn guess_resource(kind: &str) -> String {
    let kind = kind.to_lowercase();
    if kind.ends_with('s') || kind.ends_with("ch") || kind.ends_with('x') {
        format!("{kind}es")
    } else if let Some(stem) = kind.strip_suffix('y') {
        format!("{stem}ies")
    } else {
        format!("{kind}s")
    }
}

/// The coded warning of a refused lock, for the plan's warnings (client-side: the patch
/// carries the file's resourceVersion; server-side: the body does). `resource` as
/// [`group_resource`] takes it.
#[must_use]
pub fn warning(lock: &Lock, live: &Value, resource: Option<&str>) -> Option<Warning> {
    let what = match lock {
        Lock::Holds => return None,
        Lock::Stale { sent } => {
            let object = ObjectRef::of(live);
            let at = resource_version(live).map_or_else(
                || "another".to_owned(),
                |rv| format!("at {}", crate::engine::schema::go_quote(rv)),
            );
            format!(
                "the file carries metadata.resourceVersion {} (as `kubectl get -o yaml` writes it) and the live object is {at}: kubectl sends it, and the API server refuses the apply (409 Conflict: {})",
                crate::engine::schema::go_quote(sent),
                conflict_message(&group_resource(&object, resource), object.name)
            )
        }
        Lock::Unreadable { sent, message } => {
            format!(
                "the file carries metadata.resourceVersion {}, which is no number: the API server fails the apply ({message})",
                crate::engine::schema::go_quote(sent)
            )
        }
    };
    Some(Warning {
        code: Code::StaleResourceVersion,
        path: Some("metadata.resourceVersion".to_owned()),
        field: None,
        message: format!(
            "{what}. Remove metadata.resourceVersion from the file (and the other fields the API server sets: uid, creationTimestamp, generation, managedFields, status)."
        ),
        manager: None,
        way_out: vec![WayOut::EditFile],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn the_lock_holds_for_none_zero_and_the_stored_one() {
        assert_eq!(check(None, Some("7"), false), Lock::Holds);
        assert_eq!(check(Some(""), Some("7"), true), Lock::Holds);
        assert_eq!(check(Some("0"), Some("7"), true), Lock::Holds);
        assert_eq!(check(Some("00"), Some("7"), false), Lock::Holds);
        assert_eq!(check(Some("7"), Some("7"), false), Lock::Holds);
        assert_eq!(check(Some("007"), Some("7"), false), Lock::Holds);
        // A live object without one (written by hand): nothing to compare.
        assert_eq!(check(Some("5"), None, false), Lock::Holds);
    }

    #[test]
    fn another_number_or_a_write_since_is_stale() {
        let stale = Lock::Stale { sent: "5".into() };
        assert_eq!(check(Some("5"), Some("7"), false), stale);
        assert_eq!(check(Some("5"), Some("5"), true), stale);
        assert_eq!(check(Some("5"), None, true), stale);
    }

    #[test]
    fn no_number_is_gos_parse_error() {
        assert_eq!(
            check(Some("abc"), Some("7"), false),
            Lock::Unreadable {
                sent: "abc".into(),
                message: r#"strconv.ParseUint: parsing "abc": invalid syntax"#.into()
            }
        );
        assert_eq!(
            check(Some("+5"), Some("7"), false),
            Lock::Unreadable {
                sent: "+5".into(),
                message: r#"strconv.ParseUint: parsing "+5": invalid syntax"#.into()
            }
        );
        assert_eq!(
            check(Some("99999999999999999999"), Some("7"), false),
            Lock::Unreadable {
                sent: "99999999999999999999".into(),
                message: r#"strconv.ParseUint: parsing "99999999999999999999": value out of range"#
                    .into()
            }
        );
    }

    #[test]
    fn the_message_names_the_group_resource() {
        let deploy =
            json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}});
        let cm = json!({"apiVersion": "v1", "kind": "Endpoints", "metadata": {"name": "e"}});
        let widget =
            json!({"apiVersion": "example.com/v1", "kind": "Policy", "metadata": {"name": "w"}});
        assert_eq!(
            conflict_message(&group_resource(&ObjectRef::of(&deploy), None), "web"),
            "Operation cannot be fulfilled on deployments.apps \"web\": the object has been modified; please apply your changes to the latest version and try again"
        );
        assert_eq!(group_resource(&ObjectRef::of(&cm), None), "endpoints");
        assert_eq!(
            group_resource(&ObjectRef::of(&widget), None),
            "policies.example.com"
        );
        assert_eq!(
            group_resource(&ObjectRef::of(&widget), Some("widgetpolicies")),
            "widgetpolicies.example.com"
        );
    }
}
