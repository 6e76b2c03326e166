//! Server-side apply: structured-merge-diff (SMD) and the API server's field management, pure.
//!
//! The modules follow the reference's own layout, so a reader can hold the Go code beside them:
//!
//! | reference (Go) | here |
//! | --- | --- |
//! | `value.Compare`, `value.Equals`, `value.ToString` | [`order`] |
//! | `fieldpath.PathElement`, `fieldpath.Path`, `serialize-pe.go` | [`path`] |
//! | `fieldpath.Set` | [`set`] |
//! | `fieldpath/serialize.go` (FieldsV1) | [`fieldsv1`] |
//! | `schema.Schema` (SMD `types:`), `schemaconv` (OpenAPI → SMD) | [`schema`], [`kubernetes`] (embedded table), [`openapi`] (a document) |
//! | `typed.ToFieldSet`, `Merge`, `Compare`, `RemoveItems`, `ExtractItems`, `Validate`, `ReconcileFieldSetWithSchema` | [`typed`] |
//! | `merge/update.go` (`Updater.Apply`, `Updater.Update`), `merge/conflict.go` | [`update`] |
//! | apimachinery `managedfields` (entries, identity, encoding) | [`managed`] |
//! | apimachinery `fieldmanager.go` and its wrappers (one request on an object) | [`request`] |
//! | apimachinery `lastappliedmanager.go` | [`lastapplied`] |
//! | client-go `util/csaupgrade` | [`csaupgrade`] |
//! | (applyscope) each field's action, owners and rule after an apply | [`explain`] |
//! | (applyscope) coded warnings: what an apply does unexpectedly, what the API server refuses | [`checks`] |
//! | (applyscope) the plan tree's nodes as field-set paths (the TUI's lines) | [`nodepath`] |
//! | kubectl `apply.go` (`--server-side`: apply, save last-applied, migrate, apply again) | [`kubectl`] |
//! | (applyscope) two cores for a big object: independent halves side by side, same results | [`par`] |
//!
//! Values are [`crate::value::Value`]; "absent" (Go's nil `value.Value`) is `None`.
//!
//! Entry points, from the highest:
//! - [`kubectl::apply_server_side`]: every request `kubectl apply --server-side` makes for one
//!   object and the object each leaves;
//! - [`request::Request`]: one apply or update as the API server runs it, on objects that
//!   carry `metadata.managedFields` (conflicts as [`request::ApiConflicts`], with the server's
//!   message); schemas and root types from [`kubernetes::embedded`] (built-in kinds) or
//!   [`openapi::from_openapi`] (a cluster's document, CRDs);
//! - [`Updater`]: SMD's apply/update on bare values and a map of managers;
//! - [`typed`], [`Set`], [`fieldsv1`]: the typed operations and field sets under them.

pub mod checks;
pub mod csaupgrade;
pub mod explain;
pub mod fieldsv1;
pub mod kubectl;
pub mod kubernetes;
pub mod lastapplied;
pub mod managed;
pub mod migrate;
pub mod nodepath;
pub mod openapi;
pub mod order;
pub mod par;
pub mod path;
pub mod request;
pub mod schema;
pub mod set;
pub mod typed;
pub mod update;

#[cfg(test)]
mod tests;

pub use path::{Path, PathElement};
pub use schema::{Schema, TypeRef};
pub use set::Set;
pub use typed::{Comparison, TypedError};
pub use update::{Conflict, Conflicts, ManagedFields, UpdateError, Updater, VersionedSet};
