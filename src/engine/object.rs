//! Object identity, in one place: an `apiVersion` read as its API group and version, and the
//! four names kubectl matches objects by (`apiVersion`, `kind`, `metadata.namespace`,
//! `metadata.name`). kube's `GroupVersion` is behind the optional `cluster` feature; this works
//! without it, and the cluster code uses it too.

use crate::value::Value;

/// An `apiVersion` as its parts: `apps/v1` is group `apps`, version `v1`; `v1` is the core
/// group (`""`), version `v1`. As Go's `schema.ParseGroupVersion`, the group ends at the first
/// `/` (an `apiVersion` with more than one is invalid there; here the rest is the version).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroupVersion<'a> {
    pub group: &'a str,
    pub version: &'a str,
}

impl<'a> GroupVersion<'a> {
    #[must_use]
    pub fn parse(api_version: &'a str) -> GroupVersion<'a> {
        let (group, version) = api_version.split_once('/').unwrap_or(("", api_version));
        GroupVersion { group, version }
    }

    /// Is it the core group (`/api/v1`, not `/apis/G/V`)?
    #[must_use]
    pub fn is_core(&self) -> bool {
        self.group.is_empty()
    }
}

/// What names an object: its `apiVersion`, `kind`, `metadata.namespace` and `metadata.name`,
/// each `""` where absent or not a string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ObjectRef<'a> {
    pub api_version: &'a str,
    pub kind: &'a str,
    pub namespace: &'a str,
    pub name: &'a str,
}

impl<'a> ObjectRef<'a> {
    #[must_use]
    pub fn of(obj: &'a Value) -> ObjectRef<'a> {
        fn s(v: Option<&Value>) -> &str {
            v.and_then(Value::as_str).unwrap_or("")
        }
        let metadata = obj.get("metadata");
        ObjectRef {
            api_version: s(obj.get("apiVersion")),
            kind: s(obj.get("kind")),
            namespace: s(metadata.and_then(|m| m.get("namespace"))),
            name: s(metadata.and_then(|m| m.get("name"))),
        }
    }

    /// The API group (`""` for the core group).
    #[must_use]
    pub fn group(&self) -> &'a str {
        GroupVersion::parse(self.api_version).group
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn groups_and_versions() {
        let gv = GroupVersion::parse("apps/v1");
        assert_eq!((gv.group, gv.version, gv.is_core()), ("apps", "v1", false));
        let core = GroupVersion::parse("v1");
        assert_eq!((core.group, core.version, core.is_core()), ("", "v1", true));
        assert_eq!(GroupVersion::parse("").version, "");
    }

    #[test]
    fn names_of_an_object() {
        let obj = json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "namespace": 3}});
        let r = ObjectRef::of(&obj);
        assert_eq!(
            (r.api_version, r.kind, r.namespace, r.name, r.group()),
            ("apps/v1", "Deployment", "", "web", "apps")
        );
        assert_eq!(ObjectRef::of(&json!([1])).kind, "");
    }
}
