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
            fork: true,
        }
    }

    /// A walker for part of this one's walk on another core (it splits nothing itself).
    pub(super) fn beside(&self) -> Walker<'s> {
        Walker {
            fork: false,
            ..Walker::new(self.schema, self.one_sided)
        }
    }

    /// The errors `other` found, after this walker's own (as one walk finds them in turn).
    pub(super) fn absorb(&mut self, other: Walker<'s>) {
        if other.errs.is_empty() {
            return;
        }
        self.paths.resize(self.errs.len(), String::new());
        let mut paths = other.paths;
        paths.resize(other.errs.len(), String::new());
        self.errs.extend(other.errs);
        self.paths.extend(paths);
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

#[cfg(test)]
mod tests {
    use crate::engine::ssa::kubernetes;
    use crate::engine::ssa::typed::compare;
    use crate::value::Value;

    fn deployment(containers: &str) -> Value {
        serde_json::from_str(&format!(
            r#"{{"apiVersion":"apps/v1","kind":"Deployment","spec":{{"template":{{"spec":{{"containers":{containers}}}}}}}}}"#
        ))
        .unwrap()
    }

    /// An error found below the root names its path before the message, as
    /// `ValidationErrors` print it (`.spec.template.spec.containers: element 1: …`), on
    /// either side, and in a part removed whole.
    #[test]
    fn an_error_below_the_root_names_its_path() {
        let kube = kubernetes::embedded();
        let root = kube.root_for_gvk("apps/v1", "Deployment").unwrap();
        let good = deployment(r#"[{"name":"a","image":"a:1"},{"name":"b","image":"b:1"}]"#);
        let keyless = deployment(r#"[{"name":"a","image":"a:1"},{"image":"b:1"}]"#);
        let want = r#".spec.template.spec.containers: element 1: associative list with keys has an element that omits all key fields ["name"] (and doesn't have default values for any key fields)"#;
        // Removed whole (the walk of one side alone), and on both sides.
        let bare: Value =
            serde_json::from_str(r#"{"apiVersion":"apps/v1","kind":"Deployment"}"#).unwrap();
        for (l, r) in [(&good, &keyless), (&keyless, &good), (&keyless, &bare)] {
            let err = compare(&kube.schema, root, l, r).unwrap_err();
            assert_eq!(err.0, [want], "{l} against {r}");
        }
    }
}
