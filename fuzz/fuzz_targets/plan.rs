//! The whole `kubectl apply` plan: `local [0xFF live [0xFF last-applied]]`, each a YAML (or
//! JSON) file read with the document loader; the first document of each is used. Without a live
//! part the plan is a create. Planned with the live annotation as last-applied and, when a third
//! part is given, with that part as last-applied; each with `--overwrite` true and false, with and
//! without `-n`. Errors are fine, panics are not.
#![no_main]

use applyscope::document::parse_documents_bytes;
use applyscope::engine::Value;
use applyscope::engine::plan::{LastApplied, PlanInput, plan};
use applyscope::engine::schema::Schema;
use libfuzzer_sys::fuzz_target;

fn first_doc(bytes: &[u8]) -> Option<Value> {
    parse_documents_bytes(bytes, "fuzz")
        .ok()?
        .into_iter()
        .next()
        .map(|d| d.value)
}

fuzz_target!(|data: &[u8]| {
    let mut parts = data.splitn(3, |b| *b == 0xFF);
    let Some(local) = parts.next().and_then(first_doc) else {
        return;
    };
    let live = match parts.next() {
        None => None,
        Some(bytes) => match first_doc(bytes) {
            Some(v) => Some(v),
            None => return,
        },
    };
    let given = parts.next().and_then(first_doc);

    let schema = Schema::embedded();
    let mut sources = vec![LastApplied::FromLive];
    if let Some(g) = &given {
        sources.push(LastApplied::Given(g));
    }
    for last_applied in sources {
        for (overwrite, namespace) in [(true, None), (false, Some("fuzz"))] {
            let input = PlanInput {
                local: &local,
                live: live.as_ref(),
                last_applied,
                namespace,
                overwrite,
            };
            if let Ok(p) = plan(&input, schema) {
                // The plan is printed as JSON by the CLI: serialising it must not panic either.
                let _ = serde_json::to_string(&p);
            }
        }
    }
});
