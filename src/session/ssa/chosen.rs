//! The schema an object of a kind is merged with, for `plan --server-side`.

use crate::engine::plan::{Code, Warning};
use crate::engine::ssa::checks;
use crate::engine::ssa::kubernetes;
use crate::engine::ssa::openapi::OpenApiSchema;
use crate::engine::ssa::schema::UNTYPED_DEDUCED;
use crate::engine::ssa::{PathElement, Set, TypeRef};
use crate::error::Error;
use std::collections::BTreeMap;

/// The root type of a kind (`apiVersion`, `kind`), from one schema.
type Types<'s> = Box<dyn Fn(&str, &str) -> Option<TypeRef> + Sync + 's>;

/// The schema an object is merged with: the embedded table's, else the cluster's, else the
/// deduced type (as the API server merges a type it has no schema for).
pub(super) struct Chosen<'s> {
    pub(super) schema: &'s crate::engine::ssa::Schema,
    pub(super) root: TypeRef,
    /// The root type of another kind (for the annotation), from the same source.
    pub(super) types: Types<'s>,
    pub(super) ignored: BTreeMap<String, Set>,
}

pub(super) fn choose<'s>(
    api_version: &str,
    kind: &str,
    cluster: Option<&'s OpenApiSchema>,
    warnings: &mut Vec<Warning>,
) -> Result<Chosen<'s>, Error> {
    let kube = kubernetes::embedded();
    if let Some(root) = kube.root_for_gvk(api_version, kind) {
        return Ok(Chosen {
            schema: &kube.schema,
            root,
            types: Box::new(|a: &str, k: &str| kube.root_for_gvk(a, k)),
            ignored: kube.reset_fields(api_version, kind),
        });
    }
    if let Some(theirs) = cluster
        && let Some(root) = theirs.root_for_gvk(api_version, kind)
    {
        // The main endpoint resets `status` when the kind has one (a custom resource with the
        // status subresource), as for the built-in kinds.
        let mut ignored = BTreeMap::new();
        if theirs
            .schema
            .resolve(root)
            .and_then(|r| r.map().and_then(|m| m.field("status").map(|_| ())))
            .is_some()
        {
            ignored.insert(
                api_version.to_owned(),
                Set::from_paths([[PathElement::field("status")].as_slice()]),
            );
        }
        return Ok(Chosen {
            schema: &theirs.schema,
            root,
            types: Box::new(|a: &str, k: &str| theirs.root_for_gvk(a, k)),
            ignored,
        });
    }
    warnings.push(checks::warning(
        Code::SsaUnknownType,
        None,
        None,
        &[],
        format!(
            "{api_version} {kind} is not in the embedded schema: its fields are merged as the API server merges an unknown type (maps granular, lists atomic)"
        ),
    ));
    let root = kube
        .schema
        .named(UNTYPED_DEDUCED)
        .ok_or_else(|| Error::Input("the embedded schema has no deduced type".into()))?;
    Ok(Chosen {
        schema: &kube.schema,
        root,
        // The deduced type converter types any object, the last-applied annotation's too (so
        // that it excuses conflicts as for a built-in kind).
        types: Box::new(move |_: &str, _: &str| Some(root)),
        ignored: kube.reset_fields(api_version, kind),
    })
}
