#!/usr/bin/env bash
# bench/defaults.sh - do gpuext's default settings ever make a query
# slower?  The bench queries q1..q10 (bench/queries) on one table tablet,
# each timed with gpuext off and with gpuext on at its defaults (nothing
# set: the planner chooses by cost, on the device the service found),
# alternating, in one cluster with gpuext preloaded and PostgreSQL's own
# default settings (parallel query included).  Prints, per query, both
# times, the plan gpuext's defaults chose and the ratio off / on (above 1:
# gpuext is faster; the aim is no query below 0.95), then the worst ratio
# and the geometric mean.  Runs on a GPU host and on a host with only the
# CPU device alike.
#
#   ROWS=2000000 bench/defaults.sh
#
# Environment: ROWS (default 10000000), DEFAULTS_ROUNDS (alternating
# rounds, default 3; each query's figure is the best of its rounds),
# BENCH_T (pgbench transactions a timing, default 5), BENCH_PORT (54336),
# OUT (default /tmp/out: defaults.txt), PG_CONFIG (as test/run.sh),
# BENCH_BUILD (as bench/run.sh).

set -u -o pipefail
exec 2>&1

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=test/lib.sh
. "$HERE/../test/lib.sh"
# shellcheck source=bench/lib.sh
. "$HERE/lib.sh"

ROWS=${ROWS:-10000000}
ROUNDS=${DEFAULTS_ROUNDS:-3}
export BENCH_T=${BENCH_T:-5}
OUT=${OUT:-/tmp/out}
DB=bench
QDIR=$GX_ROOT/bench/queries
mkdir -p "$OUT" || exit 1

bench_on_exit

gx_find_pg_config || exit 1
bench_ensure_installed || exit 1
gx_setup_user || exit 1
bench_cluster_init "${BENCH_PORT:-54336}" "$ROWS" || exit 1
gx_cluster_start || exit 1
gx_psql -d postgres -qc "CREATE DATABASE $DB" || exit 1
gx_psql -d "$DB" -qc "CREATE EXTENSION gpuext" || exit 1
gx_load_tablet "$DB" "$ROWS" || exit 1
gx_psql -d "$DB" -qc "VACUUM ANALYZE tablet" || exit 1
DEVICES=$(gx_psql -d "$DB" -At -c "SELECT string_agg(kind || ': ' || name, '; ') FROM gpuext_devices()")

declare -A BEST PLAN RES
QUERIES=()
for i in 1 2 3 4 5 6 7 8 9 10; do [ -f "$QDIR/q$i.sql" ] && QUERIES+=("q$i"); done
MISMATCH=0
for ((r = 1; r <= ROUNDS; r++)); do
    for q in "${QUERIES[@]}"; do
        for c in off on; do
            if [ "$c" = off ]; then opts="-c gpuext.enabled=off"; else opts=""; fi
            bench_time_query "$DB" "$QDIR/$q.sql" "$opts" "$OUT/defaults_${q}_$c.log" 0
            [ "$c" = on ] && PLAN[$q]=$BQ_PLAN
            if [ -z "${RES[$q]:-}" ]; then
                RES[$q]=$BQ_RES
            elif [ "$BQ_RES" != "${RES[$q]}" ]; then
                echo "!!!!!!!! MISMATCH $q ($c): '$BQ_RES', before '${RES[$q]}' !!!!!!!!"
                MISMATCH=1
            fi
            if [ -z "${BEST[$q,$c]:-}" ] || awk -v a="$BQ_MS" -v b="${BEST[$q,$c]}" 'BEGIN { exit !(a + 0 < b + 0) }'; then
                BEST[$q,$c]=$BQ_MS
            fi
        done
    done
    gx_log "round $r of $ROUNDS done"
done

{
    echo "gpuext defaults against gpuext off: $ROWS rows, $("$PG_CONFIG" --version), devices: $DEVICES"
    echo "ms: the best of $ROUNDS alternating rounds of pgbench -t $BENCH_T (statement latency); ratio = off / defaults (above 1: gpuext faster)"
    printf '%-5s %12s %12s %-8s %8s\n' query "off ms" "defaults ms" plan ratio
    for q in "${QUERIES[@]}"; do
        printf '%-5s %12s %12s %-8s %8s\n' "$q" "${BEST[$q,off]}" "${BEST[$q,on]}" "${PLAN[$q]}" \
            "$(awk -v a="${BEST[$q,off]}" -v b="${BEST[$q,on]}" 'BEGIN { printf "%.3f", a / b }')"
    done
    for q in "${QUERIES[@]}"; do echo "${BEST[$q,off]} ${BEST[$q,on]}"; done |
        awk '{ r = $1 / $2; s += log(r); n++; if (n == 1 || r < w) w = r }
             END { printf "worst ratio %.3f, geometric mean %.3f (aim: no query below 0.95)\n", w, exp(s / n) }'
    [ "$MISMATCH" = 0 ] && echo "results: the same with gpuext off and at its defaults"
} | tee "$OUT/defaults.txt"
[ "$MISMATCH" = 0 ] || exit 2
