#!/usr/bin/env bash
# bench/tpcb.sh - TPC-B overhead of gpuext: pgbench TPC-B with gpuext in
# shared_preload_libraries against without it, on an own throwaway cluster.
#
#   TPCB_SECONDS=3 bench/tpcb.sh          # quick try
#   bench/tpcb.sh                         # 3 + 3 runs of 20 s
#
# Runs alternate: without, with, without, with, without, with (TPCB_RUNS
# pairs).  Before every run the cluster restarts with the run's
# shared_preload_libraries and the database tpcb is made anew
# (pgbench -i -s 10 -q; with gpuext also CREATE EXTENSION gpuext, unless
# TPCB_EXTENSION=0), then VACUUM ANALYZE, a short warm-up, CHECKPOINT, so
# that no run inherits another's bloat.  Each run: pgbench -c 8 -j 8
# -T TPCB_SECONDS -M prepared.  Reports the median tps of each side and the
# ratio with / without (1.000: no overhead; below 1: gpuext costs).
#
# Environment:
#   TPCB_SECONDS   duration of each run (default 20)
#   TPCB_RUNS      runs of each side (default 3)
#   TPCB_SCALE     pgbench scale (default 10); TPCB_CLIENTS (8, also -j)
#   TPCB_WARMUP    seconds of warm-up before each run (default 2; 0: none)
#   TPCB_EXTENSION 1 (default): CREATE EXTENSION gpuext in the database of
#                  the runs with gpuext preloaded; 0: preloaded only
#   OUT            output dir (default /tmp/out): tpcb.md, tpcb.json (python3),
#                  tpcb_summary.txt, tpcb_<k>_<with|without>.log
#   BENCH_PORT     port of the own cluster (default 54333)
#   BENCH_BUILD    1: build and install first (default: only when gpuext is
#                  not installed)
#   PG_CONFIG      as in test/run.sh
# Exit status: 0, or 1 when a run failed.

set -u -o pipefail
exec 2>&1

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=test/lib.sh
. "$HERE/../test/lib.sh"
# shellcheck source=bench/lib.sh
. "$HERE/lib.sh"

OUT=${OUT:-/tmp/out}
SECS=${TPCB_SECONDS:-20}
RUNS=${TPCB_RUNS:-3}
export TPCB_SCALE=${TPCB_SCALE:-10} TPCB_CLIENTS=${TPCB_CLIENTS:-8}
mkdir -p "$OUT" || exit 1

bench_on_exit

gx_find_pg_config || exit 1
bench_ensure_installed || exit 1
gx_setup_user || exit 1
T0=$SECONDS
bench_cluster_init "${BENCH_PORT:-54333}" 0 || exit 1
gx_cluster_start || exit 1

gx_log "TPC-B: $RUNS runs each without / with gpuext preloaded, alternating; pgbench -i -s $TPCB_SCALE -q before each, then -c $TPCB_CLIENTS -j $TPCB_CLIENTS -T $SECS -M prepared"
bench_tpcb "$OUT" "$SECS" "$RUNS"
rc=$?

{
    echo "TPC-B (pgbench -s $TPCB_SCALE -c $TPCB_CLIENTS -j $TPCB_CLIENTS -T $SECS -M prepared, $RUNS runs each, alternating, re-initialised before each; $((SECONDS - T0)) s):"
    echo "  tps without gpuext: $TPCB_TPS_WITHOUT  -> median $TPCB_MEDIAN_WITHOUT"
    echo "  tps with gpuext:    $TPCB_TPS_WITH  -> median $TPCB_MEDIAN_WITH"
    echo "  ratio with/without (medians): $TPCB_RATIO$([ "${TPCB_EXTENSION:-1}" = 1 ] && echo "   (with = preloaded + CREATE EXTENSION gpuext in the pgbench database)")"
} >"$OUT/tpcb_summary.txt"

if command -v python3 >/dev/null 2>&1; then
    python3 - "$OUT" "$SECS" "$RUNS" "$TPCB_SCALE" "$TPCB_CLIENTS" "${TPCB_EXTENSION:-1}" \
        "$TPCB_TPS_WITHOUT" "$TPCB_TPS_WITH" "$TPCB_MEDIAN_WITHOUT" "$TPCB_MEDIAN_WITH" "$TPCB_RATIO" \
        "$("$PG_CONFIG" --version)" "$(gx_nproc)" "$rc" <<'EOF'
import json, sys
(out, secs, runs, scale, clients, ext, without, with_, med_wo, med_w, ratio,
 pgver, cores, rc) = sys.argv[1:]

def num(v):
    try:
        return float(v)
    except ValueError:
        return None

wo, w = without.split(), with_.split()
order = []
for k in range(max(len(wo), len(w))):
    if k < len(wo):
        order.append({"run": k + 1, "gpuext": "without", "tps": num(wo[k])})
    if k < len(w):
        order.append({"run": k + 1, "gpuext": "with", "tps": num(w[k])})
doc = {
    "benchmark": "pgbench TPC-B",
    "postgres": pgver, "cores": int(cores),
    "scale": int(scale), "clients": int(clients), "threads": int(clients),
    "seconds": int(secs), "runs_each": int(runs), "protocol": "prepared",
    "with_means": "shared_preload_libraries = 'gpuext'" + (" + CREATE EXTENSION gpuext" if ext == "1" else ""),
    "runs": order,
    "median_tps_without": num(med_wo), "median_tps_with": num(med_w),
    "ratio_with_without": num(ratio),
    "failed": rc != "0",
}
with open(out + "/tpcb.json", "w") as f:
    json.dump(doc, f, indent=2)
    f.write("\n")
with open(out + "/tpcb.md", "w") as f:
    f.write("## TPC-B overhead of gpuext\n\n")
    f.write("- %s, %s cores; pgbench -s %s -c %s -j %s -T %s -M prepared; %s runs each, alternating "
            "without/with, database re-initialised (pgbench -i, VACUUM ANALYZE, CHECKPOINT) before each\n"
            % (pgver, cores, scale, clients, clients, secs, runs))
    f.write("- with: %s\n\n" % doc["with_means"])
    f.write("| run | gpuext | tps |\n|---:|---|---:|\n")
    for r in order:
        f.write("| %d | %s | %s |\n" % (r["run"], r["gpuext"], r["tps"] if r["tps"] is not None else "err"))
    f.write("\n| median without | median with | ratio with/without |\n|---:|---:|---:|\n")
    f.write("| %s | %s | %s |\n" % (med_wo, med_w, ratio))
EOF
else
    echo "python3 not found: no tpcb.md / tpcb.json"
fi

echo
cat "$OUT/tpcb_summary.txt"
exit "$rc"
