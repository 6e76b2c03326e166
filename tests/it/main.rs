//! One integration-test binary (fast builds, shared helpers).

mod support;
mod conformance_smp;
mod conformance_jsonmerge;
mod document_yaml;
mod schema_embedded;
