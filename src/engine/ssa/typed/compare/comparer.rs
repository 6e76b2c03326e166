//! A comparison built by another walk ([`Comparer`]).

use super::{Comparison, Found, Walker};
use crate::engine::ssa::schema::{Schema, TypeRef};
use crate::engine::ssa::typed::TypedError;
use crate::value::Value;

/// A comparison that another walk of the same two values builds node by node
/// ([`crate::engine::ssa::typed::merge_compared`]): the nodes it walks itself it gathers in a
/// [`super::Node`],
/// the others it hands to [`Comparer::node`], the comparison's own walk.
pub(in crate::engine::ssa::typed) struct Comparer<'s>(pub(super) Walker<'s>);

impl<'s> Comparer<'s> {
    pub(in crate::engine::ssa::typed) fn new(schema: &'s Schema) -> Comparer<'s> {
        Comparer(Walker::new(schema, true))
    }

    /// The comparison of one node of `lhs` with the same node of `rhs` ([`fn@super::compare`]
    /// below it).
    pub(in crate::engine::ssa::typed) fn node(
        &mut self,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
        tr: TypeRef,
        depth: usize,
    ) -> Found {
        self.0.compare(lhs, rhs, tr, None, depth)
    }

    /// The comparison, from what was found at the root.
    pub(in crate::engine::ssa::typed) fn finish(
        self,
        ([removed, modified, added], _): Found,
    ) -> Result<Comparison, TypedError> {
        if self.0.errs.is_empty() {
            Ok(Comparison {
                removed,
                modified,
                added,
            })
        } else {
            Err(TypedError(self.0.into_errors()))
        }
    }
}
