#!/usr/bin/env bash
# Performance at the limit (issue 16): one big object and many small ones, whole processes.
#
#   bench/limit.sh [--work DIR] [--containers N --env E] [--objects K]
#
# 1. A Deployment of N containers × E env vars (default 1,000 × 100: local 6.6 MB, live about
#    12 MB with its annotation, both JSON, from bench/gen.py): `plan -o json|yaml|text` and
#    `plan --server-side -o json|yaml|text` (the live object without managedFields: the first
#    server-side apply of it), each with its wall time, peak RSS, output size, the stages
#    (APPLYSCOPE_TIMINGS=1: read, annotation, three-way, apply, walk+lints, write) and the ratio of the whole to the read stage
#    (one parse of the inputs: the floor).
# 2. K objects of about 1 KB (default 10,000) in two folders: `plan -f local/ --live live/
#    -o json|yaml|text` and the same with `--server-side`, wall time, peak RSS and the stages
#    (read; plan+write, streamed), and the server-side plan's time over the client-side one's.
#
# 3. The references in the same run: kubectl's one process on the big object
#    (bench/kubectl_limit.py, needs kubectl and ../shared/oracle) and the TUI's first frame and
#    peak memory on it (bench/tui_first_frame.sh, needs tmux); each is reported SKIPPED if not.
#
# Needs python3 and GNU time (/usr/bin/time). Builds with `cargo build --release` unless
# APPLYSCOPE_BIN names a binary. Prints a Markdown table; keeps everything in the work folder.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
work=${TMPDIR:-/tmp}/applyscope-limit
containers=1000
env=100
objects=10000
while [ $# -gt 0 ]; do
    case $1 in
        --work) work=$2; shift 2 ;;
        --containers) containers=$2; shift 2 ;;
        --env) env=$2; shift 2 ;;
        --objects) objects=$2; shift 2 ;;
        *) echo "usage: $0 [--work DIR] [--containers N --env E] [--objects K]" >&2; exit 2 ;;
    esac
done
[ -x /usr/bin/time ] || { echo "needs GNU time (/usr/bin/time)" >&2; exit 2; }
if [ -z "${APPLYSCOPE_BIN:-}" ]; then
    (cd "$here/.." && cargo build --release --quiet)
    APPLYSCOPE_BIN="$here/../target/release/applyscope"
fi
mkdir -p "$work"
bin="$work/applyscope"
cp "$APPLYSCOPE_BIN" "$bin"
echo "applyscope $("$bin" --version 2>/dev/null | head -1), git $(cd "$here/.." && git rev-parse --short HEAD), load $(cut -d' ' -f1-3 /proc/loadavg)"

# Inputs: the big object (JSON local and live) and the many-object folders.
big="$work/big-${containers}x${env}"
if [ ! -f "$big/local.json" ]; then
    python3 "$here/gen.py" case "$big" --containers "$containers" --env "$env"
    python3 - "$here" "$big" "$containers" "$env" <<'EOF'
import json, sys
sys.path.insert(0, sys.argv[1])
import gen
d, n, e = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
with open(d + "/local.json", "w") as f:
    json.dump(gen.local_config("big", n, e), f, separators=(",", ":"))
EOF
fi
many="$work/many-$objects"
if [ ! -d "$many/live" ]; then
    python3 - "$here" "$many" "$objects" <<'EOF'
import json, os, sys
sys.path.insert(0, sys.argv[1])
import gen
d, k = sys.argv[2], int(sys.argv[3])
for sub in ("local", "live"):
    os.makedirs(os.path.join(d, sub), exist_ok=True)
for i in range(k):
    name = "app-%05d" % i
    orig, local = gen.original_config(name, 1, 6), gen.local_config(name, 1, 6)
    live = gen.live_object(orig, i)
    live["metadata"]["annotations"][gen.LAST_APPLIED] = gen.annotation(orig)
    with open(os.path.join(d, "local", name + ".yaml"), "w") as f:
        f.write("\n".join(gen.to_yaml(local)) + "\n")
    with open(os.path.join(d, "live", name + ".json"), "w") as f:
        json.dump(live, f, separators=(",", ":"))
EOF
fi

bytes() { du -cb "$@" | tail -1 | cut -f1; }
# The inputs read once before their timed runs, so that every command reads them from the page
# cache: the first command of a run read them cold (its read stage up to twice the others').
warm() { find "$@" -type f -exec cat {} + >/dev/null; }
mb() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1e6 }'; }

# One run: wall time and peak RSS (GNU time), output size, the stages line.
run() {
    local label=$1 out=$2; shift 2
    APPLYSCOPE_TIMINGS=1 /usr/bin/time -f "%e %M" -o "$work/time.txt" "$bin" "$@" >"$out" 2>"$work/stderr.txt" || true
    read -r wall rss <"$work/time.txt"
    cp "$work/time.txt" "$out.txt"
    local stages read ratio
    stages=$(grep -h '^timings:' "$work/stderr.txt" | sed 's/^timings: //' || true)
    read=$(sed -n 's/.*read \([0-9.]*\) s.*/\1/p' <<<"$stages")
    ratio=$(awk -v w="$wall" -v r="${read:-0}" 'BEGIN { if (r > 0) printf "%.1fx", w / r; else print "-" }')
    printf '| %s | %s s | %s MB | %s | %s | %s |\n' "$label" "$wall" "$((rss / 1024))" "$(mb "$(stat -c %s "$out")")" "${stages:--}" "$ratio"
}

inputs=$(bytes "$big/local.json" "$big/live.json")
echo
echo "Deployment ${containers} containers × ${env} env: local $(mb "$(stat -c %s "$big/local.json")"), live $(mb "$(stat -c %s "$big/live.json")") (read: $(mb "$inputs"))"
echo
echo "| command | wall | peak RSS | output | stages (APPLYSCOPE_TIMINGS) | wall / read |"
echo "|---|---|---|---|---|---|"
# And one untimed run first: the first command of a run read slower even from the page cache
# (its read stage 0.12-0.14 s against 0.07 for the ones after it).
warm "$big"
"$bin" plan -f "$big/local.json" --live "$big/live.json" -o text >/dev/null 2>&1 || true
for o in json yaml text; do
    run "plan -o $o" "$work/big.$o" plan -f "$big/local.json" --live "$big/live.json" -o "$o"
done
for o in json yaml text; do
    run "plan --server-side -o $o" "$work/big-ssa.$o" plan --server-side -f "$big/local.json" --live "$big/live.json" -o "$o"
done

# The references in the same run: kubectl's one process (issue 16: plan -o json at least 40x
# faster) and the TUI's first frame (within 2x plan -o json; peak memory under 10x the bytes
# read). Each is skipped, by name, when what it needs is missing.
json_wall=$(awk '{ print $1 }' "$work/big.json.txt")
echo
echo "| reference | wall | peak RSS | ratio |"
echo "|---|---|---|---|"
kubectl=${KUBECTL:-$(command -v kubectl || true)}
shared=${APPLYSCOPE_SHARED:-$here/../../shared}
if [ -n "$kubectl" ] && [ -x "$kubectl" ] && [ -d "$shared/oracle" ]; then
    if line=$(APPLYSCOPE_SHARED="$shared" python3 "$here/kubectl_limit.py" "$kubectl" "$big/local.json" "$big/live.json" "$work/kubectl" 3); then
        read -r _ kwall krss _ <<<"$line"
        printf '| kubectl apply --dry-run=client -o json (1 process, fake API; median of 3) | %s s | %s MB | kubectl ÷ plan -o json: %s |\n' "$kwall" "$krss" "$(awk -v k="$kwall" -v a="$json_wall" 'BEGIN { printf "%.1fx", k / a }')"
    else
        echo "| kubectl: FAILED (see above) | - | - | - |"
    fi
else
    echo "| kubectl: SKIPPED (needs kubectl and ../shared/oracle) | - | - | - |"
fi
if command -v tmux >/dev/null; then
    if line=$("$here/tui_first_frame.sh" "$bin" "$big/local.json" "$big/live.json" 3); then
        read -r _ twall trss <<<"$line"
        printf '| TUI first frame (tmux 200×50; median of 3) | %s s | %s MB | ÷ plan -o json: %s; RSS ÷ bytes read: %s |\n' "$twall" "$trss" \
            "$(awk -v t="$twall" -v a="$json_wall" 'BEGIN { printf "%.1fx", t / a }')" \
            "$(awk -v r="$trss" -v b="$inputs" 'BEGIN { printf "%.1fx", r * 1048576 / b }')"
    else
        echo "| TUI first frame: FAILED (see above) | - | - | - |"
    fi
else
    echo "| TUI first frame: SKIPPED (needs tmux) | - | - | - |"
fi
echo
echo "$objects objects of about 1 KB: local $(mb "$(bytes "$many/local")") of YAML, live $(mb "$(bytes "$many/live")") of JSON"
echo
echo "| command | wall | peak RSS | output | stages | wall / read |"
echo "|---|---|---|---|---|---|"
warm "$many"
run "plan -f local/ --live live/ -o json" "$work/many.json" plan -f "$many/local" --live "$many/live" -o json
run "plan -f local/ --live live/ -o yaml" "$work/many.yaml" plan -f "$many/local" --live "$many/live" -o yaml
run "plan -f local/ --live live/ -o text" "$work/many.text" plan -f "$many/local" --live "$many/live" -o text
for o in json yaml text; do
    run "plan --server-side -f local/ --live live/ -o $o" "$work/many-ssa.$o" plan --server-side -f "$many/local" --live "$many/live" -o "$o"
done
# Issue 16: the server-side plan within 2x the client-side one (the same output format).
echo
for o in json text; do
    awk -v o="$o" -v c="$(awk '{ print $1 }' "$work/many.$o.txt")" -v s="$(awk '{ print $1 }' "$work/many-ssa.$o.txt")" \
        'BEGIN { printf "10,000 objects -o %s: --server-side ÷ client-side %.2fx\n", o, s / c }'
done
# The outputs are large (the server-side -o json of 10,000 objects is about 850 MB): kept only
# as long as the run.
rm -f "$work"/many*.json "$work"/many*.yaml "$work"/many*.text
