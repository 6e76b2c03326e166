#!/usr/bin/env bash
# The TUI's first frame on one object, as a user waits for it (issue 16):
#
#   bench/tui_first_frame.sh BIN LOCAL LIVE [RUNS]
#
# Starts `BIN -f LOCAL --live LIVE` in a detached tmux session (200×50) and polls the screen
# every 10 ms until the plan's panes are drawn (the header names the patch type and the
# result pane is open), then waits 2 s for the work done while no key is waiting and reads
# the process's peak RSS (VmHWM). Prints `tui FIRST_FRAME_MEDIAN_S PEAK_RSS_MB` (the median of
# RUNS runs, default 3; the largest peak). Needs tmux.
set -euo pipefail
bin=$1 local=$2 live=$3 runs=${4:-3}
command -v tmux >/dev/null || { echo "needs tmux" >&2; exit 2; }
session=applyscope-first-frame-$$
times=() peak=0
for _ in $(seq "$runs"); do
    tmux kill-session -t "$session" 2>/dev/null || true
    start=$(date +%s.%N)
    tmux new-session -d -s "$session" -x 200 -y 50 "exec $bin -f $local --live $live"
    pid=$(tmux list-panes -t "$session" -F '#{pane_pid}')
    while :; do
        screen=$(tmux capture-pane -p -t "$session")
        if grep -q 'PATCH ' <<<"$screen" && grep -q '┌ result' <<<"$screen"; then break; fi
        kill -0 "$pid" 2>/dev/null || { echo "the TUI exited before its first frame" >&2; exit 1; }
        sleep 0.01
    done
    end=$(date +%s.%N)
    times+=("$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')")
    sleep 2
    hwm=$(awk '/VmHWM/ { print int($2 / 1024) }' "/proc/$pid/status")
    [ "$hwm" -gt "$peak" ] && peak=$hwm
    tmux send-keys -t "$session" q
    sleep 0.3
    tmux kill-session -t "$session" 2>/dev/null || true
done
median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
echo "tui $median $peak"
