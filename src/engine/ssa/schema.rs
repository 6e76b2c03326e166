//! SMD schemas (`schema/elements.go`): named types made of atoms (scalar, list, map), read
//! from SMD's own `types:` document (the test schemas) or built from an OpenAPI document
//! ([`super::kubernetes`]).
//!
//! | SMD | here | effect |
//! | --- | --- | --- |
//! | `scalar: numeric/string/boolean/untyped` | [`Scalar`] | a leaf |
//! | `list: {elementType, elementRelationship: atomic}` | [`List`] | one owner, replaced whole |
//! | `list: {elementRelationship: associative, keys: [..]}` | [`List`] with keys | items `k:{..}` merged by key |
//! | `list: {elementRelationship: associative}` (no keys) | [`List`] without keys | a set, items `v:..` |
//! | `map: {fields: [..], elementType, elementRelationship}` | [`MapType`] | a struct and/or a map; `atomic` = one owner |
//! | `namedType` + `elementRelationship` on a type reference | [`TypeRef`] override | e.g. `claimRef: granular` |

use std::hash::BuildHasher as _;

use hashbrown::HashTable;

use crate::engine::gofmt::FastMap;
use crate::value::{Str, Value, name};

/// `schema.Scalar`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scalar {
    Numeric,
    String,
    Boolean,
    Untyped,
    /// A name SMD does not know: accepted in a schema, but no value fits it.
    Unknown,
}

/// `schema.ElementRelationship`; `Unset` is Go's empty string (neither atomic nor associative).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relationship {
    Atomic,
    Associative,
    Separable,
    Unset,
}

impl Relationship {
    fn parse(s: &str) -> Result<Relationship, SchemaError> {
        match s {
            "atomic" => Ok(Relationship::Atomic),
            "associative" => Ok(Relationship::Associative),
            "separable" => Ok(Relationship::Separable),
            "" => Ok(Relationship::Unset),
            _ => Err(SchemaError(format!("unknown elementRelationship {s:?}"))),
        }
    }
}

/// A reference to a type: a named type or an inline atom, with an optional relationship
/// override. Cheap to copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TypeRef {
    atom: u32,
    named: bool,
    rel: Option<Relationship>,
}

/// A list type.
#[derive(Clone, Debug)]
pub struct List {
    pub elem: TypeRef,
    pub rel: Relationship,
    pub keys: Vec<Str>,
}

/// A struct field.
#[derive(Clone, Debug)]
pub struct StructField {
    pub name: Str,
    pub ty: TypeRef,
    /// The schema default, used only to fill a missing list-map key.
    pub default: Option<Value>,
}

/// A map/struct type.
#[derive(Clone, Debug)]
pub struct MapType {
    pub fields: Vec<StructField>,
    /// Positions in `fields` by name. Asked for every field of every value walked: a fast
    /// hash, not SipHash, and names compared in place ([`name::same`]), not by a `memcmp` call.
    by_name: HashTable<u32>,
    pub elem: TypeRef,
    pub rel: Relationship,
}

/// The hash of the names in [`MapType::by_name`] (fixed: tables are built once).
fn name_hash(name: &str) -> u64 {
    foldhash::fast::FixedState::default().hash_one(name)
}

impl MapType {
    /// `Map.FindField`.
    #[must_use]
    pub fn field(&self, name: &str) -> Option<&StructField> {
        let fields = &self.fields;
        let at = self.by_name.find(name_hash(name), |&i| {
            fields
                .get(i as usize)
                .is_some_and(|f| name::same(&f.name, name))
        })?;
        fields.get(*at as usize)
    }

    /// The type of `name`: its field's, else the element type.
    #[must_use]
    pub fn field_type(&self, name: &str) -> TypeRef {
        self.field(name).map_or(self.elem, |f| f.ty)
    }
}

/// An atom: any of a scalar, a list and a map (a value picks one by its own kind).
#[derive(Clone, Debug, Default)]
pub struct Atom {
    pub scalar: Option<Scalar>,
    pub list: Option<List>,
    pub map: Option<MapType>,
    /// A reference to a type the schema does not define.
    pub(super) missing: bool,
}

impl Atom {
    fn is_empty(&self) -> bool {
        self.scalar.is_none() && self.list.is_none() && self.map.is_none()
    }
}

/// An atom as a type reference resolves it (relationship overrides applied).
#[derive(Clone, Copy, Debug)]
pub struct Resolved<'s> {
    atom: &'s Atom,
    list_rel: Relationship,
    map_rel: Relationship,
}

/// A resolved list: the list and its effective relationship.
#[derive(Clone, Copy, Debug)]
pub struct ListView<'s> {
    pub elem: TypeRef,
    pub rel: Relationship,
    pub keys: &'s [Str],
    list: &'s List,
}

/// A resolved map: the map and its effective relationship.
#[derive(Clone, Copy, Debug)]
pub struct MapView<'s> {
    pub map: &'s MapType,
    pub rel: Relationship,
}

impl<'s> MapView<'s> {
    #[must_use]
    pub fn field(&self, name: &str) -> Option<&'s StructField> {
        self.map.field(name)
    }

    #[must_use]
    pub fn field_type(&self, name: &str) -> TypeRef {
        self.map.field_type(name)
    }
}

impl<'s> ListView<'s> {
    /// The list as written (for key defaults).
    #[must_use]
    pub fn list(&self) -> &'s List {
        self.list
    }
}

impl<'s> Resolved<'s> {
    #[must_use]
    pub fn scalar(&self) -> Option<Scalar> {
        self.atom.scalar
    }

    #[must_use]
    pub fn list(&self) -> Option<ListView<'s>> {
        self.atom.list.as_ref().map(|l| ListView {
            elem: l.elem,
            rel: self.list_rel,
            keys: &l.keys,
            list: l,
        })
    }

    #[must_use]
    pub fn map(&self) -> Option<MapView<'s>> {
        self.atom.map.as_ref().map(|m| MapView {
            map: m,
            rel: self.map_rel,
        })
    }
}

/// A schema could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("schema: {0}")]
pub struct SchemaError(pub String);

/// A set of types.
#[derive(Clone, Debug)]
pub struct Schema {
    atoms: Vec<Atom>,
    names: FastMap<Str, u32>,
    empty: u32,
}

impl Default for Schema {
    fn default() -> Schema {
        Schema::new()
    }
}

/// The deduced type's name (`typed.DeducedParseableType`).
pub const UNTYPED_DEDUCED: &str = "__untyped_deduced_";
/// The atomic untyped type's name (`RawExtension`).
pub const UNTYPED_ATOMIC: &str = "__untyped_atomic_";

impl Schema {
    /// A schema with no named types.
    #[must_use]
    pub fn new() -> Schema {
        Schema {
            atoms: vec![Atom::default()],
            names: FastMap::default(),
            empty: 0,
        }
    }

    /// The empty type reference (`schema.TypeRef{}`).
    #[must_use]
    pub fn empty_ref(&self) -> TypeRef {
        TypeRef {
            atom: self.empty,
            named: false,
            rel: None,
        }
    }

    /// Is this `schema.TypeRef{}` (no type at all)?
    #[must_use]
    pub fn is_empty_ref(&self, tr: TypeRef) -> bool {
        !tr.named && tr.rel.is_none() && self.atom(tr).is_none_or(Atom::is_empty)
    }

    /// `isUntypedDeducedRef`.
    #[must_use]
    pub fn is_untyped_deduced_ref(&self, tr: TypeRef) -> bool {
        if tr.named {
            return self.names.get(UNTYPED_DEDUCED) == Some(&tr.atom);
        }
        self.atom(tr)
            .is_some_and(|a| a.scalar == Some(Scalar::Untyped))
    }

    fn atom(&self, tr: TypeRef) -> Option<&Atom> {
        self.atoms.get(tr.atom as usize)
    }

    /// The named type.
    #[must_use]
    pub fn named(&self, name: &str) -> Option<TypeRef> {
        self.names.get(name).map(|&atom| TypeRef {
            atom,
            named: true,
            rel: None,
        })
    }

    /// The same reference with an `elementRelationship` override.
    #[must_use]
    pub fn with_relationship(tr: TypeRef, rel: Relationship) -> TypeRef {
        TypeRef {
            rel: Some(rel),
            ..tr
        }
    }

    /// `Schema.Resolve`: `None` for an undefined name, or an override on a scalar.
    #[must_use]
    pub fn resolve(&self, tr: TypeRef) -> Option<Resolved<'_>> {
        let atom = self.atom(tr)?;
        if atom.missing {
            return None;
        }
        let list_rel = atom.list.as_ref().map_or(Relationship::Unset, |l| l.rel);
        let map_rel = atom.map.as_ref().map_or(Relationship::Unset, |m| m.rel);
        match tr.rel {
            None => Some(Resolved {
                atom,
                list_rel,
                map_rel,
            }),
            Some(rel) if atom.map.is_some() => Some(Resolved {
                atom,
                list_rel,
                map_rel: rel,
            }),
            Some(rel) if atom.list.is_some() => Some(Resolved {
                atom,
                list_rel: rel,
                map_rel,
            }),
            Some(_) => None,
        }
    }

    /// Reserves a named type (its atom is set later with [`Schema::set_atom`]).
    pub(super) fn declare(&mut self, name: &str) -> TypeRef {
        if let Some(tr) = self.named(name) {
            return tr;
        }
        let atom = self.push_atom(Atom {
            missing: true,
            ..Atom::default()
        });
        self.names.insert(name.into(), atom);
        TypeRef {
            atom,
            named: true,
            rel: None,
        }
    }

    pub(super) fn set_atom(&mut self, tr: TypeRef, atom: Atom) {
        if let Some(slot) = self.atoms.get_mut(tr.atom as usize) {
            *slot = atom;
        }
    }

    fn push_atom(&mut self, atom: Atom) -> u32 {
        self.atoms.push(atom);
        u32::try_from(self.atoms.len() - 1).unwrap_or(u32::MAX)
    }

    /// An inline atom.
    pub(super) fn inline(&mut self, atom: Atom) -> TypeRef {
        if atom.is_empty() {
            return self.empty_ref();
        }
        let atom = self.push_atom(atom);
        TypeRef {
            atom,
            named: false,
            rel: None,
        }
    }

    /// Reads SMD's `types:` list (parsed from YAML or JSON):
    /// `[{name, scalar?, list?, map?}, ...]`.
    ///
    /// # Errors
    /// When the document is not of that shape.
    pub fn from_smd_types(types: &Value) -> Result<Schema, SchemaError> {
        let Some(list) = types.as_array() else {
            return Err(SchemaError("types must be a list".into()));
        };
        let mut schema = Schema::new();
        for t in list {
            let name = t
                .get("name")
                .and_then(Value::as_str)
                .ok_or_else(|| SchemaError("a type without a name".into()))?;
            schema.declare(name);
        }
        for t in list {
            let name = t.get("name").and_then(Value::as_str).unwrap_or_default();
            let atom = schema.read_atom(t)?;
            if let Some(tr) = schema.named(name) {
                schema.set_atom(tr, atom);
            }
        }
        Ok(schema)
    }

    fn read_atom(&mut self, v: &Value) -> Result<Atom, SchemaError> {
        let mut atom = Atom::default();
        if let Some(s) = v.get("scalar") {
            atom.scalar = Some(match s.as_str() {
                Some("numeric") => Scalar::Numeric,
                Some("string") => Scalar::String,
                Some("boolean") => Scalar::Boolean,
                Some("untyped") => Scalar::Untyped,
                Some(_) => Scalar::Unknown,
                None => return Err(SchemaError(format!("unknown scalar {s}"))),
            });
        }
        if let Some(l) = v.get("list") {
            let elem = self.read_ref(l.get("elementType"))?;
            let rel = Relationship::parse(
                l.get("elementRelationship")
                    .and_then(Value::as_str)
                    .unwrap_or(""),
            )?;
            let keys = l
                .get("keys")
                .and_then(Value::as_array)
                .map(|ks| ks.iter().filter_map(Value::as_str).map(Str::from).collect())
                .unwrap_or_default();
            atom.list = Some(List { elem, rel, keys });
        }
        if let Some(m) = v.get("map") {
            let elem = self.read_ref(m.get("elementType"))?;
            let rel = Relationship::parse(
                m.get("elementRelationship")
                    .and_then(Value::as_str)
                    .unwrap_or(""),
            )?;
            let mut fields = Vec::new();
            for f in m
                .get("fields")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let name = f.get("name").and_then(Value::as_str).unwrap_or_default();
                let ty = self.read_ref(f.get("type"))?;
                let default = f.get("default").cloned();
                fields.push(StructField {
                    name: name.into(),
                    ty,
                    default,
                });
            }
            atom.map = Some(MapType::new(fields, elem, rel));
        }
        Ok(atom)
    }

    fn read_ref(&mut self, v: Option<&Value>) -> Result<TypeRef, SchemaError> {
        let Some(v) = v else {
            return Ok(self.empty_ref());
        };
        let rel = v
            .get("elementRelationship")
            .and_then(Value::as_str)
            .map(Relationship::parse)
            .transpose()?;
        let base = if let Some(name) = v.get("namedType").and_then(Value::as_str) {
            self.declare(name)
        } else {
            let atom = self.read_atom(v)?;
            self.inline(atom)
        };
        Ok(TypeRef { rel, ..base })
    }
}

impl MapType {
    /// A map type with these fields.
    #[must_use]
    pub fn new(fields: Vec<StructField>, elem: TypeRef, rel: Relationship) -> MapType {
        let mut by_name = HashTable::with_capacity(fields.len());
        for (i, f) in fields.iter().enumerate() {
            // A type of 4 billion fields does not fit the schema's file.
            let at = u32::try_from(i).unwrap_or(u32::MAX);
            let hash = name_hash(&f.name);
            let same = |&j: &u32| fields.get(j as usize).is_some_and(|g| g.name == f.name);
            // A name given twice is the last one's, as a map's insert leaves it.
            match by_name.find_mut(hash, same) {
                Some(slot) => *slot = at,
                None => {
                    by_name.insert_unique(hash, at, |&j| {
                        fields.get(j as usize).map_or(0, |g| name_hash(&g.name))
                    });
                }
            }
        }
        MapType {
            fields,
            by_name,
            elem,
            rel,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every field of every struct of the embedded schema is found by its name, a name it
    /// lacks (a prefix, a longer name, another case) by none; a name given twice is the last.
    #[test]
    fn fields_are_found_by_name() {
        let kube = crate::engine::ssa::kubernetes::embedded();
        let (mut structs, mut found) = (0, 0);
        for atom in &kube.schema.atoms {
            let Some(map) = &atom.map else { continue };
            structs += 1;
            for (i, f) in map.fields.iter().enumerate() {
                let got = map.field(&f.name).map(std::ptr::from_ref);
                assert_eq!(got, Some(std::ptr::from_ref(&map.fields[i])), "{}", f.name);
                found += 1;
                for other in [
                    format!("{}x", f.name),
                    f.name.as_str().to_uppercase(),
                    f.name[..f.name.len() - 1].to_owned(),
                ] {
                    if map.fields.iter().all(|g| g.name != other) {
                        assert!(map.field(&other).is_none(), "{other}");
                    }
                }
            }
        }
        assert!(structs > 500 && found > 3000, "{structs} {found}");
        let field = |name: &str, ty: TypeRef| StructField {
            name: name.into(),
            ty,
            default: None,
        };
        let (a, b) = (
            kube.schema.empty_ref(),
            Schema::with_relationship(kube.schema.empty_ref(), Relationship::Atomic),
        );
        let twice = MapType::new(
            vec![field("spec", a), field("status", a), field("spec", b)],
            a,
            Relationship::Separable,
        );
        assert_eq!(twice.field("spec").map(|f| f.ty), Some(b));
        assert_eq!(twice.field("status").map(|f| f.ty), Some(a));
        assert!(twice.field("specs").is_none());
    }
}
