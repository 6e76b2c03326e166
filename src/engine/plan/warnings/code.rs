//! The warning codes, their severity, and the ways out a server-side warning names: one table
//! for the client-side plan, its lints ([`crate::engine::lint`]) and the server-side checks
//! ([`crate::engine::ssa::checks`]).

use serde::Serialize;

/// What a warning is about: every code the plan, the lints and the server-side checks emit.
/// Written as its kebab-case name (`missing-annotation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Code {
    MissingAnnotation,
    /// A null top-level annotation value: kubectl sends the empty string, not a deletion.
    AnnotationNullIsEmpty,
    ClearChangedLive,
    ListItemsLost,
    UnionTwoMembers,
    DuplicateMergeKey,
    PortProtocolMerged,
    AnnotationTooLarge,
    HpaReplicasReset,
    ReplicasRemoved,
    ImmutableField,
    SecretInAnnotation,
    /// The object after the apply breaks a rule the API server validates.
    ResultInvalid,
    /// Server-side: kubectl moves the client-side manager's fields to the applier.
    CsaUpgrade,
    /// Server-side: a pruned field the API server gives its default again.
    SsaPrunedRedefaulted,
    /// Server-side: a kind the schema does not know, merged as the API server merges one.
    SsaUnknownType,
    /// Server-side: `--migrate-manager` moved (or found nothing to move of) an Update manager.
    SsaMigrateManager,
    /// Server-side: another manager (a controller) owns a field the file sets.
    SsaControllerOwnsField,
    /// Server-side: the first apply of a client-side object prunes fields.
    SsaFirstApplyPrunes,
    /// Server-side: a field owned only by a manager of another apiVersion.
    #[serde(rename = "ssa-old-apiversion-manager")]
    SsaOldApiVersionManager,
    /// Server-side: removals `kubectl diff --server-side` does not show.
    SsaDiffUnderreports,
    /// Server-side: two entries of a keyed list with one key; the API server refuses.
    SsaDuplicateKey,
    /// Server-side: a strategic-merge directive in the applied configuration; refused.
    SsaPatchDirective,
    /// Server-side: the merged object breaks a validation rule; refused.
    SsaResultInvalid,
    /// The file's `metadata.resourceVersion` is not the live object's: the API server refuses
    /// the apply (409), client-side or server-side.
    StaleResourceVersion,
    /// The file's `status` changes the object's, which the endpoint keeps.
    StatusIgnored,
    /// Server-side: kubectl's re-apply after the csaupgrade carries the file's
    /// resourceVersion after the object changed: refused (409), kubectl only warns, nothing
    /// the file dropped is pruned.
    SsaReapplyRefused,
}

/// How bad a warning is: the object list's risk classes `notice`, `warning` and `rejects`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Worth knowing; nothing is lost (`missing-annotation`).
    Notice,
    /// The apply loses, resets or merges something the operator may not expect.
    Loss,
    /// The server will reject the apply.
    Reject,
}

impl Severity {
    /// `notice`, `loss` or `reject`, as the outputs write it.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Notice => "notice",
            Severity::Loss => "loss",
            Severity::Reject => "reject",
        }
    }
}

impl Code {
    /// Every code.
    pub const ALL: [Code; 27] = [
        Code::MissingAnnotation,
        Code::AnnotationNullIsEmpty,
        Code::ClearChangedLive,
        Code::ListItemsLost,
        Code::UnionTwoMembers,
        Code::DuplicateMergeKey,
        Code::PortProtocolMerged,
        Code::AnnotationTooLarge,
        Code::HpaReplicasReset,
        Code::ReplicasRemoved,
        Code::ImmutableField,
        Code::SecretInAnnotation,
        Code::ResultInvalid,
        Code::CsaUpgrade,
        Code::SsaPrunedRedefaulted,
        Code::SsaUnknownType,
        Code::SsaMigrateManager,
        Code::SsaControllerOwnsField,
        Code::SsaFirstApplyPrunes,
        Code::SsaOldApiVersionManager,
        Code::SsaDiffUnderreports,
        Code::SsaDuplicateKey,
        Code::SsaPatchDirective,
        Code::SsaResultInvalid,
        Code::StaleResourceVersion,
        Code::StatusIgnored,
        Code::SsaReapplyRefused,
    ];

    /// The code's name, as the outputs write it.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Code::MissingAnnotation => "missing-annotation",
            Code::AnnotationNullIsEmpty => "annotation-null-is-empty",
            Code::ClearChangedLive => "clear-changed-live",
            Code::ListItemsLost => "list-items-lost",
            Code::UnionTwoMembers => "union-two-members",
            Code::DuplicateMergeKey => "duplicate-merge-key",
            Code::PortProtocolMerged => "port-protocol-merged",
            Code::AnnotationTooLarge => "annotation-too-large",
            Code::HpaReplicasReset => "hpa-replicas-reset",
            Code::ReplicasRemoved => "replicas-removed",
            Code::ImmutableField => "immutable-field",
            Code::SecretInAnnotation => "secret-in-annotation",
            Code::ResultInvalid => "result-invalid",
            Code::CsaUpgrade => "csa-upgrade",
            Code::SsaPrunedRedefaulted => "ssa-pruned-redefaulted",
            Code::SsaUnknownType => "ssa-unknown-type",
            Code::SsaMigrateManager => "ssa-migrate-manager",
            Code::SsaControllerOwnsField => "ssa-controller-owns-field",
            Code::SsaFirstApplyPrunes => "ssa-first-apply-prunes",
            Code::SsaOldApiVersionManager => "ssa-old-apiversion-manager",
            Code::SsaDiffUnderreports => "ssa-diff-underreports",
            Code::SsaDuplicateKey => "ssa-duplicate-key",
            Code::SsaPatchDirective => "ssa-patch-directive",
            Code::SsaResultInvalid => "ssa-result-invalid",
            Code::StaleResourceVersion => "stale-resource-version",
            Code::StatusIgnored => "status-ignored",
            Code::SsaReapplyRefused => "ssa-reapply-refused",
        }
    }

    /// How bad a warning with this code is.
    #[must_use]
    pub fn severity(self) -> Severity {
        match self {
            Code::ImmutableField
            | Code::AnnotationTooLarge
            | Code::UnionTwoMembers
            | Code::ResultInvalid
            | Code::SsaDuplicateKey
            | Code::SsaPatchDirective
            | Code::SsaResultInvalid
            | Code::StaleResourceVersion => Severity::Reject,
            Code::MissingAnnotation
            | Code::AnnotationNullIsEmpty
            | Code::CsaUpgrade
            | Code::SsaPrunedRedefaulted
            | Code::SsaUnknownType
            | Code::SsaMigrateManager
            | Code::SsaOldApiVersionManager
            | Code::SsaDiffUnderreports
            | Code::StatusIgnored => Severity::Notice,
            Code::ClearChangedLive
            | Code::ListItemsLost
            | Code::DuplicateMergeKey
            | Code::PortProtocolMerged
            | Code::HpaReplicasReset
            | Code::ReplicasRemoved
            | Code::SecretInAnnotation
            | Code::SsaControllerOwnsField
            | Code::SsaFirstApplyPrunes
            | Code::SsaReapplyRefused => Severity::Loss,
        }
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A way out of a server-side warning. Written as its kebab-case name (`hand-over`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum WayOut {
    /// `--force-conflicts`: take the field from the manager that keeps it.
    Force,
    /// Hand the field over: the manager that keeps it gives it up (or it is removed once by
    /// hand), or the file stops setting it and leaves it to that manager.
    HandOver,
    /// Edit the file.
    EditFile,
}

impl WayOut {
    /// The name, as the outputs write it.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            WayOut::Force => "force",
            WayOut::HandOver => "hand-over",
            WayOut::EditFile => "edit-file",
        }
    }
}
