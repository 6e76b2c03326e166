//! A request's errors as the API server words them: the 409 of a refused apply
//! ([`ApiConflicts`], `conflict.go`), the 400s and the typed-object failures
//! ([`RequestError`]).

use std::collections::BTreeMap;
use std::fmt;

use crate::engine::ssa::managed::{ManagedFieldsError, ManagerId};
use crate::engine::ssa::path::{Path, path_string};
use crate::engine::ssa::typed::TypedError;
use crate::engine::ssa::update::{
    COMPARE_FAILED, Conflict, Conflicts, UpdateError, grouped_conflicts,
};
use crate::value::Value;

/// One conflict as the API server reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiConflict {
    pub manager: ManagerId,
    pub path: Path,
}

impl fmt::Display for ApiConflict {
    /// `conflict with "m" using apps/v1: .spec.replicas`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "conflict with {}: {}",
            self.manager,
            path_string(&self.path)
        )
    }
}

/// The conflicts of a refused apply (HTTP 409), in the API server's message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiConflicts(pub Vec<ApiConflict>);

impl fmt::Display for ApiConflicts {
    /// `Apply failed with 1 conflict: conflict with "m" using apps/v1: .spec.replicas`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let [one] = self.0.as_slice() {
            return write!(f, "Apply failed with 1 conflict: {one}");
        }
        let mut by: BTreeMap<String, (&ManagerId, Vec<&Path>)> = BTreeMap::new();
        for c in &self.0 {
            by.entry(c.manager.key())
                .or_insert_with(|| (&c.manager, Vec::new()))
                .1
                .push(&c.path);
        }
        write!(
            f,
            "Apply failed with {} conflicts: {}",
            self.0.len(),
            grouped_conflicts(by.into_values())
        )
    }
}

/// Why a request failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    #[error("failed to decode managed fields: {0}")]
    Managed(#[from] ManagedFieldsError),
    #[error("{0}")]
    Conflicts(ApiConflicts),
    #[error("{0}")]
    Typed(#[from] TypedError),
    /// The object sent does not fit the schema (a repeated list key, an undeclared field).
    #[error("failed to create typed {what} object ({gvk}): {}", go_errors(&.source.0))]
    Invalid {
        /// `patch` (an applied configuration) or `new` (an update's object).
        what: &'static str,
        /// `default/web; apps/v1, Kind=Deployment`.
        gvk: String,
        source: TypedError,
    },
    /// The request is refused before any merge (HTTP 400).
    #[error("{0}")]
    BadRequest(String),
    /// The API server fails the request (HTTP 500): its message.
    #[error("{0}")]
    Failed(String),
}

/// `default/web; apps/v1, Kind=Deployment`: the object's namespace and name, and its
/// `GroupVersionKind` as Go prints it (`/v1, Kind=ConfigMap` in the core group), as
/// apimachinery's `objectGVKNN` writes them.
#[must_use]
pub fn gvk(obj: &Value) -> String {
    let s = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
    let meta = obj.get("metadata").unwrap_or(&Value::Null);
    let api_version = s(obj, "apiVersion");
    let (group, version) = api_version.split_once('/').unwrap_or(("", &api_version));
    format!(
        "{}/{}; {group}/{version}, Kind={}",
        s(meta, "namespace"),
        s(meta, "name"),
        s(obj, "kind")
    )
}

/// `typed.ValidationErrors.Error()`: one error as it is, several under `errors:`, indented.
#[must_use]
pub fn go_errors(errors: &[String]) -> String {
    match errors {
        [one] => one.clone(),
        all => std::iter::once("errors:".to_owned())
            .chain(all.iter().map(|e| format!("  {e}")))
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

pub(super) fn update_error(e: UpdateError) -> RequestError {
    match e {
        UpdateError::Typed(t) => RequestError::Typed(t),
        UpdateError::Compare(t) => {
            RequestError::Failed(format!("{COMPARE_FAILED}: {}", go_errors(&t.0)))
        }
        UpdateError::Conflicts(c) => RequestError::Conflicts(api_conflicts(c)),
    }
}

pub(super) fn api_conflicts(Conflicts(list): Conflicts) -> ApiConflicts {
    ApiConflicts(
        list.into_iter()
            .map(|Conflict { manager, path }| ApiConflict {
                manager: ManagerId::from_key(&manager)
                    .unwrap_or_else(|| ManagerId::apply(&manager)),
                path,
            })
            .collect(),
    )
}
