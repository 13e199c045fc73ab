#!/usr/bin/env bash
# bench/search_sets.sh - issue 16's target: k = ANY (a set of SETS_KEYS keys)
# over a cached table of SETS_ROWS rows on the GPU (a big set in device
# memory, binary-searched per row) against PostgreSQL's btree plan.
#
#   SETS_ROWS=1000000 SETS_KEYS=10000 SETS_GPU_DEVICE=cpu bench/search_sets.sh   # any host
#   bench/search_sets.sh                     # GPU host: 100M rows, 1M keys
#   BENCH_START=0 PGHOST=... PGPORT=... bench/search_sets.sh   # a running server
#
# Starts a cluster with gpuext preloaded (bench/lib.sh), generates
# t(id int8, k int8) of SETS_ROWS rows, k = id * 2654435761 mod 2 rows
# (spread, no sorted runs), a btree index on k, and keys(a int8[]) of one
# row: SETS_KEYS keys, every other one the k of a row spread over t, the
# others negative (no k): half hit, half miss.  The query
#
#   SELECT count(*), sum(id) FROM t WHERE k = ANY ((SELECT a FROM keys)::int8[])
#
# takes the keys as an InitPlan's array (one plan for every size; a Const
# of a million elements would make the query text 10 MB).  Configurations:
#
#   btree     PG btree      gpuext.enabled = off: PostgreSQL's plan, an
#                           index scan with k = ANY ($0): a descent a key
#   seqscan   PG seqscan    gpuext.enabled = off, enable_indexscan /
#                           enable_bitmapscan off (left out unless
#                           SETS_SKIP is set: an array Param is searched
#                           element by element for each row, rows x keys)
#   gpucache  GPU cached    gpuext.force = on after gpuext_cache_load('t')
#                           (gpuext.search = binary: the set's top keys in
#                           shared memory, then its segment)
#   gpupary   GPU cached,   the same with gpuext.search = pary (a warp's
#             p-ary         lanes search each row's key together)
#   gpu       GPU copy      gpuext.force = on, gpuext.use_cache = off
#   gputopN   GPU cached,   binary with gpuext.search_top_keys = N, for
#             N top keys    each N of SETS_TOP_SWEEP (none by default)
#
# Each runs SETS_RUNS times (3), the best counted (client-timed, psql -f;
# a run of 30 s or more is not repeated); every result must equal the
# btree plan's (else FAIL, exit 2).  Output in $OUT: search_sets.md (ms,
# speedup against btree: the issue asks for 50x; for the GPU
# configurations the time the backend took to build the set and write it
# to the device, "Device Sets Time", and the execution time, both from
# the EXPLAIN ANALYZE run after the timed runs), the EXPLAIN (ANALYZE,
# VERBOSE) of every configuration, logs.
#
# Environment: SETS_ROWS (100000000), SETS_KEYS (1000000), SETS_RUNS (3),
# SETS_SKIP (configurations to leave out; default "seqscan", "" runs all),
# SETS_TOP_SWEEP (top key counts to run gputopN with, e.g. "0 1024 8192"),
# SETS_GPU_DEVICE (gpu; cpu runs the GPU configurations on the CPU
# device), OUT (/tmp/out), BENCH_START, BENCH_BUILD, BENCH_PORT (54334),
# BENCH_DB (sets), PG_CONFIG: as bench/groupby.sh.

set -u -o pipefail
exec 2>&1

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=test/lib.sh
. "$HERE/../test/lib.sh"
# shellcheck source=bench/lib.sh
. "$HERE/lib.sh"

ROWS=${SETS_ROWS:-100000000}
KEYS=${SETS_KEYS:-1000000}
RUNS=${SETS_RUNS:-3}
DEV=${SETS_GPU_DEVICE:-gpu}
SKIP=" ${SETS_SKIP-seqscan} "
OUT=${OUT:-/tmp/out}
DB=${BENCH_DB:-sets}
for v in ROWS KEYS RUNS; do
    case "${!v}" in ''|*[!0-9]*|0) echo "ERROR: SETS_$v must be a positive number, not '${!v}'"; exit 1 ;; esac
done
if [ -z "${BENCH_START:-}" ]; then
    if [ -n "${PGPORT:-}" ]; then BENCH_START=0; else BENCH_START=1; fi
fi
mkdir -p "$OUT" || exit 1
gx_find_pg_config || exit 1
bench_on_exit ''

bench_ensure_installed || exit 1
if [ "$BENCH_START" = 1 ]; then
    gx_setup_user || exit 1
    bench_cluster_init "${BENCH_PORT:-54334}" "$ROWS" || exit 1
    gx_cluster_start || exit 1
fi
bench_create_db "$DB" "$OUT/search_sets_devices.txt" || exit 1

# ------------------------------------------------------------------ data
gx_log "generating t: $ROWS rows, keys: $KEYS"
gx_psql -d "$DB" -v ON_ERROR_STOP=1 -q >"$OUT/search_sets_gen.log" 2>&1 <<EOF || { cat "$OUT/search_sets_gen.log"; exit 1; }
DROP TABLE IF EXISTS t, keys;
CREATE TABLE t (id int8, k int8);
INSERT INTO t SELECT g, g * 2654435761 % ($ROWS * 2) FROM generate_series(1, $ROWS) g;
CREATE INDEX t_k ON t (k);
-- half the keys are ks of t (rows spread over the table), half negative (none)
CREATE TABLE keys AS
SELECT array_agg(CASE WHEN g % 2 = 0 THEN (g::int8 * 7919 % $ROWS + 1) * 2654435761 % ($ROWS * 2)
                      ELSE -g END) AS a
FROM generate_series(1, $KEYS) g;
VACUUM (FREEZE, ANALYZE) t, keys;
EOF
bench_tables_prewarm "$DB" t keys
gx_psql -d "$DB" -qc "CREATE EXTENSION IF NOT EXISTS pg_prewarm" >/dev/null 2>&1 &&
    gx_psql -d "$DB" -Atc "SELECT pg_prewarm('t_k')" >/dev/null 2>&1
DB=$DB bench_cache_load "$OUT/search_sets_cache.log" "$DEV" t

QF=$OUT/search_sets_query.sql
echo "SELECT count(*), sum(id) FROM t WHERE k = ANY ((SELECT a FROM keys)::int8[]);" >"$QF"
GPUOPTS="-c gpuext.force=on -c gpuext.device=$DEV -c max_parallel_workers_per_gather=0"
declare -A TITLE=([btree]="PG btree" [seqscan]="PG seqscan" [gpucache]="GPU cached, binary"
    [gpupary]="GPU cached, p-ary" [gpu]="GPU copy, binary")
declare -A OPTS=(
    [btree]="-c gpuext.enabled=off -c max_parallel_workers_per_gather=0"
    [seqscan]="-c gpuext.enabled=off -c enable_indexscan=off -c enable_bitmapscan=off -c max_parallel_workers_per_gather=0"
    [gpucache]="$GPUOPTS -c gpuext.use_cache=on -c gpuext.search=binary"
    [gpupary]="$GPUOPTS -c gpuext.use_cache=on -c gpuext.search=pary"
    [gpu]="$GPUOPTS -c gpuext.use_cache=off -c gpuext.search=binary")
CONFIGS="btree gpucache gpupary gpu seqscan"
for t in ${SETS_TOP_SWEEP:-}; do
    case "$t" in ''|*[!0-9]*) echo "ERROR: SETS_TOP_SWEEP: '$t' is no number"; exit 1 ;; esac
    TITLE[gputop$t]="GPU cached, binary, $t top keys"
    OPTS[gputop$t]="$GPUOPTS -c gpuext.use_cache=on -c gpuext.search=binary -c gpuext.search_top_keys=$t"
    CONFIGS="$CONFIGS gputop$t"
done

# ------------------------------------------------------------------ runs
declare -A MS RES SETMS EXECMS
FAILED=0
for cfg in $CONFIGS; do
    case "$SKIP" in *" $cfg "*) MS[$cfg]=skipped; continue ;; esac
    best=""
    for ((r = 1; r <= RUNS; r++)); do
        t0=$(date +%s%N)
        res=$(PGOPTIONS="${OPTS[$cfg]}" gx_psql -d "$DB" -At -f "$QF" 2>&1 | tr '\n' ' ' | sed 's/ *$//')
        ms=$(( ($(date +%s%N) - t0) / 1000000 ))
        RES[$cfg]=$res
        gx_log "$cfg run $r: $ms ms: $res"
        if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
        [ "$ms" -ge 30000 ] && break
    done
    MS[$cfg]=$best
    PGOPTIONS="${OPTS[$cfg]}" gx_psql -d "$DB" -c "EXPLAIN (ANALYZE, VERBOSE) $(cat "$QF")" \
        >"$OUT/search_sets_explain_$cfg.txt" 2>&1
    SETMS[$cfg]=$(sed -n 's/^ *Device Sets Time: \([0-9.]*\) ms$/\1/p' "$OUT/search_sets_explain_$cfg.txt" | head -1)
    EXECMS[$cfg]=$(sed -n 's/^ *Execution Time: \([0-9.]*\) ms$/\1/p' "$OUT/search_sets_explain_$cfg.txt" | head -1)
    if [[ ${RES[$cfg]} == *ERROR* ]] ||
        { [ "$cfg" != btree ] && [ "${RES[$cfg]}" != "${RES[btree]:-}" ]; }; then
        echo "FAIL: $cfg returned '${RES[$cfg]}', PG btree '${RES[btree]:-}'"
        FAILED=1
    fi
done

# ------------------------------------------------------------------ report
{
    echo "# k = ANY ($KEYS keys) over $ROWS rows"
    echo
    echo "device: $DEV; cache load: ${CACHE_LOAD_MS:-n/a} ms, ${CACHE_ROWS:-n/a} rows cached"
    echo
    echo "| configuration | ms (best of $RUNS) | speedup vs PG btree | set build + write ms | execution ms (EXPLAIN ANALYZE) | result |"
    echo "|---|---:|---:|---:|---:|---|"
    for cfg in $CONFIGS; do
        sp=n/a
        if [[ ${MS[$cfg]} =~ ^[0-9]+$ ]] && [[ ${MS[btree]:-} =~ ^[0-9]+$ ]] && [ "${MS[$cfg]}" -gt 0 ]; then
            sp=$(awk -v a="${MS[btree]}" -v b="${MS[$cfg]}" 'BEGIN { printf "%.1fx", a / b }')
        fi
        echo "| ${TITLE[$cfg]} | ${MS[$cfg]} | $sp | ${SETMS[$cfg]:-n/a} | ${EXECMS[$cfg]:-n/a} | ${RES[$cfg]:-} |"
    done
} | tee "$OUT/search_sets.md"
[ "$FAILED" = 0 ] || exit 2
exit 0
