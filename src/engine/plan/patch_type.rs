//! Which patch kubectl sends for an object: [`PatchType`], strategic for the kinds compiled
//! into kubectl ([`strategic_root`] finds their merge metadata), JSON merge patch for the rest.

use serde::Serialize;

use super::identity;
use crate::engine::schema::{Meta, Schema};
use crate::value::Value;

/// Which patch kubectl sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum PatchType {
    /// `application/strategic-merge-patch+json`: kinds compiled into kubectl.
    #[serde(rename = "application/strategic-merge-patch+json")]
    Strategic,
    /// `application/merge-patch+json`: custom resources.
    #[serde(rename = "application/merge-patch+json")]
    Merge,
}

impl PatchType {
    /// The HTTP content type.
    #[must_use]
    pub fn content_type(self) -> &'static str {
        match self {
            PatchType::Strategic => "application/strategic-merge-patch+json",
            PatchType::Merge => "application/merge-patch+json",
        }
    }
}

/// Groups whose kinds kubectl has no Go types for: they get the JSON merge patch, like custom
/// resources (kubectl's scheme holds k8s.io/api only).
pub(super) const GROUPS_OUTSIDE_KUBECTL: [&str; 2] =
    ["apiextensions.k8s.io", "apiregistration.k8s.io"];

/// The strategic merge metadata kubectl would use for an object, or `None` for a JSON merge patch.
/// Those groups are outside kubectl's compiled-in types only: a server's OpenAPI that lists
/// strategic merge patch for them (any schema but the embedded one) is used as kubectl uses it.
#[must_use]
pub fn strategic_root<'s>(schema: &'s Schema, obj: &Value) -> Option<Meta<'s>> {
    let (api_version, kind, _, _) = identity(obj);
    let group = crate::engine::object::GroupVersion::parse(api_version).group;
    if GROUPS_OUTSIDE_KUBECTL.contains(&group) && std::ptr::eq(schema, Schema::embedded()) {
        return None;
    }
    schema.root_for_gvk(api_version, kind)
}
