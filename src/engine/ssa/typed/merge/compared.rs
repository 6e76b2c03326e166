//! The merge with the comparison of the live object and the merged one, in one walk
//! ([`merge_compared`]): where the config holds nothing the merged object is the live one
//! (nothing to compare), and where it does, the merge's own walk gathers the comparison's
//! nodes. A node the walk does not take apart (a leaf, a type that takes two parts, a live list
//! that repeats a name) is compared by the comparison's own walk, against the merged node.

use super::{Merger, Paired, Walk};
use crate::engine::MAX_DEPTH;
use crate::engine::ssa::path::PathElement;
use crate::engine::ssa::schema::{Relationship, Schema, TypeRef};
use crate::engine::ssa::typed::compare::{Comparer, Found, Node};
use crate::engine::ssa::typed::{Comparison, Part, TypedError, deduce, pick};
use crate::value::{Map, Value};
use std::sync::atomic::AtomicBool;

/// `lhs.Merge(rhs)` and `lhs.Compare(merged)`: the same merged value as [`super::merge`] (on
/// one core), and the same comparison as [`fn@crate::engine::ssa::typed::compare`] of `lhs` with
/// it (`None` as the merged value stands for the empty object).
///
/// # Errors
/// The merge's errors, as [`super::merge`]'s; the comparison's inside its own result.
pub fn merge_compared(
    schema: &Schema,
    tr: TypeRef,
    lhs: &Value,
    rhs: &Value,
) -> Result<(Option<Value>, Result<Comparison, TypedError>), TypedError> {
    let merger = Merger {
        schema,
        fork: AtomicBool::new(false),
    };
    let mut errs = Vec::new();
    let mut cmp = Comparer::new(schema);
    let (out, found) = merger.compared(lhs, rhs, tr, 0, &mut errs, &mut cmp);
    if !errs.is_empty() {
        return Err(TypedError(errs));
    }
    Ok((out, cmp.finish(found)))
}

impl Merger<'_> {
    /// One node on both sides: merged, and compared (the live node with the merged one).
    fn compared(
        &self,
        l: &Value,
        r: &Value,
        tr: TypeRef,
        depth: usize,
        errs: &mut Vec<String>,
        cmp: &mut Comparer<'_>,
    ) -> (Option<Value>, Found) {
        // The children are a level down: near the limit the merge reports it as it does.
        let part = (depth < MAX_DEPTH)
            .then(|| self.schema.resolve(tr))
            .flatten()
            .and_then(|res| {
                let (al, ar) = (deduce(&res, Some(l)), deduce(&res, Some(r)));
                (al == ar).then(|| pick(&res, ar))
            });
        match &part {
            Some(Ok(Part::Map(t))) if t.rel != Relationship::Atomic => {
                if let (Some(lm), Some(rm)) = (l.as_object(), r.as_object())
                    && !(lm.is_empty() && rm.is_empty())
                {
                    return self.maps(lm, rm, |k| t.field_type(k), depth, errs, cmp);
                }
            }
            Some(Ok(Part::List(t))) if t.rel != Relationship::Atomic => {
                if let (Some(ll), Some(rl)) = (l.as_array(), r.as_array())
                    && !(ll.is_empty() && rl.is_empty())
                {
                    let mut node = Node::default();
                    let mut out = Vec::with_capacity(ll.len().max(rl.len()));
                    // Errors inside items are dropped, as the merge drops them.
                    let mut ignored = Vec::new();
                    let paired = self.pair_items(t, (ll, rl), true, errs, |pe, l, r| {
                        let Some(r) = r else {
                            // A live item alone: merged into itself.
                            out.extend(l.cloned());
                            return;
                        };
                        let (o, found) = self.item(l, r, t.elem, depth + 1, &mut ignored, cmp);
                        // An item the merge could not make is gone from the result.
                        let found = match o {
                            Some(_) => found,
                            None => cmp.node(l, None, t.elem, depth + 1),
                        };
                        node.add_child(pe, found);
                        out.extend(o);
                    });
                    match paired {
                        Paired::Done if !out.is_empty() => {
                            return (Some(Value::Array(out)), node.finish());
                        }
                        // No list left (the merge failed): the live one is gone.
                        Paired::Done | Paired::Failed => {
                            return (None, cmp.node(Some(l), None, tr, depth));
                        }
                        Paired::Repeated => {}
                    }
                }
            }
            _ => {}
        }
        // Any other node: merged (its part handled as the merge handles it), then compared
        // whole (a node merged into itself holds nothing; the merge has reported its depth and
        // type, as the comparison would).
        let out = match part {
            Some(part) => {
                let mut w = Walk::default();
                self.handle(part, Some(l), Some(r), &mut w, depth, errs);
                w.out
            }
            None => self.merge(Some(l), Some(r), tr, depth, errs),
        };
        let found = match &out {
            Some(o) if o == l => Found::default(),
            o => cmp.node(Some(l), o.as_ref(), tr, depth),
        };
        (out, found)
    }

    /// A list item or map field on the config's side, maybe on the live one too: merged and
    /// compared.
    fn item(
        &self,
        l: Option<&Value>,
        r: &Value,
        tr: TypeRef,
        depth: usize,
        errs: &mut Vec<String>,
        cmp: &mut Comparer<'_>,
    ) -> (Option<Value>, Found) {
        match l {
            Some(l) => self.compared(l, r, tr, depth, errs, cmp),
            None => {
                let o = r.clone();
                let found = cmp.node(None, Some(&o), tr, depth);
                (Some(o), found)
            }
        }
    }

    /// A granular map on both sides, not both empty: field by field.
    fn maps(
        &self,
        l: &Map,
        r: &Map,
        field_type: impl Fn(&str) -> TypeRef,
        depth: usize,
        errs: &mut Vec<String>,
        cmp: &mut Comparer<'_>,
    ) -> (Option<Value>, Found) {
        let mut node = Node::default();
        let mut out = Map::with_capacity(l.len().max(r.len()));
        for (k, lv) in l {
            match r.get(k) {
                // The live field alone: merged into itself, the same on both sides.
                None => out.push_unique(k.clone(), lv.clone()),
                Some(rv) => {
                    let (o, found) = self.compared(lv, rv, field_type(k), depth + 1, errs, cmp);
                    node.add_child(&PathElement::Field(k.clone()), found);
                    if let Some(o) = o {
                        out.push_unique(k.clone(), o);
                    }
                }
            }
        }
        for (k, rv) in r {
            if l.contains_key(k) {
                continue;
            }
            let (o, found) = self.item(None, rv, field_type(k), depth + 1, errs, cmp);
            node.add_child(&PathElement::Field(k.clone()), found);
            if let Some(o) = o {
                out.push_unique(k.clone(), o);
            }
        }
        let out = (!out.is_empty()).then_some(Value::Object(out));
        (out, node.finish())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ssa::kubernetes;
    use crate::engine::ssa::typed::samples::object;
    use crate::engine::ssa::typed::{compare, merge};

    /// On one core the walk merges as the merge does, and compares the live object with the
    /// merged one as the comparison does: results and errors alike.
    #[test]
    fn the_merge_compared_is_the_merge_then_the_comparison() {
        let kube = kubernetes::embedded();
        let root = kube.root_for_gvk("apps/v1", "Deployment").unwrap();
        let mut seed = 11u64;
        let (mut changed, mut failed) = (0, 0);
        for _ in 0..4000 {
            let (live, config) = (object(&mut seed), object(&mut seed));
            let fused = merge_compared(&kube.schema, root, &live, &config);
            let apart = merge(&kube.schema, root, &live, &config);
            match (fused, apart) {
                (Ok((merged, compared)), Ok(expected)) => {
                    assert_eq!(merged, expected, "{live} {config}");
                    let against = merged.unwrap_or(Value::Null);
                    let expected = compare(&kube.schema, root, &live, &against);
                    assert_eq!(compared, expected, "{live} {config}");
                    changed += usize::from(expected.is_ok_and(|c| !c.is_same()));
                }
                (Err(a), Err(b)) => {
                    assert_eq!(a, b, "{live} {config}");
                    failed += 1;
                }
                (a, b) => panic!("{live} {config}: {a:?} against {b:?}"),
            }
        }
        assert!(changed > 1000 && failed > 100, "{changed} {failed}");
    }
}
