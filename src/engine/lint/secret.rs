//! `secret-in-annotation`: kubectl apply copies the whole file into the
//! `kubectl.kubernetes.io/last-applied-configuration` annotation, a Secret's `data` (base64,
//! not encryption) and `stringData` (clear text) included. Annotations are metadata: shown by
//! `kubectl describe secret` (which hides `data`), printed unmasked by `kubectl diff`, readable
//! through metadata-only access, and kept until the next apply replaces them.

use crate::value::Value;

use super::LintInput;
use crate::engine::plan::warnings::{Code, Warning};
use crate::engine::secret;

pub(super) fn check(input: &LintInput<'_>) -> Vec<Warning> {
    if !secret::is_core_secret(input.local) {
        return Vec::new();
    }
    let keys = |field: &str| -> Vec<String> {
        input
            .local
            .get(field)
            .and_then(Value::as_object)
            .map(|m| m.keys().map(ToString::to_string).collect())
            .unwrap_or_default()
    };
    let (data, string_data) = (keys("data"), keys("stringData"));
    if data.is_empty() && string_data.is_empty() {
        return Vec::new();
    }
    let mut held = Vec::new();
    if !string_data.is_empty() {
        held.push(format!(
            "stringData {} in clear text",
            string_data.join(", ")
        ));
    }
    if !data.is_empty() {
        held.push(format!("data {} base64-encoded", data.join(", ")));
    }
    vec![Warning {
        manager: None,
        way_out: Vec::new(),
        field: None,
        code: Code::SecretInAnnotation,
        path: Some(
            "metadata.annotations[\"kubectl.kubernetes.io/last-applied-configuration\"]".into(),
        ),
        message: format!(
            "kubectl apply copies this Secret into its last-applied annotation: {}. Annotations are metadata: `kubectl describe secret` shows them, `kubectl diff` prints them unmasked, and metadata-only readers see them. Apply Secrets with `kubectl apply --server-side` (no annotation), or create them with `kubectl create secret` or a secrets operator.",
            held.join("; ")
        ),
    }]
}

#[cfg(test)]
mod tests {
    use crate::json;

    use super::*;
    use crate::engine::lint::testing::{plan_of, with_code};

    #[test]
    fn secret_data_lands_in_the_annotation() {
        let local = json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "db", "namespace": "default"},
                           "data": {"password": "czNjcjN0"}, "stringData": {"url": "postgres://u:p@db"}});
        let p = plan_of(&local, None, None).unwrap();
        assert!(p.annotation().contains("postgres://u:p@db"));
        let w = with_code(&p.warnings, Code::SecretInAnnotation);
        assert_eq!(w.len(), 1, "{:?}", p.warnings);
        assert!(
            w[0].message
                .contains("stringData url in clear text; data password base64-encoded"),
            "{}",
            w[0].message
        );
        let empty = json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "e"}, "type": "Opaque"});
        assert!(plan_of(&empty, None, None).unwrap().warnings.is_empty());
        let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"a": "b"}});
        assert!(plan_of(&cm, None, None).unwrap().warnings.is_empty());
    }
}
