//! `plan` over many objects: each object's entry (JSON lines, YAML documents, text), written
//! a chunk at a time as the plans come, then the text summary riskiest first or the markdown
//! report; the failures' lines and the worst exit status kept for the end.

use std::fmt::Write as _;
use std::io::Write;

use super::{Format, PlanArgs, json, markdown, text, yaml};
use crate::cli::Run;
use crate::engine::plan::Plan;
use crate::error::Error;
use crate::session::objects;
use crate::session::objects::{Key, Pair};
use crate::session::parallel::parallel_map;
use crate::session::plan::plan_printed;
use crate::session::progress::Event;
use crate::session::risk::Summary;
use crate::value::Value;

/// How many objects `plan` over many objects plans before writing them.
pub(super) const MANY_CHUNK: usize = 64;

/// Many objects: every object's plan, in the order of the files; exit 1 when one of them would
/// fail (the others are still printed), 2 on bad input.
///
/// Every input is read and matched before anything is written, so bad input (a file that does
/// not parse, the same object twice) writes nothing. Then the objects are planned a chunk at a
/// time and each chunk written straight to stdout: only each object's summary line (text)
/// and the failures' lines are kept to the end, not the plans or the output; the objects wait
/// packed ([`objects::read_held`]) and are thawed with their chunk.
pub(super) fn run(
    args: &PlanArgs,
    header: Option<&str>,
    stages: &mut super::stages::Stages,
) -> Result<Run, Error> {
    use std::io::IsTerminal as _;
    if args.last_applied.is_some() {
        return Err(Error::Input(
            "--last-applied works with one object (one -f file holding one object)".into(),
        ));
    }
    if args.live.is_empty() && !args.no_live {
        return Err(super::no_live_error());
    }
    let namespace = args.namespace.as_deref();
    let mut stdin_used = false;
    let locals = objects::read_held(&args.local, args.recursive, &mut stdin_used)?;
    let lives = objects::read_held(&args.live, args.recursive, &mut stdin_used)?;
    let held = objects::pair_held(locals, lives, namespace)?;
    stages.end("read");
    let stdout = std::io::stdout();
    // On a terminal the plans scrolling by are the progress (a progress line would break them).
    let shown = if stdout.is_terminal() {
        crate::cli::progress::ProgressArgs { quiet: true }.show()
    } else {
        args.progress.show()
    };
    let mut many = Many::new(args.output, super::piped::Piped::new(stdout));
    many.reveal = args.show_secrets;
    if let Some(header) = header {
        many.header(header);
    }
    let total = held.len();
    shown
        .progress()
        .report_with(|| Event::Step("planning".into()));
    let mut held = held.into_iter();
    let mut done = 0;
    while done < total {
        let chunk: Vec<_> = held.by_ref().take(MANY_CHUNK).collect();
        done += chunk.len();
        // Each object is thawed, planned and written by one worker, one step after the other
        // (no wait for the whole chunk between the steps), and its file's object moves into
        // its plan. The markdown report, made whole at the end, takes the plans in order.
        let markdown = args.output == Format::Markdown;
        let (format, reveal) = (many.format, many.reveal);
        let written = !markdown && many.broken.is_none();
        let outs = parallel_map(&chunk, |held| {
            let Pair { key, local, live } = objects::load_one(held)?;
            let api_version = local.value.get("apiVersion").cloned();
            let source = local.source.clone();
            let plan = plan_printed(local, live.as_ref(), namespace, args.overwrite);
            let named = Named {
                key: &key,
                source: &source,
                live: live.as_ref().map(|l| l.source.as_str()),
                api_version: api_version.as_ref(),
            };
            let out = Out::of(&named, &plan, format, reveal, written);
            Ok::<_, Error>((out, markdown.then_some((key, source, plan))))
        });
        for done in outs {
            let (out, planned) = done?;
            if let Some((key, source, plan)) = planned {
                many.report(&key, &source, plan.as_ref());
            }
            many.add_out(out)?;
        }
        shown.progress().report(Event::Count { done, total });
    }
    drop(shown);
    let (_, end) = many.finish();
    stages.end("plan+write");
    Ok(end.run(String::new()))
}

/// What an object's part of the output names of it: its key, where it was read, where its
/// live object was read and its `apiVersion`.
struct Named<'a> {
    key: &'a Key,
    source: &'a str,
    live: Option<&'a str>,
    api_version: Option<&'a Value>,
}

impl<'a> Named<'a> {
    fn of(pair: &'a Pair) -> Named<'a> {
        Named {
            key: &pair.key,
            source: &pair.local.source,
            live: pair.live.as_ref().map(|l| l.source.as_str()),
            api_version: pair.local.value.get("apiVersion"),
        }
    }
}

/// One object's entry in the many-object output (JSON lines, YAML documents), but its plan
/// (which goes under `plan`).
fn entry(named: &Named<'_>, plan: &Result<Plan, Error>) -> crate::value::Map {
    let api_version = named.api_version.cloned().unwrap_or(Value::Null);
    let mut e = crate::value::Map::new();
    e.insert(
        "object",
        crate::json!({
            "apiVersion": api_version,
            "kind": named.key.kind,
            "namespace": named.key.namespace,
            "name": named.key.name,
        }),
    );
    e.insert("source", crate::json!(named.source));
    e.insert("live", crate::json!(named.live));
    if let Err(err) = plan {
        e.insert(
            "error",
            crate::json!({"exitCode": err.exit_code(), "message": err.to_string()}),
        );
    }
    e
}

/// Print the many-object output and end as a plan over many objects ends: every object's plan
/// on stdout, each failure's one line on stderr, and the worst failure's exit status.
///
/// # Errors
/// As [`Many::add`].
pub fn print_many(
    pairs: &[Pair],
    plans: &[Result<Plan, Error>],
    format: Format,
) -> Result<Run, Error> {
    let mut many = Many::new(format, Vec::new());
    many.add(pairs, plans)?;
    let (out, end) = many.finish();
    let out = String::from_utf8(out).map_err(|e| Error::Failed(e.to_string()))?;
    Ok(end.run(out))
}

/// The many-object output, written to `sink` as the plans come: `json`, one line per object
/// (JSON lines); `yaml`, one document per object; `text`, each object's plan then a summary,
/// riskiest first; `markdown`, the report at the end (its table comes first). It keeps what
/// the end needs: each failure's line, the worst exit status and, for text, each object's
/// summary row.
pub struct Many<W: Write> {
    format: Format,
    /// `--show-secrets`: `-o text` shows a Secret's values.
    pub reveal: bool,
    /// `-o markdown`: the report, written whole at the end.
    report: Option<markdown::Report>,
    sink: W,
    /// Why the sink stopped taking the output (a closed pipe): nothing more is written, the
    /// plans are still made for their failures' lines.
    broken: Option<std::io::Error>,
    errors: Vec<String>,
    code: i32,
    rows: Vec<Row>,
}

/// One object's row in the text summary.
struct Row {
    key: Key,
    source: String,
    summary: Summary,
}

/// How a many-object output ended, for `main`: the failures' lines and the exit status.
#[must_use]
pub struct End {
    errors: Vec<String>,
    code: i32,
    broken: bool,
}

impl End {
    /// The run, `stdout` being what the sink did not print already (empty when it did).
    #[must_use]
    pub fn run(self, stdout: String) -> Run {
        if !self.broken {
            return crate::cli::finish(stdout, self.errors, self.code);
        }
        // As when the whole output failed to print at the end: status 1, or 2 with the
        // failures' lines when an object failed.
        let failed = self.code != 0 || !self.errors.is_empty();
        Run::Report {
            stdout: String::new(),
            stderr: self.errors,
            code: if failed { 2 } else { 1 },
        }
    }
}

impl<W: Write> Many<W> {
    #[must_use]
    pub fn new(format: Format, sink: W) -> Many<W> {
        Many {
            format,
            reveal: false,
            report: None,
            sink,
            broken: None,
            errors: Vec::new(),
            code: 0,
            rows: Vec::new(),
        }
    }

    /// Write `text` first (the kuberc's mode line above the text output).
    pub fn header(&mut self, text: &str) {
        self.write(text.as_bytes());
    }

    fn write(&mut self, bytes: &[u8]) {
        if self.broken.is_none()
            && let Err(e) = self.sink.write_all(bytes)
        {
            self.broken = Some(e);
        }
    }

    /// Write the plans of the next objects (`pairs` and `plans` side by side).
    ///
    /// # Errors
    /// [`Error::Failed`] when a plan cannot be written.
    pub fn add(&mut self, pairs: &[Pair], plans: &[Result<Plan, Error>]) -> Result<(), Error> {
        let (format, reveal) = (self.format, self.reveal);
        if format == Format::Markdown {
            for (pair, plan) in pairs.iter().zip(plans) {
                self.report(&pair.key, &pair.local.source, plan.as_ref());
            }
        }
        // Writing a plan costs more than planning it: each object's text is made in parallel
        // too (the markdown report's whole at the end).
        let written = format != Format::Markdown && self.broken.is_none();
        let items: Vec<(&Pair, &Result<Plan, Error>)> = pairs.iter().zip(plans).collect();
        let outs = parallel_map(&items, |(pair, plan)| {
            Out::of(&Named::of(pair), plan, format, reveal, written)
        });
        for out in outs {
            self.add_out(out)?;
        }
        Ok(())
    }

    /// Add an object's plan to the markdown report (written whole at the end).
    fn report(&mut self, key: &Key, source: &str, plan: Result<&Plan, &Error>) {
        let reveal = self.reveal;
        self.report
            .get_or_insert_with(|| markdown::Report::new("plan", reveal))
            .add(key, source, plan, None);
    }

    /// Write the next object's part and keep what the end needs of it.
    ///
    /// # Errors
    /// [`Error::Failed`] when its plan could not be written.
    fn add_out(&mut self, out: Out) -> Result<(), Error> {
        if let Some(text) = out.text {
            self.write(text?.as_bytes());
        }
        if let Some((line, code)) = out.failure {
            self.errors.push(line);
            self.code = self.code.max(code);
        }
        self.rows.extend(out.row);
        Ok(())
    }

    /// Write the end (the text summary, the markdown report) and flush: the sink, and how the
    /// run ends.
    pub fn finish(mut self) -> (W, End) {
        if self.format == Format::Text {
            let table = summary(&mut self.rows);
            self.write(table.as_bytes());
        }
        if let Some(report) = self.report.take() {
            self.write(report.finish().as_bytes());
        }
        if self.broken.is_none()
            && let Err(e) = self.sink.flush()
        {
            self.broken = Some(e);
        }
        let end = End {
            errors: self.errors,
            code: self.code,
            broken: self.broken.is_some(),
        };
        (self.sink, end)
    }
}

/// One object's part of the output (`None`: not written, the output has stopped or is the
/// markdown report), its failure's line and exit status, and its text summary row.
struct Out {
    text: Option<Result<String, Error>>,
    failure: Option<(String, i32)>,
    row: Option<Row>,
}

impl Out {
    fn of(
        named: &Named<'_>,
        plan: &Result<Plan, Error>,
        format: Format,
        reveal: bool,
        written: bool,
    ) -> Out {
        Out {
            text: written.then(|| render_one(named, plan, format, reveal)),
            failure: plan
                .as_ref()
                .err()
                .map(|e| (format!("{}: {e}", named.key), e.exit_code())),
            row: (format == Format::Text).then(|| Row {
                key: named.key.clone(),
                source: named.source.to_owned(),
                summary: match plan {
                    Ok(p) => Summary::of_plan(p),
                    Err(e) => Summary::failed(&e.to_string()),
                },
            }),
        }
    }
}

/// One object's part of the many-object output.
fn render_one(
    named: &Named<'_>,
    plan: &Result<Plan, Error>,
    format: Format,
    reveal: bool,
) -> Result<String, Error> {
    let failed = |e: &dyn std::fmt::Display| Error::Failed(e.to_string());
    Ok(match format {
        Format::Json => {
            let mut line = Vec::new();
            json::write_entry(&entry(named, plan), plan.as_ref().ok(), &mut line)
                .map_err(|e| failed(&e))?;
            String::from_utf8(line).map_err(|e| failed(&e))?
        }
        Format::Yaml => yaml::entry_to_string(&entry(named, plan), plan.as_ref().ok())
            .map_err(|e| failed(&e))?,
        Format::Markdown => {
            let mut report = markdown::Report::new("plan", reveal);
            report.add(named.key, named.source, plan.as_ref(), None);
            report.finish()
        }
        Format::Text => {
            let live = named
                .live
                .map_or_else(|| "no live object".to_owned(), |l| format!("live {l}"));
            let mut out = format!("=== {} ({}, {live})\n", named.key, named.source);
            match plan {
                Ok(p) => out.push_str(&text::text_with(p, reveal)),
                Err(e) => {
                    let _ = writeln!(out, "error: {e}");
                }
            }
            out.push('\n');
            out
        }
    })
}

/// The summary table of the many-object text output, riskiest first.
fn summary(rows: &mut [Row]) -> String {
    use crate::session::risk::{Op, Tally, riskier_first};
    // The TUI list's order (`session::risk`): failures, then what the server will reject,
    // other warnings, removals, changes, additions; ties by kind, namespace, name.
    rows.sort_by(|a, b| riskier_first((&a.summary, &a.key), (&b.summary, &b.key)));
    let action = |s: &Summary| match s.op {
        Op::Create => "create",
        Op::Patch(_) => "patch",
        Op::Unchanged => "unchanged",
        Op::Fails => "FAILS",
    };
    let tally = Tally::of(rows.iter().map(|r| &r.summary));
    let mut out = format!(
        "summary: {} objects: {} create, {} patch, {} unchanged, {} fail; riskiest first\n",
        rows.len(),
        tally.create,
        tally.patch,
        tally.unchanged,
        tally.fails
    );
    let _ = writeln!(
        out,
        "{:<9} {:<9} {:>5} {:>5} {:>5} {:>6} {:>8}  object",
        "risk", "action", "add", "set", "clear", "delete", "warnings"
    );
    for Row {
        key,
        source,
        summary: s,
    } in rows.iter()
    {
        let _ = writeln!(
            out,
            "{:<9} {:<9} {:>5} {:>5} {:>5} {:>6} {:>8}  {} ({})",
            s.risk().label(),
            action(s),
            s.add,
            s.set,
            s.clear,
            s.delete,
            s.warnings,
            key,
            source
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::Format;
    use super::*;
    use crate::engine::plan::{LAST_APPLIED, encode_annotation};
    use crate::json;
    use crate::session::objects;
    use crate::session::objects::Object;
    use crate::session::plan::plan_all;

    /// `n` ConfigMaps with live objects; every 7th live annotation is not JSON (that object
    /// fails to plan), every 3rd local value changes.
    fn pairs(n: usize) -> Vec<Pair> {
        let cm = |i: usize, value: &str| {
            json!({"apiVersion": "v1", "kind": "ConfigMap",
                "metadata": {"name": format!("cm-{i:03}"), "namespace": "default"},
                "data": {"k": value}})
        };
        let mut locals = Vec::new();
        let mut lives = Vec::new();
        for i in 0..n {
            let local = cm(i, if i % 3 == 0 { "new" } else { "old" });
            let mut live = cm(i, "old");
            let annotation = if i % 7 == 0 {
                "{not json".to_owned()
            } else {
                encode_annotation(&cm(i, "old")).unwrap()
            };
            live["metadata"]["annotations"] = json!({ LAST_APPLIED: annotation });
            locals.push(Object {
                value: local,
                source: format!("local.yaml#{}", i + 1),
            });
            lives.push(Object {
                value: live,
                source: format!("live.yaml#{}", i + 1),
            });
        }
        objects::pair(locals, lives, None).unwrap()
    }

    /// What [`Many`] wrote, the failures and the exit status.
    fn written(many: Many<Vec<u8>>) -> (String, Vec<String>, i32) {
        let (out, end) = many.finish();
        assert!(!end.broken);
        (String::from_utf8(out).unwrap(), end.errors, end.code)
    }

    #[test]
    fn many_objects_written_in_chunks_read_as_written_at_once() {
        let pairs = pairs(2 * MANY_CHUNK + 5);
        let plans = plan_all(&pairs, None, true);
        assert!(plans.iter().filter(|p| p.is_err()).count() > 3);
        for format in [Format::Json, Format::Yaml, Format::Text, Format::Markdown] {
            let mut whole = Many::new(format, Vec::new());
            whole.add(&pairs, &plans).unwrap();
            let mut chunked = Many::new(format, Vec::new());
            for (chunk, plans) in pairs.chunks(MANY_CHUNK).zip(plans.chunks(MANY_CHUNK)) {
                chunked.add(chunk, plans).unwrap();
            }
            let (out, errors, code) = written(chunked);
            assert_eq!((out.clone(), errors.clone(), code), written(whole));
            assert_eq!(errors.len(), pairs.len().div_ceil(7));
            assert_eq!(code, 2, "a bad annotation is bad input");
            if format == Format::Text {
                let table = out.split("summary: ").nth(1).unwrap();
                assert!(
                    table.starts_with("133 objects: 0 create, 38 patch, 76 unchanged, 19 fail"),
                    "{table}"
                );
                // Riskiest first: the failures head the table.
                let first = table.lines().nth(2).unwrap();
                assert!(first.contains("FAILS"), "{first}");
            }
        }
    }
}
