//! Strategic merge patch apply: `document 0xFF patch`, both JSON objects (as
//! `smp::parse_json` reads them). Applied under the Deployment schema, with no metadata
//! (opaque), and under the conformance vectors' `mergeItem` schema. Errors are fine, panics are
//! not.
#![no_main]

mod common;

use applyscope::engine::smp;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(parts) = common::split_n(data, 2) else {
        return;
    };
    let (Some(doc), Some(patch)) = (common::json_doc(parts[0]), common::json_doc(parts[1])) else {
        return;
    };
    for (_, meta) in common::metas() {
        if let Ok(result) = smp::apply(doc.clone(), patch.clone(), meta) {
            // Whatever apply returns must be writable as Go writes JSON.
            let _ = applyscope::engine::gojson::to_string(&result);
        }
    }
});
