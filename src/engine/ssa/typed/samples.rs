//! Objects of a few forms for the tests that hold one walk against another.

use crate::json;
use crate::value::Value;

/// A Deployment's pieces, each of a few forms: scalars that change, maps that come and go
/// (empty, null, with fields), keyed lists with items shared, one-sided, reordered,
/// repeated (live only), keyed by two fields one of which has a default, atomic lists, and a
/// value of the wrong kind.
pub(crate) fn object(seed: &mut u64) -> Value {
    let mut next = |n: u64| {
        *seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        (*seed >> 33) % n
    };
    let mut o = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"}});
    match next(4) {
        0 => {}
        1 => o["spec"] = json!({}),
        2 => o["spec"] = json!(null),
        _ => o["spec"] = json!({"replicas": next(3)}),
    }
    if next(4) > 0 {
        o["metadata"]["labels"] = match next(4) {
            0 => json!({}),
            1 => json!({"a": "1"}),
            2 => json!({"a": "2", "b": "x"}),
            _ => json!(null),
        };
    }
    if o["spec"].is_object() && next(5) > 0 {
        let containers: Vec<Value> = (0..next(4))
            .map(|_| {
                let name = ["a", "b", "c"][usize::try_from(next(3)).unwrap()];
                let mut c = json!({"name": name});
                match next(3) {
                    0 => {}
                    1 => c["image"] = json!(format!("img:{}", next(2))),
                    _ => c["image"] = json!(null),
                }
                if next(2) == 0 {
                    c["args"] = json!(["x", format!("{}", next(2))]);
                }
                if next(2) == 0 {
                    let env: Vec<Value> = (0..next(3))
                        .map(|_| json!({"name": format!("E{}", next(2)), "value": format!("{}", next(2))}))
                        .collect();
                    c["env"] = Value::Array(env);
                }
                if next(2) == 0 {
                    c["ports"] = match next(4) {
                        0 => json!([{"containerPort": 80}]),
                        1 => json!([{"containerPort": 80, "protocol": "TCP"}]),
                        2 => json!([{"containerPort": 80, "protocol": "UDP"}, {"containerPort": 81}]),
                        _ => json!([]),
                    };
                }
                if next(6) == 0 {
                    c["resources"] = json!(5);
                }
                c
            })
            .collect();
        o["spec"]["template"] = json!({"spec": {"containers": containers}});
    }
    o
}
