//! Errors of the merge engine.
