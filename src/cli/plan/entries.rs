//! What the plan's JSON and YAML outputs write, in their key order (byte order, which is also
//! go-yaml's for these keys): one list for both writers.

use crate::engine::plan::Reason;

/// A value the plan writes in one piece.
pub(super) enum Scalar<'a> {
    Str(&'a str),
    Text(std::borrow::Cow<'a, str>),
    Bool(bool),
}

/// A field's `reason`, its entries in order (absent ones left out).
pub(super) fn reason(r: &Reason) -> impl Iterator<Item = (&'static str, Scalar<'_>)> {
    let at = r.presence();
    [
        ("directive", r.directive.as_deref().map(Scalar::Str)),
        ("inConfig", Some(Scalar::Bool(at.in_config))),
        ("inLastApplied", Some(Scalar::Bool(at.in_last_applied))),
        ("inLive", Some(Scalar::Bool(at.in_live))),
        ("kind", Some(Scalar::Text(r.kind.text()))),
        ("mergeKey", r.merge_key().map(Scalar::Str)),
        ("note", r.note.as_deref().map(Scalar::Str)),
        ("row", Some(Scalar::Str(r.row().action))),
        ("table", Some(Scalar::Str(r.table().name()))),
    ]
    .into_iter()
    .filter_map(|(k, v)| Some((k, v?)))
}

#[cfg(test)]
mod tests {
    /// The keys each writer writes in this order are in go-yaml's order and in byte order.
    #[test]
    fn keys_are_in_both_orders() {
        for keys in [
            &[
                "annotation",
                "created",
                "fields",
                "patch",
                "patchType",
                "result",
                "warnings",
            ][..],
            &["action", "live", "path", "reason", "result"],
            &[
                "directive",
                "inConfig",
                "inLastApplied",
                "inLive",
                "kind",
                "mergeKey",
                "note",
                "row",
                "table",
            ],
            &["code", "message", "path"],
            &["error", "live", "object", "plan", "source"],
        ] {
            let mut sorted = keys.to_vec();
            sorted.sort_unstable();
            assert_eq!(sorted, keys);
            let mut m = crate::value::Map::new();
            for k in keys {
                m.insert(*k, crate::value::Value::Null);
            }
            let yaml = crate::engine::jsonmerge::to_yaml(&crate::value::Value::Object(m));
            let order: Vec<&str> = yaml.lines().filter_map(|l| l.split(':').next()).collect();
            assert_eq!(order, keys);
        }
    }
}
