#!/usr/bin/env bash
# bench/demo.sh - THE demo of gpuext: build, install, start a throwaway
# cluster with gpuext preloaded, CREATE EXTENSION, list devices, load a
# 2M-row "tablet" table and show plans and timings of three queries with
# gpuext off, on its CPU device and on the GPU (when there is one), checking
# that all answers are equal.  The cluster is removed at the end.
#
# Each query: EXPLAIN ANALYZE (the device's time, chunks and transfers),
# its result, the mean of 5 runs; then a speedup summary, every
# configuration with the same parallel settings.  Without a GPU it says
# what the GPU host measured and where.
#
# Environment: PG_CONFIG (as test/run.sh), DEMO_ROWS (default 2000000),
# DEMO_PORT (default 54331), DEMO_WORKERS (max_parallel_workers_per_gather
# of every configuration, default 2), GPUEXT_NO_CLEAN=1, DEMO_NO_BUILD=1.

set -u -o pipefail
exec 2>&1

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=test/lib.sh
. "$HERE/../test/lib.sh"

ROWS=${DEMO_ROWS:-2000000}
DB=demo
QDIR=$GX_ROOT/bench/queries
SHOW=(q3 q7 q9)

cleanup() { gx_cluster_stop; gx_cluster_remove; }
trap cleanup EXIT
trap 'exit 130' INT TERM HUP PIPE

gx_find_pg_config || exit 1
if [ "${DEMO_NO_BUILD:-0}" != 1 ]; then
    gx_build || { echo "ERROR: build failed"; exit 1; }
    gx_install || { echo "ERROR: make install failed"; exit 1; }
fi
gx_setup_user || exit 1
gx_cluster_init "${DEMO_PORT:-54331}" \
    "shared_buffers = 512MB" \
    "max_worker_processes = 16" \
    "max_parallel_workers = 8" || exit 1
gx_cluster_start || exit 1

gx_psql -d postgres -qc "CREATE DATABASE $DB" || exit 1
echo
echo "### CREATE EXTENSION gpuext; SELECT * FROM gpuext_devices();"
gx_psql -d "$DB" -qc "CREATE EXTENSION gpuext" || exit 1
gx_psql -d "$DB" -c "SELECT * FROM gpuext_devices()" || exit 1
NGPU=$(gx_has_gpu "$DB")

gx_load_tablet "$DB" "$ROWS" || exit 1

# the same parallel settings for every configuration (DEMO_WORKERS, 2)
PAR="-c max_parallel_workers_per_gather=${DEMO_WORKERS:-2}"
NAMES=(off cpu)
TITLES=("gpuext off (plain PostgreSQL)" "gpuext on, CPU device")
OPTS=("-c gpuext.enabled=off $PAR"
      "-c gpuext.force=on -c gpuext.device=cpu $PAR")
if [ "$NGPU" -gt 0 ]; then
    NAMES+=(gpu); TITLES+=("gpuext on, GPU device")
    OPTS+=("-c gpuext.force=on -c gpuext.device=gpu $PAR")
else
    echo
    echo "(no GPU listed by gpuext_devices(): showing plain PostgreSQL and the CPU device only)"
fi

BAD=0
declare -A MS
for q in "${SHOW[@]}"; do
    sql=$(sed 's/;[[:space:]]*$//' "$QDIR/$q.sql")
    ref=""
    for i in "${!NAMES[@]}"; do
        echo
        echo "################ $q - ${TITLES[$i]}   (PGOPTIONS='${OPTS[$i]}')"
        echo "$sql;"
        # the plan as it ran: for gpuext, the device's time, chunks, transfers
        PGOPTIONS="${OPTS[$i]}" gx_psql -d "$DB" -c "EXPLAIN (ANALYZE, COSTS OFF) $sql"
        r=$(PGOPTIONS="${OPTS[$i]}" gx_psql -d "$DB" -At -c "$sql" 2>&1 | tr '\n' ' ')
        # mean latency of 5 runs (pgbench, without connecting)
        printf '%s;\n' "$sql" >"$GX_BASE/demo_$q.sql"
        MS[$q,${NAMES[$i]}]=$(PGOPTIONS="${OPTS[$i]}" "$PGBIN/pgbench" -n -f "$GX_BASE/demo_$q.sql" -t 5 "$DB" 2>/dev/null |
            sed -n 's/^latency average = \([0-9.]*\) ms.*/\1/p')
        echo "result: $r   (mean of 5 runs: ${MS[$q,${NAMES[$i]}]:-?} ms)"
        if [ -z "$ref" ]; then
            ref=$r
        elif [ "$r" != "$ref" ]; then
            echo "!!!!!!!! MISMATCH: $q returned '$r' with ${NAMES[$i]}, '$ref' with gpuext off !!!!!!!!"
            BAD=1
        fi
    done
done

# the speedup summary
echo
echo "==> summary: $ROWS rows, mean ms of 5 runs, speedup against gpuext off (same parallel settings: $PAR)"
printf '%-5s %12s' query "off ms"
for n in "${NAMES[@]:1}"; do printf ' %12s %8s' "$n ms" "x"; done
echo
for q in "${SHOW[@]}"; do
    printf '%-5s %12s' "$q" "${MS[$q,off]:-?}"
    for n in "${NAMES[@]:1}"; do
        printf ' %12s %8s' "${MS[$q,$n]:-?}" \
            "$(awk -v a="${MS[$q,off]:-}" -v b="${MS[$q,$n]:-}" 'BEGIN { if (a > 0 && b > 0) printf "%.1f", a / b; else print "?" }')"
    done
    echo
done
if [ "$NGPU" = 0 ]; then
    echo
    echo "No GPU here, so no GPU figures.  On the H100 host (100M rows, the same queries,"
    echo "docs/architecture.md \"Benchmarks\" and the README's \"Benchmark\"), a filter on columns"
    echo "in the device cache takes 0.9-2.0 ms, against 1.0-1.9 s for PostgreSQL with 8"
    echo "workers and 23-593 ms for DuckDB with 16 threads (chart and figures:"
    echo "docs/bench/h100_100m_compare.png and .json); run test/gpu/run.sh there."
fi

echo
if [ "$BAD" = 0 ]; then
    echo "==> all configurations returned the same results"
else
    echo "==> MISMATCH: configurations returned different results"
fi
exit "$BAD"
