//! The applied configuration the API server refuses before any merge: the typed conversion of
//! the patch fails (`failed to create typed patch object (default/web; apps/v1,
//! Kind=Deployment): …`), HTTP 500, nothing changes. Two causes have their own code:
//!
//! - `ssa-duplicate-key`: two entries of an associative list with one key, every key field of
//!   the schema counted (`ports` are keyed by `containerPort` and `protocol`, `protocol`
//!   defaulting to `TCP`): `duplicate entries for key [name="LOG_LEVEL"]` (kubernetes#113482,
//!   helm#31529). Client-side apply accepts them.
//! - `ssa-patch-directive`: a strategic-merge directive (`$patch`, `$retainKeys`,
//!   `$setElementOrder/…`, `$deleteFromPrimitiveList/…`) is an ordinary key to server-side apply,
//!   which no schema declares: `field not declared in schema` (helm#31771).

use crate::engine::plan::{Code, Warning, WayOut};
use crate::engine::ssa::request::{go_errors, gvk};
use crate::engine::ssa::schema::{Schema, TypeRef};
use crate::engine::ssa::typed::{ProblemKind, problems};
use crate::value::Value;

use super::warning;

/// The API server's refusal of an applied configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The error exactly as the API server returns it (kubectl prints it after
    /// `Error from server: `, or `Error from server (REASON): ` with a reason).
    pub message: String,
    /// The Status's reason: `""` for an error that is not a Status (HTTP 500), `BadRequest`.
    pub reason: &'static str,
    /// One coded warning per duplicate key or directive.
    pub warnings: Vec<Warning>,
}

impl Refusal {
    /// The error as kubectl prints it: `Error from server: …`, or with the Status's reason,
    /// `Error from server (BadRequest): …`.
    #[must_use]
    pub fn as_kubectl_prints(&self) -> String {
        if self.reason.is_empty() {
            format!("Error from server: {}", self.message)
        } else {
            format!("Error from server ({}): {}", self.reason, self.message)
        }
    }
}

/// The key prefixes of strategic-merge directives.
const DIRECTIVES: [&str; 4] = [
    "$patch",
    "$retainKeys",
    "$setElementOrder/",
    "$deleteFromPrimitiveList/",
];

/// Whether a key is a strategic-merge directive.
#[must_use]
pub fn is_directive(key: &str) -> bool {
    DIRECTIVES.iter().any(|d| key.starts_with(d))
}

/// The refusal of `config` (as kubectl sends it: namespace filled in), when it holds a
/// duplicate key or a directive the schema rejects; `None` when neither (other mismatches are
/// the request's own errors).
#[must_use]
pub fn refusal(schema: &Schema, root: TypeRef, config: &Value) -> Option<Refusal> {
    let found = problems(schema, root, config, false);
    let mut warnings = Vec::new();
    for p in &found {
        match &p.kind {
            ProblemKind::DuplicateKey(key) => warnings.push(warning(
                Code::SsaDuplicateKey,
                Some(p.path.clone()),
                None,
                &[WayOut::EditFile],
                format!(
                    "{p}: the file lists two entries of {} with the key {key}, and server-side apply refuses the whole object (client-side apply accepted it and kept one). Keep one entry per key in the file",
                    p.path
                ),
            )),
            ProblemKind::NotDeclared(name) if is_directive(name) => warnings.push(warning(
                Code::SsaPatchDirective,
                Some(p.path.clone()),
                None,
                &[WayOut::EditFile],
                format!(
                    "{p}: {name} is a strategic-merge directive for client-side apply; server-side apply reads it as a field no schema declares and refuses the object. Remove it from the file: server-side apply replaces what the file owns and prunes what it drops"
                ),
            )),
            _ => {}
        }
    }
    if warnings.is_empty() {
        return None;
    }
    let errors: Vec<String> = found.iter().map(ToString::to_string).collect();
    Some(Refusal {
        reason: "",
        message: format!(
            "failed to create typed patch object ({}): {}",
            gvk(config),
            go_errors(&errors)
        ),
        warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ssa::kubernetes;

    fn refused(config: &str) -> Option<Refusal> {
        let kube = kubernetes::embedded();
        let v: Value = serde_json::from_str(config).unwrap();
        let root = kube.root_for_gvk("apps/v1", "Deployment").unwrap();
        refusal(&kube.schema, root, &v)
    }

    fn deployment(container: &str) -> String {
        format!(
            r#"{{"apiVersion":"apps/v1","kind":"Deployment","metadata":{{"name":"web","namespace":"default"}},"spec":{{"selector":{{"matchLabels":{{"app":"web"}}}},"template":{{"spec":{{"containers":[{container}]}}}}}}}}"#
        )
    }

    #[test]
    fn a_duplicate_env_name_is_refused_with_the_api_servers_text() {
        let r = refused(&deployment(
            r#"{"name":"web","image":"a","env":[{"name":"LOG_LEVEL","value":"1"},{"name":"LOG_LEVEL","value":"2"}]}"#,
        ))
        .expect("refused");
        assert_eq!(
            r.message,
            "failed to create typed patch object (default/web; apps/v1, Kind=Deployment): .spec.template.spec.containers[name=\"web\"].env: duplicate entries for key [name=\"LOG_LEVEL\"]"
        );
        assert_eq!(r.warnings.len(), 1);
        assert_eq!(r.warnings[0].code, Code::SsaDuplicateKey);
        assert_eq!(
            r.warnings[0].path.as_deref(),
            Some(".spec.template.spec.containers[name=\"web\"].env")
        );
    }

    /// Ports are keyed by `containerPort` and `protocol` (default `TCP`): the same number
    /// twice with TCP written once and defaulted once is a duplicate; with UDP it is not.
    #[test]
    fn every_key_field_counts_with_its_default() {
        let r = refused(&deployment(
            r#"{"name":"web","image":"a","ports":[{"containerPort":93,"name":"p"},{"containerPort":93,"protocol":"TCP","name":"q"}]}"#,
        ))
        .expect("refused");
        assert!(
            r.message.ends_with(".spec.template.spec.containers[name=\"web\"].ports: duplicate entries for key [containerPort=93,protocol=\"TCP\"]"),
            "{}",
            r.message
        );
        assert!(
            refused(&deployment(
                r#"{"name":"web","image":"a","ports":[{"containerPort":93},{"containerPort":93,"protocol":"UDP"}]}"#,
            ))
            .is_none()
        );
    }

    #[test]
    fn a_patch_directive_is_refused_and_several_errors_are_listed() {
        let r = refused(&deployment(
            r#"{"name":"web","image":"a","env":[{"name":"NAMESPACE","$patch":"replace"},{"name":"A"},{"name":"A"}]}"#,
        ))
        .expect("refused");
        assert_eq!(
            r.message,
            "failed to create typed patch object (default/web; apps/v1, Kind=Deployment): errors:\n  .spec.template.spec.containers[name=\"web\"].env[name=\"NAMESPACE\"].$patch: field not declared in schema\n  .spec.template.spec.containers[name=\"web\"].env: duplicate entries for key [name=\"A\"]"
        );
        let codes: Vec<Code> = r.warnings.iter().map(|w| w.code).collect();
        assert_eq!(codes, [Code::SsaPatchDirective, Code::SsaDuplicateKey]);
    }

    #[test]
    fn a_clean_file_and_an_ordinary_unknown_field_are_not_refusals_here() {
        assert!(refused(&deployment(r#"{"name":"web","image":"a"}"#)).is_none());
        assert!(refused(&deployment(r#"{"name":"web","imagee":"a"}"#)).is_none());
        assert!(is_directive("$setElementOrder/containers"));
        assert!(!is_directive("setElementOrder"));
    }
}
