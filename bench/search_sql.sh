#!/usr/bin/env bash
# bench/search_sql.sh - issue 16's lookup benchmarks at the SQL level:
# Kaldewey's Table 1 and Figure 8 (batches of lookups into a sorted column
# of unique int8 keys: response time, throughput, and the throughput under
# a response-time limit) and the indexed nested-loop row of the join
# issue's Table 4, for PostgreSQL's btree plans, gpuext's big-set filter
# over the column cache and the prefix-tree index's batched lookup.
# (docs/bench/h100_search_bench.md has the same tables at the kernel level.)
#
#   SEARCH_SQL_ROWS=1000000 SEARCH_SQL_BATCHES="16 1024 16384" SEARCH_SQL_DEVICE=cpu \
#       SEARCH_SQL_S_ROWS=1000000 SEARCH_SQL_R_ROWS=100000 bench/search_sql.sh   # any host
#   bench/search_sql.sh                        # GPU host: 36M rows, 16 .. 1M keys
#   SKIP_TESTS=1 SKIP_BENCH=1 BENCH_SEARCH_SQL=1 test/gpu/run.sh   # on the GPU host
#   BENCH_START=0 PGHOST=... PGPORT=... bench/search_sql.sh   # a running server
#
# Data (generated inside PostgreSQL, one INSERT ... SELECT generate_series a
# table, in the transaction that creates it: with the cluster's wal_level =
# minimal no WAL is written for it; then the indexes, VACUUM (FREEZE,
# ANALYZE) and gpuext_cache_load of t and s; the load steps are timed):
#
#   t(id int8, k int8)   SEARCH_SQL_ROWS rows, k = 2 * id: a sorted column
#                        of unique keys; a btree index t_bt and a
#                        gpuext_ptree index t_pt on k
#   keys(b int, a int8[])  a row per batch size B of SEARCH_SQL_BATCHES: B
#                        distinct keys in random order, key i (1 .. B)
#                        from j = i * 2654435761 mod ROWS: 2 (j + 1) (the k
#                        of row j + 1) for even i, 2 j + 1 (odd: between
#                        two keys, absent) for odd i: half hit, half miss,
#                        every probe down to a leaf; keys_B(k int8): the
#                        same keys as rows (the parallel nested loop's)
#   r(rid int8, key int8), s(rid int8, key int8)   Table 4's INLJ: r of
#                        SEARCH_SQL_R_ROWS rows, distinct keys
#                        rid * 2654435761 mod S_ROWS; s of SEARCH_SQL_S_ROWS
#                        rows, keys uniform in [0, S_ROWS) from a hash of
#                        rid (repeats; about 63% of r's keys match); a btree
#                        index s_bt and a gpuext_ptree index s_pt on key
#
# Table 1 / Figure 8: for every batch B, the methods (SEARCH_SQL_SKIP
# leaves some out by name, e.g. "any_w8 nl_w8 ptree_2 inlj_set"):
#
#   any_wN     PG btree = ANY      gpuext.enabled = off, N parallel workers
#              (N of SEARCH_SQL_PG_WORKERS; 0 is serial; N > 0 with the
#              parallel costs at 0, so the planner uses them where it can):
#                SELECT count(*), sum(id) FROM t
#                WHERE k = ANY ((SELECT a FROM keys WHERE b = B)::int8[])
#              an index scan of t_bt, a descent a key
#   nl_wN      PG btree nested loop   the same settings, enable_hashjoin
#              and enable_mergejoin off; serial:
#                SELECT count(*), sum(t.id) FROM unnest((SELECT a FROM keys
#                WHERE b = B)) u(k) JOIN t USING (k)
#              with N > 0 (unnest is no partial path) the keys from keys_B:
#                SELECT count(*), sum(t.id) FROM keys_B u JOIN t USING (k)
#              an index nested loop over t_bt
#   The PG methods (here and in Table 4) run in a transaction that drops
#   the gpuext_ptree index first (rolled back at the session's end): the
#   planner would take it where it costs less than the btree.
#   set_binary gpuext big set, binary   the = ANY query with gpuext.force =
#              on over the cached t: the keys a big set in device memory,
#              each of t's rows searched in it (gpuext.search = binary)
#   set_pary   gpuext big set, p-ary    the same, gpuext.search = pary
#   ptree_P    gpuext_ptree_lookup, P parts   P of SEARCH_SQL_PARTS: 0 the
#              sequential walk, 2 .. 16 the speculative partitioned
#              traversal:
#                SELECT count(*), sum(t.id) FROM gpuext_ptree_lookup('t_pt',
#                (SELECT a FROM keys WHERE b = B), P, visible => true) l
#                JOIN t ON t.ctid = l.tid
#              (the index's image built by the session's first call, then
#              written to the device and searched in every call; hash and
#              merge joins off: the rows fetched by TID scans)
#
# Table 4's indexed nested-loop row (SEARCH_SQL_INLJ=0 leaves it out):
#
#   inlj_pg_wN  SELECT count(*), sum(s.rid) FROM r JOIN s ON s.key = r.key
#               with gpuext.enabled = off, hash and merge joins off, N of
#               SEARCH_SQL_JOIN_WORKERS parallel workers (8): an index
#               nested loop over s_bt with r's rows split among the workers
#   inlj_ptree_P  SELECT count(*), sum(s.rid) FROM gpuext_ptree_lookup(
#               's_pt', (SELECT array_agg(key) FROM r), P, visible => true)
#               l JOIN s ON s.ctid = l.tid
#   inlj_set    SELECT count(*), sum(rid) FROM s WHERE key = ANY ((SELECT
#               array_agg(key) FROM r)::int8[]) with gpuext.force = on over the
#               cached s (a semi-join: the same rows, r's keys distinct)
#
# Timing: a method runs in one psql session, the ptree_P methods all in
# one (the backend keeps the index's image it built): for each method and
# batch, smallest first, the query once untimed (warm: the ptree image
# built, the filter's kernel compiled with gpuext.jit_wait = on, the pages
# read), then SEARCH_SQL_RUNS times timed by psql's \timing (the client
# round trip, no connection set-up); the figure is the best.  The gpuext
# methods run after gpuext_cache_load of the tables.  keys/s = B / the
# best time.  "Under a response-time limit": for each limit of
# SEARCH_SQL_LIMITS_MS (10 50), a method's largest batch whose best time
# is within the limit, and its keys/s (Kaldewey's Figure 8 at the measured
# batch sizes).
#
# Check: every run's count and sum must equal the expected value,
# computed from the key generator alone (SELECT count(*), sum(j + 1) over
# the even i), which the btree plans' results must equal too; the INLJ
# rows must equal PostgreSQL's own plan of the join (a hash join, run
# untimed).  Anything else is a FAIL (exit 2).
#
# Budget: SEARCH_SQL_BUDGET_S (0: none) seconds from the cluster's start
# (after a build) to the end of the runs; every statement gets a
# statement_timeout of what is left when its session starts, and past it
# the remaining methods are skipped (n/a).  Order: the serial PG rows,
# gpuext's, the parallel PG rows, then Table 4.
#
# Output in $OUT: search_sql.md (the tables, a line per method), the
# sessions' logs (search_sql_<method>.log, search_sql_ptree.log,
# search_sql_inlj_ptree.log), EXPLAIN of every method at the
# largest batch (search_sql_explain_<method>.txt), the load log.
#
# Environment:
#   SEARCH_SQL_ROWS        rows of t (36000000)
#   SEARCH_SQL_BATCHES     batch sizes (16 1024 16384 1048576; each at most ROWS)
#   SEARCH_SQL_RUNS        timed runs after the warm one (3)
#   SEARCH_SQL_BUDGET_S    see Budget (0)
#   SEARCH_SQL_PG_WORKERS  parallel workers of the PG rows (0 8)
#   SEARCH_SQL_PARTS       parts of gpuext_ptree_lookup (0 2 4 8 16)
#   SEARCH_SQL_LIMITS_MS   response-time limits (10 50)
#   SEARCH_SQL_SKIP        methods to leave out (none)
#   SEARCH_SQL_INLJ        1: Table 4's row (default), 0: not
#   SEARCH_SQL_R_ROWS, SEARCH_SQL_S_ROWS   r and s (1000000, 16000000)
#   SEARCH_SQL_JOIN_WORKERS  parallel workers of PG's INLJ (8)
#   SEARCH_SQL_DEVICE      gpuext.device of the gpuext methods (gpu; cpu
#                          runs them on the CPU device)
#   OUT (/tmp/out), BENCH_START, BENCH_BUILD, BENCH_PORT (54336), BENCH_DB
#   (searchsql), PG_CONFIG: as bench/search_sets.sh.

set -u -o pipefail
exec 2>&1

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=test/lib.sh
. "$HERE/../test/lib.sh"
# shellcheck source=bench/lib.sh
. "$HERE/lib.sh"

ROWS=${SEARCH_SQL_ROWS:-36000000}
BATCHES=${SEARCH_SQL_BATCHES:-16 1024 16384 1048576}
RUNS=${SEARCH_SQL_RUNS:-3}
BUDGET_S=${SEARCH_SQL_BUDGET_S:-0}
PG_WORKERS=${SEARCH_SQL_PG_WORKERS-0 8}
PARTS=${SEARCH_SQL_PARTS-0 2 4 8 16}
LIMITS=${SEARCH_SQL_LIMITS_MS:-10 50}
SKIP=" ${SEARCH_SQL_SKIP:-} "
INLJ=${SEARCH_SQL_INLJ:-1}
R_ROWS=${SEARCH_SQL_R_ROWS:-1000000}
S_ROWS=${SEARCH_SQL_S_ROWS:-16000000}
J_WORKERS=${SEARCH_SQL_JOIN_WORKERS:-8}
DEV=${SEARCH_SQL_DEVICE:-gpu}
OUT=${OUT:-/tmp/out}
DB=${BENCH_DB:-searchsql}
MULT=2654435761
for v in ROWS RUNS R_ROWS S_ROWS; do
    case "${!v}" in ''|*[!0-9]*|0) echo "ERROR: SEARCH_SQL_$v must be a positive number, not '${!v}'"; exit 1 ;; esac
done
case "$BUDGET_S" in ''|*[!0-9]*) echo "ERROR: SEARCH_SQL_BUDGET_S must be a number, not '$BUDGET_S'"; exit 1 ;; esac
# shellcheck disable=SC2086
for n in $BATCHES $PG_WORKERS $PARTS $LIMITS $J_WORKERS; do
    case "$n" in ''|*[!0-9]*) echo "ERROR: '$n' in a SEARCH_SQL_ list is no number"; exit 1 ;; esac
done
# shellcheck disable=SC2086
BATCHES=$(printf '%s\n' $BATCHES | sort -n -u | tr '\n' ' ' | sed 's/ $//')
for b in $BATCHES; do
    [ "$b" -ge 1 ] && [ "$b" -le "$ROWS" ] || { echo "ERROR: batch $b is not within 1 .. SEARCH_SQL_ROWS ($ROWS)"; exit 1; }
done
[ "$R_ROWS" -le "$S_ROWS" ] || { echo "ERROR: SEARCH_SQL_R_ROWS must be at most SEARCH_SQL_S_ROWS (r's keys are distinct in [0, S_ROWS))"; exit 1; }
if [ -z "${BENCH_START:-}" ]; then
    if [ -n "${PGPORT:-}" ]; then BENCH_START=0; else BENCH_START=1; fi
fi
mkdir -p "$OUT" || exit 1
gx_find_pg_config || exit 1
bench_on_exit ''

bench_ensure_installed || exit 1
T_START=$SECONDS
if [ "$BENCH_START" = 1 ]; then
    gx_setup_user || exit 1
    # wal_level = minimal: the tables and indexes created and filled in one
    # transaction write no WAL; maintenance_work_mem: the index builds sort
    # t's keys in memory (48 bytes a row, 256 MB to 8 GB)
    mwm=$(( ROWS * 48 / 1048576 ))
    [ "$mwm" -lt 256 ] && mwm=256
    [ "$mwm" -gt 8192 ] && mwm=8192
    bench_cluster_init "${BENCH_PORT:-54336}" $(( (ROWS + S_ROWS + R_ROWS) * 2 )) \
        "wal_level = minimal" "max_wal_senders = 0" "maintenance_work_mem = ${mwm}MB" || exit 1
    gx_cluster_start || exit 1
fi
bench_create_db "$DB" "$OUT/search_sql_devices.txt" || exit 1

# ------------------------------------------------------------------ data
GENLOG=$OUT/search_sql_gen.log
: >"$GENLOG"
declare -A LOADMS
# load_step NAME SQL: SQL in one transaction (psql -1; a VACUUM on its
# own), its wall time in LOADMS[NAME]
load_step() {
    local t0 one=-1
    case "$2" in VACUUM*) one="" ;; esac
    t0=$(date +%s%N)
    echo "-- $1" >>"$GENLOG"
    gx_psql -d "$DB" $one -q -f - >>"$GENLOG" 2>&1 <<<"$2" || { echo "ERROR: $1 failed:"; tail -n 5 "$GENLOG"; exit 1; }
    LOADMS[$1]=$(( ($(date +%s%N) - t0) / 1000000 ))
    gx_log "$1: ${LOADMS[$1]} ms"
}
BATCH_ARR="{$(echo "$BATCHES" | tr ' ' ',')}"
gx_log "generating t: $ROWS rows; batches: $BATCHES"
load_step "t: insert" "DROP TABLE IF EXISTS t, keys$(for b in $BATCHES; do printf ', keys_%s' "$b"; done);
CREATE TABLE t (id int8, k int8);
INSERT INTO t SELECT g, 2 * g FROM generate_series(1, $ROWS) g;"
load_step "t: btree index" "CREATE INDEX t_bt ON t (k);"
load_step "t: gpuext_ptree index" "CREATE INDEX t_pt ON t USING gpuext_ptree (k);"
load_step "t: VACUUM (FREEZE, ANALYZE)" "VACUUM (FREEZE, ANALYZE) t;"
load_step "keys" "CREATE TABLE keys AS
SELECT b, array_agg(CASE WHEN i % 2 = 0 THEN 2 * (i * $MULT % $ROWS + 1) ELSE 2 * (i * $MULT % $ROWS) + 1 END ORDER BY i) AS a
FROM unnest('$BATCH_ARR'::int[]) b, generate_series(1::int8, b) i GROUP BY b;
$(for b in $BATCHES; do echo "CREATE TABLE keys_$b AS SELECT unnest(a) AS k FROM keys WHERE b = $b;"; done)"
load_step "keys: VACUUM (ANALYZE)" "VACUUM (ANALYZE) keys$(for b in $BATCHES; do printf ', keys_%s' "$b"; done);"
if [ "$INLJ" = 1 ]; then
    gx_log "generating r: $R_ROWS rows, s: $S_ROWS rows"
    load_step "s: insert" "DROP TABLE IF EXISTS r, s;
CREATE TABLE s (rid int8, key int8);
INSERT INTO s SELECT g, (hashint8(g)::int8 & 2147483647) % $S_ROWS FROM generate_series(1, $S_ROWS) g;"
    load_step "s: btree index" "CREATE INDEX s_bt ON s (key);"
    load_step "s: gpuext_ptree index" "CREATE INDEX s_pt ON s USING gpuext_ptree (key);"
    load_step "r: insert" "CREATE TABLE r (rid int8, key int8);
INSERT INTO r SELECT g, g * $MULT % $S_ROWS FROM generate_series(1, $R_ROWS) g;"
    load_step "r, s: VACUUM (FREEZE, ANALYZE)" "VACUUM (FREEZE, ANALYZE) r, s;"
fi
TABLES="t keys $(for b in $BATCHES; do printf "keys_%s " "$b"; done)"; [ "$INLJ" = 1 ] && TABLES="$TABLES r s"
# shellcheck disable=SC2086
bench_tables_prewarm "$DB" $TABLES
gx_psql -d "$DB" -qc "CREATE EXTENSION IF NOT EXISTS pg_prewarm" >/dev/null 2>&1 &&
    for i in t_bt s_bt; do gx_psql -d "$DB" -Atc "SELECT pg_prewarm('$i')" >/dev/null 2>&1; done
CACHED="t"; [ "$INLJ" = 1 ] && CACHED="t s"
# shellcheck disable=SC2086
DB=$DB bench_cache_load "$OUT/search_sql_cache.log" "$DEV" $CACHED
LOAD_S=$((SECONDS - T_START))
gx_log "set-up: $LOAD_S s"

# the expected count|sum of each batch, from the key generator alone
declare -A WANT
for b in $BATCHES; do
    WANT[$b]=$(gx_psql -d "$DB" -At -c "SELECT count(*), sum(i * $MULT % $ROWS + 1) FROM generate_series(2::int8, $b, 2) i")
done

# ------------------------------------------------------------------ methods
PGOFF="-c gpuext.enabled=off"
PAR0="-c parallel_setup_cost=0 -c parallel_tuple_cost=0 -c min_parallel_table_scan_size=0 -c min_parallel_index_scan_size=0"
GX="-c gpuext.device=$DEV -c max_parallel_workers_per_gather=0"
# the ctid join of a lookup's TIDs as a nested loop of TID scans
TIDNL="-c enable_hashjoin=off -c enable_mergejoin=off"
# PostgreSQL's planner takes the gpuext_ptree index where it costs less than
# the btree: the btree rows run in a transaction that drops it first
# (rolled back at the end of the session), so that the planner sees the
# btree alone
declare -A TITLE OPTS SQLT WHAT PRE
METHODS=()
# add_method NAME TITLE OPTS SQL WHAT [PRE]: a method (SQL with @B for the
# batch size; PRE: SQL run first in its session, in a transaction that is
# rolled back at its end)
add_method() {
    case "$SKIP" in *" $1 "*) return ;; esac
    METHODS+=("$1"); TITLE[$1]=$2; OPTS[$1]=$3; SQLT[$1]=$4; WHAT[$1]=$5; PRE[$1]=${6:-}
}
# workers N: the parallel settings of N workers
workers() {
    if [ "$1" = 0 ]; then echo "-c max_parallel_workers_per_gather=0"; else echo "-c max_parallel_workers_per_gather=$1 $PAR0"; fi
}
KEYS_Q="(SELECT a FROM keys WHERE b = @B)"
# add_pg_methods 0|N: the PG btree methods of the serial (0) or the
# parallel settings (N of SEARCH_SQL_PG_WORKERS but 0)
add_pg_methods() {
    local w
    for w in $PG_WORKERS; do
        if [ "$1" = 0 ]; then [ "$w" = 0 ] || continue; else [ "$w" != 0 ] || continue; fi
        add_method "any_w$w" "PG btree = ANY, $w workers" "$PGOFF $(workers "$w")" \
            "SELECT count(*), sum(id) FROM t WHERE k = ANY ($KEYS_Q::int8[]);" \
            "PostgreSQL's plan for k = ANY (the batch as an InitPlan's array), gpuext off, max_parallel_workers_per_gather = $w (the plan column says what it parallelized): an index scan of the btree t_bt, a descent a key; t_pt dropped in the session's transaction (rolled back)" \
            "BEGIN; DROP INDEX t_pt;"
        if [ "$w" = 0 ]; then
            add_method "nl_w$w" "PG btree nested loop, $w workers" "$PGOFF $(workers "$w") $TIDNL" \
                "SELECT count(*), sum(t.id) FROM unnest($KEYS_Q) u(k) JOIN t USING (k);" \
                "unnest(batch) JOIN t USING (k), gpuext off, hash and merge joins off, no parallel workers: an index nested loop over the btree t_bt; t_pt dropped in the session's transaction (rolled back)" \
                "BEGIN; DROP INDEX t_pt;"
        else
            # a function scan is no partial path: the batch's keys as a table's rows
            add_method "nl_w$w" "PG btree nested loop, $w workers" "$PGOFF $(workers "$w") $TIDNL" \
                "SELECT count(*), sum(t.id) FROM keys_@B u JOIN t USING (k);" \
                "keys_B JOIN t USING (k) (keys_B: the batch's keys as rows of a table, since an unnest function scan cannot be split among workers), gpuext off, hash and merge joins off, max_parallel_workers_per_gather = $w: a parallel scan of keys_B, an index nested loop over the btree t_bt; t_pt dropped in the session's transaction (rolled back)" \
                "BEGIN; DROP INDEX t_pt;"
        fi
    done
}
# the order they run in (a budget leaves out the last): the serial PG rows
# (the reference), gpuext's, the parallel PG rows
add_pg_methods 0
add_method set_binary "gpuext big set, binary" "$GX -c gpuext.force=on -c gpuext.use_cache=on -c gpuext.search=binary" \
    "SELECT count(*), sum(id) FROM t WHERE k = ANY ($KEYS_Q::int8[]);" \
    "the = ANY query on gpuext ($DEV device, gpuext.force = on) over the cached t: the batch a big set in device memory, every row of t searched in it (gpuext.search = binary: top keys in shared memory)"
add_method set_pary "gpuext big set, p-ary" "$GX -c gpuext.force=on -c gpuext.use_cache=on -c gpuext.search=pary" \
    "SELECT count(*), sum(id) FROM t WHERE k = ANY ($KEYS_Q::int8[]);" \
    "the same with gpuext.search = pary (a warp's lanes search each row's key together)"
for p in $PARTS; do
    if [ "$p" = 0 ]; then d="the sequential walk (a thread a key)"; else d="speculative partitioned traversal, $p partitions a key"; fi
    add_method "ptree_$p" "gpuext_ptree_lookup, parts $p" "$GX $TIDNL" \
        "SELECT count(*), sum(t.id) FROM gpuext_ptree_lookup('t_pt', $KEYS_Q, $p, visible => true) l JOIN t ON t.ctid = l.tid;" \
        "the prefix-tree index t_pt's batched lookup on the $DEV device, $d; the visible row versions' TIDs joined to t by ctid (a nested loop of TID scans: hash and merge joins off)"
done
add_pg_methods N
[ "${#METHODS[@]}" -gt 0 ] || { echo "ERROR: SEARCH_SQL_SKIP leaves no method"; exit 1; }

# budget_opts: " -c statement_timeout=<what is left of the budget>s", or nothing
budget_opts() {
    local left
    [ "$BUDGET_S" = 0 ] && return
    left=$(( BUDGET_S - (SECONDS - T_START) ))
    [ "$left" -lt 1 ] && left=1
    echo " -c statement_timeout=${left}s"
}
# budget_left: true while the budget (if any) is not spent
budget_left() {
    [ "$BUDGET_S" = 0 ] || [ $((SECONDS - T_START)) -lt "$BUDGET_S" ]
}

# plan_of OPTS PRE SQL: the plan's nodes top down, " > "-separated (an
# index scan with its index, a Gather with its workers, InitPlan where one
# starts), from an EXPLAIN (COSTS OFF) under OPTS after PRE (rolled back)
plan_of() {
    printf '%s\nEXPLAIN (COSTS OFF) %s\n%s\n' "$2" "$3" "${2:+ROLLBACK;}" |
        PGOPTIONS="$1" gx_psql -d "$DB" -q -At -f - 2>&1 |
        awk 'NR == 1 || /->/ { s = $0; sub(/^ *(-> *)?/, "", s); sub(/  .*/, "", s)
                                 if (match(s, / using [^ ]+/)) s = substr(s, 1, RSTART - 1) " " substr(s, RSTART + 7, RLENGTH - 7)
                                 else sub(/ on .*/, "", s)
                                 printf "%s%s", (n++ ? " > " : ""), s }
             /^ *InitPlan/ { printf "%sInitPlan:", (n++ ? " > " : "") }
             /Workers Planned:/ { printf " (%s workers)", $3 }
             /ERROR/ { printf " %s", $0 }'
}
# explain_to FILE OPTS PRE SQL: EXPLAIN (VERBOSE) of SQL under OPTS after PRE (rolled back)
explain_to() {
    printf '%s\nEXPLAIN (VERBOSE) %s\n%s\n' "$3" "$4" "${3:+ROLLBACK;}" |
        PGOPTIONS="$2" gx_psql -d "$DB" -f - >"$1" 2>&1
}

# time_session LOG OPTS PRE LABEL...: one psql session (a method, or the
# gpuext_ptree_lookup methods together, which then build the index's
# image once): PRE, then for each LABEL (method:batch) its SQL, LSQL[LABEL],
# once untimed (warm), then RUNS times timed (\timing), then ROLLBACK when
# PRE was given; every statement with a statement_timeout of what is left
# of the budget.  Sets, by LABEL, S_BEST (the best ms; "cancelled" when a
# statement timeout ended the session before, "err" when it failed), S_ALL
# (every timed run's ms), S_RES (the results of all runs, one line when
# they agree; an error's text)
declare -A S_BEST S_ALL S_RES LSQL
time_session() {
    local log=$1 opts=$2 pre=$3 l r
    shift 3
    { echo "$pre"; echo '\timing on'
      for l in "$@"; do
          for ((r = 0; r <= RUNS; r++)); do echo "\\echo @run $l $r"; echo "${LSQL[$l]}"; done
      done
      echo '\echo @end'; [ -n "$pre" ] && echo 'ROLLBACK;'; } |
        PGOPTIONS="$opts$(budget_opts)" gx_psql -q -At -d "$DB" -f - >"$log" 2>&1
    for l in "$@"; do
        S_ALL[$l]=$(awk -v l="$l" '/^@run / { r = ($2 == l) ? $3 : ""; next } /^@end$/ { r = ""; next }
                                   /^Time: / { if (r != "" && r > 0) printf "%s%s", (n++ ? " " : ""), $2 }' "$log")
        S_RES[$l]=$(awk -v l="$l" '/^@run / { r = ($2 == l) ? $3 : ""; next } /^@end$/ { r = ""; next }
                                   /^(Time: |Timing is )/ { next } r != "" { print }' "$log" | sort -u | paste -sd' ' -)
        # shellcheck disable=SC2086
        S_BEST[$l]=$(printf '%s\n' ${S_ALL[$l]} | sort -g | head -n 1)
        if [ "$(wc -w <<<"${S_ALL[$l]}")" != "$RUNS" ] || grep -qi 'error' <<<"${S_RES[$l]}"; then
            if grep -q 'statement timeout' "$log"; then S_BEST[$l]=cancelled; else S_BEST[$l]=err; fi
        fi
    done
}

# fmt_rate KEYS MS: KEYS / (MS / 1000) as "1.23 M" (K, M, G)
fmt_rate() {
    awk -v k="$1" -v m="$2" 'BEGIN { if (m !~ /^[0-9.]+$/ || m + 0 <= 0) { print "n/a"; exit }
        r = k / (m / 1000); u = ""; if (r >= 1e9) { r /= 1e9; u = " G" } else if (r >= 1e6) { r /= 1e6; u = " M" } else if (r >= 1e3) { r /= 1e3; u = " K" }
        printf "%.3g%s", r, u }'
}

FAILED=0
# fail WHAT: a loud FAIL line
fail() {
    FAILED=1
    echo "!!!!!!!! FAIL $* !!!!!!!!"
}

# record TITLE LABEL WANT LOG: CHECK_ONE (ok, FAIL, "cancelled (budget)")
# and MS_ONE of S_*[LABEL] against WANT, a FAIL line when it differs
record() {
    MS_ONE=${S_BEST[$2]}
    if [ "$MS_ONE" = cancelled ]; then
        MS_ONE=n/a; CHECK_ONE="cancelled (budget)"
    elif [ "$MS_ONE" = err ]; then
        CHECK_ONE=FAIL; fail "$1: failed: $(grep -m 1 -i error "$4")"
    elif [ "${S_RES[$2]}" != "$3" ]; then
        CHECK_ONE=FAIL; fail "$1: returned '${S_RES[$2]}', expected '$3'"
    else
        CHECK_ONE=ok
    fi
    printf '   %-44s %10s ms  (best of %s)  %s\n' "$1" "$MS_ONE" "${S_ALL[$2]}" "$CHECK_ONE"
}

# run_methods PREFIX LABELS M...: methods M over the batches LABELS (a
# label: a batch size, or "inlj" for Table 4's row), in one psql session
# a method but those named PREFIX*, which share one (one image build);
# sets MS ALL RES PLAN CHECK by "M,LABEL" (checked against WANT[LABEL]),
# EXPLAIN (VERBOSE) at the last label to search_sql_explain_M.txt
declare -A MS ALL RES PLAN CHECK SEEN
run_methods() {
    local pfx=$1 lbls=$2 m g b log what
    local -a group labels
    shift 2
    for m in "$@"; do
        [ -n "${SEEN[$m]:-}" ] && continue
        group=("$m")
        case "$m" in "$pfx"*) group=(); for g in "$@"; do case "$g" in "$pfx"*) group+=("$g") ;; esac; done ;; esac
        labels=()
        for g in "${group[@]}"; do
            SEEN[$g]=1
            for b in $lbls; do
                MS[$g,$b]=n/a; ALL[$g,$b]=""; RES[$g,$b]=""; PLAN[$g,$b]=""; CHECK[$g,$b]="skipped (budget)"
                labels+=("$g:$b"); LSQL[$g:$b]=${SQLT[$g]//@B/$b}
            done
        done
        if ! budget_left; then
            for g in "${group[@]}"; do printf '   %-44s skipped (SEARCH_SQL_BUDGET_S=%s)\n' "${TITLE[$g]}" "$BUDGET_S"; done
            continue
        fi
        gx_log "$(for g in "${group[@]}"; do printf "%s; " "${TITLE[$g]}"; done)${lbls/#inlj/Table 4}"
        for g in "${group[@]}"; do
            for b in $lbls; do PLAN[$g,$b]=$(plan_of "${OPTS[$g]}" "${PRE[$g]}" "${LSQL[$g:$b]}"); done
            explain_to "$OUT/search_sql_explain_$g.txt" "${OPTS[$g]}" "${PRE[$g]}" "${LSQL[$g:${lbls##* }]}"
        done
        log=$OUT/search_sql_$m.log; [ "${#group[@]}" -gt 1 ] && log=$OUT/search_sql_${pfx%_}.log
        time_session "$log" "${OPTS[$m]} -c gpuext.jit_wait=on" "${PRE[$m]}" "${labels[@]}"
        for g in "${group[@]}"; do
            for b in $lbls; do
                if [ "$b" = inlj ]; then what="Table 4"; else what="batch $b"; fi
                record "${TITLE[$g]}, $what" "$g:$b" "${WANT[$b]}" "$log"
                MS[$g,$b]=$MS_ONE; ALL[$g,$b]=${S_ALL[$g:$b]}; RES[$g,$b]=${S_RES[$g:$b]}; CHECK[$g,$b]=$CHECK_ONE
            done
        done
    done
}

# ------------------------------------------------------------------ Table 1
run_methods ptree_ "$BATCHES" "${METHODS[@]}"

# ------------------------------------------------------------------ Table 4's INLJ row
T1_METHODS=("${METHODS[@]}")
METHODS=()
if [ "$INLJ" = 1 ]; then
    for w in $J_WORKERS; do
        add_method "inlj_pg_w$w" "PG index nested loop, $w workers" "$PGOFF $(workers "$w") $TIDNL" \
            "SELECT count(*), sum(s.rid) FROM r JOIN s ON s.key = r.key;" \
            "r JOIN s ON s.key = r.key, gpuext off, hash and merge joins off, max_parallel_workers_per_gather = $w: an index nested loop over the btree s_bt (s_pt dropped in the session's transaction, rolled back)" \
            "BEGIN; DROP INDEX s_pt;"
    done
    for p in $PARTS; do
        add_method "inlj_ptree_$p" "gpuext_ptree_lookup, parts $p" "$GX $TIDNL" \
            "SELECT count(*), sum(s.rid) FROM gpuext_ptree_lookup('s_pt', (SELECT array_agg(key) FROM r), $p, visible => true) l JOIN s ON s.ctid = l.tid;" \
            "r's keys (array_agg) looked up in the prefix-tree index s_pt in one batch on the $DEV device (parts $p), the visible rows joined to s by ctid (TID scans)"
    done
    add_method inlj_set "gpuext big set over cached s" "$GX -c gpuext.force=on -c gpuext.use_cache=on -c gpuext.search=binary" \
        "SELECT count(*), sum(rid) FROM s WHERE key = ANY ((SELECT array_agg(key) FROM r)::int8[]);" \
        "s WHERE key = ANY (r's keys) on gpuext over the cached s (a semi-join, the same rows as the join: r's keys are distinct)"
    # the reference: PostgreSQL's own plan (a hash join), untimed
    WANT[inlj]=$(PGOPTIONS="$PGOFF $(workers "${J_WORKERS%% *}")" gx_psql -d "$DB" -At -c "SELECT count(*), sum(s.rid) FROM r JOIN s ON s.key = r.key" 2>&1)
    gx_log "Table 4, indexed nested loop: r $R_ROWS rows, s $S_ROWS rows (PostgreSQL's hash join: ${WANT[inlj]})"
    [[ ${WANT[inlj]} =~ ^[1-9][0-9]*\|[0-9]+$ ]] || fail "INLJ reference (PostgreSQL's hash join): returned '${WANT[inlj]}'"
    run_methods inlj_ptree_ inlj "${METHODS[@]}"
fi
JMETHODS=("${METHODS[@]}")
METHODS=("${T1_METHODS[@]}")

# ------------------------------------------------------------------ report
# the speculative parts (P > 0) that ran: their best per batch is a row of
# its own in the summary tables
SPEC=()
for m in "${METHODS[@]}"; do case "$m" in ptree_0) ;; ptree_*) SPEC+=("$m") ;; esac; done
# row_ms ROW B: the ms of a summary row at batch B (ptree_best: the best
# of the P > 0 that ran and checked ok, with " (p=P)")
row_ms() {
    local m best="" bp=""
    if [ "$1" != ptree_best ]; then echo "${MS[$1,$2]}"; return; fi
    for m in "${SPEC[@]}"; do
        [ "${CHECK[$m,$2]}" = ok ] || continue
        if [ -z "$best" ] || awk -v a="${MS[$m,$2]}" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=${MS[$m,$2]}; bp=${m#ptree_}; fi
    done
    echo "${best:-n/a}${bp:+ (p=$bp)}"
}
# the summary rows: the methods but the speculative ptree ones, whose best
# (ptree_best) takes the place of the first of them
ROWSUM=()
for m in "${METHODS[@]}"; do
    case "$m" in
        ptree_0) ROWSUM+=("$m") ;;
        ptree_*) [ "$m" = "${SPEC[0]}" ] && ROWSUM+=(ptree_best) ;;
        *) ROWSUM+=("$m") ;;
    esac
done
[ "${#SPEC[@]}" -gt 0 ] && TITLE[ptree_best]="gpuext_ptree_lookup, best of parts $(printf '%s\n' "${SPEC[@]#ptree_}" | paste -sd/ -)"
{
    echo "# Batched lookups at the SQL level: $ROWS unique sorted int8 keys (Kaldewey Table 1 / Figure 8)"
    echo
    echo "device: $DEV (gpuext_devices: $(gx_psql -d "$DB" -Atc "SELECT string_agg(name, ', ') FROM gpuext_devices()" 2>/dev/null)); $(nproc) CPU cores; PostgreSQL $("$PG_CONFIG" --version | awk '{print $2}')"
    echo
    echo "Set-up $LOAD_S s: $(for k in "${!LOADMS[@]}"; do echo "$k ${LOADMS[$k]} ms"; done | sort | paste -sd';' - | sed 's/;/; /g'); gpuext_cache_load ($CACHED) ${CACHE_LOAD_MS:-n/a} ms, ${CACHE_ROWS:-n/a} rows cached.  Tables: ${SIZES:-n/a}."
    echo
    echo "Each figure: the best of $RUNS runs timed by psql's \\timing (client round trip) after one untimed warm run in the same session; the column cache was loaded with gpuext_cache_load before any run.  Keys: half present, half absent (between two keys), in random order.  Every result checked against the key generator's count and sum."
    echo
    echo "## Response time (ms) by batch size"
    echo
    echo "| method | ${BATCHES// / | } |"
    echo "|---|$(for b in $BATCHES; do printf -- '---:|'; done)"
    for m in "${ROWSUM[@]}"; do
        printf '| %s |' "${TITLE[$m]}"
        for b in $BATCHES; do printf ' %s |' "$(row_ms "$m" "$b")"; done
        echo
    done
    echo
    echo "## Throughput (keys/s) by batch size (Table 1)"
    echo
    echo "| method | ${BATCHES// / | } |"
    echo "|---|$(for b in $BATCHES; do printf -- '---:|'; done)"
    for m in "${ROWSUM[@]}"; do
        printf '| %s |' "${TITLE[$m]}"
        for b in $BATCHES; do v=$(row_ms "$m" "$b"); printf ' %s |' "$(fmt_rate "$b" "${v%% *}")"; done
        echo
    done
    echo
    echo "## Throughput under a response-time limit (Figure 8): the largest measured batch within the limit"
    echo
    printf '| method |'; for l in $LIMITS; do printf ' <= %s ms: batch | keys/s |' "$l"; done; echo
    printf '|---|'; for l in $LIMITS; do printf -- '---:|---:|'; done; echo
    for m in "${ROWSUM[@]}"; do
        printf '| %s |' "${TITLE[$m]}"
        for l in $LIMITS; do
            fit=""; fms=""
            for b in $BATCHES; do
                v=$(row_ms "$m" "$b"); v=${v%% *}
                awk -v v="$v" -v l="$l" 'BEGIN { exit !(v ~ /^[0-9.]+$/ && v + 0 <= l) }' && { fit=$b; fms=$v; }
            done
            if [ -n "$fit" ]; then printf ' %s | %s |' "$fit" "$(fmt_rate "$fit" "$fms")"; else printf ' none | n/a |'; fi
        done
        echo
    done
    echo
    echo "## Every method and batch"
    echo
    echo "| method | batch | ms (best) | timed runs ms | keys/s | check | plan |"
    echo "|---|---:|---:|---|---:|---|---|"
    for b in $BATCHES; do
        for m in "${METHODS[@]}"; do
            echo "| ${TITLE[$m]} | $b | ${MS[$m,$b]} | ${ALL[$m,$b]} | $(fmt_rate "$b" "${MS[$m,$b]}") | ${CHECK[$m,$b]} | ${PLAN[$m,$b]} |"
        done
    done
    if [ "${#JMETHODS[@]}" -gt 0 ]; then
        echo
        echo "## Table 4, indexed nested-loop join: r ($R_ROWS rows) JOIN s ($S_ROWS rows) ON s.key = r.key"
        echo
        echo "| method | ms (best) | timed runs ms | speedup vs ${TITLE[${JMETHODS[0]}]} | r keys/s | count, sum | check | plan |"
        echo "|---|---:|---|---:|---:|---|---|---|"
        for m in "${JMETHODS[@]}"; do
            sp=$(awk -v a="${MS[${JMETHODS[0]},inlj]}" -v b="${MS[$m,inlj]}" 'BEGIN { if (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && b > 0) printf "%.2fx", a / b; else print "n/a" }')
            echo "| ${TITLE[$m]} | ${MS[$m,inlj]} | ${ALL[$m,inlj]} | $sp | $(fmt_rate "$R_ROWS" "${MS[$m,inlj]}") | ${RES[$m,inlj]//|/, } | ${CHECK[$m,inlj]} | ${PLAN[$m,inlj]} |"
        done
    fi
    echo
    echo "## Methods"
    echo
    for m in "${METHODS[@]}"; do echo "* ${TITLE[$m]}: ${WHAT[$m]}."; done
    [ "${#SPEC[@]}" -gt 0 ] && echo "* ${TITLE[ptree_best]}: per batch the fastest of those parts (p=P), the others in the table of every method."
    for m in "${JMETHODS[@]}"; do echo "* (Table 4) ${TITLE[$m]}: ${WHAT[$m]}."; done
} | tee "$OUT/search_sql.md"
gx_log "bench/search_sql.sh: $((SECONDS - T_START)) s"
[ "$FAILED" = 0 ] || exit 2
exit 0
