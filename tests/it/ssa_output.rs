//! `plan --server-side -o json|yaml` written straight to standard output: when it cannot be
//! written (`/dev/full`, a reader that went away) the run ends as the client-side plan's does.
//! (That the streamed text is the one built as a whole value: `cli::plan::ssa::write_tests`.)

use std::path::Path;
use std::process::{Command, Stdio};

const EXAMPLES: &str = "assets/examples";

fn applyscope(args: &[&str]) -> Command {
    let mut cmd = crate::support::bin();
    cmd.args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(EXAMPLES));
    cmd
}

/// Exit status and stderr, standard output being `/dev/full`.
#[cfg(target_os = "linux")]
fn into_full(args: &[&str]) -> (Option<i32>, String) {
    let out = applyscope(args)
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// One object: exit 1, nothing said. Many: 1 when every object was planned; 2 with each
/// failed object's line when one was not (its output was lost).
#[cfg(target_os = "linux")]
#[test]
fn an_unwritable_standard_output_ends_as_the_client_side_plans() {
    let one = [
        "plan",
        "--server-side",
        "-f",
        "hpa-handover/local.yaml",
        "--live",
        "hpa-handover/live.yaml",
        "--force-conflicts",
    ];
    for format in ["json", "yaml", "text"] {
        let args = [&one[..], &["-o", format]].concat();
        assert_eq!(into_full(&args), (Some(1), String::new()), "{format}");
    }
    let many = [
        "plan",
        "--server-side",
        "-f",
        "hpa-handover/local.yaml",
        "-f",
        "create-service/local.yaml",
        "--live",
        "hpa-handover/live.yaml",
    ];
    for format in ["json", "yaml"] {
        let forced = [&many[..], &["-o", format, "--force-conflicts"]].concat();
        assert_eq!(into_full(&forced), (Some(1), String::new()), "{format}");
        let (code, err) = into_full(&[&many[..], &["-o", format]].concat());
        assert_eq!(code, Some(2), "{format}: {err}");
        assert!(
            err.starts_with(
                "applyscope: Deployment.apps default/web: Apply failed with 1 conflict: "
            ),
            "{format}: {err}"
        );
    }
}

/// A reader that stops reading part way (a closed pipe): exit 1, nothing said, as the
/// client-side plan.
#[test]
fn a_closed_pipe_ends_the_plan_quietly() {
    let dir = tempfile::tempdir().unwrap();
    // Far more output than a pipe holds.
    let data: Vec<String> = (0..20_000)
        .map(|i| format!("\"key-{i}\":\"{i}\""))
        .collect();
    let local = format!(
        r#"{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"big","namespace":"default"}},"data":{{{}}}}}"#,
        data.join(",")
    );
    let file = dir.path().join("big.json");
    std::fs::write(&file, local).unwrap();
    let file = file.to_str().unwrap();
    for (mode, format) in [
        ("--server-side", "json"),
        ("--server-side", "yaml"),
        ("--server-side=false", "json"),
    ] {
        let mut child = applyscope(&["plan", mode, "-f", file, "--no-live", "-o", format])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let mut head = [0u8; 16];
        std::io::Read::read_exact(&mut stdout, &mut head).unwrap();
        drop(stdout);
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            (out.status.code(), err.as_ref()),
            (Some(1), ""),
            "{mode} {format}"
        );
    }
}
