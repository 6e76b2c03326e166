//! Prune's answer read from the sets alone, for managers at one API version: what
//! `Updater.prune` removes from the merged object, without building the two objects it builds
//! in between (`RemoveItems` of the applier's last set, then `RemoveItems` of what nobody owns
//! of that) nor walking them for their sets.
//!
//! With `M` the merged object's set, `L` the applier's last set and `O` what every manager owns
//! (all with named fields as members), a removal of `R` takes from the object exactly the paths
//! of `M` at or below a member of `R`, and the set of what it leaves is `M` less those paths,
//! but in two cases, where the set of what is left depends on what `M` does not tell:
//! - a removal takes a key field of a list item it keeps, and the key without it (defaulted as
//!   the schema says) names another item, or none (the set walk fails);
//! - a removal takes everything of the set of a node it keeps: the value left may be an empty
//!   map (a member) or hold only what no set names (an empty list), and then it is no member,
//!   nor are the named fields above it that held nothing else (the list that lost its items,
//!   or `{"containers": []}` once its other fields went).
//!
//! Where neither happens, prune's steps are set algebra (`Sub(R)`: the paths of `M` at or
//! below a member of `R`): the first removal leaves `M − Sub(L)`, so what nobody owns of it is
//! `dropped = Sub(L) − O`; the second leaves `M − Sub(dropped)`, and what goes is
//! `Sub(dropped) ∩ L`. One walk of `M`, with cursors in `L` and `O`, answers that, or `None`
//! where a removal meets one of the two cases (the caller then builds the objects).

use super::list_item_element;
use crate::engine::ssa::path::PathElement;
use crate::engine::ssa::schema::{ListView, Schema, TypeRef};
use crate::engine::ssa::set::{Seek, Set};
use crate::value::{Map, Value};

/// What prune removes from the object whose set (named fields as members) is `merged`, of
/// type `tr`: `last` the applier's last set and `owned` every manager's, both with named
/// fields as members. `None` when a removal would rename an item it keeps by taking a key
/// field, or empty the set of a node it keeps (see the module), or the set is deeper than the
/// depth limit.
#[must_use]
pub fn prune_gone(
    schema: &Schema,
    tr: TypeRef,
    merged: &Set,
    last: &Set,
    owned: &Set,
) -> Option<Set> {
    let walk = Walk { schema };
    let at = At {
        tr,
        pe: None,
        list: None,
        taken: Taken::default(),
    };
    walk.node(merged, Some(last), Some(owned), at, 0)
        .map(|b| b.gone)
}

/// Whether a node is taken by the first removal (at or below a member of `L`) and by the
/// second (at or below a member of `dropped`); of a node's set, whether each leaves something.
#[derive(Clone, Copy, Default)]
struct Taken {
    first: bool,
    second: bool,
}

/// Where a node is: its type, the element that reached it, the list it is an item of, and
/// whether a removal takes it.
#[derive(Clone, Copy)]
struct At<'p, 's> {
    tr: TypeRef,
    pe: Option<&'p PathElement>,
    list: Option<ListView<'s>>,
    taken: Taken,
}

/// What the walk found below a node: the gone paths, and whether each removal leaves
/// something of the node's set.
struct Below {
    gone: Set,
    left: Taken,
}

struct Walk<'s> {
    schema: &'s Schema,
}

impl<'s> Walk<'s> {
    /// The gone paths below the node `m` of `M`, `l` and `o` being the nodes of `L` and `O`
    /// there.
    fn node(
        &self,
        m: &Set,
        l: Option<&Set>,
        o: Option<&Set>,
        at: At<'_, 's>,
        depth: usize,
    ) -> Option<Below> {
        if depth > crate::engine::MAX_DEPTH {
            return None;
        }
        let taken = at.taken;
        let none: &[PathElement] = &[];
        let in_l = l.map_or(none, Set::members);
        let in_o = o.map_or(none, Set::members);
        let keys: &[(crate::value::Str, Value)] = match at.pe {
            Some(PathElement::Key(fields)) => fields,
            _ => &[],
        };
        let is_key = |pe: &PathElement| match pe {
            PathElement::Field(name) => keys.iter().any(|(n, _)| n == name),
            _ => false,
        };
        // The key fields each removal takes from this item while keeping it.
        let (mut first_keys, mut second_keys) = (Vec::new(), Vec::new());
        let mut left = Taken::default();
        let mut members = Vec::new();
        // Per member, what each removal does with it (the children below read it again).
        let mut flags = Vec::with_capacity(m.members().len());
        let (mut l_seek, mut o_seek) = (Seek::new(in_l), Seek::new(in_o));
        for pe in m.members() {
            let last = l_seek.find(pe).is_some();
            let first = taken.first || last;
            let t = Taken {
                first,
                second: taken.second || (first && o_seek.find(pe).is_none()),
            };
            flags.push(t);
            let (first_here, second_here) = (t.first && !taken.first, t.second && !taken.second);
            if first_here || second_here {
                // Into an item that is not keyed, nothing can be said.
                if matches!(at.pe, Some(PathElement::Index(_))) {
                    return None;
                }
                if is_key(pe) {
                    if first_here {
                        first_keys.push(pe);
                    }
                    if second_here {
                        second_keys.push(pe);
                    }
                }
            }
            left.first |= !t.first;
            left.second |= !t.second;
            if last && t.second {
                members.push(pe.clone());
            }
        }
        for taken_keys in [&first_keys, &second_keys] {
            if !taken_keys.is_empty() && !self.keeps_name(at, keys, taken_keys) {
                return None;
            }
        }
        let mut children = Vec::new();
        let (mut l_kids, mut o_kids) = (
            Seek::new(l.map_or(&[][..], Set::children)),
            Seek::new(o.map_or(&[][..], Set::children)),
        );
        // A cursor in the members, which hold most routes too.
        let mut at_member = 0;
        let resolved = if m.children().is_empty() {
            None
        } else {
            self.schema.resolve(at.tr)
        };
        let map = resolved.as_ref().and_then(|r| r.map());
        let list = resolved.as_ref().and_then(|r| r.list());
        for (pe, sub) in m.children() {
            let all = m.members();
            while all.get(at_member).is_some_and(|x| x < pe) {
                at_member += 1;
            }
            let t = match all.get(at_member) {
                Some(x) if x == pe => flags[at_member],
                // A route that is no member: taken with the node, or by a member of `L`
                // here; never dropped itself (only members are).
                _ => Taken {
                    first: taken.first || in_l.binary_search(pe).is_ok(),
                    second: taken.second,
                },
            };
            let l_below = l_kids.find(pe).map(|(_, s)| s);
            let o_below = o_kids.find(pe).map(|(_, s)| s);
            // Below, something goes only where `L` has paths, and a removal changes the set
            // only there, or, for the second, where the first took what the second keeps. A
            // route not walked is kept whole by both removals, or taken whole by both.
            let first_only = t.first && !t.second;
            if l_below.is_none() && !first_only {
                left.first |= !t.first;
                left.second |= !t.second;
                continue;
            }
            // A key field with something inside: nothing can be said.
            if is_key(pe) {
                return None;
            }
            let (tr, item_of) = match (pe, map, list) {
                (PathElement::Field(name), Some(m), _) => (m.field_type(name), None),
                (PathElement::Key(_) | PathElement::Value(_), _, Some(l)) => (l.elem, Some(l)),
                _ => (self.schema.empty_ref(), None),
            };
            let child = At {
                tr,
                pe: Some(pe),
                list: item_of,
                taken: t,
            };
            let below = self.node(sub, l_below, o_below, child, depth + 1)?;
            left.first |= below.left.first;
            left.second |= below.left.second;
            if !below.gone.is_empty() {
                children.push((pe.clone(), below.gone));
            }
        }
        // A node kept whose set a removal empties: its value may be an empty map (a member) or
        // hold only what no set names (an empty list: no member, nor the fields above it).
        let entries = !m.members().is_empty() || !m.children().is_empty();
        if depth > 0
            && entries
            && ((!taken.first && !left.first) || (!taken.second && !left.second))
        {
            return None;
        }
        Some(Below {
            gone: Set::from_parts(members, children),
            left,
        })
    }

    /// Whether the item at `at` keeps its name when the key fields `taken` go from it: its
    /// key's other fields, defaulted as its list's schema says, name it again.
    fn keeps_name(
        &self,
        at: At<'_, 's>,
        keys: &[(crate::value::Str, Value)],
        taken: &[&PathElement],
    ) -> bool {
        let (Some(list), Some(pe)) = (at.list, at.pe) else {
            return false;
        };
        let mut rest = Map::new();
        for (name, value) in keys {
            if !taken
                .iter()
                .any(|t| matches!(t, PathElement::Field(n) if n == name))
            {
                rest.insert(name.clone(), value.clone());
            }
        }
        list_item_element(self.schema, &list, &Value::Object(rest)).is_ok_and(|after| after == *pe)
    }
}
