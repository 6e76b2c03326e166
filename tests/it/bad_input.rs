//! Bad input: every row exits 2 with one line on stderr naming the file (and the place where
//! there is one), and writes nothing on stdout.

use std::path::Path;

const OK: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {a: b}\n";

/// (name, file content as bytes, what the message must contain besides the file name)
fn rows() -> Vec<(&'static str, Vec<u8>, &'static str)> {
    let bomb = {
        let mut s = String::from("a: &a [x, x, x, x, x, x, x, x, x]\n");
        for (prev, name) in "abcdefgh".chars().zip("bcdefghi".chars()) {
            s.push_str(&format!(
                "{name}: &{name} [{}]\n",
                vec![format!("*{prev}"); 9].join(", ")
            ));
        }
        s
    };
    vec![
        ("malformed.yaml", b"a: [1, 2\n".to_vec(), ":2:1:"),
        ("malformed.json", b"{\"a\": 1,".to_vec(), ":1:"),
        ("empty.yaml", Vec::new(), "no document"),
        ("two.yaml", b"a: 1\n---\nb: 2\n".to_vec(), "expected one document, found 2"),
        ("list.yaml", b"- a\n- b\n".to_vec(), "found a list"),
        ("scalar.yaml", b"hello\n".to_vec(), "found a string"),
        ("other.yaml", b"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: other}\n".to_vec(), "not the same object"),
        ("otherkind.yaml", b"apiVersion: v1\nkind: Secret\nmetadata: {name: x}\n".to_vec(), "not the same object"),
        (
            "annotation-not-json.yaml",
            b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: nope\n".to_vec(),
            "last-applied annotation is not JSON",
        ),
        (
            "annotation-not-object.yaml",
            b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: '[1]'\n".to_vec(),
            "not an object",
        ),
        ("bomb.yaml", bomb.into_bytes(), "excessive aliasing"),
        ("deep.json", format!("{}{}", "[".repeat(100_000), "]".repeat(100_000)).into_bytes(), "nests deeper"),
        ("deep.yaml", format!("a: {}", "[".repeat(100_000)).into_bytes(), "nests deeper"),
        ("nonutf8.yaml", b"a: \"\xff\xfe\"\n".to_vec(), "UTF-8"),
        ("nul.yaml", b"a: b\x00c\n".to_vec(), "NUL"),
    ]
}

fn plan(local: &Path, live: &Path) -> std::process::Output {
    crate::support::bin()
        .args(["plan", "-o", "json", "--local"])
        .arg(local)
        .arg("--live")
        .arg(live)
        .output()
        .unwrap()
}

fn check(out: &std::process::Output, name: &str, want: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{name}: {err}");
    assert!(out.stdout.is_empty(), "{name}: wrote to stdout");
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "{name}: not one line: {err}"
    );
    assert!(
        err.contains(name),
        "{name}: message does not name the file: {err}"
    );
    assert!(err.contains(want), "{name}: message lacks {want:?}: {err}");
}

#[test]
fn bad_input_matrix_exits_2_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let ok = dir.path().join("ok.yaml");
    std::fs::write(&ok, OK).unwrap();
    let rows = rows();
    for (name, content, want) in &rows {
        let path = dir.path().join(name);
        std::fs::write(&path, content).unwrap();
        check(&plan(&ok, &path), name, want);
    }
    // As the local file too (where the row is about the document itself).
    for (name, _, want) in rows
        .iter()
        .filter(|(n, _, _)| !n.starts_with("other") && !n.starts_with("annotation"))
    {
        let path = dir.path().join(name);
        check(&plan(&path, &ok), name, want);
    }
    // Same name, another namespace than the file names.
    let dev = dir.path().join("dev.yaml");
    std::fs::write(
        &dev,
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x, namespace: dev}\n",
    )
    .unwrap();
    let prod = dir.path().join("prod.yaml");
    std::fs::write(
        &prod,
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x, namespace: prod}\n",
    )
    .unwrap();
    check(&plan(&dev, &prod), "prod.yaml", "not the same object");
    let before: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    // A missing file, a directory.
    check(
        &plan(&ok, &dir.path().join("missing.yaml")),
        "missing.yaml",
        "no such file",
    );
    std::fs::create_dir(dir.path().join("adir")).unwrap();
    check(
        &plan(&ok, &dir.path().join("adir")),
        "adir",
        "is a directory",
    );
    // An unreadable file. Permissions do not stop root, so also a file whose read fails
    // whoever reads it: the process's own memory at offset 0 (Linux: EIO).
    let locked = dir.path().join("locked.yaml");
    std::fs::write(&locked, OK).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
        if std::fs::read(&locked).is_err() {
            check(&plan(&ok, &locked), "locked.yaml", "ermission denied");
        }
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    if Path::new("/proc/self/mem").exists() {
        check(
            &plan(&ok, Path::new("/proc/self/mem")),
            "/proc/self/mem",
            "error",
        );
    }
    // A file over the size limit (sparse: no 200 MB written to disk).
    let huge = dir.path().join("huge.yaml");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(200_000_000)
        .unwrap();
    check(&plan(&ok, &huge), "huge.yaml", "larger than");
    // Nothing was written next to the inputs.
    let after: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    assert_eq!(
        after.len(),
        before.len() + 3,
        "only the two files this test made"
    );
}

/// `patch apply --type strategic` with a patch or a document that is not an object says what the
/// reference says (`invalid JSON document`, apimachinery's `ErrBadJSONDoc`), naming the file: the
/// operation fails (exit 1), as the reference's own test "bad original" / "bad patch" expects.
#[test]
fn strategic_patch_apply_on_a_non_object_is_an_invalid_json_document() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    let obj = dir.path().join("obj.json");
    std::fs::write(&bad, "<THIS IS NOT JSON>\n").unwrap();
    std::fs::write(&obj, "{}\n").unwrap();
    for (document, patch, named) in [(&obj, &bad, &bad), (&bad, &obj, &bad)] {
        let out = crate::support::bin()
            .args(["patch", "apply", "--type", "strategic", "--patch"])
            .arg(patch)
            .arg(document)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        assert!(out.stdout.is_empty());
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!("applyscope: {}: invalid JSON document\n", named.display())
        );
    }
}
