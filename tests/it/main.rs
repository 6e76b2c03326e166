//! One integration-test binary (fast builds, shared helpers).

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod bad_input;
mod boundary;
mod cli_conformance;
mod cluster;
mod cluster_keys;
mod cluster_ssa;
mod conformance_jsonmerge;
mod conformance_smp;
mod crash_safety;
mod diff;
mod document_yaml;
mod edit_keys;
mod examples;
mod external_diff;
mod fakeapi;
mod install;
mod kuberc;
mod last_applied;
mod lint;
mod list_screen;
mod loading;
mod many;
mod markdown;
mod migrate;
mod oracle_cases;
mod properties;
mod readme;
mod saved;
mod schema_embedded;
mod ssa_checks;
mod ssa_plan;
mod ssa_vectors;
mod support;
mod tmux;
mod tui;
mod tui_screenshots;
mod tui_ssa;
mod tui_support;
mod tui_svg;
mod why_tables;
