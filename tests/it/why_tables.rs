//! The why panel for every merge table, each with its deciding row marked (`▶`): a field of
//! each kind from the built-in examples, selected as a click would, the panel cut out of the
//! screen and snapshotted.

use applyscope::app::Message;
use applyscope::engine::plan::Table;

use crate::tui_support::Harness;

/// (snapshot name, example, field path, the table the field falls under).
const FIELDS: [(&str, &str, &str, Table); 9] = [
    (
        "primitive",
        "nginx-scale-image",
        "spec.replicas",
        Table::Primitive,
    ),
    ("map", "labels-map-merge", "metadata.labels", Table::Map),
    (
        "map_retain_keys",
        "strategy-recreate-retainkeys",
        "spec.strategy",
        Table::RetainKeys,
    ),
    (
        "replaced_list",
        "args-replaced",
        "spec.containers[name=api].args",
        Table::ReplacedList,
    ),
    (
        "merge_keyed_list",
        "containers-merged-by-name",
        "spec.template.spec.containers",
        Table::MergedList,
    ),
    (
        "primitive_merge_list",
        "finalizers-merged",
        "metadata.finalizers",
        Table::MergedList,
    ),
    (
        "list_element_merge_keyed",
        "containers-merged-by-name",
        "spec.template.spec.containers[name=nginx-helper-a]",
        Table::ListElement,
    ),
    (
        "list_element_primitive",
        "finalizers-merged",
        "metadata.finalizers[=example.com/audit-hook]",
        Table::ListElement,
    ),
    (
        "replaced_list_item",
        "args-replaced",
        "spec.containers[name=api].args[1]",
        Table::ReplacedElement,
    ),
];

/// The example's screen with `path` selected.
fn selected(example: &str, path: &str, size: (u16, u16)) -> Harness {
    let mut h = Harness::example(example);
    h.resize(size.0, size.1);
    let steps: applyscope::engine::plan::FieldPath = path.parse().unwrap();
    let tree = &h.model.plan.tree;
    let field = tree
        .find(&steps.0)
        .and_then(|id| tree.position(id))
        .unwrap_or_else(|| panic!("{example}: no field {path}"));
    let pane = h.model.focus;
    h.send(Message::Select { pane, field });
    h
}

/// The why panel's lines (from its top border to its bottom one).
fn why_panel(screen: &str) -> String {
    let lines: Vec<&str> = screen.lines().collect();
    let top = lines
        .iter()
        .position(|l| l.starts_with("┌ why:"))
        .unwrap_or_else(|| panic!("no why panel:\n{screen}"));
    let bottom = top
        + lines[top..]
            .iter()
            .position(|l| l.starts_with('└'))
            .unwrap_or_else(|| panic!("no bottom:\n{screen}"));
    lines[top..=bottom].join("\n") + "\n"
}

#[test]
fn why_panel_shows_every_table_with_its_deciding_row() {
    for (name, example, path, table) in FIELDS {
        let h = selected(example, path, (100, 40));
        let field = h.model.plan.nth_field(h.model.current_field().unwrap());
        let reason = field.unwrap().reason;
        assert_eq!(reason.table(), table, "{path}");
        let panel = why_panel(&h.text());
        // The row's action, as far as the first line holds it.
        let action: String = reason.row().action.chars().take(40).collect();
        let marked = format!("│ {action}");
        assert_eq!(
            panel.lines().filter(|l| l.starts_with("│▶")).count(),
            1,
            "{name}: one row marked\n{panel}"
        );
        assert!(
            panel
                .lines()
                .any(|l| l.starts_with("│▶") && l.contains(&marked)),
            "{name}: the deciding row is marked\n{panel}"
        );
        insta::assert_snapshot!(format!("why_{name}"), panel);
    }
}

/// In a short panel the deciding row still shows, alone, under the action line.
#[test]
fn a_short_why_panel_keeps_the_deciding_row() {
    for (name, example, path, _) in FIELDS {
        let h = selected(example, path, (60, 20));
        let panel = why_panel(&h.text());
        assert!(panel.contains('▶'), "{name}:\n{panel}");
    }
}
