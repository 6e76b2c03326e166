//! The server-side view's pieces: the owners column's text, the why panel of a server-side
//! field (the rule that decided, owners before → after, kubectl's requests), the steps
//! overlay, the server-side warnings list, the header's counts and the legend's actions.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget as _, Wrap};

use super::{WIDE, centred, frame, safe};
use crate::app::ssa::ServerSide;
use crate::app::{Model, PaneKind};
use crate::engine::ssa::kubectl::{LAST_APPLIED_MANAGER, StepKind};
use crate::session::ssa::{Action, Owner, SsaPlan, operation};
use crate::theme::{self, Theme};

/// A time as the API server writes it (`2026-11-25T10:00:00Z`), short: `11-25 10:00`.
fn short_time(time: &str) -> String {
    time.get(5..16)
        .map_or_else(|| time.to_owned(), |t| t.replacen('T', " ", 1))
}

/// One owner in full: `kubectl (Apply, 11-25 10:00)`.
fn owner_long(o: &Owner) -> String {
    let mut s = format!("{} ({}", o.id.manager, operation(&o.id));
    if !o.id.subresource.is_empty() {
        s.push_str(&format!(" /{}", o.id.subresource));
    }
    if let Some(t) = &o.time {
        s.push_str(&format!(", {}", short_time(t)));
    }
    s.push(')');
    s
}

pub(super) fn owners_long(owners: &[Owner]) -> String {
    if owners.is_empty() {
        return "nobody".into();
    }
    owners.iter().map(owner_long).collect::<Vec<_>>().join(", ")
}

/// `text` in at most `width` characters, cut with `…`.
fn cut(text: &str, width: usize) -> String {
    if text.chars().count() > width {
        let head: String = text.chars().take(width.saturating_sub(1)).collect();
        format!("{head}…")
    } else {
        text.to_owned()
    }
}

/// A line's owners in `width` columns: each as `name A 11-25 10:00` (Apply or Update, the
/// last change); what does not fit goes, the time's hour first, then its date; a lone owner's
/// name is cut before its operation and date.
#[must_use]
pub fn owners_text(owners: &[Owner], width: u16) -> String {
    let width = usize::from(width);
    let op = |o: &Owner| &operation(&o.id)[..1];
    let date = |o: &Owner| {
        o.time
            .as_deref()
            .map(short_time)
            .map(|t| t.chars().take(5).collect::<String>())
    };
    let each = |o: &Owner, time: Option<String>| match time {
        Some(t) => format!("{} {} {t}", o.id.manager, op(o)),
        None => format!("{} {}", o.id.manager, op(o)),
    };
    let tiers: [&dyn Fn(&Owner) -> String; 3] = [
        &|o| each(o, o.time.as_deref().map(short_time)),
        &|o| each(o, date(o)),
        &|o| each(o, None),
    ];
    for tier in tiers {
        let text = safe(&owners.iter().map(tier).collect::<Vec<_>>().join(", "));
        if text.chars().count() <= width {
            return text;
        }
    }
    if let [one] = owners {
        let tail = match date(one) {
            Some(d) => format!(" {} {d}", op(one)),
            None => format!(" {}", op(one)),
        };
        // The date while the name keeps 14 characters, else the name and the operation.
        let room = width.saturating_sub(tail.chars().count());
        if room >= 14 {
            return format!("{}{tail}", cut(&safe(&one.id.manager), room));
        }
        let tail = format!(" {}", op(one));
        let room = width.saturating_sub(tail.chars().count());
        if room >= 8 {
            return format!("{}{tail}", cut(&safe(&one.id.manager), room));
        }
    }
    cut(
        &safe(
            &owners
                .iter()
                .map(|o| each(o, None))
                .collect::<Vec<_>>()
                .join(", "),
        ),
        width,
    )
}

/// A value in one line (JSON), cut to `max` characters.
fn value_text(v: Option<&crate::value::Value>, max: usize) -> String {
    let Some(v) = v else {
        return cut("(absent)", max);
    };
    // Written only as far as `max` characters show: a field's value can be a whole list of
    // a big object, and this runs at every frame. Past `4 × max + 8` bytes the text has more
    // than `max` characters either way, and what `cut` keeps of it is already written (the
    // writer takes whole pieces, which end at characters).
    let mut upto = Upto {
        text: Vec::new(),
        limit: max.saturating_mul(4).saturating_add(8),
    };
    let _ = serde_json::to_writer(&mut upto, v);
    cut(&safe(&String::from_utf8_lossy(&upto.text)), max)
}

/// A writer that takes pieces until it holds `limit` bytes, then refuses (ending the write).
struct Upto {
    text: Vec<u8>,
    limit: usize,
}

impl std::io::Write for Upto {
    fn write(&mut self, piece: &[u8]) -> std::io::Result<usize> {
        if self.text.len() >= self.limit {
            return Err(std::io::Error::other("enough to show"));
        }
        self.text.extend_from_slice(piece);
        Ok(piece.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Who sends a step: kubectl's manager, or `kubectl-last-applied` for the annotation's.
fn step_by<'a>(kind: &StepKind, manager: &'a str) -> &'a str {
    match kind {
        StepKind::SaveLastApplied => LAST_APPLIED_MANAGER,
        _ => manager,
    }
}

/// What a step is, in words.
fn step_about(kind: &StepKind) -> String {
    match kind {
        StepKind::Apply => "the file, as an apply".into(),
        StepKind::SaveLastApplied => {
            "kubectl keeps the last-applied annotation owned (no later apply prunes it)".into()
        }
        StepKind::UpgradeManagedFields { from } => format!(
            "the ownership move: {}'s fields become the applier's (the object is unchanged)",
            from.join(", ")
        ),
        StepKind::ApplyAgain => "the file again: what it dropped is pruned".into(),
        StepKind::MigrateManagers { from } => format!(
            "before the apply (--migrate-manager): {}'s Update entries become the applier's",
            from.join(", ")
        ),
    }
}

/// The steps, one line each (`1 apply as kubectl: 3 changes — the file, as an apply`), and
/// with `changes` what each changed under it.
fn step_lines<'a>(plan: &SsaPlan, manager: &str, changes: bool, theme: &Theme) -> Vec<Line<'a>> {
    let mut out = Vec::new();
    for (i, step) in plan.steps.iter().enumerate() {
        let changed = plan.step_changes.get(i).map_or(&[][..], Vec::as_slice);
        let n = changed.len();
        out.push(Line::from(vec![
            Span::styled(
                format!(
                    "{} {} as {}",
                    i + 1,
                    step.kind.name(),
                    step_by(&step.kind, manager)
                ),
                theme.title,
            ),
            Span::raw(format!(
                ": {n} change{} — {}",
                if n == 1 { "" } else { "s" },
                safe(&step_about(&step.kind))
            )),
        ]));
        if changes {
            for (path, action) in changed {
                out.push(Line::from(vec![
                    Span::raw("    "),
                    Span::styled(
                        format!("{} {}", theme::ssa_glyph(*action), action.as_str()),
                        theme.ssa_action(*action),
                    ),
                    Span::raw(format!(" {}", safe(path))),
                ]));
            }
        }
    }
    out
}

/// The why panel in server-side mode.
pub fn why(model: &Model, server: &ServerSide, theme: &Theme, area: Rect, buf: &mut Buffer) {
    let field = model.current_ssa_field();
    let path = match field {
        Some(f) => safe(&f.path()),
        None => safe(&model.plan.path(model.current_path()).to_string()),
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(Span::styled(
            format!(" why (server-side): {path} "),
            theme.title,
        ));
    let inner = block.inner(area);
    block.render(area, buf);
    let (left, right) = if area.width >= WIDE {
        let [l, r] = Layout::horizontal([Constraint::Percentage(58), Constraint::Percentage(42)])
            .areas(inner);
        (l, Some(r))
    } else {
        (inner, None)
    };
    let mut lines = Vec::new();
    let plan = server.plan();
    match (plan, field) {
        (None, _) => lines.push(Line::styled(
            format!(
                "{} the API server refuses the apply: {} conflict{} (! lists them); nothing changes",
                theme::WARNING_GLYPH,
                server.warnings().len(),
                if server.warnings().len() == 1 { "" } else { "s" }
            ),
            theme.conflict,
        )),
        (Some(plan), Some(f)) => {
            lines.push(Line::from(vec![
                Span::styled(
                    format!("{} {}", theme::ssa_glyph(f.action), f.action.as_str()),
                    theme.ssa_action(f.action),
                ),
                Span::raw(": "),
                Span::raw(safe(&f.rule)),
            ]));
            let width = usize::from(left.width).saturating_sub(10).max(8);
            lines.push(Line::styled(
                format!(
                    "value: {} → {}",
                    value_text(f.before(plan.objects()), width / 2),
                    value_text(f.after(plan.objects()), width / 2)
                ),
                theme.muted,
            ));
        }
        (Some(_), None) => lines.push(Line::styled(
            "no server-side change here: the value and its owners stay",
            theme.muted,
        )),
    }
    let (before, after): (Vec<Owner>, Vec<Owner>) = match field {
        Some(f) => {
            // The times are the entries' (the result's for after).
            let with_time = |ids: &[crate::engine::ssa::managed::ManagerId], kind| {
                let known = model.current_owners(kind);
                ids.iter()
                    .map(|id| Owner {
                        id: id.clone(),
                        time: known
                            .iter()
                            .find(|o| o.id == *id)
                            .and_then(|o| o.time.clone()),
                    })
                    .collect()
            };
            (
                with_time(&f.owners_before, PaneKind::Live),
                with_time(&f.owners_after, PaneKind::Result),
            )
        }
        None => (
            model.current_owners(PaneKind::Live).to_vec(),
            model.current_owners(PaneKind::Result).to_vec(),
        ),
    };
    lines.push(Line::raw(format!(
        "owners before: {}",
        safe(&owners_long(&before))
    )));
    lines.push(Line::raw(format!(
        "owners after:  {}",
        safe(&owners_long(&after))
    )));
    if server.migrates() {
        lines.push(Line::styled(
            "made by client-side apply: kubectl applies, moves the client-side manager's fields to the applier, and applies again (t: each step)",
            theme.directive,
        ));
    }
    let mut steps = vec![Line::styled(
        format!(
            "kubectl's requests (field manager {}):",
            server.request.manager
        ),
        theme.muted,
    )];
    if let Some(plan) = plan {
        steps.extend(step_lines(plan, &server.request.manager, false, theme));
    } else {
        steps.push(Line::raw("none succeeds: the first apply is refused"));
    }
    match right {
        Some(right) => {
            Paragraph::new(lines)
                .wrap(Wrap { trim: false })
                .render(left, buf);
            Paragraph::new(steps)
                .wrap(Wrap { trim: false })
                .block(
                    Block::default()
                        .borders(Borders::LEFT)
                        .border_style(theme.border),
                )
                .render(right, buf);
        }
        None => {
            lines.extend(steps);
            Paragraph::new(lines)
                .wrap(Wrap { trim: false })
                .render(left, buf);
        }
    }
}

/// `t`: every request kubectl makes and what each changed.
pub fn steps(model: &Model, theme: &Theme, scroll: usize, area: Rect, buf: &mut Buffer) {
    let Some(server) = model.server.as_deref() else {
        return;
    };
    let mut lines = Vec::new();
    if let Some(plan) = server.plan() {
        lines = step_lines(plan, &server.request.manager, true, theme);
    }
    let rect = centred(area, area.width.saturating_sub(4), area.height);
    let inner = frame(
        theme,
        "server-side: kubectl's requests, what each changed (t or Esc closes)",
        rect,
        buf,
    );
    let first = u16::try_from(scroll.min(lines.len().saturating_sub(1))).unwrap_or(0);
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .scroll((first, 0))
        .render(inner, buf);
}

/// The server-side warnings (each conflict as the API server names it).
pub fn warnings(server: &ServerSide, theme: &Theme, selected: usize, area: Rect, buf: &mut Buffer) {
    let lines: Vec<Line<'_>> = server
        .warnings()
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let style = if i == selected {
                theme.selected_row
            } else {
                theme.warning
            };
            Line::styled(format!("{} {}", theme::WARNING_GLYPH, safe(w)), style)
        })
        .collect();
    let rect = centred(area, area.width.saturating_sub(4), area.height);
    let inner = frame(
        theme,
        "server-side warnings (Enter jumps to the field)",
        rect,
        buf,
    );
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .render(inner, buf);
}

/// The header's counts: each action's fields, then the warnings.
#[must_use]
pub fn counts(server: &ServerSide) -> String {
    let mut out = String::new();
    if server.plan().is_some() {
        for (a, n) in Action::ALL.into_iter().zip(server.counts()) {
            if n > 0 {
                out.push_str(&format!(" {}{n}", theme::ssa_glyph(a)));
            }
        }
    }
    let w = server.warnings().len();
    if w > 0 {
        out.push_str(&format!(" {}{w}", theme::WARNING_GLYPH));
    }
    out
}

/// The legend's server-side actions.
#[must_use]
pub fn legend_lines(theme: &Theme) -> Vec<Line<'static>> {
    let mut lines: Vec<Line<'static>> = Action::ALL
        .iter()
        .map(|a| {
            Line::from(vec![
                Span::styled(
                    format!(" {} {:<10}", theme::ssa_glyph(*a), a.as_str()),
                    theme.ssa_action(*a),
                ),
                Span::raw(theme::ssa_meaning(*a)),
            ])
        })
        .collect();
    lines.push(Line::from(vec![
        Span::styled(format!("   {:<10}", "owners"), theme.muted),
        Span::raw("managers of the line: name, A(pply)/U(pdate), last change (o toggles)"),
    ]));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ssa::managed::ManagerId;

    /// A value is shown as its whole text cut to the width, without writing it whole: short
    /// and long values, multi-byte characters, escapes, every width up to past the text.
    #[test]
    fn a_value_is_shown_as_its_whole_text_cut() {
        let long: Vec<String> = (0..2000).map(|i| format!("é{i}\n✓")).collect();
        let values = [
            crate::json!({"a": 1, "b": [true, null, "x"]}),
            crate::json!(long),
            crate::json!("ünïcode ✓ \u{1b} and \"quotes\""),
        ];
        for v in &values {
            let whole = serde_json::to_string(v).unwrap();
            let n = whole.chars().count();
            for max in [0, 1, 2, 3, 10, 40, 100, 1000, n - 1, n, n + 1, n + 5] {
                assert_eq!(
                    value_text(Some(v), max),
                    cut(&safe(&whole), max),
                    "{max} of {whole:.40}"
                );
            }
        }
        assert_eq!(value_text(None, 20), "(absent)");
    }

    fn owner(manager: &str, apply: bool, time: &str) -> Owner {
        Owner {
            id: if apply {
                ManagerId::apply(manager)
            } else {
                ManagerId::update(manager, "apps/v1")
            },
            time: Some(time.to_owned()),
        }
    }

    #[test]
    fn owners_drop_the_time_then_cut_the_name_to_fit() {
        let csa = [owner(
            "kubectl-client-side-apply",
            false,
            "2026-11-20T08:00:00Z",
        )];
        assert_eq!(
            owners_text(&csa, 40),
            "kubectl-client-side-apply U 11-20 08:00"
        );
        assert_eq!(owners_text(&csa, 33), "kubectl-client-side-apply U 11-20");
        assert_eq!(owners_text(&csa, 22), "kubectl-clien… U 11-20");
        assert_eq!(owners_text(&csa, 21), "kubectl-client-sid… U");
        assert_eq!(owners_text(&csa, 18), "kubectl-client-… U");
        assert_eq!(owners_text(&csa, 9), "kubectl-…");
        let two = [
            owner("kubectl", true, "2026-11-25T12:00:00Z"),
            owner("hpa", false, "2026-11-21T09:30:00Z"),
        ];
        assert_eq!(
            owners_text(&two, 40),
            "kubectl A 11-25 12:00, hpa U 11-21 09:30"
        );
        assert_eq!(owners_text(&two, 30), "kubectl A 11-25, hpa U 11-21");
        assert_eq!(owners_text(&two, 16), "kubectl A, hpa U");
        assert_eq!(owners_text(&two, 12), "kubectl A, …");
    }
}
