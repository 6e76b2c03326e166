//! Patch metadata: for each field, its patch strategy, merge key and list/map type.
//!
//! INTERFACE (fixed; the strategic-merge code depends on it). Internals to be written.

use std::fmt;

/// The patch strategies a field declares (`x-kubernetes-patch-strategy`, comma separated).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Strategies {
    pub merge: bool,
    pub retain_keys: bool,
    pub replace: bool,
}

/// What a field declares for patching.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PatchMeta<'s> {
    pub strategies: Strategies,
    /// `x-kubernetes-patch-merge-key`.
    pub merge_key: Option<&'s str>,
}

/// A lookup failed (e.g. `unable to find api field in struct ConfigMap for the json field "bogus"`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LookupError(pub String);

impl fmt::Display for LookupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LookupError {}

/// A cursor into a schema: the type of the value at hand. `Meta::opaque()` has no metadata:
/// every lookup succeeds with no strategy (apimachinery's nil schema).
#[derive(Clone, Copy, Debug)]
pub struct Meta<'s> {
    _p: std::marker::PhantomData<&'s ()>,
}

impl<'s> Meta<'s> {
    /// No metadata: lookups succeed and declare nothing.
    #[must_use]
    pub const fn opaque() -> Self {
        Meta { _p: std::marker::PhantomData }
    }

    /// Metadata of the object field `key` and the type of its value.
    ///
    /// # Errors
    /// When the type at hand is a struct without such a field, or not a struct.
    pub fn lookup_struct(self, key: &str) -> Result<(Meta<'s>, PatchMeta<'s>), LookupError> {
        let _ = key;
        Ok((self, PatchMeta::default()))
    }

    /// Metadata of the list field `key` and the type of its elements.
    ///
    /// # Errors
    /// As [`Meta::lookup_struct`], and when the field is not a list.
    pub fn lookup_slice(self, key: &str) -> Result<(Meta<'s>, PatchMeta<'s>), LookupError> {
        let _ = key;
        Ok((self, PatchMeta::default()))
    }
}
