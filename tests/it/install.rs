//! What an installed binary offers beyond its commands: the kubectl plugin name, the krew
//! manifest, shell completions and the man page. (`cargo install` itself is checked by
//! `.ci/install-check`, which installs the release build and runs it as `kubectl applyscope`.)

use std::path::Path;
use std::process::Command;

use applyscope::cli::Cli;
use clap::{CommandFactory as _, Parser as _};

fn bin() -> Command {
    crate::support::bin()
}

fn stdout_of(args: &[&str]) -> String {
    let out = bin().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Every subcommand's name, nested ones as `patch three-way`.
fn subcommands() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for sub in Cli::command().get_subcommands() {
        out.push((sub.get_name().to_owned(), String::new()));
        for inner in sub.get_subcommands() {
            out.push((sub.get_name().to_owned(), inner.get_name().to_owned()));
        }
    }
    assert!(out.len() > 10, "{out:?}");
    out
}

#[test]
fn completions_for_every_shell_name_every_subcommand() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = stdout_of(&["completions", shell]);
        assert!(script.contains("applyscope"), "{shell}");
        for (sub, inner) in subcommands() {
            assert!(script.contains(&sub), "{shell}: no {sub}");
            assert!(script.contains(&inner), "{shell}: no {sub} {inner}");
        }
        for flag in ["local", "live", "no-live", "example", "kubeconfig"] {
            assert!(script.contains(flag), "{shell}: no --{flag}");
        }
    }
    let out = bin().args(["completions", "tcsh"]).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "an unknown shell is a usage error"
    );
}

#[test]
fn the_man_page_is_roff_and_names_every_subcommand() {
    let page = stdout_of(&["man"]);
    assert!(page.starts_with(".ie \\n(.g .ds Aq"), "{}", &page[..80]);
    assert!(page.contains(".TH applyscope 1"));
    assert!(page.contains(".SH SYNOPSIS") && page.contains(".SH OPTIONS"));
    for (sub, _) in subcommands() {
        assert!(
            page.contains(&format!("applyscope\\-{}", sub.replace('-', "\\-"))),
            "no {sub}"
        );
    }
}

/// kubectl runs `kubectl-applyscope` from PATH with its path as the first argument: help,
/// usage errors and errors then name `kubectl applyscope`.
#[cfg(unix)]
#[test]
fn run_as_the_kubectl_plugin_it_names_itself_kubectl_applyscope() {
    let dir = tempfile::tempdir().unwrap();
    let plugin = dir.path().join("kubectl-applyscope");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_applyscope"), &plugin).unwrap();
    let run = |args: &[&str]| Command::new(&plugin).args(args).output().unwrap();

    let help = run(&["--help"]);
    assert!(help.status.success());
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains("Usage: kubectl applyscope [OPTIONS]"),
        "{help}"
    );

    let usage = run(&["plan", "--bogus"]);
    assert_eq!(usage.status.code(), Some(2));
    let usage = String::from_utf8_lossy(&usage.stderr);
    assert!(usage.contains("Usage: kubectl applyscope plan"), "{usage}");

    let error = run(&["--example", "nope"]);
    assert_eq!(error.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&error.stderr),
        "kubectl applyscope: no example \"nope\"; `kubectl applyscope examples` lists them\n"
    );
    // Called by its own name, it says its own name.
    let plain = bin().args(["--example", "nope"]).output().unwrap();
    assert!(String::from_utf8_lossy(&plain.stderr).starts_with("applyscope: no example"));

    // The lines of a command over many objects (one per failed object) name it too.
    let all = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n";
    let live = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: default\n  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: nope\n";
    std::fs::write(dir.path().join("all.yaml"), all).unwrap();
    std::fs::write(dir.path().join("live.yaml"), live).unwrap();
    let many = Command::new(&plugin)
        .args(["plan", "-f", "all.yaml", "--live", "live.yaml"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(many.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&many.stderr)
            .starts_with("kubectl applyscope: ConfigMap default/a: live.yaml: "),
        "{}",
        String::from_utf8_lossy(&many.stderr)
    );
}

/// The krew manifest template, filled in as a release fills it, is a well-formed Plugin: every
/// platform runs `kubectl-applyscope`, has its own checksum, and every usage line in its text
/// is a command line this binary accepts.
#[test]
fn the_krew_manifest_is_a_plugin_whose_usage_lines_parse() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("plugins/applyscope.yaml");
    let template = std::fs::read_to_string(&path).unwrap();
    // The header comment explains the placeholders; the manifest is the rest.
    let mut filled: String = template
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    let mut placeholders = Vec::new();
    while let Some(start) = filled.find("${") {
        let end = start + filled[start..].find('}').unwrap();
        let name = filled[start + 2..end].to_owned();
        let value = match name.as_str() {
            "VERSION" => format!("v{}", env!("CARGO_PKG_VERSION")),
            "BASE_URL" => "https://example.com/applyscope".to_owned(),
            other => {
                assert!(other.starts_with("SHA256_"), "unknown placeholder {other}");
                format!("{:064x}", placeholders.len())
            }
        };
        placeholders.push(name);
        filled.replace_range(start..=end, &value);
    }
    let docs = applyscope::document::parse_documents(&filled, "applyscope.yaml").unwrap();
    assert_eq!(docs.len(), 1);
    let plugin = &docs[0].value;
    assert_eq!(
        plugin["apiVersion"],
        "krew.googlecontainertools.github.com/v1alpha2"
    );
    assert_eq!(plugin["kind"], "Plugin");
    assert_eq!(plugin["metadata"]["name"], "applyscope");
    let spec = &plugin["spec"];
    assert_eq!(
        spec["version"],
        format!("v{}", env!("CARGO_PKG_VERSION")).as_str()
    );
    let platforms = spec["platforms"].as_array().unwrap();
    assert!(platforms.len() >= 4);
    let mut sums = Vec::new();
    for p in platforms {
        let os = p["selector"]["matchLabels"]["os"].as_str().unwrap();
        let want = if os == "windows" {
            "kubectl-applyscope.exe"
        } else {
            "kubectl-applyscope"
        };
        assert_eq!(p["bin"], want);
        assert!(p["uri"].as_str().unwrap().starts_with("https://"));
        sums.push(p["sha256"].as_str().unwrap().to_owned());
    }
    sums.sort();
    sums.dedup();
    assert_eq!(sums.len(), platforms.len(), "one checksum per platform");

    let text = format!(
        "{}\n{}",
        spec["description"].as_str().unwrap(),
        spec["caveats"].as_str().unwrap()
    );
    let mut lines = 0;
    for line in text.lines().map(str::trim) {
        let Some(rest) = line.strip_prefix("kubectl applyscope ") else {
            continue;
        };
        let args = rest.split('#').next().unwrap().split_whitespace();
        let argv: Vec<&str> = std::iter::once("applyscope").chain(args).collect();
        if let Err(e) = Cli::try_parse_from(&argv) {
            panic!("{line}: {e}");
        }
        lines += 1;
    }
    assert!(lines >= 5, "only {lines} usage lines");
}
