//! What a plan is when the API server fails its first request: the refusal kubectl prints.

use crate::engine::ssa::checks::config::Refusal;
use crate::engine::ssa::request::RequestError;

use super::SsaOutcome;

/// The outcome of a first request that failed with `e`; `refusal`: the configuration's own
/// refusal (a duplicate key, a directive), which the API server reports first.
///
/// # Errors
/// `e` itself when it is no refusal (bad managedFields, an update's typed failure).
pub(super) fn refused(
    refusal: Option<Refusal>,
    e: RequestError,
) -> Result<SsaOutcome, RequestError> {
    let refusal = match (refusal, e) {
        (Some(refusal), _) => refusal,
        (None, RequestError::Failed(message)) => Refusal {
            message,
            reason: "",
            warnings: Vec::new(),
        },
        // A file that does not fit the schema (an undeclared field, a value of another type):
        // the API server fails the request with the typed conversion's errors (HTTP 500), as
        // kubectl prints them after `Error from server:`.
        (None, e @ RequestError::Invalid { what: "patch", .. }) => Refusal {
            message: e.to_string(),
            reason: "",
            warnings: Vec::new(),
        },
        // Refused before any merge (HTTP 400: managedFields in the file, another apiVersion
        // than the endpoint's): `Error from server (BadRequest): …`.
        (None, RequestError::BadRequest(message)) => Refusal {
            message,
            reason: "BadRequest",
            warnings: Vec::new(),
        },
        (None, e) => return Err(e),
    };
    Ok(SsaOutcome::Refused(Box::new(refusal)))
}
