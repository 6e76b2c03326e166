//! Search: the fields whose path or value matches the query, and the cursor on the first match
//! after where the search started.

use super::Model;
use crate::app::Search;
use crate::engine::gofmt::sprint;
use crate::engine::plan::{LAST_APPLIED, PathTexts};
use crate::value::Value;

impl Model {
    /// Find the fields matching the query (paths and values, ignoring case) and go to the first
    /// one after where the search started.
    pub(crate) fn run_search(&mut self, s: &mut Search) {
        s.matches.clear();
        s.at = 0;
        if s.query.is_empty() {
            self.cursor = s.origin;
            return;
        }
        let q = s.query.to_lowercase();
        let hit = |text: &str| text.to_lowercase().contains(&q);
        let mut paths = PathTexts::default();
        for f in self.nav.from(0) {
            let f = f as usize;
            let Some(field) = self.plan.nth_field(f) else {
                continue;
            };
            let path = paths.next(&self.plan.tree, field.id);
            let value = |v: Option<&Value>| {
                v.is_some_and(|v| !v.is_object() && !v.is_array() && hit(&sprint(v)))
            };
            // The annotation's value repeats the whole configuration: match its path only.
            let annotation = self.plan.tree.key(field.id) == Some(LAST_APPLIED);
            if hit(path) || (!annotation && (value(field.result) || value(field.live))) {
                s.matches.push(f);
            }
        }
        let origin = self.nav.get(s.origin).unwrap_or(0) as usize;
        s.at = s.matches.iter().position(|f| *f >= origin).unwrap_or(0);
        match s.matches.get(s.at) {
            Some(&f) => self.select_field(f),
            None => self.cursor = s.origin,
        }
    }
}
