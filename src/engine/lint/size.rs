//! `annotation-too-large`: the API server rejects an object whose annotations (keys and
//! values together) exceed 262,144 bytes (`metadata.annotations: Too long: must have at most
//! 262144 bytes`). kubectl apply copies the whole file into the last-applied annotation, so a
//! large ConfigMap or CRD fails to apply long before it reaches the 1.5 MB object limit.

use super::LintInput;
use crate::engine::numfmt::thousands;
use crate::engine::plan::annotation::{ANNOTATIONS_LIMIT as LIMIT, LAST_APPLIED, annotations_size};
use crate::engine::plan::warnings::{Code, Warning};

pub(super) fn check(input: &LintInput<'_>) -> Vec<Warning> {
    let own = LAST_APPLIED.len() + input.annotation.len();
    let total = annotations_size(input.result, None);
    if total <= LIMIT {
        return Vec::new();
    }
    let path = "metadata.annotations".to_owned();
    let what = if own > LIMIT {
        format!(
            "kubectl apply would store the whole file in the last-applied annotation: {} bytes",
            thousands(own)
        )
    } else {
        format!(
            "the annotations would total {} bytes (the last-applied annotation {} of them)",
            thousands(total),
            thousands(own)
        )
    };
    vec![Warning {
        manager: None,
        way_out: Vec::new(),
        field: None,
        code: Code::AnnotationTooLarge,
        path: Some(path),
        message: format!(
            "{what}, over the {} bytes the API server accepts for all annotations: it will reject the apply (\"metadata.annotations: Too long\"). Apply this object with `kubectl apply --server-side` (no annotation) or `kubectl create`/`kubectl replace`, or make it smaller (e.g. split a large ConfigMap).",
            thousands(LIMIT)
        ),
    }]
}

#[cfg(test)]
mod tests {
    use crate::json;
    use crate::value::Value;

    use super::*;
    use crate::engine::lint::testing::{plan_of, with_code};

    fn config_map(bytes: usize) -> Value {
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "big", "namespace": "default"},
               "data": {"blob": "x".repeat(bytes)}})
    }

    #[test]
    fn the_annotation_alone_over_the_limit() {
        let p = plan_of(&config_map(262_000), None, None).unwrap();
        let w = with_code(&p.warnings, Code::AnnotationTooLarge);
        assert_eq!(w.len(), 1, "{:?}", p.warnings);
        assert!(
            w[0].message.contains("last-applied annotation: 262,"),
            "{}",
            w[0].message
        );
        assert!(w[0].message.contains("262,144"), "{}", w[0].message);
        assert!(
            plan_of(&config_map(250_000), None, None)
                .unwrap()
                .warnings
                .is_empty()
        );
    }

    #[test]
    fn all_annotations_together_over_the_limit() {
        let local = config_map(140_000);
        let mut live = config_map(10);
        live["metadata"]["annotations"] = json!({"notes": "y".repeat(140_000)});
        let p = plan_of(&local, Some(&live), Some(&config_map(10))).unwrap();
        let w = with_code(&p.warnings, Code::AnnotationTooLarge);
        assert_eq!(w.len(), 1, "{:?}", p.warnings);
        assert!(
            w[0].message.contains("the annotations would total"),
            "{}",
            w[0].message
        );
    }

    #[test]
    fn size_counts_keys_and_values() {
        let obj = json!({"metadata": {"annotations": {"ab": "cde", "f": ""}}});
        assert_eq!(annotations_size(&obj, None), 6);
        assert_eq!(annotations_size(&obj, Some("ab")), 1);
    }
}
