//! Writes the embedded patch-metadata table from a Kubernetes OpenAPI document.
//!
//! ```text
//! cargo run --example gen_schema -- ../shared/k8s-openapi/swagger.json assets/schema/k8s-1.36.json
//! ```
//!
//! The input is the OpenAPI v2 (`swagger.json`) or v3 document of a Kubernetes release; the
//! output keeps only what the engine needs (definitions, field names and types, the patch and
//! list/map extensions, GVKs with the scope the document's `paths` give each kind, namespaced or
//! cluster-wide) in the compact form of `Schema::to_compact`. The output is derived
//! data and checked in; `tests/it/schema_embedded.rs` fails when it is stale.

use std::process::ExitCode;

use applyscope::engine::schema::Schema;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output] = args.as_slice() else {
        eprintln!("usage: gen_schema <openapi.json> <output.json>");
        return ExitCode::from(2);
    };
    match generate(input, output) {
        Ok(summary) => {
            println!("{summary}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("gen_schema: {e}");
            ExitCode::FAILURE
        }
    }
}

fn generate(input: &str, output: &str) -> Result<String, String> {
    let text = std::fs::read_to_string(input).map_err(|e| format!("reading {input}: {e}"))?;
    let doc: applyscope::value::Value =
        serde_json::from_str(&text).map_err(|e| format!("parsing {input}: {e}"))?;
    let schema = Schema::from_openapi(&doc).map_err(|e| format!("{input}: {e}"))?;
    let compact = schema.to_compact();
    std::fs::write(output, &compact).map_err(|e| format!("writing {output}: {e}"))?;
    let (namespaced, cluster) = scope_counts(&compact);
    Ok(format!(
        "{output}: {} definitions, {namespaced} namespaced and {cluster} cluster-scoped kinds, \
         {} bytes (from {} bytes)",
        schema.definition_count(),
        compact.len(),
        text.len()
    ))
}

/// How many GVKs of the compact form are namespaced and cluster-scoped (their fourth element).
fn scope_counts(compact: &str) -> (usize, usize) {
    let doc: serde_json::Value = serde_json::from_str(compact).unwrap_or_default();
    let scopes = doc["types"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["g"].as_array())
        .flatten()
        .filter_map(|g| g.get(3).and_then(serde_json::Value::as_str));
    scopes.fold((0, 0), |(n, c), scope| match scope {
        "Namespaced" => (n + 1, c),
        _ => (n, c + 1),
    })
}
