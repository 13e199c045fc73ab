#!/usr/bin/env bash
# bench/groupby/gen.sh - the table of bench/groupby.sh, generated inside
# PostgreSQL by parallel sessions (as bench/tpch/gen.sh), no external tools:
#
#   GROUPBY_ROWS=1000000 bench/groupby/gen.sh [DB]   # against PGHOST/PGPORT/PGUSER
#
#   t(id int8, g10 int4, g10k int4, g1m int4, g50m int4, v int4)
#
# id = 1..GROUPBY_ROWS; gN = (id * 2654435761) mod min(N, rows): 2654435761
# is a prime, coprime to 10^k and 5 x 10^k, so gN is a bijection of id mod N
# (exactly rows / N rows a group, the group count capped at the row count),
# and consecutive rows fall into groups far apart (g10 cycles 0..9, g50m
# steps by 4435761): every group's rows are spread over the whole table,
# no sorted runs.  v = a hash of id (hashint8extended) in -100000..100000.
# Rows are inserted in id order, so the heap is in id order; no indexes.
#
# The ids are split into GROUPBY_JOBS contiguous ranges, one psql session
# each, a session inserting its range in batches of GROUPBY_BATCH rows.
# Then a synchronous commit (flushing the sessions' asynchronous ones) and
# VACUUM (FREEZE, ANALYZE) (all-visible pages: the column cache takes only
# those) and a table comment "groupby v1 rows=R": a later run with the
# same rows skips the load (GROUPBY_FORCE=1 loads anyway).
#
# Environment:
#   GROUPBY_ROWS   rows (default 100000000)
#   GROUPBY_JOBS   parallel sessions (default: the cores, at most 16; 1 below
#                  200000 rows)
#   GROUPBY_BATCH  rows per INSERT (default 5000000)
#   GROUPBY_FORCE  1: load even when the table already holds these rows
#   PG_CONFIG / PGBIN  which psql (test/lib.sh gx_find_pg_config)

set -u -o pipefail

GROUPBY_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
GROUPBY_TAG=v1

# groupby_ngroups N ROWS: the group count of column gN, capped at the rows
groupby_ngroups() {
    if [ "$1" -gt "$2" ]; then echo "$2"; else echo "$1"; fi
}

# groupby_gen DB: the load (a function: bench/groupby.sh sources this file);
# sets GROUPBY_LOAD_S (n/a when the table was there already); returns 1 on
# failure
groupby_gen() {
    local db=$1 rows=${GROUPBY_ROWS:-100000000} jobs=${GROUPBY_JOBS:-} batch=${GROUPBY_BATCH:-5000000}
    local have t0 chunk k lo hi b bhi pids="" p rc=0 n10 n10k n1m n50m
    local psql=("$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -d "$db")
    GROUPBY_LOAD_S=n/a
    case "$rows" in ''|*[!0-9]*|0) echo "groupby: bad GROUPBY_ROWS '$rows'"; return 1 ;; esac
    case "$batch" in ''|*[!0-9]*|0) echo "groupby: bad GROUPBY_BATCH '$batch'"; return 1 ;; esac
    have=$("${psql[@]}" -Atc "SELECT obj_description(to_regclass('t'), 'pg_class')" 2>/dev/null | tail -n 1)
    if [ "$have" = "groupby $GROUPBY_TAG rows=$rows" ] && [ "${GROUPBY_FORCE:-0}" != 1 ]; then
        echo "==> groupby: t already holds $rows rows"
        return 0
    fi
    jobs=$(bench_gen_jobs "$jobs" "$rows")
    n10=$(groupby_ngroups 10 "$rows"); n10k=$(groupby_ngroups 10000 "$rows")
    n1m=$(groupby_ngroups 1000000 "$rows"); n50m=$(groupby_ngroups 50000000 "$rows")
    echo "==> groupby: generating t: $rows rows, groups $n10 / $n10k / $n1m / $n50m; $jobs sessions, batches of $batch rows"
    t0=$(date +%s.%N)
    "${psql[@]}" <<'EOF' || return 1
SET client_min_messages = warning;
DROP TABLE IF EXISTS t;
CREATE TABLE t (
    id   int8 NOT NULL,
    g10  int4 NOT NULL,
    g10k int4 NOT NULL,
    g1m  int4 NOT NULL,
    g50m int4 NOT NULL,
    v    int4 NOT NULL
);
EOF
    chunk=$(( (rows + jobs - 1) / jobs ))
    for ((k = 0; k < jobs; k++)); do
        lo=$(( k * chunk + 1 )); hi=$(( (k + 1) * chunk ))
        [ "$hi" -gt "$rows" ] && hi=$rows
        [ "$lo" -gt "$hi" ] && continue
        for ((b = lo; b <= hi; b += batch)); do
            bhi=$(( b + batch - 1 )); [ "$bhi" -gt "$hi" ] && bhi=$hi
            printf '%s\n' "INSERT INTO t SELECT i, ((i * 2654435761) % $n10)::int4, ((i * 2654435761) % $n10k)::int4, ((i * 2654435761) % $n1m)::int4, ((i * 2654435761) % $n50m)::int4, ((hashint8extended(i, 14) & 2147483647) % 200001)::int4 - 100000 FROM generate_series(${b}::int8, ${bhi}::int8) AS i;"
        done | "${psql[@]}" -c "SET synchronous_commit = off" -f - &
        pids="$pids $!"
    done
    for p in $pids; do wait "$p" || rc=1; done
    [ "$rc" = 0 ] || { echo "groupby: ERROR: loading failed"; return 1; }
    GROUPBY_INSERT_S=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    # the sessions committed asynchronously (synchronous_commit = off): until
    # their commit records are flushed VACUUM sets no hint bits, and so no
    # all-visible bits, on their pages.  A synchronous commit that writes WAL
    # (an xid alone is committed asynchronously: pg_current_xact_id() would
    # not do) flushes them all.
    "${psql[@]}" -c "SET synchronous_commit = on" -c "COMMENT ON TABLE t IS 'groupby loading'" || return 1
    "${psql[@]}" -c "VACUUM (FREEZE, ANALYZE) t" || { echo "groupby: ERROR: VACUUM failed"; return 1; }
    "${psql[@]}" -c "COMMENT ON TABLE t IS 'groupby $GROUPBY_TAG rows=$rows'" || return 1
    GROUPBY_LOAD_S=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    "${psql[@]}" -Atc "SELECT 't: ' || count(*) || ' rows, ' || pg_size_pretty(pg_table_size('t')) FROM t" |
        sed 's/^/==> groupby: /'
    echo "==> groupby: loaded in $GROUPBY_LOAD_S s (inserts $GROUPBY_INSERT_S s, VACUUM the rest)"
}

# run on its own: find psql (test/lib.sh) and load into DB (default bench)
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    if [ -z "${PGBIN:-}" ]; then
        # shellcheck source=test/lib.sh
        . "$GROUPBY_DIR/../../test/lib.sh"
        gx_find_pg_config || exit 1
    fi
    # (bench_gen_jobs)
    # shellcheck source=bench/lib.sh
    declare -F bench_gen_jobs >/dev/null || . "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
    groupby_gen "${1:-${BENCH_DB:-bench}}" || exit 1
fi
