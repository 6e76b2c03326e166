//! `diff -u -N LIVE MERGED` as GNU diff writes it (what kubectl diff runs): objects in file-name
//! order, each headed by `diff -u -N`, `---` and `+++` lines, hunks with 3 lines of context,
//! optionally coloured. Shared by the client-side and the server-side diff.

use std::fmt::Write as _;

use super::ObjectDiff;

const BOLD: &str = "\x1b[1m";
const RED: &str = "\x1b[31m";
const GREEN: &str = "\x1b[32m";
const CYAN: &str = "\x1b[36m";
const RESET: &str = "\x1b[0m";

/// One line of a hunk (`line` holds its newline unless it is the file's last, unterminated one).
fn write_line(out: &mut String, sign: char, line: &str, style: Option<&str>) {
    let text = line.strip_suffix('\n').unwrap_or(line);
    match style {
        Some(style) => {
            let _ = writeln!(out, "{style}{sign}{text}{RESET}");
        }
        None => {
            let _ = writeln!(out, "{sign}{text}");
        }
    }
    if !line.ends_with('\n') {
        out.push_str("\\ No newline at end of file\n");
    }
}

/// The largest table (cells) the LCS algorithm may build; beyond it, Myers.
const LCS_MAX_CELLS: usize = 4_000_000;

/// The line-level edit script. Among the many shortest scripts, GNU diff's (what kubectl runs)
/// usually is the one that deletes before it inserts and keeps the earliest matching lines:
/// similar's LCS table walk picks the same one (on every recorded kubectl case, and on 86% of
/// random small-alphabet inputs, where GNU's heuristics for repeated lines differ). Its table is
/// quadratic in the differing middle of the files, so large differing middles take Myers.
fn line_ops(old: &[&str], new: &[&str]) -> Vec<similar::DiffOp> {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let cells = (old.len() - prefix - suffix).saturating_mul(new.len() - prefix - suffix);
    let algorithm = if cells <= LCS_MAX_CELLS {
        similar::Algorithm::Lcs
    } else {
        similar::Algorithm::Myers
    };
    similar::capture_diff_slices(algorithm, old, new)
}

/// `diff -u -N LIVE MERGED` over the objects: those that differ, in file-name order.
#[must_use]
pub fn render(diffs: &[ObjectDiff], color: bool) -> String {
    let mut sorted: Vec<&ObjectDiff> = diffs.iter().filter(|d| d.differs()).collect();
    sorted.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
    crate::session::parallel::parallel_map(&sorted, |d| render_one(d, color)).concat()
}

/// One object's `diff -u -N` output.
fn render_one(d: &ObjectDiff, color: bool) -> String {
    let mut out = String::new();
    let live = format!("/tmp/LIVE-0/{}", d.name);
    let merged = format!("/tmp/MERGED-0/{}", d.name);
    let paint = |out: &mut String, style: &str, line: &str| {
        if color {
            let _ = writeln!(out, "{style}{line}{RESET}");
        } else {
            let _ = writeln!(out, "{line}");
        }
    };
    paint(&mut out, BOLD, &format!("diff -u -N {live} {merged}"));
    paint(&mut out, BOLD, &format!("--- {live}"));
    paint(&mut out, BOLD, &format!("+++ {merged}"));
    let old: Vec<&str> = d.live.split_inclusive('\n').collect();
    let new: Vec<&str> = d.merged.split_inclusive('\n').collect();
    for hunk in similar::group_diff_ops(line_ops(&old, &new), 3) {
        let header = similar::udiff::UnifiedHunkHeader::new(&hunk);
        paint(&mut out, CYAN, &header.to_string());
        let mut deleted: Vec<&str> = Vec::new();
        let mut inserted: Vec<&str> = Vec::new();
        let flush = |out: &mut String, deleted: &mut Vec<&str>, inserted: &mut Vec<&str>| {
            for line in deleted.drain(..) {
                write_line(out, '-', line, color.then_some(RED));
            }
            for line in inserted.drain(..) {
                write_line(out, '+', line, color.then_some(GREEN));
            }
        };
        for op in &hunk {
            let old_range = op.old_range();
            let new_range = op.new_range();
            match op {
                similar::DiffOp::Equal { .. } => {
                    flush(&mut out, &mut deleted, &mut inserted);
                    for line in &old[old_range] {
                        write_line(&mut out, ' ', line, None);
                    }
                }
                _ => {
                    deleted.extend(&old[old_range]);
                    inserted.extend(&new[new_range]);
                }
            }
        }
        flush(&mut out, &mut deleted, &mut inserted);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diff(live: &str, merged: &str) -> ObjectDiff {
        ObjectDiff {
            name: "v1.ConfigMap.default.x".into(),
            live: live.into(),
            merged: merged.into(),
        }
    }

    #[test]
    fn gnu_unified_format() {
        let d = diff("a: 1\nb: 2\n", "a: 1\nb: 3\n");
        assert_eq!(
            render(&[d], false),
            "diff -u -N /tmp/LIVE-0/v1.ConfigMap.default.x /tmp/MERGED-0/v1.ConfigMap.default.x\n\
             --- /tmp/LIVE-0/v1.ConfigMap.default.x\n\
             +++ /tmp/MERGED-0/v1.ConfigMap.default.x\n\
             @@ -1,2 +1,2 @@\n a: 1\n-b: 2\n+b: 3\n"
        );
        let created = diff("", "a: 1\n");
        assert!(render(&[created], false).ends_with("@@ -0,0 +1 @@\n+a: 1\n"));
        assert_eq!(render(&[diff("a: 1\n", "a: 1\n")], false), "");
    }

    #[test]
    fn colour_marks_lines() {
        let out = render(&[diff("a: 1\n", "a: 2\n")], true);
        assert!(out.contains("\x1b[31m-a: 1\x1b[0m\n"), "{out:?}");
        assert!(out.contains("\x1b[32m+a: 2\x1b[0m\n"), "{out:?}");
        assert!(out.contains("\x1b[36m@@ -1 +1 @@\x1b[0m\n"), "{out:?}");
    }

    #[test]
    fn objects_in_file_name_order() {
        let mut a = diff("x: 1\n", "x: 2\n");
        a.name = "v1.Service.default.a".into();
        let mut b = diff("x: 1\n", "x: 2\n");
        b.name = "apps.v1.Deployment.default.z".into();
        let out = render(&[a, b], false);
        let first = out.find("apps.v1").unwrap();
        let second = out.find("v1.Service").unwrap();
        assert!(first < second);
    }
}
