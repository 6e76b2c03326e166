//! `APPLYSCOPE_TIMINGS=1 applyscope plan …`: how long each stage of one plan took, printed to
//! stderr as one line (`timings: read 0.080 s, annotation 0.011 s, three-way 0.040 s, apply
//! 0.006 s, walk+lints 0.090 s, write 0.157 s, total 0.384 s`), so that a benchmark can show
//! where the time goes. Timed here, in the front end: the engine has no clock, it names each
//! of its stages as it ends (`engine::plan::STAGES`, through `plan_owned_staged`). A
//! server-side plan has one `plan` stage; many objects `read` and `plan+write` (planned and
//! written a chunk at a time).

use std::time::{Duration, Instant};

/// The variable that turns the report on (any value but empty).
pub const VARIABLE: &str = "APPLYSCOPE_TIMINGS";

/// The stages finished so far, when the report is on.
pub struct Stages {
    start: Instant,
    last: Instant,
    done: Vec<(&'static str, Duration)>,
    on: bool,
}

impl Stages {
    /// Starts the clock; on when [`VARIABLE`] is set.
    #[must_use]
    pub fn from_env() -> Stages {
        let now = Instant::now();
        Stages {
            start: now,
            last: now,
            done: Vec::new(),
            on: std::env::var_os(VARIABLE).is_some_and(|v| !v.is_empty()),
        }
    }

    /// The stage `name` ends now.
    pub fn end(&mut self, name: &'static str) {
        if self.on {
            let now = Instant::now();
            self.done.push((name, now - self.last));
            self.last = now;
        }
    }

    /// The report's line, `None` when off.
    #[must_use]
    pub fn line(&self) -> Option<String> {
        if !self.on {
            return None;
        }
        let mut parts: Vec<String> = self
            .done
            .iter()
            .map(|(name, d)| format!("{name} {:.3} s", d.as_secs_f64()))
            .collect();
        parts.push(format!(
            "total {:.3} s",
            (self.last - self.start).as_secs_f64()
        ));
        Some(format!("timings: {}", parts.join(", ")))
    }

    /// Prints the report to stderr, when on.
    pub fn print(&self) {
        if let Some(line) = self.line() {
            eprintln!("{line}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_names_every_stage_and_the_total() {
        let mut s = Stages::from_env();
        s.on = true;
        s.end("read");
        s.end("plan");
        let line = s.line().unwrap();
        assert!(line.starts_with("timings: read "), "{line}");
        assert!(
            line.contains(", plan ") && line.contains(", total "),
            "{line}"
        );
        s.on = false;
        assert_eq!(s.line(), None);
    }
}
