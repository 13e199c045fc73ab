#!/usr/bin/env bash
# bench/join/gen.sh - the tables of bench/join.sh (the workloads of Table 4
# of "Relational joins on graphics processors", issue 15), generated inside
# PostgreSQL by parallel sessions (as bench/groupby/gen.sh):
#
#   JOIN_ROWS=200000 bench/join/gen.sh [DB]   # against PGHOST/PGPORT/PGUSER
#
# All of (rid int4, key int4), rid = 1..rows, in rid order, no indexes:
#
#   r        JOIN_ROWS rows, key = (rid x 2654435761) mod rows: every key of
#            0..rows-1 exactly once, shuffled (2654435761 is a prime)
#   s        JOIN_ROWS rows, key uniform in 0..rows-1 (a hash of rid,
#            hashint8extended): so r JOIN s has exactly rows pairs, and
#            about 63% of r's keys occur in s (SEMI), the rest not (ANTI)
#   s10, s50, s90   s with 10%, 50%, 90% of the keys 1 (the rows with
#            rid mod 100 < 10, 50, 90; exactly that share when rows is a
#            multiple of 100), the others as in s: the paper's skew, "a
#            certain percentage of tuples set to a constant key value"
#   br, bs   JOIN_BAND_ROWS rows each, keys uniform in 0..band rows-1
#            (independent hashes): the band join's tables; r.key <= s.key
#            AND s.key <= r.key + d has about rows x (d + 1) pairs
#
# Each table's rows are split into contiguous ranges inserted by
# JOIN_JOBS sessions at once, in batches of JOIN_BATCH rows.  Then a
# synchronous commit, VACUUM (FREEZE, ANALYZE) (all-visible pages: the
# column cache takes only those) and a comment "join v1 rows=R band=B" on
# r: a later run with the same sizes skips the load (JOIN_FORCE=1 loads
# anyway).
#
# Environment:
#   JOIN_ROWS       rows of r, s, s10, s50, s90 (default 16000000)
#   JOIN_BAND_ROWS  rows of br, bs (default 1000000)
#   JOIN_JOBS       parallel sessions (default: the cores, at most 16; 1
#                   below 200000 rows)
#   JOIN_BATCH      rows per INSERT (default 4000000)
#   JOIN_FORCE      1: load even when the tables are there
#   PG_CONFIG / PGBIN  which psql (test/lib.sh gx_find_pg_config)

set -u -o pipefail

JOIN_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
JOIN_TAG=v1
JOIN_TABLES="r s s10 s50 s90 br bs"

# join_key_sql TABLE ROWS: the key expression of TABLE over rid i (int8)
join_key_sql() {
    local uniform="((hashint8extended(i, 15) & 2147483647) % $2)::int4"
    case "$1" in
        r) echo "((i * 2654435761) % $2)::int4" ;;
        s) echo "$uniform" ;;
        s[0-9]*) echo "CASE WHEN i % 100 < ${1#s} THEN 1 ELSE $uniform END" ;;
        br) echo "((hashint8extended(i, 17) & 2147483647) % $2)::int4" ;;
        bs) echo "((hashint8extended(i, 18) & 2147483647) % $2)::int4" ;;
    esac
}

# join_gen DB: the load (bench/join.sh sources this file); sets
# JOIN_LOAD_S (n/a when the tables were there already); returns 1 on failure
join_gen() {
    local db=$1 rows=${JOIN_ROWS:-16000000} brows=${JOIN_BAND_ROWS:-1000000} jobs=${JOIN_JOBS:-}
    local batch=${JOIN_BATCH:-4000000} have t0 tbl n chunk k lo hi b bhi pids="" p rc=0 tag
    local psql=("$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -d "$db")
    JOIN_LOAD_S=n/a
    for v in rows brows batch; do
        case "${!v}" in ''|*[!0-9]*|0) echo "join: bad size '${!v}' ($v)"; return 1 ;; esac
    done
    tag="join $JOIN_TAG rows=$rows band=$brows"
    have=$("${psql[@]}" -Atc "SELECT obj_description(to_regclass('r'), 'pg_class')" 2>/dev/null | tail -n 1)
    if [ "$have" = "$tag" ] && [ "${JOIN_FORCE:-0}" != 1 ]; then
        echo "==> join: r, s, s10, s50, s90 already hold $rows rows, br, bs $brows"
        return 0
    fi
    jobs=$(bench_gen_jobs "$jobs" "$rows")
    echo "==> join: generating $JOIN_TABLES: $rows rows ($brows for br, bs); $jobs sessions, batches of $batch rows"
    t0=$(date +%s.%N)
    for tbl in $JOIN_TABLES; do
        printf 'DROP TABLE IF EXISTS %s; CREATE TABLE %s (rid int4 NOT NULL, key int4 NOT NULL);\n' "$tbl" "$tbl"
    done | "${psql[@]}" -c "SET client_min_messages = warning" -f - || return 1
    # session k inserts range k of every table
    for ((k = 0; k < jobs; k++)); do
        for tbl in $JOIN_TABLES; do
            case "$tbl" in b*) n=$brows ;; *) n=$rows ;; esac
            chunk=$(( (n + jobs - 1) / jobs ))
            lo=$(( k * chunk + 1 )); hi=$(( (k + 1) * chunk ))
            [ "$hi" -gt "$n" ] && hi=$n
            for ((b = lo; b <= hi; b += batch)); do
                bhi=$(( b + batch - 1 )); [ "$bhi" -gt "$hi" ] && bhi=$hi
                printf '%s\n' "INSERT INTO $tbl SELECT i::int4, $(join_key_sql "$tbl" "$n") FROM generate_series(${b}::int8, ${bhi}::int8) AS i;"
            done
        done | "${psql[@]}" -c "SET synchronous_commit = off" -f - &
        pids="$pids $!"
    done
    for p in $pids; do wait "$p" || rc=1; done
    [ "$rc" = 0 ] || { echo "join: ERROR: loading failed"; return 1; }
    # flush the sessions' asynchronous commits (bench/groupby/gen.sh says why)
    "${psql[@]}" -c "SET synchronous_commit = on" -c "COMMENT ON TABLE r IS 'join loading'" || return 1
    "${psql[@]}" -c "VACUUM (FREEZE, ANALYZE) $(echo "$JOIN_TABLES" | sed 's/ /, /g')" ||
        { echo "join: ERROR: VACUUM failed"; return 1; }
    "${psql[@]}" -c "COMMENT ON TABLE r IS '$tag'" || return 1
    JOIN_LOAD_S=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    for tbl in $JOIN_TABLES; do
        "${psql[@]}" -Atc "SELECT '$tbl: ' || count(*) || ' rows, ' || pg_size_pretty(pg_table_size('$tbl')) FROM $tbl"
    done | sed 's/^/==> join: /'
    echo "==> join: loaded in $JOIN_LOAD_S s"
}

# run on its own: find psql (test/lib.sh) and load into DB (default join)
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    if [ -z "${PGBIN:-}" ]; then
        # shellcheck source=test/lib.sh
        . "$JOIN_DIR/../../test/lib.sh"
        gx_find_pg_config || exit 1
    fi
    # (bench_gen_jobs)
    # shellcheck source=bench/lib.sh
    declare -F bench_gen_jobs >/dev/null || . "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
    join_gen "${1:-${BENCH_DB:-join}}" || exit 1
fi
