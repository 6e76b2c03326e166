//! `APPLYSCOPE_TIMINGS=1` (issue 16): one stderr line naming each stage of the plan in order
//! (the engine's stages between reading and writing), and the output unchanged.

use std::path::PathBuf;

fn plan(timings: bool, args: &[&str]) -> (String, String) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/examples/args-replaced");
    let mut cmd = crate::support::bin();
    cmd.current_dir(dir).args(args);
    if timings {
        cmd.env("APPLYSCOPE_TIMINGS", "1");
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{out:?}");
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The stage names of a `timings:` line, in order.
fn stage_names(stderr: &str) -> Vec<String> {
    let line = stderr
        .lines()
        .find_map(|l| l.strip_prefix("timings: "))
        .unwrap_or_else(|| panic!("no timings line in {stderr:?}"));
    line.split(", ")
        .map(|part| {
            let (name, secs) = part.rsplit_once(' ').unwrap().0.rsplit_once(' ').unwrap();
            assert!(secs.parse::<f64>().is_ok(), "{part}");
            name.to_owned()
        })
        .collect()
}

#[test]
fn timings_name_every_stage_in_order_and_change_nothing_else() {
    for (args, expected) in [
        (
            &[
                "plan",
                "-f",
                "local.yaml",
                "--live",
                "live.yaml",
                "-o",
                "json",
            ][..],
            &[
                "read",
                "annotation",
                "three-way",
                "apply",
                "walk+lints",
                "write",
                "total",
            ][..],
        ),
        (
            &["plan", "-f", "local.yaml", "--no-live", "-o", "text"][..],
            &["read", "annotation", "walk+lints", "write", "total"][..],
        ),
    ] {
        let (plain, quiet) = plan(false, args);
        let (timed, stderr) = plan(true, args);
        assert_eq!(plain, timed, "{args:?}: the output is the same");
        assert!(!quiet.contains("timings:"), "{quiet}");
        assert_eq!(stage_names(&stderr), expected, "{args:?}");
    }
}
