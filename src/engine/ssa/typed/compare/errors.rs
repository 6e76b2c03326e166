//! The comparison's errors with their paths, as the reference prints them: each error's path
//! is written as the walk goes back up from where it was found (`WithLazyPrefix`), so a walk
//! without errors writes none.

use super::Walker;
use crate::engine::ssa::path::PathElement;
use crate::engine::ssa::schema::Schema;

impl<'s> Walker<'s> {
    pub(super) fn new(schema: &'s Schema, one_sided: bool) -> Walker<'s> {
        Walker {
            schema,
            errs: Vec::new(),
            paths: Vec::new(),
            one_sided,
        }
    }

    /// Back from the child `pe`: the errors found below it since there were `n` get `pe` in
    /// front of their path.
    #[inline]
    pub(super) fn under(&mut self, n: usize, pe: &PathElement) {
        if self.errs.len() > n {
            self.prefix(n, pe);
        }
    }

    #[cold]
    fn prefix(&mut self, n: usize, pe: &PathElement) {
        self.paths.resize(self.errs.len(), String::new());
        let step = pe.to_string();
        for path in self.paths.iter_mut().skip(n) {
            path.insert_str(0, &step);
        }
    }

    /// The errors as the reference prints them: `path: message`, or the message alone at the
    /// root.
    pub(super) fn into_errors(self) -> Vec<String> {
        let mut paths = self.paths.into_iter();
        self.errs
            .into_iter()
            .map(|e| match paths.next() {
                Some(path) if !path.is_empty() => format!("{path}: {e}"),
                _ => e,
            })
            .collect()
    }
}
