#!/usr/bin/env bash
# bench/tpch/gen.sh - TPC-H-style data for bench/tpch.sh: tables orders and
# lineitem (bench/tpch/schema.sql) generated inside PostgreSQL with
# generate_series and deterministic pseudo-random functions of the row
# number (bench/tpch/gen_batch.sql: the distributions), no dbgen needed.
#
#   TPCH_SF=1 bench/tpch/gen.sh [DB]      # against PGHOST/PGPORT/PGUSER
#
# SF x 1.5M orders (sparse keys) with 1..7 lineitems each (about SF x 6M
# lineitems).  The orders are split into TPCH_JOBS contiguous ranges, one
# psql session each, loading in parallel as test/lib.sh gx_load_tablet does
# for tablet; a session works through its range in batches of
# TPCH_BATCH orders (one INSERT ... of orders and lineitems each).  Then
# VACUUM ANALYZE of both tables (two sessions), and a table comment
# "tpch sf=SF" on lineitem: a later run with the same SF skips the load
# (TPCH_FORCE=1 loads anyway).  Prints the rows, sizes and load time.
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
    if [ "$have" = "tpch sf=$sf" ] && [ "${TPCH_FORCE:-0}" != 1 ]; then
        echo "==> tpch: orders and lineitem already hold SF $sf ($("${psql[@]}" -Atc "SELECT count(*) FROM lineitem") lineitems)"
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
    for p in $pids; do wait "$p" || rc=1; done
    [ "$rc" = 0 ] || { echo "tpch: ERROR: loading failed"; return 1; }
    TPCH_INSERT_S=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    # the sessions committed asynchronously (synchronous_commit = off): until
    # their commit records are flushed VACUUM sets no all-visible bit, and the
    # column cache takes only all-visible pages; one synchronous commit
    # flushes them (as bench/groupby/gen.sh)
    "${psql[@]}" -c "SET synchronous_commit = on" -c "COMMENT ON TABLE lineitem IS 'tpch loading'" || return 1
    # VACUUM ANALYZE: statistics, and all-visible pages; both tables at once
    "${psql[@]}" -c "VACUUM ANALYZE lineitem" & p=$!
    "${psql[@]}" -c "VACUUM ANALYZE orders" || rc=1
    wait "$p" || rc=1
    [ "$rc" = 0 ] || { echo "tpch: ERROR: VACUUM ANALYZE failed"; return 1; }
    "${psql[@]}" -c "COMMENT ON TABLE lineitem IS 'tpch sf=$sf'" || return 1
    TPCH_LOAD_S=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    "${psql[@]}" -Atc "SELECT 'orders: ' || (SELECT count(*) FROM orders) || ' rows, ' ||
                              pg_size_pretty(pg_table_size('orders')) ||
                              '; lineitem: ' || (SELECT count(*) FROM lineitem) || ' rows, ' ||
                              pg_size_pretty(pg_table_size('lineitem'))" | sed 's/^/==> tpch: /'
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
