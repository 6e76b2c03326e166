//! applyscope: see what `kubectl apply` will do to a live Kubernetes object, field by field, and why.
//!
//! ```text
//! files / cluster ──► document (YAML 1.1 as kubectl reads it, with positions)
//!                          │ crate::value::Value
//!                          ▼
//!                  engine (pure: schema, strategic merge patch, JSON merge patch, JSON patch)
//!                          │
//!                          ▼
//!                  cli (patch …, plan …)  ──► stdout (Go-compatible JSON)
//! ```
//!
//! The [`engine`] is a pure function of values: no files, no terminal, no clock.
//!
//! The TUI is Elm-style: [`tui`] (the runtime, the only code touching the terminal) turns key
//! presses into [`app::Message`]s through the [`keymap`] table, [`app::update`] changes the
//! [`app::Model`] and returns commands, and [`ui`] draws the model with the [`theme`]'s styles.

pub mod app;
pub mod cli;
pub mod cluster;
pub mod document;
pub mod engine;
pub mod examples;
pub mod fsutil;
pub mod keymap;
pub mod rewrite;
pub mod session;
pub mod theme;
pub mod tui;
pub mod ui;
pub mod value;
