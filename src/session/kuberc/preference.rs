//! kubectl's preferences file (kuberc), read as kubectl 1.37 reads it
//! (`k8s.io/kubectl/pkg/kuberc/marshal.go` `decodePreference`, `kuberc.go` `validate` and
//! `applyOverrides`), for the one command applyscope cares about: `apply`.
//!
//! | kubectl | here |
//! |---|---|
//! | YAML documents, the first that decodes as group `kubectl.config.k8s.io`, kind `Preference` wins | [`parse`] |
//! | `v1beta1`: `defaults: [{command, options: [{name, default}]}]` | [`Version::V1beta1`] |
//! | `v1alpha1`: `overrides: [{command, flags: [{name, default}]}]` | [`Version::V1alpha1`] |
//! | a field it does not know: a strict-decoding error, warned about, the file still used | [`Preference::strict`] |
//! | a field of the wrong type: the document is skipped (lenient decoding fails too) | [`parse`] |
//! | no usable document: `no valid preferences found in FILE` | [`PreferenceError::NoValid`] |
//! | an empty file: no preferences, no error | `Ok(None)` |
//! | an option name starting with `-`, a bad alias name, a duplicate alias | [`Preference::validate`] |
//! | a default for a flag `apply` does not have, a bad boolean | [`Preference::apply_defaults`] |
//!
//! kubectl treats the first two kinds of trouble (the file cannot be read, no valid document)
//! by where the file came from (an error for `--kuberc`/`$KUBERC`, a warning at the default
//! place); the last two fail every command wherever the file is. Aliases are checked but not
//! expanded: applyscope's own command line has no kubectl aliases.

use crate::document::parse_values_bytes;
use crate::value::Value;

/// The preferences' group.
pub const GROUP: &str = "kubectl.config.k8s.io";

/// The flags `kubectl apply` 1.37.1 has, its own and inherited (`kubectl apply --help`,
/// `kubectl options`): a default for any other name is kubectl's `invalid flag` error.
const APPLY_FLAGS: &[&str] = &[
    "all",
    "allow-missing-template-keys",
    "as",
    "as-group",
    "as-uid",
    "as-user-extra",
    "cache-dir",
    "cascade",
    "certificate-authority",
    "client-certificate",
    "client-key",
    "cluster",
    "context",
    "disable-compression",
    "dry-run",
    "field-manager",
    "filename",
    "force",
    "force-conflicts",
    "grace-period",
    "insecure-skip-tls-verify",
    "kubeconfig",
    "kuberc",
    "kustomize",
    "log-flush-frequency",
    "match-server-version",
    "namespace",
    "openapi-patch",
    "output",
    "overwrite",
    "password",
    "profile",
    "profile-output",
    "proxy-url",
    "prune",
    "prune-allowlist",
    "recursive",
    "request-timeout",
    "selector",
    "server",
    "server-side",
    "show-managed-fields",
    "subresource",
    "template",
    "timeout",
    "tls-server-name",
    "token",
    "user",
    "username",
    "v",
    "validate",
    "vmodule",
    "wait",
    "warnings-as-errors",
];

/// The boolean ones among them: their default must parse as Go's `strconv.ParseBool`.
const APPLY_BOOL_FLAGS: &[&str] = &[
    "all",
    "allow-missing-template-keys",
    "disable-compression",
    "force",
    "force-conflicts",
    "insecure-skip-tls-verify",
    "match-server-version",
    "openapi-patch",
    "overwrite",
    "prune",
    "recursive",
    "server-side",
    "show-managed-fields",
    "wait",
    "warnings-as-errors",
];

/// Which preferences version a document is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    V1alpha1,
    V1beta1,
}

impl Version {
    /// The list of command defaults and the list of options in an entry.
    fn keys(self) -> (&'static str, &'static str) {
        match self {
            Version::V1alpha1 => ("overrides", "flags"),
            Version::V1beta1 => ("defaults", "options"),
        }
    }

    fn top_fields(self) -> &'static [&'static str] {
        match self {
            Version::V1alpha1 => &["apiVersion", "kind", "overrides", "aliases"],
            Version::V1beta1 => &[
                "apiVersion",
                "kind",
                "defaults",
                "aliases",
                "credentialPluginPolicy",
                "credentialPluginAllowlist",
            ],
        }
    }
}

/// One `{command, options}` entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandDefaults {
    pub command: String,
    /// `(name, default)` in the file's order.
    pub options: Vec<(String, String)>,
}

/// One alias (only what [`Preference::validate`] checks).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alias {
    pub name: String,
    pub options: Vec<String>,
}

/// A usable preferences document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preference {
    pub version: Version,
    pub defaults: Vec<CommandDefaults>,
    pub aliases: Vec<Alias>,
    /// kubectl's strict-decoding complaint (`unknown field "x"`), if any: a warning.
    pub strict: Option<String>,
}

/// Why a file gives no preferences.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PreferenceError {
    /// Documents, none of them a valid `Preference` (also: text that is not YAML).
    #[error("no valid preferences found in {0}")]
    NoValid(String),
    /// A preference kubectl refuses wherever the file is (kubectl's message).
    #[error("{0}")]
    Invalid(String),
}

/// What `kubectl apply` takes from the preferences: the last default of each flag.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ApplyDefaults {
    pub server_side: Option<bool>,
    pub field_manager: Option<String>,
    pub force_conflicts: Option<bool>,
}

/// Read a kuberc file's bytes (`file` names it in messages). `Ok(None)`: no documents.
///
/// # Errors
/// [`PreferenceError::NoValid`] when it has documents and none is a valid `Preference`.
pub fn parse(bytes: &[u8], file: &str) -> Result<Option<Preference>, PreferenceError> {
    let no_valid = || PreferenceError::NoValid(file.to_owned());
    // kubectl splits the YAML stream first; a stream that does not parse has no valid item.
    let docs = parse_values_bytes(bytes, file).map_err(|_| no_valid())?;
    let mut attempted = 0;
    for doc in docs {
        if doc.value.is_null() {
            continue;
        }
        attempted += 1;
        if let Some(p) = decode(&doc.value) {
            return Ok(Some(p));
        }
    }
    if attempted > 0 {
        return Err(no_valid());
    }
    Ok(None)
}

fn decode(v: &Value) -> Option<Preference> {
    let top = v.as_object()?;
    let text = |k: &str| match top.get(k) {
        None | Some(Value::Null) => Some(""),
        Some(Value::String(s)) => Some(s.as_str()),
        Some(_) => None,
    };
    let version = match text("apiVersion")?.split_once('/') {
        Some((GROUP, "v1beta1")) => Version::V1beta1,
        Some((GROUP, "v1alpha1")) => Version::V1alpha1,
        _ => return None,
    };
    if text("kind")? != "Preference" {
        return None;
    }
    let mut unknown = Vec::new();
    for (k, _) in top.iter() {
        if !version.top_fields().contains(&k.as_str()) {
            unknown.push(k.to_string());
        }
    }
    let (list_key, options_key) = version.keys();
    let mut defaults = Vec::new();
    for entry in list(top.get(list_key))? {
        let m = entry.as_object()?;
        note_unknown(m, &["command", options_key], &mut unknown);
        defaults.push(CommandDefaults {
            command: string(m.get("command"))?,
            options: options(m.get(options_key), &mut unknown)?,
        });
    }
    let mut aliases = Vec::new();
    for entry in list(top.get("aliases"))? {
        let m = entry.as_object()?;
        let fields = ["name", "command", "prependArgs", "appendArgs", options_key];
        note_unknown(m, &fields, &mut unknown);
        string(m.get("command"))?;
        for k in ["prependArgs", "appendArgs"] {
            for a in list(m.get(k))? {
                string(Some(a))?;
            }
        }
        aliases.push(Alias {
            name: string(m.get("name"))?,
            options: options(m.get(options_key), &mut unknown)?
                .into_iter()
                .map(|(n, _)| n)
                .collect(),
        });
    }
    let strict = (!unknown.is_empty()).then(|| {
        let quoted: Vec<String> = unknown
            .iter()
            .map(|k| format!("unknown field {k:?}"))
            .collect();
        format!("strict decoding error: {}", quoted.join(", "))
    });
    Some(Preference {
        version,
        defaults,
        aliases,
        strict,
    })
}

fn note_unknown(m: &crate::value::Map, known: &[&str], unknown: &mut Vec<String>) {
    for (k, _) in m.iter() {
        if !known.contains(&k.as_str()) {
            unknown.push(k.to_string());
        }
    }
}

/// A list field as Go's decoder reads it: absent or null is empty; anything else is a type
/// error (`None`).
fn list(v: Option<&Value>) -> Option<&[Value]> {
    match v {
        None | Some(Value::Null) => Some(&[]),
        Some(Value::Array(items)) => Some(items.as_slice()),
        Some(_) => None,
    }
}

fn string(v: Option<&Value>) -> Option<String> {
    match v {
        None | Some(Value::Null) => Some(String::new()),
        Some(Value::String(s)) => Some(s.to_string()),
        Some(_) => None,
    }
}

fn options(v: Option<&Value>, unknown: &mut Vec<String>) -> Option<Vec<(String, String)>> {
    let mut out = Vec::new();
    for o in list(v)? {
        let m = o.as_object()?;
        note_unknown(m, &["name", "default"], unknown);
        out.push((string(m.get("name"))?, string(m.get("default"))?));
    }
    Some(out)
}

/// Go's `strconv.ParseBool`.
#[must_use]
pub fn parse_bool(s: &str) -> Option<bool> {
    match s {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

impl Preference {
    /// kubectl's `validate`: option names in long form, alias names of letters, no alias twice.
    ///
    /// # Errors
    /// kubectl's message (kubectl fails every command on it).
    pub fn validate(&self) -> Result<(), PreferenceError> {
        fn dashed<'a>(mut names: impl Iterator<Item = &'a String>) -> Option<String> {
            names
                .find(|n| n.starts_with('-'))
                .map(|n| format!("flag name {n} should be in long form without dashes"))
        }
        let mut seen = Vec::new();
        for a in &self.aliases {
            if a.name.is_empty() || !a.name.chars().all(|c| c.is_ascii_alphabetic()) {
                return Err(PreferenceError::Invalid(
                    "invalid alias name, can only include alphabetical characters".into(),
                ));
            }
            if let Some(e) = dashed(a.options.iter()) {
                return Err(PreferenceError::Invalid(e));
            }
            if seen.contains(&&a.name) {
                return Err(PreferenceError::Invalid(format!(
                    "duplicate alias name {}",
                    a.name
                )));
            }
            seen.push(&a.name);
        }
        for d in &self.defaults {
            if let Some(e) = dashed(d.options.iter().map(|(n, _)| n)) {
                return Err(PreferenceError::Invalid(e));
            }
        }
        Ok(())
    }

    /// kubectl's `applyOverrides` for `kubectl apply`: every entry whose command is `apply`
    /// sets its options in order (a later one wins), except the flags in `explicit`, which the
    /// command line gave.
    ///
    /// # Errors
    /// kubectl's message for a flag `apply` does not have or a value it cannot take.
    pub fn apply_defaults(&self, explicit: &[&str]) -> Result<ApplyDefaults, PreferenceError> {
        let mut out = ApplyDefaults::default();
        for d in &self.defaults {
            // cobra's Find: `apply` names the command; `apply view-last-applied` is another.
            let words: Vec<&str> = d.command.split_whitespace().collect();
            let is_apply = match words.as_slice() {
                ["apply"] => true,
                ["apply", sub, ..] => {
                    !["edit-last-applied", "set-last-applied", "view-last-applied"].contains(sub)
                }
                _ => false,
            };
            if !is_apply {
                continue;
            }
            for (name, value) in &d.options {
                if !APPLY_FLAGS.contains(&name.as_str()) {
                    return Err(PreferenceError::Invalid(format!(
                        "invalid flag {name} for command {}",
                        d.command
                    )));
                }
                if explicit.contains(&name.as_str()) {
                    continue;
                }
                let boolean = || {
                    parse_bool(value).ok_or_else(|| {
                        PreferenceError::Invalid(format!(
                            "could not apply override value {value} to flag {name} in command {} err: invalid argument {value:?} for \"--{name}\" flag: strconv.ParseBool: parsing {value:?}: invalid syntax",
                            d.command
                        ))
                    })
                };
                match name.as_str() {
                    "server-side" => out.server_side = Some(boolean()?),
                    "force-conflicts" => out.force_conflicts = Some(boolean()?),
                    "field-manager" => out.field_manager = Some(value.clone()),
                    n if APPLY_BOOL_FLAGS.contains(&n) => {
                        boolean()?;
                    }
                    _ => {}
                }
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_and_their_field_names() {
        let beta = b"apiVersion: kubectl.config.k8s.io/v1beta1\nkind: Preference\ndefaults:\n- command: apply\n  options:\n  - name: server-side\n    default: \"true\"\n";
        let p = parse(beta, "f").unwrap().unwrap();
        assert_eq!(p.version, Version::V1beta1);
        assert_eq!(p.apply_defaults(&[]).unwrap().server_side, Some(true));
        let alpha = b"apiVersion: kubectl.config.k8s.io/v1alpha1\nkind: Preference\noverrides:\n- command: apply\n  flags:\n  - name: server-side\n    default: \"true\"\n";
        let p = parse(alpha, "f").unwrap().unwrap();
        assert_eq!(p.version, Version::V1alpha1);
        assert_eq!(p.apply_defaults(&[]).unwrap().server_side, Some(true));
        // v1alpha1's names in a v1beta1 document: unknown fields (a warning), no defaults.
        let mixed = b"apiVersion: kubectl.config.k8s.io/v1beta1\nkind: Preference\noverrides: []\n";
        let p = parse(mixed, "f").unwrap().unwrap();
        assert_eq!(
            p.strict.as_deref(),
            Some("strict decoding error: unknown field \"overrides\"")
        );
    }

    #[test]
    fn wrong_types_skip_the_document() {
        // YAML 1.1: an unquoted true is a boolean, and `default` is a string field.
        let b = b"apiVersion: kubectl.config.k8s.io/v1beta1\nkind: Preference\ndefaults:\n- command: apply\n  options:\n  - name: server-side\n    default: true\n";
        assert_eq!(parse(b, "F"), Err(PreferenceError::NoValid("F".into())));
        assert_eq!(parse(b"", "F"), Ok(None));
        assert_eq!(parse(b"---\n---\n", "F"), Ok(None));
        assert!(parse(b"a: [", "F").is_err());
    }

    #[test]
    fn explicit_flags_are_left_alone_and_the_last_default_wins() {
        let b = b"apiVersion: kubectl.config.k8s.io/v1beta1\nkind: Preference\ndefaults:\n- command: apply\n  options:\n  - {name: server-side, default: \"true\"}\n  - {name: field-manager, default: helm}\n- command: apply\n  options:\n  - {name: server-side, default: \"0\"}\n";
        let p = parse(b, "f").unwrap().unwrap();
        let d = p.apply_defaults(&[]).unwrap();
        assert_eq!(d.server_side, Some(false));
        assert_eq!(d.field_manager.as_deref(), Some("helm"));
        let d = p.apply_defaults(&["server-side", "field-manager"]).unwrap();
        assert_eq!(d, ApplyDefaults::default());
    }

    #[test]
    fn validation_as_kubectl() {
        let bad = b"apiVersion: kubectl.config.k8s.io/v1beta1\nkind: Preference\naliases:\n- {name: g1, command: get}\n";
        let p = parse(bad, "f").unwrap().unwrap();
        assert!(
            p.validate()
                .unwrap_err()
                .to_string()
                .contains("alphabetical")
        );
        let dup = b"apiVersion: kubectl.config.k8s.io/v1beta1\nkind: Preference\naliases:\n- {name: g, command: get}\n- {name: g, command: get}\n";
        let p = parse(dup, "f").unwrap().unwrap();
        assert_eq!(
            p.validate().unwrap_err().to_string(),
            "duplicate alias name g"
        );
    }
}
