//! Why there is no plan: [`PlanError`], the input it is about, and kubectl's own failures.

use crate::engine::smp::SmpError;

/// Why there is no plan.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// The inputs do not describe one object (exit 2). `about` says which input.
    #[error("{message}")]
    Input { about: InputDoc, message: String },
    /// kubectl apply would fail (exit 1), with kubectl's reason.
    #[error("{0}")]
    Kubectl(String),
    /// `--overwrite=false` and the patch changes what changed since last-applied (exit 1).
    #[error("{0}")]
    Conflict(String),
}

/// Which input a [`PlanError::Input`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputDoc {
    Local,
    Live,
    LastApplied,
}

pub(super) fn input_error(about: InputDoc, message: impl Into<String>) -> PlanError {
    PlanError::Input {
        about,
        message: message.into(),
    }
}

pub(super) fn kubectl_error(e: &SmpError) -> PlanError {
    if let Some(panic) = e.go_panic_line() {
        // kubectl itself crashes (exit 2, a goroutine trace): Go's message, and the list.
        return PlanError::Kubectl(format!(
            "kubectl apply would fail: kubectl 1.37 would crash computing the patch: {panic}"
        ));
    }
    PlanError::Kubectl(format!("kubectl apply would fail: {e}"))
}

/// The API server cannot apply the patch: the reason its merge code gives, or its crash (a Go
/// panic in the merge, answered as an internal error).
pub(super) fn server_error(e: &impl std::fmt::Display, panic: Option<String>) -> PlanError {
    if let Some(panic) = panic {
        return PlanError::Kubectl(format!(
            "the server would reject the patch: its merge code would crash (internal error): \
             {panic}"
        ));
    }
    PlanError::Kubectl(format!("the server would reject the patch: {e}"))
}
