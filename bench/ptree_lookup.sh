#!/usr/bin/env bash
# bench/ptree_lookup.sh - batched lookups in a gpuext_ptree index on the
# device (gpuext_ptree_lookup: the sequential walk and speculative
# partitioned traversal, issue 16) against PostgreSQL's btree plan for the
# same keys.
#
#   PT_ROWS=1000000 PT_KEYS=10000 PT_DEVICE=cpu bench/ptree_lookup.sh   # any host
#   bench/ptree_lookup.sh                      # GPU host: 10M rows, 1M keys
#   BENCH_START=0 PGHOST=... PGPORT=... bench/ptree_lookup.sh   # a running server
#
# Starts a cluster with gpuext preloaded (bench/lib.sh), generates
# t(id int8, k int8) of PT_ROWS rows, k = id * 2654435761 mod 2 rows
# (spread), a gpuext_ptree index t_pt and a btree index t_bt on k, and
# keys(a int8[]) of one row: PT_KEYS keys, every other one a k of t, the
# others negative (no k): half hit, half miss.  Queries:
#
#   btree       gpuext.enabled = off: SELECT count(*), sum(id) FROM t
#               WHERE k = ANY ((SELECT a FROM keys)::int8[]) (an index
#               scan, a descent a key)
#   lookup P    SELECT count(*), sum(t.id) FROM gpuext_ptree_lookup('t_pt',
#               (SELECT a FROM keys), P, visible => true) l JOIN t ON
#               t.ctid = l.tid, for P = 0 (sequential), 2, 4, 8, 16
#               (speculative) on PT_DEVICE
#   entries P   SELECT count(*) FROM gpuext_ptree_lookup(..., P): the
#               index's entries alone, no heap
#
# Each runs PT_RUNS + 1 times in one session (psql's \timing): the first
# run (the backend builds the index's image) and the best of the others
# (the image reused, written to the device, looked up); every result must
# equal the btree plan's (else FAIL, exit 2).  Output in $OUT:
# ptree_lookup.md, logs.
#
# Environment: PT_ROWS (10000000), PT_KEYS (1000000), PT_RUNS (3),
# PT_DEVICE (gpu; cpu runs on the CPU device), OUT (/tmp/out), BENCH_START,
# BENCH_BUILD, BENCH_PORT (54335), BENCH_DB (ptree), PG_CONFIG: as
# bench/search_sets.sh.

set -u -o pipefail
exec 2>&1

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=test/lib.sh
. "$HERE/../test/lib.sh"
# shellcheck source=bench/lib.sh
. "$HERE/lib.sh"

ROWS=${PT_ROWS:-10000000}
KEYS=${PT_KEYS:-1000000}
RUNS=${PT_RUNS:-3}
DEV=${PT_DEVICE:-gpu}
OUT=${OUT:-/tmp/out}
DB=${BENCH_DB:-ptree}
for v in ROWS KEYS RUNS; do
    case "${!v}" in ''|*[!0-9]*|0) echo "ERROR: PT_$v must be a positive number, not '${!v}'"; exit 1 ;; esac
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
    bench_cluster_init "${BENCH_PORT:-54335}" "$ROWS" || exit 1
    gx_cluster_start || exit 1
fi
bench_create_db "$DB" "$OUT/ptree_lookup_devices.txt" || exit 1

# ------------------------------------------------------------------ data
gx_log "generating t: $ROWS rows, keys: $KEYS"
gx_psql -d "$DB" -v ON_ERROR_STOP=1 -q >"$OUT/ptree_lookup_gen.log" 2>&1 <<EOF || { cat "$OUT/ptree_lookup_gen.log"; exit 1; }
DROP TABLE IF EXISTS t, keys;
CREATE TABLE t (id int8, k int8);
INSERT INTO t SELECT g, g * 2654435761 % ($ROWS * 2) FROM generate_series(1, $ROWS) g;
CREATE INDEX t_bt ON t (k);
CREATE INDEX t_pt ON t USING gpuext_ptree (k);
CREATE TABLE keys AS
SELECT array_agg(CASE WHEN g % 2 = 0 THEN (g::int8 * 7919 % $ROWS + 1) * 2654435761 % ($ROWS * 2)
                      ELSE -g END) AS a
FROM generate_series(1, $KEYS) g;
VACUUM (FREEZE, ANALYZE) t, keys;
EOF
bench_tables_prewarm "$DB" t keys
gx_psql -d "$DB" -Atc "SELECT * FROM gpuext_ptree_check('t_pt')" | tee "$OUT/ptree_lookup_check.txt"

# ------------------------------------------------------------------ runs
declare -A MS RES SQL
CFGS="btree"
SQL[btree]="SELECT count(*), sum(id) FROM t WHERE k = ANY ((SELECT a FROM keys)::int8[]);"
for p in 0 2 4 8 16; do
    CFGS="$CFGS lookup$p entries$p"
    SQL[lookup$p]="SELECT count(*), sum(t.id) FROM gpuext_ptree_lookup('t_pt', (SELECT a FROM keys), $p, true) l JOIN t ON t.ctid = l.tid;"
    SQL[entries$p]="SELECT count(*) FROM gpuext_ptree_lookup('t_pt', (SELECT a FROM keys), $p);"
done
OPTS="-c gpuext.device=$DEV -c max_parallel_workers_per_gather=0"
FAILED=0
declare -A COLD
for cfg in $CFGS; do
    opts=$OPTS
    [ "$cfg" = btree ] && opts="$opts -c gpuext.enabled=off"
    # one session: the first run builds the index's image, the others reuse it
    log=$OUT/ptree_lookup_$cfg.log
    { echo '\timing on'; for ((r = 0; r <= RUNS; r++)); do echo "${SQL[$cfg]}"; done; } |
        PGOPTIONS="$opts" gx_psql -d "$DB" -At >"$log" 2>&1
    RES[$cfg]=$(grep -v '^Time:\|^Timing' "$log" | head -n 1)
    mapfile -t times < <(sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' "$log")
    COLD[$cfg]=${times[0]:-n/a}
    MS[$cfg]=$(printf '%s\n' "${times[@]:1}" | sort -g | head -n 1)
    gx_log "$cfg: first ${COLD[$cfg]} ms, best of $RUNS after it ${MS[$cfg]} ms: ${RES[$cfg]}"
    want=${RES[btree]:-}
    case "$cfg" in entries*) want=${want%%|*} ;; esac
    if grep -q ERROR "$log" || [ "${RES[$cfg]}" != "$want" ] || [ -z "${MS[$cfg]}" ]; then
        echo "FAIL: $cfg returned '${RES[$cfg]}', want '$want'"
        FAILED=1
    fi
done

# ------------------------------------------------------------------ report
{
    echo "# gpuext_ptree_lookup: $KEYS keys (half absent) in an index of $ROWS rows"
    echo
    echo "device: $DEV; psql's \\timing in one session: the first run (which builds the index's image in the backend) and the best of the $RUNS after it (the image reused; written to the device and looked up in each)"
    echo
    echo "| configuration | first ms | ms | speedup vs PG btree | result |"
    echo "|---|---:|---:|---:|---|"
    for cfg in $CFGS; do
        sp=$(awk -v a="${MS[btree]}" -v b="${MS[$cfg]}" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "n/a" }')
        echo "| $cfg | ${COLD[$cfg]} | ${MS[$cfg]} | $sp | ${RES[$cfg]:-} |"
    done
} | tee "$OUT/ptree_lookup.md"
[ "$FAILED" = 0 ] || exit 2
exit 0
