#!/usr/bin/env bash
# bench/tpch/gen.sh - TPC-H-style data for bench/tpch.sh and
# bench/tpch_join.sh: tables orders, lineitem, customer, supplier, nation
# and region (bench/tpch/schema.sql; no part, partsupp) generated inside
# PostgreSQL with generate_series and deterministic pseudo-random
# functions of the row number (bench/tpch/gen_batch.sql and gen_dims.sql:
# the distributions), no dbgen needed.
#
#   TPCH_SF=1 bench/tpch/gen.sh [DB]      # against PGHOST/PGPORT/PGUSER
#
# SF x 1.5M orders (sparse keys) with 1..7 lineitems each (about SF x 6M
# lineitems), SF x 150K customers, SF x 10K suppliers, the spec's 25
# nations and 5 regions.  The orders are split into TPCH_JOBS contiguous
# ranges, one psql session each, loading in parallel as test/lib.sh
# gx_load_tablet does for tablet; a session works through its range in
# batches of TPCH_BATCH orders (one INSERT ... of orders and lineitems
# each); one more session inserts customer, supplier, nation and region
# (gen_dims.sql) meanwhile.  Then VACUUM ANALYZE of every table (two
# sessions: lineitem; the others; a table with pages left without their
# all-visible bit, which the column cache needs, is vacuumed once more),
# and a table comment "tpch sf=SF tables=6" on lineitem: a later run with the same SF skips the load
# (TPCH_FORCE=1 loads anyway; a database of the two-table generator is
# loaded anew).  Prints the rows, sizes and load time.
#
# Environment:
#   TPCH_SF     scale factor (default 1; fractions such as 0.1 work)
#   TPCH_JOBS   parallel sessions (default: the cores, at most 16; 1 below
#               SF 0.05)
#   TPCH_BATCH  orders per statement (default 200000: about 800K lineitems)
#   TPCH_FORCE  1: load even when the tables already hold this SF
#   PG_CONFIG / PGBIN  which psql (test/lib.sh gx_find_pg_config)

set -u -o pipefail

TPCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# the 7 columns of lineitem that Q1 and Q6 read, and their DuckDB types
# (read_csv's columns: bench/duckdb/lib.sh gxd_copy_and_run), for the
# benchmarks' DuckDB copies (bench/tpch.sh, bench/multigpu.sh)
# shellcheck disable=SC2034  # (read by the sourcing scripts)
TPCH_Q1_COLS="l_quantity, l_extendedprice, l_discount, l_tax, l_returnflag, l_linestatus, l_shipdate"
# shellcheck disable=SC2034
TPCH_Q1_DUCK_TYPES="'l_quantity': 'DECIMAL(15,2)', 'l_extendedprice': 'DECIMAL(15,2)', 'l_discount': 'DECIMAL(15,2)', 'l_tax': 'DECIMAL(15,2)', 'l_returnflag': 'VARCHAR', 'l_linestatus': 'VARCHAR', 'l_shipdate': 'DATE'"

# tpch_gen DB: the load (a function, so that bench/tpch.sh can source this
# file and call it on its cluster); returns 1 on failure
tpch_gen() {
    local db=$1 sf=${TPCH_SF:-1} jobs=${TPCH_JOBS:-} batch=${TPCH_BATCH:-200000}
    local norders parts supps custs clerks have t0 chunk k lo hi b bhi pids="" p rc=0
    local psql=("$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -d "$db")
    # the spec's cardinalities at this scale (at least 1 of each)
    read -r norders parts supps custs clerks <<<"$(awk -v s="$sf" 'function n(x) { x = int(x + 0.5); return x < 1 ? 1 : x }
        BEGIN { if (s + 0 <= 0) exit 1; print n(s * 1500000), n(s * 200000), n(s * 10000), n(s * 150000), n(s * 1000) }')" ||
        { echo "tpch: bad TPCH_SF '$sf'"; return 1; }
    [ -n "$norders" ] || { echo "tpch: bad TPCH_SF '$sf'"; return 1; }
    have=$("${psql[@]}" -Atc "SELECT obj_description('lineitem'::regclass, 'pg_class')" 2>/dev/null | tail -n 1)
    if [ "$have" = "tpch sf=$sf tables=6" ] && [ "${TPCH_FORCE:-0}" != 1 ]; then
        echo "==> tpch: the tables already hold SF $sf ($("${psql[@]}" -Atc "SELECT count(*) FROM lineitem") lineitems)"
        return 0
    fi
    if [ -z "$jobs" ]; then
        jobs=$(nproc 2>/dev/null || echo 2)
        [ "$jobs" -gt 16 ] && jobs=16
    fi
    [ "$norders" -lt 75000 ] && jobs=1
    [ "$jobs" -lt 1 ] && jobs=1
    echo "==> tpch: generating SF $sf: $norders orders (about $((norders * 4)) lineitems), parts $parts, suppliers $supps, customers $custs; $jobs sessions, batches of $batch orders"
    t0=$(date +%s.%N)
    "${psql[@]}" -f "$TPCH_DIR/schema.sql" || return 1
    chunk=$(( (norders + jobs - 1) / jobs ))
    for ((k = 0; k < jobs; k++)); do
        lo=$(( k * chunk + 1 )); hi=$(( (k + 1) * chunk ))
        [ "$hi" -gt "$norders" ] && hi=$norders
        [ "$lo" -gt "$hi" ] && continue
        # one session: \set lo/hi + \i gen_batch.sql per batch of its range
        for ((b = lo; b <= hi; b += batch)); do
            bhi=$(( b + batch - 1 )); [ "$bhi" -gt "$hi" ] && bhi=$hi
            printf '\\set lo %s\n\\set hi %s\n\\i %s\n' "$b" "$bhi" "$TPCH_DIR/gen_batch.sql"
        done | "${psql[@]}" -v parts="$parts" -v supps="$supps" -v custs="$custs" -v clerks="$clerks" \
            -c "SET synchronous_commit = off" -f - &
        pids="$pids $!"
    done
    # customer, supplier, nation, region: one more session
    "${psql[@]}" -v custs="$custs" -v supps="$supps" -c "SET synchronous_commit = off" \
        -f "$TPCH_DIR/gen_dims.sql" &
    pids="$pids $!"
    for p in $pids; do wait "$p" || rc=1; done
    [ "$rc" = 0 ] || { echo "tpch: ERROR: loading failed"; return 1; }
    TPCH_INSERT_S=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    # the sessions committed asynchronously (synchronous_commit = off): until
    # their commit records are flushed VACUUM sets no all-visible bit, and the
    # column cache takes only all-visible pages; one synchronous commit
    # flushes them (as bench/groupby/gen.sh)
    "${psql[@]}" -c "SET synchronous_commit = on" -c "COMMENT ON TABLE lineitem IS 'tpch loading'" || return 1
    # VACUUM ANALYZE: statistics, and all-visible pages; lineitem beside
    # the others
    "${psql[@]}" -c "VACUUM ANALYZE lineitem" & p=$!
    "${psql[@]}" -c "VACUUM ANALYZE orders, customer, supplier, nation, region" || rc=1
    wait "$p" || rc=1
    [ "$rc" = 0 ] || { echo "tpch: ERROR: VACUUM ANALYZE failed"; return 1; }
    # a page VACUUM found pinned (a concurrent reader: autovacuum's ANALYZE,
    # the background writer) is left without its all-visible bit, and the
    # column cache skips it: once more over the tables that have such pages
    # (VACUUM reads only those)
    for t in $("${psql[@]}" -Atc "SELECT relname FROM pg_class WHERE relname IN ('lineitem', 'orders', 'customer', 'supplier', 'nation', 'region') AND relnamespace = 'public'::regnamespace AND relallvisible < relpages"); do
        echo "==> tpch: $t: $("${psql[@]}" -Atc "SELECT relpages - relallvisible FROM pg_class WHERE oid = '$t'::regclass") pages not all-visible: VACUUM $t"
        "${psql[@]}" -c "VACUUM $t" || return 1
    done
    "${psql[@]}" -c "COMMENT ON TABLE lineitem IS 'tpch sf=$sf tables=6'" || return 1
    TPCH_LOAD_S=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    "${psql[@]}" -Atc "SELECT string_agg(t || ': ' || n || ' rows, ' || pg_size_pretty(pg_table_size(t)), '; ' ORDER BY o)
                       FROM (VALUES (1, 'lineitem', (SELECT count(*) FROM lineitem)),
                                    (2, 'orders', (SELECT count(*) FROM orders)),
                                    (3, 'customer', (SELECT count(*) FROM customer)),
                                    (4, 'supplier', (SELECT count(*) FROM supplier)),
                                    (5, 'nation', (SELECT count(*) FROM nation)),
                                    (6, 'region', (SELECT count(*) FROM region))) AS x(o, t, n)" | sed 's/^/==> tpch: /'
    echo "==> tpch: loaded in $TPCH_LOAD_S s (inserts $TPCH_INSERT_S s, VACUUM ANALYZE the rest)"
}

# run on its own: find psql (test/lib.sh) and load into DB (default bench)
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    if [ -z "${PGBIN:-}" ]; then
        # shellcheck source=test/lib.sh
        . "$TPCH_DIR/../../test/lib.sh"
        gx_find_pg_config || exit 1
    fi
    tpch_gen "${1:-${BENCH_DB:-bench}}" || exit 1
fi
