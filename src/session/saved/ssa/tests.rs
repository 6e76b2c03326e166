use super::*;
use crate::json;

fn upgrade(rv: &str, time: &str, fields: &str) -> String {
    format!(
        r#"[{{"op":"replace","path":"/metadata/managedFields","value":[{{"manager":"kubectl","operation":"Apply","apiVersion":"v1","time":"{time}","fieldsType":"FieldsV1","fieldsV1":{fields}}}]}},{{"op":"replace","path":"/metadata/resourceVersion","value":"{rv}"}}]"#
    )
}

fn saved(step: &str, body: String, decided: &[&str]) -> SavedRequest {
    SavedRequest {
        step: Some(step.into()),
        method: "PATCH".into(),
        path: "/api/v1/namespaces/d/configmaps/a".into(),
        query: vec![
            ("fieldManager".into(), "kubectl".into()),
            ("fieldValidation".into(), "Strict".into()),
        ],
        content_type: Some("application/json-patch+json".into()),
        body: Some(body),
        decided_at_send: decided.iter().map(|d| (*d).to_owned()).collect(),
    }
}

fn built(r: &SavedRequest, body: String) -> Request {
    let mut b = r.to_request("ConfigMap d/a", "configmaps", "a").unwrap();
    b.body = Some(body);
    b
}

#[test]
fn a_follow_up_equals_the_saved_one_but_for_what_the_answers_decide() {
    let fields = r#"{"f:data":{"f:key":{}}}"#;
    let s = saved(
        "upgrade-managed-fields",
        upgrade("7", "2026-11-25T10:00:00Z", fields),
        &UPGRADE_DECIDED_AT_SEND,
    );
    // Another resourceVersion and time: the same request.
    let real = built(&s, upgrade("104", "2026-11-25T12:00:00Z", fields));
    assert!(same_request(&s, &real));
    // Other fields: not.
    let other = built(
        &s,
        upgrade(
            "104",
            "2026-11-25T12:00:00Z",
            r#"{"f:data":{"f:other":{}}}"#,
        ),
    );
    assert!(!same_request(&s, &other));
    // Without the pointers, every byte counts.
    let exact = saved("save-last-applied", upgrade("7", "t", fields), &[]);
    assert!(!same_request(
        &exact,
        &built(&exact, upgrade("8", "t", fields))
    ));
    assert!(same_request(
        &exact,
        &built(&exact, upgrade("7", "t", fields))
    ));
    // Another query: not.
    let mut q = real.clone();
    q.query.push(("force".into(), "true".into()));
    assert!(!same_request(&s, &q));
}

#[test]
fn the_guard_stays_out_of_the_body_only_where_the_server_would_keep_it() {
    let annotated = json!({"metadata": {"annotations": {ANNOTATION: "{}"}}});
    let plain = json!({"metadata": {"annotations": {}}});
    assert!(!guard_in_body("kubectl", &annotated));
    assert!(guard_in_body("helm", &annotated));
    assert!(guard_in_body("kubectl", &plain));
}

fn target() -> Target {
    Target {
        api_version: "v1".into(),
        kind: "ConfigMap".into(),
        plural: "configmaps".into(),
        namespace: Some("d".into()),
        name: "a".into(),
    }
}

fn apply_request(manager: &str) -> SavedRequest {
    SavedRequest {
        step: Some("apply".into()),
        method: "PATCH".into(),
        path: "/api/v1/namespaces/d/configmaps/a".into(),
        query: vec![
            ("fieldManager".into(), manager.into()),
            ("fieldValidation".into(), "Strict".into()),
            ("force".into(), "false".into()),
        ],
        content_type: Some("application/apply-patch+yaml".into()),
        body: Some(
            "{\"apiVersion\":\"v1\",\"data\":{\"k\":\"v\"},\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\",\"namespace\":\"d\"}}\n"
                .into(),
        ),
        decided_at_send: Vec::new(),
    }
}

#[test]
fn the_apply_carries_the_guard_and_nothing_follows_when_nothing_was_saved_or_called_for() {
    let requests = [apply_request("ci")];
    let t = target();
    let send = SavedSend {
        object: "ConfigMap d/a",
        target: &t,
        manager: "ci",
        validation: Validation::Strict,
        live_version: Some("5"),
        guard_in_body: true,
        requests: &requests,
    };
    let mut seen = Vec::new();
    let mut transport = |r: &Request| {
        seen.push(r.clone());
        Ok(Some(
            json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a", "resourceVersion": "6"}}),
        ))
    };
    let applied = send_saved(&send, &mut transport).unwrap();
    assert_eq!(applied.stopped, None);
    assert_eq!(seen.len(), 1);
    assert!(
        seen[0]
            .body
            .as_deref()
            .unwrap()
            .contains("\"resourceVersion\":\"5\"")
    );
    assert_eq!(send.dry_run().unwrap().unwrap().query[0].0, "dryRun");
}

#[test]
fn a_follow_up_the_plan_did_not_save_is_not_sent() {
    let requests = [apply_request("kubectl")];
    let t = target();
    let send = SavedSend {
        object: "ConfigMap d/a",
        target: &t,
        manager: "kubectl",
        validation: Validation::Strict,
        live_version: Some("5"),
        guard_in_body: false,
        requests: &requests,
    };
    let mut seen = Vec::new();
    // The answer carries the annotation and no Apply entry owns it: kubectl saves it next.
    let mut transport = |r: &Request| {
        seen.push(r.clone());
        Ok(Some(
            json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a", "namespace": "d", "resourceVersion": "6", "annotations": {ANNOTATION: "{}"}}}),
        ))
    };
    let applied = send_saved(&send, &mut transport).unwrap();
    let stop = applied.stopped.unwrap();
    assert!(
        stop.message.contains(
            "kubectl's next request, decided from the server's answer (save-last-applied PATCH"
        ) && stop
            .message
            .contains("differs from the saved one (nothing)"),
        "{}",
        stop.message
    );
    // The guard (a dry run) and the apply, kubectl's bytes; nothing after.
    assert_eq!(seen.len(), 2);
    assert!(seen[0].is_dry_run());
    assert!(seen[0].body.as_deref().unwrap().contains("resourceVersion"));
    assert_eq!(seen[1].body, requests[0].body);
}
