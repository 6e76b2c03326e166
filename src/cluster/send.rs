//! Sending a commit: the request as built (`annotation_patch`, `apply_request`), its answer
//! the object as the server now holds it (or would, for a dry run).

use crate::value::Value;

use super::{Cluster, ClusterError, Request};

impl Cluster {
    /// Send a PATCH or POST; the answer is the object.
    ///
    /// # Errors
    /// Transport errors and error statuses (409, 422 with the causes, 403 naming the verb).
    pub fn commit(&self, request: &Request) -> Result<Value, ClusterError> {
        self.send(request)?.ok_or_else(|| {
            ClusterError::Local(format!(
                "{} {}: no object in the answer",
                request.verb.as_str(),
                request.path
            ))
        })
    }
}
