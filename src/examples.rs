//! Built-in teaching examples (`assets/examples/<name>/`): last-applied, local and live documents
//! embedded in the binary.
//!
//! Each folder holds `README.md` (what the example teaches), `local.yaml` (the file you apply)
//! and, as the scenario needs, `last-applied.yaml` (the last-applied configuration) and
//! `live.yaml` (the live object). Without `last-applied.yaml` the plan reads last-applied from the
//! live object's annotation, as kubectl does (`explicit-null-clears` carries one; the live object
//! of `probe-handler-no-annotation` has none); without `live.yaml` the apply is a create.
//!
//! Every example was checked with the real kubectl 1.37.1 through the oracle
//! (`/work/shared/oracle`), and `tests/it/examples.rs` checks each README's claims on the plan.
//!
//! # The seeds' merge tables, row by row
//!
//! Primitive fields (and lists that are replaced whole, which the seeds treat like primitives):
//!
//! | in file | in live | in last-applied | row | examples |
//! | --- | --- | --- | --- | --- |
//! | yes | yes | - | set live to the file's value | `nginx-scale-image` (image), `args-replaced` (args), `strategy-recreate-retainkeys` (type) |
//! | yes | no | - | set live to local configuration | `create-service`, `labels-map-merge` (`release`), `probe-handler-annotated` (`httpGet.path`) |
//! | no | - | yes | clear from live | `nginx-scale-image` (`minReadySeconds`), `labels-map-merge` (`tier`), `widget-list-replaced` (`size`) |
//! | no | - | no | do nothing, keep live | `nginx-scale-image` (`replicas`), `labels-map-merge` (`owner`, `clusterIP`), `containers-merged-by-name` (helper-b's `args`) |
//!
//! Map fields (and merged lists, as fields):
//!
//! | in file | in live | in last-applied | row | examples |
//! | --- | --- | --- | --- | --- |
//! | yes | yes | - | compare sub fields | every patch example (`spec`, `metadata.labels`, `containers`) |
//! | yes | no | - | set live to local configuration | `probe-handler-annotated` (`httpGet`), `create-service` |
//! | no | - | yes | delete from live | `probe-handler-annotated` (`tcpSocket`), `env-list-removed` (`env`) |
//! | no | - | no | do nothing, keep live | `widget-list-replaced` (`status`), `probe-handler-no-annotation` (`tcpSocket`), `strategy-recreate-retainkeys` (`rollingUpdate`, cleared anyway by `$retainKeys`) |
//!
//! Lists: merged by key (elements), merged as a set of primitives, or replaced whole:
//!
//! | element in file | in live | in last-applied | row | examples |
//! | --- | --- | --- | --- | --- |
//! | yes | yes | - | merge with the live element | `containers-merged-by-name` (nginx, helper-b), `finalizers-merged` (`backup-hook`) |
//! | yes | no | - | add the element | `containers-merged-by-name` (helper-c), `finalizers-merged` (`snapshot-hook`), `create-service` |
//! | no | - | yes | delete the element | `containers-merged-by-name` (helper-a), `finalizers-merged` (`audit-hook`), `env-list-removed` |
//! | no | - | no | keep the element | `containers-merged-by-name` (helper-d), `finalizers-merged` (`pvc-protection`) |
//! | replace | | | the file's items, in the file's order | `args-replaced`, `widget-list-replaced` (custom resource: JSON merge patch) |
//!
//! All seven actions occur: `add`, `set`, `clear`, `retain`, `unchanged`, `delete` (list
//! elements) and `keep` (list elements).
//!
//! # The examples
//!
//! | name | teaches |
//! | --- | --- |
//! | `nginx-scale-image` | the seeds' first example: image set, `minReadySeconds` cleared, `replicas` (from `kubectl scale`) retained |
//! | `containers-merged-by-name` | a list merged by key: helper-a deleted, b merged keeping its live `args`, c added, d kept; result order nginx, b, d, c |
//! | `args-replaced` | a list without a strategy is replaced whole: live-only items are lost |
//! | `finalizers-merged` | a list of strings merged as an ordered set (`$deleteFromPrimitiveList`) |
//! | `strategy-recreate-retainkeys` | `$retainKeys` clears the defaulted `rollingUpdate` when the type becomes Recreate |
//! | `probe-handler-annotated` | a map key in last-applied and gone from the file is deleted: `tcpSocket` → `httpGet` |
//! | `probe-handler-no-annotation` | with no annotation nothing is deleted: two handlers, a warning |
//! | `widget-list-replaced` | a custom resource gets a JSON merge patch: lists replaced whole, maps merged |
//! | `labels-map-merge` | map keys deleted, added and retained (labels; server-set Service fields) |
//! | `env-list-removed` | a whole merged list leaving the file is deleted, live-only items included |
//! | `explicit-null-clears` | an explicit `null` clears a live field that was never applied |
//! | `create-service` | no live object: a create, every field added, the annotation written |
//!
//! The `ssa-*` examples teach server-side apply (`plan --server-side --example NAME`, one per
//! check of [`crate::engine::ssa::checks`]): their live objects carry `metadata.managedFields`,
//! built with the engine's own requests (no API server records them offline); their
//! `kubectl.json` records what client-side `kubectl apply` does with the same files.

/// One example: its documents and what it teaches.
#[derive(Clone, Copy, Debug)]
pub struct Example {
    /// The folder name, used by `--example NAME`.
    pub name: &'static str,
    /// The README: what the example teaches, which merge-table rows, what is surprising.
    pub about: &'static str,
    /// What it teaches, in one short line (for lists).
    pub teaches: &'static str,
    /// The last-applied configuration; `None` when it comes from the live object's annotation
    /// (or there is none).
    pub last_applied: Option<&'static str>,
    /// The file you would apply.
    pub local: &'static str,
    /// The live object; `None` for a create.
    pub live: Option<&'static str>,
    /// It teaches server-side apply (`plan --server-side --example NAME`): its live object
    /// carries `metadata.managedFields`.
    pub server_side: bool,
}

impl Example {
    /// Whether the apply creates the object (there is no live object).
    #[must_use]
    pub fn is_create(&self) -> bool {
        self.live.is_none()
    }
}

macro_rules! asset {
    ($name:literal, $file:literal) => {
        include_str!(concat!("../assets/examples/", $name, "/", $file))
    };
}

macro_rules! example {
    // last-applied given separately, and a live object.
    ($name:literal, $teaches:literal, last_applied, live) => {
        example!(@ $name, $teaches, Some(asset!($name, "last-applied.yaml")), Some(asset!($name, "live.yaml")), false)
    };
    // last-applied from the live object's annotation (or none).
    ($name:literal, $teaches:literal, live) => {
        example!(@ $name, $teaches, None, Some(asset!($name, "live.yaml")), false)
    };
    // no live object: a create.
    ($name:literal, $teaches:literal, create) => {
        example!(@ $name, $teaches, None, None, false)
    };
    // server-side apply: the live object carries managedFields (and last-applied, if any).
    ($name:literal, $teaches:literal, ssa) => {
        example!(@ $name, $teaches, None, Some(asset!($name, "live.yaml")), true)
    };
    (@ $name:literal, $teaches:literal, $last_applied:expr, $live:expr, $server_side:expr) => {
        Example {
            name: $name,
            about: asset!($name, "README.md"),
            teaches: $teaches,
            last_applied: $last_applied,
            local: asset!($name, "local.yaml"),
            live: $live,
            server_side: $server_side,
        }
    };
}

/// Every built-in example; the first is the default.
pub const EXAMPLES: &[Example] = &[
    example!(
        "nginx-scale-image",
        "image set, minReadySeconds cleared, scaled replicas retained",
        last_applied,
        live
    ),
    example!(
        "containers-merged-by-name",
        "a list merged by key: delete a, merge b, add c, keep d",
        last_applied,
        live
    ),
    example!(
        "args-replaced",
        "a list without a strategy is replaced whole",
        last_applied,
        live
    ),
    example!(
        "finalizers-merged",
        "a list of strings merged as an ordered set",
        last_applied,
        live
    ),
    example!(
        "strategy-recreate-retainkeys",
        "$retainKeys clears the defaulted rollingUpdate",
        last_applied,
        live
    ),
    example!(
        "probe-handler-annotated",
        "tcpSocket → httpGet: last-applied lets kubectl delete the old handler",
        last_applied,
        live
    ),
    example!(
        "probe-handler-no-annotation",
        "no annotation, nothing deleted: two handlers, a warning",
        live
    ),
    example!(
        "widget-list-replaced",
        "custom resource: JSON merge patch, lists replaced whole",
        last_applied,
        live
    ),
    example!(
        "labels-map-merge",
        "map keys deleted, added and retained",
        last_applied,
        live
    ),
    example!(
        "env-list-removed",
        "a merged list leaving the file is deleted whole",
        last_applied,
        live
    ),
    example!(
        "explicit-null-clears",
        "an explicit null clears a field that was never applied",
        live
    ),
    example!(
        "create-service",
        "no live object: a create, with the annotation",
        create
    ),
    example!(
        "hpa-handover",
        "hand spec.replicas to an autoscaler: drop it from last-applied first",
        last_applied,
        live
    ),
    example!(
        "lint-duplicate-merge-key",
        "lint: the same env name twice: apply deletes both",
        last_applied,
        live
    ),
    example!(
        "lint-port-protocol-merged",
        "lint: one containerPort with TCP and UDP is merged as one port",
        last_applied,
        live
    ),
    example!(
        "lint-annotation-too-large",
        "lint: the annotations map over 262,144 bytes: the server refuses",
        create
    ),
    example!(
        "lint-hpa-replicas-reset",
        "lint: replicas in the file while an autoscaler manages them",
        last_applied,
        live
    ),
    example!(
        "lint-replicas-removed",
        "lint: replicas removed from the file without the hand-over",
        last_applied,
        live
    ),
    example!(
        "lint-union-two-members",
        "lint: a volume source change leaves two sources",
        last_applied,
        live
    ),
    example!(
        "lint-list-items-lost",
        "lint: a custom resource list replaced whole loses live items",
        last_applied,
        live
    ),
    example!(
        "lint-immutable-field",
        "lint: an immutable field changed: the server rejects the apply",
        last_applied,
        live
    ),
    example!(
        "lint-secret-in-annotation",
        "lint: Secret data copied in plain text into the annotation",
        create
    ),
    example!(
        "lint-missing-annotation",
        "lint: no last-applied annotation: nothing will be deleted",
        live
    ),
    example!(
        "lint-annotation-null-is-empty",
        "lint: an annotation with no value is sent as \"\", not deleted",
        live
    ),
    example!(
        "lint-result-invalid",
        "lint: a port renumbered beside a live-only one of the same name",
        last_applied,
        live
    ),
    example!(
        "lint-status-ignored",
        "lint: an exported status: kubectl sends it, the server keeps its own",
        last_applied,
        live
    ),
    example!(
        "lint-stale-resource-version",
        "lint: an exported file's old resourceVersion: the server refuses (409)",
        last_applied,
        live
    ),
    example!(
        "ssa-controller-owns-field",
        "server-side: an autoscaler owns replicas the file sets: shared, then a fight",
        ssa
    ),
    example!(
        "ssa-first-apply-prunes",
        "server-side: the first apply of a client-side object prunes replicas",
        ssa
    ),
    example!(
        "ssa-diff-underreports",
        "server-side: a removal kubectl diff --server-side does not show",
        ssa
    ),
    example!(
        "ssa-old-apiversion-manager",
        "server-side: a field owned only by an extensions/v1beta1 entry is never pruned",
        ssa
    ),
    example!(
        "ssa-duplicate-key",
        "server-side: an env name twice: the API server refuses the apply",
        ssa
    ),
    example!(
        "ssa-patch-directive",
        "server-side: $patch in the file: field not declared in schema",
        ssa
    ),
    example!(
        "ssa-result-invalid",
        "server-side: a renamed port's old entry kept by helm: two ports named http",
        ssa
    ),
    example!(
        "ssa-recreate-rolling-update",
        "server-side: Recreate beside a defaulted rollingUpdate nobody owns",
        ssa
    ),
];

/// The example called `name`.
#[must_use]
pub fn find(name: &str) -> Option<&'static Example> {
    EXAMPLES.iter().find(|e| e.name == name)
}
