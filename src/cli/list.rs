//! The TUI on input holding several objects: read and pair them as `plan` does, plan them in
//! parallel, and open the object list. Without a terminal it prints what `applyscope plan`
//! prints for the same arguments.

use std::path::{Path, PathBuf};

use super::objects::{self, Pair};
use super::plan;
use super::{CliError, OpenArgs};
use crate::app::list::{Item, List};
use crate::app::{Docs, EditOptions, Files};

/// Whether a `-f` path stands for several sources by its name alone: standard input or a
/// directory (read once, by the list).
#[must_use]
pub fn many_sources(path: &Path) -> bool {
    path.as_os_str() == "-" || path.is_dir()
}

/// Whether the arguments can name a single object: one `-f` file (not `-`, not a directory)
/// and at most one `--live` file, no `-R`. (Whether the files hold one object each is known
/// only once they are read.)
#[must_use]
pub fn single_candidate(args: &OpenArgs) -> bool {
    let plain = |p: &PathBuf| !many_sources(p);
    args.local.len() == 1
        && args.live.len() <= 1
        && !args.recursive
        && args.local.iter().all(plain)
        && args.live.iter().all(plain)
}

/// The objects of the arguments, paired and planned, as list items (in the files' order).
///
/// # Errors
/// [`CliError::Input`] for unreadable or malformed files, an object given twice, no live
/// object and no `--no-live`, and the options that need one object.
pub fn items(args: &OpenArgs) -> Result<Vec<Item>, CliError> {
    let (pairs, _) = pairs(args)?;
    Ok(plan_items(pairs))
}

/// Plan the pairs in parallel: the list's items.
#[must_use]
pub fn plan_items(pairs: Vec<Pair>) -> Vec<Item> {
    let plans = objects::plan_all(&pairs, None, true);
    pairs
        .into_iter()
        .zip(plans)
        .map(|(pair, plan)| item(pair, plan))
        .collect()
}

/// The pairs, and how many live objects were read.
fn pairs(args: &OpenArgs) -> Result<(Vec<Pair>, usize), CliError> {
    if args.live.is_empty() && !args.no_live {
        return Err(CliError::Input(
            "no live objects: pass --live FILE|DIR, or --no-live for creates".into(),
        ));
    }
    let mut stdin_used = false;
    let locals = objects::read_all(&args.local, args.recursive, &mut stdin_used)?;
    let lives = objects::read_all(&args.live, args.recursive, &mut stdin_used)?;
    let live_count = lives.len();
    Ok((objects::pair(locals, lives, None)?, live_count))
}

fn item(pair: Pair, plan: Result<crate::engine::plan::Plan, CliError>) -> Item {
    // A file named by the object's source holds that object alone: reload and commit as with
    // one object. Standard input and `file#N` objects are not bound to files.
    let plain = |s: &str| s != "-" && Path::new(s).is_file();
    let live_source = pair.live.as_ref().map(|l| l.source.clone());
    let bound = plain(&pair.local.source) && live_source.as_deref().is_none_or(plain);
    let files = bound.then(|| Files {
        local: PathBuf::from(&pair.local.source),
        live: live_source.as_ref().map(PathBuf::from),
        last_applied: None,
    });
    Item {
        key: pair.key,
        source: pair.local.source,
        live_source,
        docs: Docs {
            local: pair.local.value,
            live: pair.live.map(|l| l.value),
            last_applied: None,
        },
        plan,
        files,
    }
}

/// Open the list (on a terminal) or print the plans (otherwise). `single_error` is why the
/// one-object reading failed, if it was tried: it is the answer when the input turns out to
/// hold one object after all.
///
/// # Errors
/// As [`items`]; terminal errors.
pub fn open(
    args: &OpenArgs,
    tty: bool,
    single_error: Option<CliError>,
) -> Result<String, CliError> {
    if args.live.is_empty() && !args.no_live {
        return open_cluster(args, tty, None);
    }
    let read = pairs(args);
    if let Some(e) = single_error {
        // One object after all (or unreadable): the one-object reading's error is the answer.
        match &read {
            Ok((pairs, lives)) if pairs.len() > 1 || *lives > 1 => {}
            _ => return Err(e),
        }
    }
    if args.last_applied.is_some() || args.write_last_applied.is_some() {
        return Err(CliError::Input(
            "--last-applied and --write-last-applied work with one object (one -f file holding one object)".into(),
        ));
    }
    if !tty {
        // Standard input was read already: print from what was read, as `plan` prints it.
        let (pairs, _) = read?;
        let plans = objects::plan_all(&pairs, None, true);
        return plan::print_many(&pairs, &plans, plan::Format::Text);
    }
    let list = List::new(title(args), plan_items(read?.0), options(args));
    super::run_tui(crate::app::App::Many(Box::new(list)))
}

/// Several objects and neither `--live` nor `--no-live`: their live objects come from the
/// cluster (loaded concurrently, planned with the patch metadata the server gives), and the list
/// opens on them. These objects are not bound to files: edits work in memory, commits and
/// applies go through the one-object screen (`applyscope -f FILE`).
/// `read`: the objects of `args.local`, when the caller has read them already.
#[cfg(feature = "cluster")]
pub fn open_cluster(
    args: &OpenArgs,
    tty: bool,
    read: Option<Vec<crate::cli::objects::Object>>,
) -> Result<String, CliError> {
    if args.last_applied.is_some() || args.write_last_applied.is_some() {
        return Err(CliError::Input(
            "--last-applied and --write-last-applied work with one object (one -f file holding one object)".into(),
        ));
    }
    let locals = match read {
        Some(objects) => objects,
        None => super::cluster::read_locals(&args.local, args.recursive)?,
    };
    let planned = super::cluster::load_and_plan(
        locals,
        &args.cluster,
        args.namespace.as_deref(),
        true,
        None,
    )?;
    if !tty {
        return plan::print_many(&planned.pairs, &planned.plans, plan::Format::Text);
    }
    let items = planned
        .pairs
        .into_iter()
        .zip(planned.plans)
        .map(|(pair, plan)| {
            let mut item = item(pair, plan);
            item.files = None;
            item
        })
        .collect();
    let list = List::new(
        format!("{} → cluster", title_names(&args.local)),
        items,
        options(args),
    );
    super::run_tui(crate::app::App::Many(Box::new(list)))
}

#[cfg(not(feature = "cluster"))]
pub fn open_cluster(
    _: &OpenArgs,
    _: bool,
    _: Option<Vec<crate::cli::objects::Object>>,
) -> Result<String, CliError> {
    Err(CliError::Input(
        "no live objects: pass --live FILE|DIR, or --no-live for creates (this build has no cluster access)".into(),
    ))
}

fn title_names(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn options(args: &OpenArgs) -> EditOptions {
    EditOptions {
        read_only: args.read_only,
        dry_run: args.dry_run,
        write_last_applied: None,
    }
}

/// `-f app/ → live/`.
#[must_use]
pub fn title(args: &OpenArgs) -> String {
    if args.live.is_empty() {
        format!("{} (creates)", title_names(&args.local))
    } else {
        format!("{} → {}", title_names(&args.local), title_names(&args.live))
    }
}
