//! Progress of long command-line work (`plan`, `diff`, `apply` over many objects or a cluster)
//! on stderr: a spinner, `412/1000 objects`, the request waited for longest, the time so far.
//! Only when stderr is a terminal and `--quiet` is not given, so scripts and CI logs stay
//! clean; it is cleared when the work is done. stdout is never touched. The session reports
//! ([`crate::session::progress`]); this draws (indicatif).

use std::io::IsTerminal as _;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::cluster::Activity;
use crate::session::progress::{Event, Progress};

/// The progress switch of the commands that can take long.
#[derive(Debug, Default, Clone, Copy, Args)]
pub struct ProgressArgs {
    /// Show no progress on stderr (it is shown only when stderr is a terminal).
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// The progress line of one command, cleared when dropped.
pub struct Shown {
    bar: Option<ProgressBar>,
    progress: Progress,
}

/// What the line says: the requests out (oldest first) and the step.
#[derive(Default)]
struct Said {
    requests: Vec<(u64, String)>,
    step: String,
}

impl Said {
    fn message(&self) -> String {
        match self.requests.split_first() {
            Some(((_, what), [])) => what.clone(),
            Some(((_, what), more)) => format!("{what} (+{} more)", more.len()),
            None => self.step.clone(),
        }
    }
}

impl ProgressArgs {
    /// Show progress on stderr, if it is a terminal and `--quiet` was not given.
    #[must_use]
    pub fn show(self) -> Shown {
        if self.quiet || !std::io::stderr().is_terminal() {
            return Shown {
                bar: None,
                progress: Progress::none(),
            };
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template("{spinner} {prefix}{msg} · {elapsed}") {
            bar.set_style(style);
        }
        bar.enable_steady_tick(Duration::from_millis(100));
        let said = Arc::new(Mutex::new(Said::default()));
        let shown = bar.clone();
        let progress = Progress::new(move |event| {
            let Ok(mut said) = said.lock() else { return };
            match event {
                Event::Step(what) => said.step = what,
                Event::Request(Activity::Sent { id, what }) => said.requests.push((id, what)),
                Event::Request(Activity::Ended { id }) => said.requests.retain(|(i, _)| *i != id),
                Event::Count { done, total } => {
                    shown.set_prefix(format!("{done}/{total} objects · "));
                    return;
                }
                Event::Listing { total, .. } => {
                    shown.set_prefix(format!("0/{total} objects · "));
                    return;
                }
                Event::Row(_) => return,
            }
            shown.set_message(said.message());
        });
        Shown {
            bar: Some(bar),
            progress,
        }
    }
}

impl Shown {
    /// Where the session reports.
    #[must_use]
    pub fn progress(&self) -> &Progress {
        &self.progress
    }
}

impl Drop for Shown {
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_names_the_oldest_request_else_the_step() {
        let mut said = Said {
            step: "planning".into(),
            ..Said::default()
        };
        assert_eq!(said.message(), "planning");
        said.requests
            .push((1, "reading configmaps/a from http://k".into()));
        said.requests.push((2, "OpenAPI v3 v1".into()));
        assert_eq!(
            said.message(),
            "reading configmaps/a from http://k (+1 more)"
        );
    }

    #[test]
    fn quiet_shows_nothing() {
        let shown = ProgressArgs { quiet: true }.show();
        assert!(shown.bar.is_none());
        shown
            .progress()
            .report_with(|| unreachable!("nobody listens"));
    }
}
