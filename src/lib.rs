//! applyscope: see what `kubectl apply` will do to a live Kubernetes object, field by field, and why.
//!
//! ```text
//! files / stdin / examples ──► document (YAML 1.1 as kubectl reads it, with positions)
//!                                  │ crate::value::Value
//!                                  ▼
//!                          engine (pure: schema, strategic merge patch, JSON merge patch,
//!                                  JSON patch, object identity)
//!                                  │
//!                          cluster (kube-rs: live objects, requests as data, commits)
//!                                  │
//!                                  ▼
//!                          session (inputs read, objects matched, planned, risk; what a run opens)
//!                            │                                   │
//!                            ▼                                   ▼
//!       cli (patch …, plan …, diff …) ──► stdout       tui / app / ui (the TUI)
//! ```
//!
//! The [`engine`] is a pure function of values: no files, no terminal, no clock. The
//! [`session`] is the one layer between it and the front ends; [`cli`] and the TUI never name
//! each other (`main` parses the command line with `cli` and hands what it opens to
//! [`tui::run`]). `tests/it/boundary.rs` holds these rules.
//!
//! Every layer above the engine fails with the one [`error::Error`]: the engine's and the
//! document reader's own errors are its sources, `exit_code()` its exit status, and only
//! `main` ends the process.
//!
//! The TUI is Elm-style: [`tui`] (the runtime, the only code touching the terminal) turns key
//! presses into [`app::Message`]s through the [`keymap`] table, [`app::update`] changes the
//! [`app::Model`] and returns commands, and [`ui`] draws the model with the [`theme`]'s styles.

pub mod app;
pub mod cli;
pub mod cluster;
pub mod document;
pub mod engine;
pub mod error;
pub mod examples;
pub mod fsutil;
pub mod keymap;
pub mod rewrite;
pub mod session;
pub mod theme;
pub mod tui;
pub mod ui;
pub mod value;
