//! `lhs.Merge(rhs)` (`typed/merge.go`): the config (rhs) wins wherever both have a value.
//!
//! | type | merge |
//! | --- | --- |
//! | scalar | rhs replaces |
//! | atomic list/map, or both sides empty/null | rhs replaces (a "big leaf") |
//! | associative list | items matched by key; live-only items keep their place, config items the config's order |
//! | granular map/struct | key by key |

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};

use super::{NO_TYPE, NULL, Part, check_depth, deduce, list_item_element, pick, scalar_error};
use crate::engine::ssa::par;
use crate::engine::ssa::path::PathElement;
use crate::engine::ssa::schema::{ListView, MapView, Relationship, Schema, TypeRef};
use crate::engine::ssa::typed::TypedError;
use crate::value::{Map, Value};

mod compared;

pub use compared::merge_compared;

/// `lhs.Merge(rhs)`; `None` stands for an absent result (the empty object).
///
/// # Errors
/// When the values do not fit the schema, or the config repeats a key.
pub fn merge(
    schema: &Schema,
    tr: TypeRef,
    lhs: &Value,
    rhs: &Value,
) -> Result<Option<Value>, TypedError> {
    let mut errs = Vec::new();
    let merger = Merger {
        schema,
        fork: AtomicBool::new(true),
    };
    let out = merger.merge(Some(lhs), Some(rhs), tr, 0, &mut errs);
    if errs.is_empty() {
        Ok(out)
    } else {
        Err(TypedError(errs))
    }
}

struct Merger<'s> {
    schema: &'s Schema,
    /// Whether a long list's items may still be split between two cores (once per merge).
    fork: AtomicBool,
}

/// The items of a list past which the merge forks (once per merge, when they are big,
/// [`par::are_big`]).
const FORK_AT: usize = 512;

/// How [`Merger::pair_items`] went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Paired {
    /// Every pair handed over.
    Done,
    /// A name could not be read (the errors pushed).
    Failed,
    /// The live side repeats a name (asked not to hand anything over then).
    Repeated,
}

#[derive(Default)]
struct Walk {
    in_leaf: bool,
    out: Option<Value>,
}

impl Merger<'_> {
    fn merge(
        &self,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
        tr: TypeRef,
        depth: usize,
        errs: &mut Vec<String>,
    ) -> Option<Value> {
        if let Err(e) = check_depth(depth) {
            errs.push(e);
            return None;
        }
        match (lhs, rhs) {
            (None, None) => {
                errs.push("at least one of lhs and rhs must be provided".to_owned());
                return None;
            }
            // A value on one side only merges into itself (the walk would rebuild it item by
            // item); only values the schema rejects differ, and both sides are validated first.
            (Some(only), None) | (None, Some(only)) if depth > 0 => return Some(only.clone()),
            _ => {}
        }
        let Some(r) = self.schema.resolve(tr) else {
            errs.push(NO_TYPE.to_owned());
            return None;
        };
        let al = deduce(&r, lhs);
        let ar = deduce(&r, rhs);
        let mut w = Walk::default();
        if rhs.is_none() {
            self.handle(pick(&r, al), lhs, rhs, &mut w, depth, errs);
        } else if lhs.is_none() || al == ar {
            self.handle(pick(&r, ar), lhs, rhs, &mut w, depth, errs);
        } else {
            let mut w2 = Walk::default();
            self.handle(pick(&r, al), lhs, rhs, &mut w2, depth, errs);
            self.handle(pick(&r, ar), lhs, rhs, &mut w, depth, errs);
        }
        w.out
    }

    fn handle(
        &self,
        part: Result<Part<'_>, String>,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
        w: &mut Walk,
        depth: usize,
        errs: &mut Vec<String>,
    ) {
        match part {
            Err(e) => errs.push(e),
            Ok(Part::Scalar(t)) => {
                let l = scalar_error(t, lhs, "lhs: ");
                let r = scalar_error(t, rhs, "rhs: ");
                if let (Some(l), Some(r)) = (l, r) {
                    errs.push(l);
                    errs.push(r);
                    return;
                }
                leaf(w, lhs, rhs);
            }
            Ok(Part::List(l)) => self.do_list(&l, lhs, rhs, w, depth, errs),
            Ok(Part::Map(m)) => self.do_map(&m, lhs, rhs, w, depth, errs),
        }
    }

    fn do_list(
        &self,
        t: &ListView<'_>,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
        w: &mut Walk,
        depth: usize,
        errs: &mut Vec<String>,
    ) {
        let l = lhs.and_then(Value::as_array).map(Vec::as_slice);
        let r = rhs.and_then(Value::as_array).map(Vec::as_slice);
        let empty = l.is_none_or(<[Value]>::is_empty) && r.is_none_or(<[Value]>::is_empty);
        if t.rel == Relationship::Atomic || empty {
            leaf(w, lhs, rhs);
            return;
        }
        if l.is_none() && r.is_none() {
            return;
        }
        w.out = self.visit_list_items(t, l.unwrap_or_default(), r.unwrap_or_default(), depth, errs);
    }

    fn visit_list_items(
        &self,
        t: &ListView<'_>,
        lhs: &[Value],
        rhs: &[Value],
        depth: usize,
        errs: &mut Vec<String>,
    ) -> Option<Value> {
        let mut pairs: Vec<(Option<&Value>, Option<&Value>)> =
            Vec::with_capacity(lhs.len().max(rhs.len()));
        let paired = self.pair_items(t, (lhs, rhs), false, errs, |_, l, r| pairs.push((l, r)));
        if paired != Paired::Done {
            return None;
        }
        let out = self.merge_items(t, &pairs, depth);
        (!out.is_empty()).then_some(Value::Array(out))
    }

    /// The items of both sides paired by their names, each pair handed to `pair` in the order
    /// of the result (`visitListItems`): live-only items keep their place, config items the
    /// config's order. `unique_lhs`: hand nothing over when the live side repeats a name.
    fn pair_items<'v>(
        &self,
        t: &ListView<'_>,
        (lhs, rhs): (&'v [Value], &'v [Value]),
        unique_lhs: bool,
        errs: &mut Vec<String>,
        mut pair: impl FnMut(&PathElement, Option<&'v Value>, Option<&'v Value>),
    ) -> Paired {
        let mut index_errs = Vec::new();
        let (rpes, robs) = self.index(t, rhs, false, &mut index_errs);
        let (lpes, lobs) = self.index(t, lhs, true, &mut index_errs);
        if !index_errs.is_empty() {
            errs.extend(index_errs);
            return Paired::Failed;
        }
        if unique_lhs && lobs.len() < lpes.len() {
            return Paired::Repeated;
        }
        let mut shared: VecDeque<&PathElement> =
            rpes.iter().filter(|pe| lobs.contains_key(*pe)).collect();
        let mut next_shared = shared.pop_front();
        let mut merged_rhs: BTreeSet<&PathElement> = BTreeSet::new();
        let (llen, rlen) = (lpes.len(), rpes.len());
        let (mut li, mut ri) = (0, 0);
        while li < llen || ri < rlen {
            let before = (li, ri);
            if li < llen && ri < rlen {
                let pe = &lpes[li];
                if *pe == rpes[ri] {
                    merged_rhs.insert(pe);
                    pair(pe, lobs.get(pe).copied(), robs.get(pe).copied());
                    li += 1;
                    ri += 1;
                    next_shared = shared.pop_front();
                    continue;
                }
                if robs.contains_key(pe) && next_shared.is_some_and(|n| n != pe) {
                    li += 1;
                    continue;
                }
            }
            if li < llen {
                let pe = &lpes[li];
                if !robs.contains_key(pe) {
                    pair(pe, lhs.get(li), None);
                    li += 1;
                    continue;
                } else if merged_rhs.contains(pe) {
                    li += 1;
                }
            }
            if ri < rlen {
                let pe = &rpes[ri];
                merged_rhs.insert(pe);
                pair(pe, lobs.get(pe).copied(), robs.get(pe).copied());
                ri += 1;
                if next_shared.is_some_and(|n| n == pe) {
                    next_shared = shared.pop_front();
                }
            }
            if (li, ri) == before {
                li += 1;
            }
        }
        Paired::Done
    }

    /// Each pair of items merged (an item absent from the result is left out), a long list's
    /// second half on another core (once per merge). Errors inside items are not reported:
    /// the reference drops them too.
    fn merge_items(
        &self,
        t: &ListView<'_>,
        pairs: &[(Option<&Value>, Option<&Value>)],
        depth: usize,
    ) -> Vec<Value> {
        let merge = |pairs: &[(Option<&Value>, Option<&Value>)]| -> Vec<Value> {
            let mut ignored = Vec::new();
            pairs
                .iter()
                .filter_map(|&(l, r)| self.merge(l, r, t.elem, depth + 1, &mut ignored))
                .collect()
        };
        let big = || par::are_big(pairs.iter().flat_map(|&(l, r)| l.into_iter().chain(r)));
        if pairs.len() < FORK_AT
            || !self.fork.load(AtomicOrdering::Relaxed)
            || !big()
            || !self.fork.swap(false, AtomicOrdering::Relaxed)
        {
            return merge(pairs);
        }
        let (first, second) = pairs.split_at(pairs.len() / 2);
        let (rest, mut out) = par::both(true, || merge(second), || merge(first));
        out.extend(rest);
        out
    }

    /// Item names in order and the item for each (`indexListPathElements`); a duplicated
    /// name maps to null when allowed.
    fn index<'v>(
        &self,
        t: &ListView<'_>,
        list: &'v [Value],
        allow_duplicates: bool,
        errs: &mut Vec<String>,
    ) -> (Vec<PathElement>, BTreeMap<PathElement, &'v Value>) {
        let mut pes = Vec::with_capacity(list.len());
        let mut observed: BTreeMap<PathElement, &Value> = BTreeMap::new();
        for (i, child) in list.iter().enumerate() {
            let pe = match list_item_element(self.schema, t, child) {
                Ok(pe) => pe,
                Err(e) => {
                    errs.push(format!("element {i}: {e}"));
                    continue;
                }
            };
            if observed.contains_key(&pe) {
                if !allow_duplicates {
                    errs.push(format!("duplicate entries for key {pe}"));
                    continue;
                }
                observed.insert(pe.clone(), &NULL);
            } else {
                observed.insert(pe.clone(), child);
            }
            pes.push(pe);
        }
        (pes, observed)
    }

    fn do_map(
        &self,
        t: &MapView<'_>,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
        w: &mut Walk,
        depth: usize,
        errs: &mut Vec<String>,
    ) {
        let l = lhs.and_then(Value::as_object);
        let r = rhs.and_then(Value::as_object);
        let empty = l.is_none_or(Map::is_empty) && r.is_none_or(Map::is_empty);
        if t.rel == Relationship::Atomic || empty {
            leaf(w, lhs, rhs);
            return;
        }
        if l.is_none() && r.is_none() {
            return;
        }
        // Every field of either side (each once: appended, not looked up first): room for
        // the larger, grown at most once.
        let mut out = Map::with_capacity(l.map_or(0, Map::len).max(r.map_or(0, Map::len)));
        for (k, lv) in l.into_iter().flatten() {
            let rv = r.and_then(|r| r.get(k));
            if let Some(o) = self.merge(Some(lv), rv, t.field_type(k), depth + 1, errs) {
                out.push_unique(k.clone(), o);
            }
        }
        for (k, rv) in r.into_iter().flatten() {
            if l.is_some_and(|l| l.contains_key(k)) {
                continue;
            }
            if let Some(o) = self.merge(None, Some(rv), t.field_type(k), depth + 1, errs) {
                out.push_unique(k.clone(), o);
            }
        }
        if !out.is_empty() {
            w.out = Some(Value::Object(out));
        }
    }
}

/// `doLeaf` with `ruleKeepRHS`: the config's value, else the live one.
fn leaf(w: &mut Walk, lhs: Option<&Value>, rhs: Option<&Value>) {
    if w.in_leaf {
        return;
    }
    w.in_leaf = true;
    w.out = rhs.or(lhs).cloned();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ssa::kubernetes;

    fn v(s: &str) -> Value {
        serde_json::from_str(s).unwrap()
    }

    /// A Deployment whose containers are `names`, each with an image `tag` and, every third,
    /// an env var.
    fn deployment(names: impl Iterator<Item = usize>, tag: &str) -> Value {
        let containers: Vec<Value> = names
            .map(|i| {
                let mut c = v(&format!(r#"{{"name":"c{i}","image":"app:{tag}"}}"#));
                if i.is_multiple_of(3) {
                    c["env"] = v(&format!(r#"[{{"name":"E","value":"{tag}{i}"}}]"#));
                }
                c
            })
            .collect();
        let mut d =
            v(r#"{"apiVersion":"apps/v1","kind":"Deployment","spec":{"template":{"spec":{}}}}"#);
        d["spec"]["template"]["spec"]["containers"] = Value::Array(containers);
        d
    }

    #[test]
    fn a_long_list_merged_on_two_cores_is_the_list_merged_on_one() {
        let kube = kubernetes::embedded();
        let root = kube.root_for_gvk("apps/v1", "Deployment").unwrap();
        // Live-only items (odd numbers past 7000), config-only items (6000..7000), shared
        // items in a different order, and a config that reorders.
        let live = deployment((0..6000).chain((6001..8000).step_by(2)), "live");
        let config = deployment((0..7000).rev(), "config");
        let containers = |d: &Value| d["spec"]["template"]["spec"]["containers"].clone();
        assert!(par::are_big(containers(&live).as_array().unwrap()));
        let run = |fork: bool| {
            let mut errs = Vec::new();
            let m = Merger {
                schema: &kube.schema,
                fork: AtomicBool::new(fork),
            };
            let out = m.merge(Some(&live), Some(&config), root, 0, &mut errs);
            (out, errs, m.fork.load(AtomicOrdering::Relaxed))
        };
        let (one, one_errs, _) = run(false);
        let (two, two_errs, still) = run(true);
        assert!(!still, "the merge forked");
        assert_eq!(two, one);
        assert_eq!(two_errs, one_errs);
        let items = one.as_ref().unwrap()["spec"]["template"]["spec"]["containers"]
            .as_array()
            .unwrap()
            .len();
        assert_eq!(items, 7000 + 500);
        assert_eq!(merge(&kube.schema, root, &live, &config).unwrap(), one);
    }
}
