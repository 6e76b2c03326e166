//! The merge engine: pure, no I/O, no UI.
//!
//! Its modules read like the merge tables kubectl's documentation gives:
//! - [`schema`]: patch metadata (strategy, merge key, list type) per field;
//! - [`smp`]: strategic merge patch (two-way diff, three-way diff, apply);
//! - [`jsonmerge`]: RFC 7386 JSON merge patch, three-way as kubectl does it for custom resources;
//! - [`jsonpatch`]: RFC 6902 JSON Patch;
//! - [`edit`]: edits of the last-applied configuration (drop, adopt, set);
//! - [`plan`]: what `kubectl apply` would send, the result, and every field's action and why;
//! - [`object`]: object identity (`apiVersion` as group and version, kind, namespace, name);
//! - [`lint`]: hazard lints (duplicate merge keys, immutable fields, ...) added to a plan's warnings;
//! - [`gojson`]: JSON written byte for byte as Go's `encoding/json` writes it;
//! - [`gosort`]: Go's `sort.Sort` (pdqsort), whose order of equal items shows in patches;
//! - [`gofmt`]: how Go's `%v`, `reflect` and `==` see a value (sorting and matching rely on it).

pub mod edit;
pub mod error;
pub mod gofmt;
pub mod gojson;
pub mod gosort;
pub mod goyaml;
pub mod jsonmerge;
pub mod jsonpatch;
pub mod lint;
pub mod lock;
pub mod numfmt;
pub mod object;
pub mod plan;
pub mod schema;
pub mod secret;
pub mod smp;
pub mod ssa;
pub mod validation;

pub use crate::value::Value;

/// Maximum nesting depth the engine will walk. Deeper documents are an error, never a stack
/// overflow. Loaders enforce a smaller limit on input, so this only guards patches built in memory.
pub const MAX_DEPTH: usize = 512;
