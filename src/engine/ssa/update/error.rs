//! Why a request failed ([`UpdateError`]).

use super::conflicts::Conflicts;
use crate::engine::ssa::typed::TypedError;

/// What `update` says before the errors of its comparison.
pub const COMPARE_FAILED: &str = "failed to compare objects";

/// Why a request failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UpdateError {
    #[error("{0}")]
    Conflicts(Conflicts),
    #[error("{0}")]
    Typed(#[from] TypedError),
    /// The comparison of the live object with the new one failed (an item prune left without
    /// its key fields): `update`'s error, which the API server answers with (HTTP 500).
    #[error("{COMPARE_FAILED}: {0}")]
    Compare(TypedError),
}
