//! The YAML/JSON loader on arbitrary bytes: errors are fine, panics, hangs and stack overflows
//! are not.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(docs) = applyscope::document::parse_documents_bytes(data, "fuzz") {
        for doc in &docs {
            // Touch the positions too: every span lookup must be safe.
            let _ = doc.spans.root();
            let _ = doc.spans.len();
            if let Some(obj) = doc.value.as_object() {
                for key in obj.keys() {
                    let _ = doc.spans.get_str(&[key.as_str()]);
                }
            }
        }
    }
});
