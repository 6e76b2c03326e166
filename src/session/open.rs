//! What a run opens, decided in one place: one object (its panes) or many (the object list),
//! read and planned. The command line prints it (no terminal) and the TUI shows it; both get
//! the same [`Open`].
//!
//! | arguments | opens |
//! |---|---|
//! | none, or `--example NAME` | one object: a built-in example |
//! | one `-f` file, neither `--live` nor `--no-live` | one object with its live object from the cluster; the list if the file holds several |
//! | one `-f` file, at most one `--live` file, no `-R` ([`single_candidate`]) | one object, if each file holds one; else the list |
//! | anything else (`-`, directories, several files) | the list (with neither `--live` nor `--no-live`, of live objects from the cluster) |
//!
//! `applyscope plan` decides with the same rules ([`single_candidate`], then
//! [`holds_many_objects`] on the files it reads once for the plan).

use std::path::{Path, PathBuf};

use super::Error;
use super::files::{ReloadRequest, load};
use super::input::{is_list, read_one_object};
use super::objects::{self, Key, Object, Pair};
use super::plan::{self, Docs};
use super::progress::{Event, Progress};
use super::source::Source;
use super::{Files, cluster};
use crate::cluster::Conn;
use crate::document::Document;
use crate::engine::plan::Plan;
use crate::examples::Example;
use crate::fsutil::FileDigest;
use crate::value::Value;

/// The command-line switches of a TUI run that concern editing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EditOptions {
    /// `--read-only`: the edit and commit keys are off.
    pub read_only: bool,
    /// `--dry-run`: a commit shows what it would write and writes nothing.
    pub dry_run: bool,
    /// `--write-last-applied PATH`: commit the document alone to PATH.
    pub write_last_applied: Option<PathBuf>,
    /// The apply mode the run follows (`--server-side`, else kubectl's kuberc; resolved by
    /// `session::kuberc`): a server-side mode opens the server-side view. `None`: not
    /// resolved (kubectl diff's explorer), the client-side plan.
    pub mode: Option<crate::session::kuberc::ApplyMode>,
    /// `--field-manager`.
    pub field_manager: Option<String>,
}

/// What the user asked to open: the arguments of a run with no command, as data.
#[derive(Clone, Debug, Default)]
pub struct OpenRequest {
    /// `-f`: files, directories, `-`.
    pub local: Vec<PathBuf>,
    /// `--live`: files, directories, `-`.
    pub live: Vec<PathBuf>,
    /// `-R`.
    pub recursive: bool,
    /// `--no-live`: creates.
    pub no_live: bool,
    pub last_applied: Option<PathBuf>,
    /// `--example NAME`.
    pub example: Option<&'static Example>,
    pub options: EditOptions,
    /// Cluster mode: how to connect (`-n` included).
    pub conn: Conn,
    /// `--openapi-patch`.
    pub openapi_patch: bool,
    /// Objects from the cluster: one that cannot be read is a failed row of the list, not the
    /// run's error (the TUI: the others stay usable).
    pub fail_alone: bool,
}

/// What a run opens, read and planned.
pub enum Open {
    One(Box<One>),
    Many(Box<Many>),
}

/// One object.
pub struct One {
    /// Its documents (in cluster mode the live object without `managedFields`).
    pub source: Source,
    pub plan: Plan,
    /// The built-in example it is.
    pub example: Option<&'static Example>,
    /// The files it reloads from and commits to (`-f LOCAL --live LIVE`).
    pub files: Option<Files>,
    /// The digest of the file a commit writes, read with the documents (`None`: no such file,
    /// or nothing to write).
    pub target: Option<FileDigest>,
    /// Cluster mode: the object on the server, and the connection kept for the run.
    pub cluster: Option<Box<cluster::Opened>>,
    pub options: EditOptions,
    /// `kubectl diff`'s external diff: the server's dry-run answer, shown as the result.
    pub server: Option<Box<ServerAnswer>>,
}

/// The server's dry-run answer (`kubectl diff`'s external diff), shown in the explorer's result pane in place of the planned
/// result, and what the explorer says about the object.
#[derive(Clone, Debug, PartialEq)]
pub struct ServerAnswer {
    pub answer: Value,
    /// How the plan compares with the answer, in a few words (for a title).
    pub summary: String,
    /// Where local came from and how the plan compares with the answer (one line).
    pub note: String,
}

/// Several objects: the object list.
pub struct Many {
    /// What was opened (`-f web/ → live/`).
    pub title: String,
    pub pairs: Vec<Pair>,
    /// `pairs[i]`'s plan.
    pub plans: Vec<Result<Plan, Error>>,
    /// The objects may be bound to their files (not in cluster mode).
    pub from_files: bool,
    pub options: EditOptions,
    /// `pairs[i]`'s server dry-run answer (`kubectl diff`'s external diff), or empty.
    pub server: Vec<Option<Box<ServerAnswer>>>,
}

/// One object of the list: what it is, where it came from, and its plan (or why there is none).
pub struct Item {
    pub key: Key,
    /// The local object's source (`path`, `path#N`, `-#N`).
    pub source: String,
    /// The live object's source; `None`: a create.
    pub live_source: Option<String>,
    pub docs: Docs,
    pub plan: Result<Plan, Error>,
    /// The files an opened object reloads and commits to (`None`: it came from standard input,
    /// a file holding several objects, or the cluster, and is not bound to files).
    pub files: Option<Files>,
    /// The server's dry-run answer, shown as the result when the object opens.
    pub server: Option<Box<ServerAnswer>>,
}

impl Many {
    /// The list's items, in the files' order.
    #[must_use]
    pub fn items(self) -> Vec<Item> {
        let mut server = self.server;
        let mut items = items_of(self.pairs, self.plans, self.from_files);
        server.resize_with(items.len(), || None);
        for (item, answer) in items.iter_mut().zip(server) {
            item.server = answer;
        }
        items
    }
}

/// Whether a `-f` path stands for several sources by its name alone: standard input or a
/// directory (read once, by the list).
#[must_use]
pub fn many_sources(path: &Path) -> bool {
    path.as_os_str() == "-" || path.is_dir()
}

/// Whether the arguments can name a single object: one `-f` file (not `-`, not a directory)
/// and at most one `--live` file, no `-R`. (Whether the files hold one object each is known
/// only once they are read: [`holds_many_objects`].)
#[must_use]
pub fn single_candidate(local: &[PathBuf], live: &[PathBuf], recursive: bool) -> bool {
    let plain = |p: &PathBuf| !many_sources(p);
    local.len() == 1
        && live.len() <= 1
        && !recursive
        && local.iter().all(plain)
        && live.iter().all(plain)
}

/// Whether a file's documents hold two or more Kubernetes objects (documents or `List` items
/// with a `kind`).
#[must_use]
pub fn holds_many_objects(docs: &[Document]) -> bool {
    let kinded = |v: &Value| v.get("kind").is_some_and(Value::is_string);
    let list_items = |v: &Value| match v.get("items").and_then(Value::as_array) {
        Some(items) if is_list(v) => items.iter().filter(|i| kinded(i)).count(),
        _ => usize::from(kinded(v)),
    };
    docs.iter().map(|d| list_items(&d.value)).sum::<usize>() > 1
}

/// Read and plan what `request` opens.
///
/// # Errors
/// [`Error::Input`] for unreadable or malformed files, an object given twice, cluster errors,
/// options that need one object; the plan's error of one object.
pub fn open(request: &OpenRequest) -> Result<Open, Error> {
    open_reporting(request, &Progress::none())
}

/// [`open`], telling `progress` what it reads, the requests it sends, the object list it
/// opens and each object as it is planned.
///
/// # Errors
/// As [`open`].
pub fn open_reporting(request: &OpenRequest, progress: &Progress) -> Result<Open, Error> {
    if !request.local.is_empty() {
        progress.report_with(|| Event::Step(format!("reading {}", title_names(&request.local))));
    }
    let example = match request.example {
        Some(e) => Some(e),
        None if request.local.is_empty() => crate::examples::EXAMPLES.first(),
        None => None,
    };
    match (example, request.local.as_slice()) {
        (Some(e), _) => {
            // An example's commit writes only --write-last-applied FILE: read it now.
            let reload = ReloadRequest {
                files: None,
                target: request.options.write_last_applied.clone(),
            };
            let target = load(&reload)?.target;
            one(Source::from_example(e)?, Some(e), None, target, request)
        }
        (None, []) => Err(Error::Input("no examples built in".into())),
        (None, [local]) if request.live.is_empty() && !request.no_live && !many_sources(local) => {
            // One read decides: several objects open the list; one opens its panes; none, or a
            // file that does not parse, gets the one-object reading's error.
            let mut stdin_used = false;
            match objects::read_all(std::slice::from_ref(local), false, &mut stdin_used) {
                Ok(objs) if objs.len() > 1 => many_from_cluster(request, Some(objs), progress),
                Ok(mut objs) if objs.len() == 1 => {
                    one_from_cluster(request, local, objs.remove(0).value, progress)
                }
                _ => one_from_cluster(request, local, read_one_object(local)?, progress),
            }
        }
        (None, [local]) if single_candidate(&request.local, &request.live, request.recursive) => {
            // Each file is read once: its documents are shown, and the write target's bytes
            // (the live file's, unless --write-last-applied) guard the commit.
            let files = Files {
                local: local.clone(),
                live: request.live.first().cloned(),
                last_applied: request.last_applied.clone(),
            };
            match Source::read_files(&files, request.options.write_last_applied.as_deref()) {
                Ok((source, target)) => one(source, None, Some(files), target, request),
                Err(e) => many(request, Some(e), progress),
            }
        }
        (None, _) => many(request, None, progress),
    }
}

/// One object from files or an example, planned with the embedded schema.
fn one(
    mut source: Source,
    example: Option<&'static Example>,
    files: Option<Files>,
    target: Option<FileDigest>,
    request: &OpenRequest,
) -> Result<Open, Error> {
    // The live object, read once, is held once: by the plan (`source.docs.live` is then `None`).
    let plan = plan::compute_sharing(&mut source.docs)?;
    Ok(Open::One(Box::new(One {
        source,
        plan,
        example,
        files,
        target,
        cluster: None,
        options: request.options.clone(),
        server: None,
    })))
}

/// `-f LOCAL` with neither `--live` nor `--no-live`: the live object comes from the cluster.
fn one_from_cluster(
    request: &OpenRequest,
    local: &Path,
    object: Value,
    progress: &Progress,
) -> Result<Open, Error> {
    if request.options.write_last_applied.is_some() {
        return Err(Error::Input(
            "--write-last-applied works with --live FILE; in cluster mode a commit patches the object's annotation".into(),
        ));
    }
    let last_applied = request
        .last_applied
        .as_deref()
        .map(super::input::read_object)
        .transpose()?;
    let (source, plan, opened) = cluster::open_one_reporting(
        &request.conn,
        object,
        last_applied,
        request.openapi_patch,
        &local.display().to_string(),
        progress,
    )?;
    Ok(Open::One(Box::new(One {
        source,
        plan,
        example: None,
        files: None,
        target: None,
        cluster: Some(Box::new(opened)),
        options: EditOptions {
            write_last_applied: None,
            ..request.options.clone()
        },
        server: None,
    })))
}

/// The objects of the arguments, paired and planned. `single_error` is why the one-object
/// reading failed, if it was tried: it is the answer when the input turns out to hold one
/// object after all.
fn many(
    request: &OpenRequest,
    single_error: Option<Error>,
    progress: &Progress,
) -> Result<Open, Error> {
    if request.live.is_empty() && !request.no_live {
        return many_from_cluster(request, None, progress);
    }
    let read = pairs(request);
    if let Some(e) = single_error {
        // One object after all (or unreadable): the one-object reading's error is the answer.
        match &read {
            Ok((pairs, lives)) if pairs.len() > 1 || *lives > 1 => {}
            _ => return Err(e),
        }
    }
    one_object_options(request)?;
    let (pairs, _) = read?;
    let title = title(request);
    progress.report_with(|| Event::Listing {
        title: title.clone(),
        total: pairs.len(),
    });
    progress.report_with(|| Event::Step("planning".into()));
    let plans = plan::plan_all_reporting(&pairs, None, true, progress);
    Ok(Open::Many(Box::new(Many {
        title,
        pairs,
        plans,
        from_files: true,
        options: options(request),
        server: Vec::new(),
    })))
}

/// `--last-applied` and `--write-last-applied` need one object.
fn one_object_options(request: &OpenRequest) -> Result<(), Error> {
    if request.last_applied.is_some() || request.options.write_last_applied.is_some() {
        return Err(Error::Input(
            "--last-applied and --write-last-applied work with one object (one -f file holding one object)".into(),
        ));
    }
    Ok(())
}

/// Several objects and neither `--live` nor `--no-live`: their live objects come from the
/// cluster (loaded concurrently, planned with the patch metadata the server gives). These
/// objects are not bound to files: edits work in memory, commits and applies go through the
/// one-object screen (`applyscope -f FILE`). `read`: the objects of `request.local`, when the
/// caller has read them already.
fn many_from_cluster(
    request: &OpenRequest,
    read: Option<Vec<Object>>,
    progress: &Progress,
) -> Result<Open, Error> {
    if !cfg!(feature = "cluster") {
        return Err(Error::Input(
            "no live objects: pass --live FILE|DIR, or --no-live for creates (this build has no cluster access)".into(),
        ));
    }
    one_object_options(request)?;
    let locals = match read {
        Some(objects) => objects,
        None => objects::read_all(&request.local, request.recursive, &mut false)?,
    };
    let title = format!("{} → cluster", title_names(&request.local));
    progress.report_with(|| Event::Listing {
        title: title.clone(),
        total: locals.len(),
    });
    progress.report_with(|| Event::Step("reading the live objects".into()));
    let read = cluster::Read {
        openapi_patch: request.openapi_patch,
        overwrite: true,
        fail_alone: request.fail_alone,
    };
    let planned = cluster::load_and_plan_reporting(locals, &request.conn, read, None, progress)?;
    Ok(Open::Many(Box::new(Many {
        title,
        pairs: planned.pairs,
        plans: planned.plans,
        from_files: false,
        options: options(request),
        server: Vec::new(),
    })))
}

/// The pairs, and how many live objects were read.
fn pairs(request: &OpenRequest) -> Result<(Vec<Pair>, usize), Error> {
    if request.live.is_empty() && !request.no_live {
        return Err(Error::Input(
            "no live objects: pass --live FILE|DIR, or --no-live for creates".into(),
        ));
    }
    let mut stdin_used = false;
    let locals = objects::read_all(&request.local, request.recursive, &mut stdin_used)?;
    let lives = objects::read_all(&request.live, request.recursive, &mut stdin_used)?;
    let live_count = lives.len();
    Ok((objects::pair(locals, lives, None)?, live_count))
}

/// The objects of the arguments (files, no cluster), paired and planned, as list items (in the
/// files' order).
///
/// # Errors
/// [`Error::Input`] for unreadable or malformed files, an object given twice, no live object
/// and no `--no-live`.
pub fn items(request: &OpenRequest) -> Result<Vec<Item>, Error> {
    let (pairs, _) = pairs(request)?;
    Ok(plan_items(pairs))
}

/// Plan the pairs in parallel: the list's items.
#[must_use]
pub fn plan_items(pairs: Vec<Pair>) -> Vec<Item> {
    let plans = plan::plan_all(&pairs, None, true);
    items_of(pairs, plans, true)
}

/// `pairs` with their `plans` as list items; `from_files`: they may be bound to their files.
fn items_of(pairs: Vec<Pair>, plans: Vec<Result<Plan, Error>>, from_files: bool) -> Vec<Item> {
    pairs
        .into_iter()
        .zip(plans)
        .map(|(pair, plan)| item(pair, plan, from_files))
        .collect()
}

fn item(pair: Pair, plan: Result<Plan, Error>, from_files: bool) -> Item {
    // A file named by the object's source holds that object alone: reload and commit as with
    // one object. Standard input and `file#N` objects are not bound to files.
    let plain = |s: &str| s != "-" && Path::new(s).is_file();
    let live_source = pair.live.as_ref().map(|l| l.source.clone());
    let bound = from_files && plain(&pair.local.source) && live_source.as_deref().is_none_or(plain);
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
        server: None,
    }
}

fn title_names(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn options(request: &OpenRequest) -> EditOptions {
    EditOptions {
        write_last_applied: None,
        ..request.options.clone()
    }
}

/// `-f app/ → live/`.
#[must_use]
pub fn title(request: &OpenRequest) -> String {
    if request.live.is_empty() {
        format!("{} (creates)", title_names(&request.local))
    } else {
        format!(
            "{} → {}",
            title_names(&request.local),
            title_names(&request.live)
        )
    }
}
