#!/usr/bin/env bash
# Issue 25's capacity table: scripts/bench_latency.py at 50 / 200 / 500 / 1,000 busy tables,
# one bot process and two shard processes, the bot of today ("after") and the bot's channel
# traffic as it was before issue 25 ("before": no budget, a ping on every turn, every table
# edit on the channel route; scripts/bench_before_25.py), all with Discord's limits on.
#
#   scripts/capacity_table.sh OUT_DIR [PYTHON] [SIZES...]
#   SERIES="after-1 before-1" scripts/capacity_table.sh OUT_DIR   # some series only
#
# The four series run side by side (each series' emulator, people and bot processes are its
# own, and each emulator is its own Discord: no series eats another's global limit); meant
# for a machine with 16 cores, where they take at most 10 processes. Each series' log is
# OUT_DIR/<series>.log; the summary table closes each log.
set -u
out=${1:?usage: scripts/capacity_table.sh OUT_DIR [PYTHON] [SIZES...]}
python=${2:-.venv/bin/python}
shift $(( $# >= 2 ? 2 : 1 ))
sizes=${*:-50 200 500 1000}
mkdir -p "$out"
common=(--memory-tables 0 --warmup 5 --seconds 12)
export PYTHONUNBUFFERED=1
run() {
    # One size per run, smallest first: each run prints its own summary, so a series cut
    # short still has the figures of the sizes it finished.
    local name=$1 size
    shift
    for size in $sizes; do
        echo "== $name, $size tables, started $(date +%T)" >>"$out/$name.log"
        local raw status
        raw=$(mktemp)
        "$python" scripts/bench_latency.py --tables "$size" "${common[@]}" "$@" >"$raw" 2>&1
        status=$?
        # At most 5 lines of any one kind (a flood of rate-limit warnings stays readable).
        awk '{ key = substr($0, 1, 50) } seen[key]++ < 5' "$raw" >>"$out/$name.log"
        rm -f "$raw"
        echo "== $name, $size tables: exit $status at $(date +%T)" >>"$out/$name.log"
    done
}
before=(--ping-after 0 --bot-hook scripts/bench_before_25.py:apply)
for series in ${SERIES:-after-1 after-2 before-1 before-2}; do
    case $series in
    after-1) run after-1 --shards 1 & ;;
    after-2) run after-2 --shards 2 & ;;
    before-1) run before-1 --shards 1 "${before[@]}" & ;;
    before-2) run before-2 --shards 2 "${before[@]}" & ;;
    esac
done
wait
for log in "$out"/*.log; do
    echo "== $log"
    grep -A1 '^tables  procs' "$log" | grep -v '^tables\|^--'
done
