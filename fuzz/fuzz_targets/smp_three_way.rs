//! Three-way strategic merge patch (kubectl apply): `original 0xFF modified 0xFF current`, all
//! JSON objects. For each metadata (Deployment, opaque, mergeItem) and both `--overwrite`
//! values: `p = diff3(o, m, c)`; when that succeeds, `apply(c, p)` must not panic (it may fail).
//!
//! Property, checked only when `o` and `m` are "simple" (see `common::is_simple`: no nulls, no
//! `$` keys, no duplicate list items or merge-key values, homogeneous lists):
//! if `p = diff2(o, m)` succeeds then `apply(o, p)` succeeds and equals `m` (merging lists
//! compared sorted, as the reference's tests compare them).
#![no_main]

mod common;

use applyscope::engine::smp;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(parts) = common::split_n(data, 3) else {
        return;
    };
    let (Some(o), Some(m), Some(c)) = (
        common::json_doc(parts[0]),
        common::json_doc(parts[1]),
        common::json_doc(parts[2]),
    ) else {
        return;
    };
    let simple = common::is_simple(&o) && common::is_simple(&m);
    for (name, meta) in common::metas() {
        for overwrite in [false, true] {
            if let Ok(patch) = smp::diff3(&o, &m, &c, meta, overwrite) {
                let _ = smp::apply(c.clone(), patch, meta);
            }
        }
        if simple && let Ok(patch) = smp::diff2(&o, &m, meta) {
            match smp::apply(o.clone(), patch.clone(), meta) {
                // Compared as the reference's tests compare (merging lists sorted): a primitive
                // merge list holding the same items in another order keeps its order.
                Ok(result) => assert!(
                    smp::sort_merge_lists_by_name(&result, meta).ok()
                        == smp::sort_merge_lists_by_name(&m, meta).ok(),
                    "apply(o, diff2(o, m)) != m under {name}\n o: {o}\n m: {m}\n patch: {patch}\n result: {result}"
                ),
                // The reference's diff adds items without the merge key to an empty list, and its
                // apply then refuses them: the same error is correct here (fuzz/regressions/).
                Err(e) if e.to_string().contains("does not contain declared merge key") => {}
                Err(e) => panic!(
                    "apply(o, diff2(o, m)) failed under {name}: {e}\n o: {o}\n m: {m}\n patch: {patch}"
                ),
            }
        }
    }
});
