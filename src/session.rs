//! The session: everything between the pure [`crate::engine`] and the front ends (`cli`, the
//! TUI's `app`/`ui`/`tui`). It reads inputs (files, directories, standard input, the built-in
//! examples, live objects from the cluster), names and matches objects, plans them, sums their
//! risk, and decides what a run opens (one object or many). The front ends only present what it
//! gives them, and never name each other.
//!
//! | behaviour | file |
//! |---|---|
//! | reading one file's documents and objects, `--schema` | `session/input.rs` |
//! | reading `-f`/`--live` arguments (files, directories, `-`), matching objects | `session/objects.rs` |
//! | planning documents (the embedded schema or a server's), naming inputs in errors | `session/plan.rs` |
//! | a plan's counts and the risk order | `session/risk.rs` |
//! | the built-in examples and `-f`/`--live` files as documents | `session/source.rs` |
//! | reading files again (reload), the bytes a commit checks | `session/files.rs` |
//! | what a run opens: one object or many | `session/open.rs` |
//! | work shared across the cores (`parallel_map`) | `session/parallel.rs` |
//! | progress of long work, told to whoever shows it (no terminal here) | `session/progress.rs` |
//! | live objects from the cluster, planned; the TUI's one connection | `session/cluster.rs` |
//! | the mode kubectl apply will use (`--server-side`, kuberc) | `session/kuberc.rs` |
//! | `plan --server-side` on files: the SSA engine's requests, fields and owners | `session/ssa.rs` |
//! | saved plans (`plan --save`, `apply --plan`): the file, its digests, what changed | `session/saved.rs` |
//! | per node of a pane: its owners and its server-side field (the TUI's owners column) | `session/ssa/nodes.rs` |
//! | `kubectl diff`'s LIVE and MERGED directories (`KUBECTL_EXTERNAL_DIFF`), planned | `session/external.rs` |

pub mod cluster;
pub mod external;
pub mod files;
pub mod input;
pub mod kuberc;
pub mod objects;
pub mod open;
pub mod parallel;
pub mod plan;
pub mod progress;
pub mod risk;
pub mod saved;
pub mod source;
pub mod ssa;

pub use crate::error::Error;
pub use files::{Files, Loaded, RawFiles, ReloadRequest};
pub use open::{EditOptions, Open, OpenRequest};
pub use plan::Docs;
pub use source::Source;
