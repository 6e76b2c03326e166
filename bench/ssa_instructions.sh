#!/bin/bash
# Instructions per plan, server-side against client-side, on the inputs of `cargo bench --bench
# ssa` (valgrind's callgrind counts them only inside the plan: `plan_server_side` and the
# client-side `compute_with`). Unlike times, the counts do not move with the machine's load;
# they leave out memory stalls, so the time ratio runs somewhat higher. The sizes below the
# two-core threshold (1 KB, 100 KB) run on one thread: every instruction is counted.
#
#   bench/ssa_instructions.sh [SIZE ...]        # default: 1KB 100KB
#
# Needs valgrind; prints SKIPPED without it.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v valgrind >/dev/null; then
    echo "SKIPPED ssa_instructions: no valgrind"
    exit 0
fi
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(1KB 100KB)
cargo bench --bench ssa --no-run >/dev/null 2>&1
bin=$(ls -t target/release/deps/ssa-* | grep -v '\.d$' | head -1)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
count() { # FILTER FUNCTION SAMPLES -> instructions per plan
    valgrind --tool=callgrind --callgrind-out-file="$out/cg" --toggle-collect="$2" \
        "$bin" --bench --sample-count "$3" "$1" 2>&1 |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p' | awk -v n="$3" '{printf "%d", $1 / n}'
}
for size in "${sizes[@]}"; do
    samples=200
    [ "$size" != 1KB ] && samples=20
    client=$(count "client_side.*$size\$" '*compute_with' $samples)
    applied=$(count "server_side_applied.*$size\$" '*plan_server_side*' $samples)
    migrated=$(count "server_side_migrated.*$size\$" '*plan_server_side*' $samples)
    awk -v s="$size" -v c="$client" -v a="$applied" -v m="$migrated" 'BEGIN {
        printf "%-6s client-side %12d  applied %12d (%.2fx)  migrated %12d (%.2fx)\n",
            s, c, a, a / c, m, m / c }'
done
