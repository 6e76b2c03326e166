//! Why a request failed ([`UpdateError`]).

use super::conflicts::Conflicts;
use crate::engine::ssa::typed::TypedError;

/// Why a request failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UpdateError {
    #[error("{0}")]
    Conflicts(Conflicts),
    #[error("{0}")]
    Typed(#[from] TypedError),
    /// The comparison of the live object with the new one failed (an item prune left without
    /// its key fields): `update`'s error, which the API server answers with (HTTP 500).
    #[error("failed to compare objects: {0}")]
    Compare(TypedError),
}
