//! applyscope: see what `kubectl apply` will do to a live Kubernetes object, field by field, and why.
//!
//! ```text
//! files / cluster ──► document (YAML 1.1 as kubectl reads it, with positions)
//!                          │ serde_json::Value
//!                          ▼
//!                  engine (pure: schema, strategic merge patch, JSON merge patch, JSON patch)
//!                          │
//!                          ▼
//!                  cli (patch …, plan …)  ──► stdout (Go-compatible JSON)
//! ```
//!
//! The [`engine`] is a pure function of values: no files, no terminal, no clock.

pub mod cli;
pub mod document;
pub mod engine;
pub mod examples;
