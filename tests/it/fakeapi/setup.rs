//! A fake API server and a folder beside it: the kubeconfig that points at the server (its
//! context's namespace chosen), the files a test writes, and the binary run there against it.

use std::path::PathBuf;
use std::process::Output;

use serde_json::Value;

use super::FakeApi;
use crate::support::bin;

pub struct Cluster {
    pub api: FakeApi,
    pub dir: tempfile::TempDir,
    /// The kubeconfig's path.
    pub kubeconfig: String,
}

impl Cluster {
    /// A server holding `live`, its context's namespace `team`.
    pub fn start(live: impl IntoIterator<Item = Value>) -> Cluster {
        Cluster::serve(FakeApi::start(), "team", live)
    }

    /// `api` holding `live` too, its context's namespace `namespace`.
    pub fn serve(api: FakeApi, namespace: &str, live: impl IntoIterator<Item = Value>) -> Cluster {
        for object in live {
            api.put(object);
        }
        let dir = tempfile::tempdir().unwrap();
        let kubeconfig = api.kubeconfig(dir.path(), namespace).display().to_string();
        Cluster {
            api,
            dir,
            kubeconfig,
        }
    }

    /// The path of `name` in the folder.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Writes `text` to `name` in the folder (its parent folders made): its path.
    pub fn write(&self, name: &str, text: &str) -> String {
        let path = self.path(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    }

    /// The JSON file `name` in the folder.
    pub fn read_json(&self, name: &str) -> Value {
        let text = std::fs::read_to_string(self.path(name)).unwrap();
        serde_json::from_str(&text).unwrap()
    }

    /// The binary run in the folder with `args` and `--kubeconfig` (before a `--`, if any).
    pub fn run(&self, args: &[&str]) -> Output {
        let at = args.iter().position(|a| *a == "--").unwrap_or(args.len());
        bin()
            .current_dir(self.dir.path())
            .args(&args[..at])
            .args(["--kubeconfig", &self.kubeconfig])
            .args(&args[at..])
            .output()
            .unwrap()
    }
}
