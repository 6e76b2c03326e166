//! `KUBECTL_EXTERNAL_DIFF=applyscope kubectl diff -f FILE`: kubectl runs applyscope as its diff
//! program (`applyscope LIVE-NNNN MERGED-NNNN [FLAGS]`, see [`crate::session::external`]). On a
//! terminal, when anything differs, it opens the explorer on those objects (the list when
//! several), each with the
//! server's dry-run answer in the result pane; on a pipe it prints the `diff` report, live →
//! merged, Secret values masked as `applyscope diff` masks them, with kubectl diff's exit status,
//! and on stderr one line per object where applyscope's plan differs from the server's merged
//! object (or could not be made).
//!
//! Flags (words of `KUBECTL_EXTERNAL_DIFF` after the program, which kubectl passes after the
//! two directories): `--show-secrets` (the last-applied annotation of a Secret in clear; its
//! `data` is as kubectl wrote it), `--color=auto|always|never`, `--print` (the report even on a
//! terminal).

use std::io::IsTerminal as _;

use super::Run;
use super::diff::{self, ColorWhen, ObjectDiff};
use crate::engine::{goyaml, secret};
use crate::error::Error;
use crate::session::EditOptions;
use crate::session::external::{self, Call, Planned, Written};

/// What the words after the directories ask for.
#[derive(Debug, Default, PartialEq, Eq)]
struct Flags {
    show_secrets: bool,
    print: bool,
    color: Option<ColorWhen>,
}

fn flags(words: &[String]) -> Result<Flags, Error> {
    let mut flags = Flags::default();
    for word in words {
        match word.as_str() {
            "--show-secrets" => flags.show_secrets = true,
            "--print" => flags.print = true,
            "--color=auto" => flags.color = Some(ColorWhen::Auto),
            "--color=always" => flags.color = Some(ColorWhen::Always),
            "--color=never" => flags.color = Some(ColorWhen::Never),
            other => {
                return Err(Error::Input(format!(
                    "unknown flag {other:?} after kubectl diff's directories (KUBECTL_EXTERNAL_DIFF takes --show-secrets, --print, --color=auto|always|never)"
                )));
            }
        }
    }
    Ok(flags)
}

/// Run kubectl diff's call: the explorer on a terminal, else the report.
///
/// # Errors
/// Bad flags, unreadable directories or files (exit 2).
pub fn run(call: &Call) -> Result<Run, Error> {
    let flags = flags(&call.flags)?;
    let planned = external::plan_all(&external::read(call)?, &external::kubectl::locals());
    let differs = planned
        .iter()
        .any(|p| object_diff(&p.written, true).differs());
    // Nothing differs: as `diff`, nothing to show (not even the explorer) and exit 0.
    if differs && !flags.print && std::io::stdout().is_terminal() {
        let open = external::open(planned, &EditOptions::default());
        return Ok(Run::Explore(Box::new(open), u8::from(differs)));
    }
    let color = flags.color.unwrap_or(ColorWhen::Auto).enabled();
    let (out, errors) = report(&planned, color, flags.show_secrets);
    Ok(super::finish(out, errors, i32::from(differs)))
}

/// The `diff` report over the objects, and the stderr lines: where applyscope's plan differs
/// from the server's merged object, or why there is no plan.
#[must_use]
pub fn report(planned: &[Planned], color: bool, show_secrets: bool) -> (String, Vec<String>) {
    let diffs: Vec<ObjectDiff> = planned
        .iter()
        .map(|p| object_diff(&p.written, show_secrets))
        .collect();
    let mut errors = Vec::new();
    for p in planned {
        let name = &p.written.name;
        match (&p.plan, &p.differs_at) {
            (Err(e), _) => errors.push(format!("{name}: no plan: {e}")),
            (Ok(_), Some(paths)) if !paths.is_empty() => errors.push(format!(
                "{name}: applyscope's plan differs from the server's merged object at {}",
                paths.join(", ")
            )),
            _ => {}
        }
    }
    (diff::render(&diffs, color), errors)
}

/// One object's two sides as `applyscope diff` writes them: a Secret's `stringData` folded
/// into `data`, its values (and their copy in the last-applied annotation) masked.
fn object_diff(w: &Written, show_secrets: bool) -> ObjectDiff {
    let mut live = w.live.clone();
    let mut merged = w.merged.clone();
    for obj in live.iter_mut().chain(merged.iter_mut()) {
        secret::fold_string_data(obj);
    }
    let masked = !show_secrets && live.iter().chain(merged.iter()).any(secret::is_secret);
    if masked {
        secret::mask_pair(live.as_mut(), merged.as_mut(), &["data"]);
        for obj in live.iter_mut().chain(merged.iter_mut()) {
            if let Some(m) = obj.get_mut("metadata") {
                secret::mask_at(m, &["metadata"]);
            }
        }
    }
    let text = |v: Option<&crate::value::Value>, null: bool| match v {
        Some(v) => goyaml::to_yaml(v),
        // kubectl's masker hands the printer a typed nil, which prints as `null`.
        None if null => "null\n".to_owned(),
        None => String::new(),
    };
    ObjectDiff {
        name: w.name.clone(),
        live: text(live.as_ref(), masked),
        merged: text(merged.as_ref(), false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_kubectl_passes() {
        let words = |w: &[&str]| w.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            flags(&words(&["--show-secrets", "--color=never"])).unwrap(),
            Flags {
                show_secrets: true,
                print: false,
                color: Some(ColorWhen::Never)
            }
        );
        assert!(flags(&words(&["-u"])).is_err());
    }
}
