//! Built-in teaching examples (`assets/examples/<name>/`): last-applied, local and live documents
//! embedded in the binary.

/// One example: three documents and what it teaches.
#[derive(Clone, Copy, Debug)]
pub struct Example {
    pub name: &'static str,
    pub about: &'static str,
    pub last_applied: Option<&'static str>,
    pub local: &'static str,
    pub live: Option<&'static str>,
}

macro_rules! example {
    ($name:literal, last_applied, live) => {
        Example {
            name: $name,
            about: include_str!(concat!("../assets/examples/", $name, "/README.md")),
            last_applied: Some(include_str!(concat!(
                "../assets/examples/",
                $name,
                "/last-applied.yaml"
            ))),
            local: include_str!(concat!("../assets/examples/", $name, "/local.yaml")),
            live: Some(include_str!(concat!(
                "../assets/examples/",
                $name,
                "/live.yaml"
            ))),
        }
    };
}

/// Every built-in example; the first is the default.
pub const EXAMPLES: &[Example] = &[example!("nginx-scale-image", last_applied, live)];

/// The example called `name`.
#[must_use]
pub fn find(name: &str) -> Option<&'static Example> {
    EXAMPLES.iter().find(|e| e.name == name)
}
