//! An object as a request reads and leaves it: without `metadata.managedFields`, its managers
//! decoded apart ([`Managed`]). kubectl's sequence ([`super::super::kubectl`]) hands one
//! request's [`Answer`] to the next as [`Live::Read`], so FieldsV1 is not read again and the
//! object is not copied again to take its managedFields out.

use std::sync::Arc;

use super::RequestError;
use crate::engine::ssa::managed::{Managed, decode, encode};
use crate::engine::ssa::typed::Comparison;
use crate::value::{Map, Value};

/// The live object a request reads.
#[derive(Debug)]
pub enum Live<'v> {
    /// As the API server stores it: its managedFields are decoded (and their errors reported)
    /// by the request.
    Stored(&'v Value),
    /// As a previous request left it ([`Answer`]): the object without managedFields (shared:
    /// an answer that leaves it as it is hands it on) and its managers.
    Read {
        object: &'v Arc<Value>,
        managed: Managed,
    },
}

impl<'v> Live<'v> {
    /// The managers and the object without its managedFields.
    pub(super) fn split(self) -> Result<(Managed, Arc<Value>), RequestError> {
        match self {
            Live::Stored(obj) => {
                let managed = decode(obj.get("metadata").and_then(|m| m.get("managedFields")))?;
                Ok((managed, Arc::new(without_managed_fields(obj))))
            }
            Live::Read { object, managed } => Ok((managed, Arc::clone(object))),
        }
    }
}

/// What a request leaves: the object without its managedFields, and its managers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The object left: the object read itself (shared, `Arc::ptr_eq` with it) when the
    /// request left it as it was (the apply changed nothing and rewrote no annotation).
    pub object: Arc<Value>,
    pub managed: Managed,
    /// The object read compared with `object` (the last-applied annotation's rewrite after
    /// the request's comparison included: [`super::lastapplied::compared_after_rewrite`]).
    pub compared: Comparison,
}

impl Answer {
    /// The object as stored (a copy, with its managedFields).
    #[must_use]
    pub fn stored(&self) -> Value {
        with_managed_fields(Value::clone(&self.object), &self.managed)
    }

    /// [`Answer::stored`] without the copy.
    #[must_use]
    pub fn into_stored(self) -> Value {
        with_managed_fields(Arc::unwrap_or_clone(self.object), &self.managed)
    }
}

/// An object without its `metadata.managedFields` (copied without them: they can be as big
/// as the object).
#[must_use]
pub fn without_managed_fields(obj: &Value) -> Value {
    let Value::Object(top) = obj else {
        return obj.clone();
    };
    let mut out = Map::with_capacity(top.len());
    for (k, v) in top {
        let v = match v {
            Value::Object(meta) if k == "metadata" => {
                let mut kept = Map::with_capacity(meta.len());
                for (mk, mv) in meta {
                    if mk != "managedFields" {
                        kept.insert(mk.clone(), mv.clone());
                    }
                }
                Value::Object(kept)
            }
            v => v.clone(),
        };
        out.insert(k.clone(), v);
    }
    Value::Object(out)
}

/// The object with `managed` written as its `metadata.managedFields` (removed when none).
pub(super) fn with_managed_fields(obj: Value, managed: &Managed) -> Value {
    with_encoded(obj, encode(managed))
}

/// The object with `metadata.managedFields` as written by [`encode`] (`None`: removed), in
/// their place, or last in `metadata` when it had none.
#[must_use]
pub fn with_encoded(mut obj: Value, encoded: Option<Value>) -> Value {
    if obj.is_null() {
        obj = Value::Object(Map::new());
    }
    if let Some(m) = obj.as_object_mut() {
        let meta = m
            .entry("metadata")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Some(meta) = meta.as_object_mut() {
            match encoded {
                Some(list) => {
                    meta.insert("managedFields", list);
                }
                None => {
                    meta.shift_remove("managedFields");
                }
            }
        }
    }
    obj
}
