#!/usr/bin/env bash
# bench/tpch_join.sh - TPC-H Q3, Q5, Q10 and Q12 (issue 15: the join
# queries) on generated TPC-H data, against PostgreSQL and DuckDB.
#
#   TPCH_SF=0.01 bench/tpch_join.sh               # quick check, any host
#   TPCH_SF=3 bench/tpch_join.sh                  # GPU host: 18M lineitems
#   BENCH_START=0 PGHOST=... PGPORT=... bench/tpch_join.sh   # a running server
#   SKIP_TESTS=1 SKIP_BENCH=1 BENCH_TPCH_JOIN=1 test/gpu/run.sh   # on the GPU host
#
# Starts a cluster with gpuext preloaded (bench/lib.sh, as bench/join.sh),
# generates customer, orders, lineitem, supplier, nation and region at
# TPCH_SF (bench/tpch/gen.sh: inside PostgreSQL by parallel sessions, the
# spec's keys, cardinalities and value distributions; VACUUM ANALYZE; no
# keys or indexes, as bench/tpch.sh), prewarms them and runs the spec's
# queries with its validation substitution parameters (bench/tpch/qN.sql):
#
#   q3    shipping priority: segment BUILDING, date 1995-03-15
#         (customer, orders, lineitem; top 10 by revenue)
#   q5    local supplier volume: region ASIA, date 1994-01-01
#         (customer, orders, lineitem, supplier, nation, region)
#   q10   returned item reporting: date 1993-10-01
#         (customer, orders, lineitem, nation; top 20 by revenue)
#   q12   shipping modes and order priority: MAIL, SHIP, date 1994-01-01
#         (orders, lineitem)
#
# Configurations (bench/lib.sh bench_report_configs, as bench/join.sh):
#
#   serial    PG serial     gpuext.enabled = off, no parallel workers
#   par8      PG par8       gpuext.enabled = off, 8 workers per gather
#   cpu       gpuext CPU    gpuext.force = on, gpuext.device = cpu
#   gpu       GPU cold      GPU, no column cache
#   gpupar    GPU par8      GPU with 8 parallel workers, no column cache
#   gpucache  GPU cached    GPU after gpuext_cache_load of the six tables
#   duckdb    DuckDB Nt     DuckDB (bench/duckdb/, .carry/libduckdb.so.xz)
#                           with TPCH_JOIN_DUCKDB_THREADS (16, at most the
#                           cores) on in-memory copies of the columns the
#                           queries read (CSV export; char(n) columns as
#                           VARCHAR without their trailing blanks);
#                           bench/tpch/duckdb/qN.sql: the same queries with
#                           constant dates
#
# The GPU configurations need a GPU in gpuext_devices()
# (TPCH_JOIN_GPU_DEVICE=cpu runs them on the CPU device, to check the
# script on a host without one).  All PostgreSQL configurations run with
# work_mem = TPCH_JOIN_WORK_MEM (1GB).  The plan column: the plan's join,
# scan and aggregate nodes nested (bench/tpch/plan.awk, from EXPLAIN before
# the timed runs), e.g. HashAgg(HashJoin(GpuScan lineitem, GpuJoin(GpuScan
# orders, Seq customer))); a GpuJoin's fallback plan is left out.  For the
# configurations of TPCH_JOIN_EXPLAIN the plan comes from their EXPLAIN
# ANALYZE after the timed runs, and GpuJoin says how it joined
# (GpuJoin:device, :fallback: "Joined: on the device" / "by the Hash Join
# below").
#
# Timing: each configuration runs a query up to TPCH_JOIN_RUNS times (3),
# one psql session a run, \timing (the client round trip, no connection
# set-up); the figure is the best run.  A run of TPCH_JOIN_LONG_S (30)
# seconds or more is not repeated, nor one that would end past
# TPCH_JOIN_BUDGET_S; a run past TPCH_JOIN_TIMEOUT_S (600) is cancelled.
# Two passes, so that a budget leaves out configurations rather than
# queries: first serial and gpucache of every query (the reference and the
# aim; then the query's EXPLAIN ANALYZE), then gpu, gpupar, par8, cpu of
# every query.  The first GPU configuration of a pass first runs the query
# once untimed with gpuext.jit_wait = on.  DuckDB runs all queries before
# them (one warm-up run, whose result is compared, then TPCH_JOIN_RUNS
# timed runs, the best counted).
#
# Check: every run's result must equal PG serial's text exactly (rows in
# order, numeric sums to the last digit); DuckDB's, once the blanks that
# pad char(n) values before a column separator are dropped on both sides
# (its copies are VARCHAR), exactly too.  Anything else is a FAIL, printed
# loudly; the exit status is then 2.
#
# Where the time goes: after the timed runs, EXPLAIN (ANALYZE, VERBOSE) of
# each query under each configuration of TPCH_JOIN_EXPLAIN (default
# gpucache) into tpch_join_explain_<q>_<config>.txt, and in the report each
# plan node's own time (its actual total time x loops less its children's;
# a GpuJoin that reads its outer table itself counts that scan in its own
# time), largest first.
#
# Output in $OUT: tpch_join.md (per query its table, result and where the
# time goes; at the end the issue's aim as ratios and the table of every
# query and configuration in ms with the ratio to DuckDB), tpch_join.json
# (bench/groupby/groupby_json.py), the EXPLAIN files, logs.
#
# Time: TPCH_SF=3 (test/gpu/run.sh's default: 18M lineitems, 4.5M orders,
# about 3.5 GB of heap) on the GPU host (16 cores): loading about a
# minute; PG serial several seconds a query (one run each with
# TPCH_JOIN_LONG_S=5, test/gpu/run.sh's), the other configurations less;
# DuckDB's export and load about 15 s; with the build (a fresh GPU host)
# about 7 minutes in all, within test/gpu/run.sh's budget (540 s).  The scale is a variable: SF 5 about doubles what scales (loading,
# the runs), and TPCH_JOIN_BUDGET_S then leaves out what does not fit (the
# second pass's configurations first); TPCH_JOIN_SKIP="cpu par8" saves
# the most.  Locally (2 cores, CPU device) SF 0.01 takes 10 s, SF 0.5
# about 2 minutes.
#
# Environment:
#   TPCH_SF              scale factor (default 1; 0.01 for a quick check)
#   TPCH_JOBS, TPCH_BATCH, TPCH_FORCE   bench/tpch/gen.sh
#   TPCH_JOIN_QUERIES    which queries (default: q3 q5 q10 q12)
#   TPCH_JOIN_RUNS       runs per query and configuration, best counted (3)
#   TPCH_JOIN_LONG_S     a run this long is not repeated (30)
#   TPCH_JOIN_TIMEOUT_S  a run this long is cancelled (600; 0: no limit)
#   TPCH_JOIN_BUDGET_S   seconds for the whole script (0: no limit); past it
#                        the remaining runs and configurations are skipped
#                        (n/a), and a run still going is cancelled
#   TPCH_JOIN_SKIP       configurations to leave out, e.g. "cpu duckdb"
#   TPCH_JOIN_EXPLAIN    configurations whose EXPLAIN ANALYZE is saved per
#                        query (default gpucache; e.g. "cpu gpucache")
#   TPCH_JOIN_WORK_MEM   work_mem of every configuration (1GB)
#   TPCH_JOIN_CACHE_MB   gpuext.cache_size (default: room for the cached
#                        columns of every table)
#   TPCH_JOIN_GPU_DEVICE gpuext.device of the GPU configurations (gpu; cpu
#                        runs them without a GPU)
#   TPCH_JOIN_DUCKDB_THREADS  DuckDB threads (16, at most the cores)
#   OUT                  output dir (default /tmp/out)
#   BENCH_START          1: own throwaway cluster (default when PGPORT is unset)
#   BENCH_BUILD          1: build and install first (default: when not installed)
#   BENCH_PORT           port of the own cluster (default 54336)
#   BENCH_DB             database (default tpch; bench/tpch.sh's tables
#                        are the same)
#   BENCH_DUCKDB         1: run DuckDB, 0: not (default: when a library
#                        exists); GX_DUCKDB_LIB, BENCH_DUCKDB_TMP: as in
#                        bench/groupby.sh
#   PG_CONFIG            as in test/run.sh

set -u -o pipefail
exec 2>&1

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=test/lib.sh
. "$HERE/../test/lib.sh"
# shellcheck source=bench/lib.sh
. "$HERE/lib.sh"
# shellcheck source=bench/tpch/gen.sh
. "$HERE/tpch/gen.sh"

BENCH_T0=$SECONDS
BENCH_NAME=tpch_join
BENCH_BUDGET_VAR=TPCH_JOIN_BUDGET_S
BENCH_PLAN_FN=tj_plan
TPCH_SF=${TPCH_SF:-1}
export TPCH_SF
OUT=${OUT:-/tmp/out}
DB=${BENCH_DB:-tpch}
QDIR=$HERE/tpch
RUNS=${TPCH_JOIN_RUNS:-3}
LONG_S=${TPCH_JOIN_LONG_S:-30}
BUDGET_S=${TPCH_JOIN_BUDGET_S:-0}
BENCH_RUN_TIMEOUT_S=${TPCH_JOIN_TIMEOUT_S:-600}
WORK_MEM=${TPCH_JOIN_WORK_MEM:-1GB}
GPU_DEV=${TPCH_JOIN_GPU_DEVICE:-gpu}
read -r -a EXPLAIN_CFGS <<<"${TPCH_JOIN_EXPLAIN:-gpucache}"
for v in RUNS LONG_S BUDGET_S BENCH_RUN_TIMEOUT_S; do
    case "${!v}" in ''|*[!0-9]*) echo "ERROR: $v must be a number, not '${!v}'"; exit 1 ;; esac
done
[ "$RUNS" -lt 1 ] && RUNS=1
# the spec's cardinalities (bench/tpch/gen.sh; lineitems about 4 an order)
read -r LI_ROWS ORD_ROWS CUST_ROWS SUPP_ROWS <<<"$(awk -v s="$TPCH_SF" 'function n(x) { x = int(x + 0.5); return x < 1 ? 1 : x }
    BEGIN { if (s + 0 <= 0) exit 1; print n(s * 6000000), n(s * 1500000), n(s * 150000), n(s * 10000) }')" ||
    { echo "ERROR: bad TPCH_SF '$TPCH_SF'"; exit 1; }
[ -n "${LI_ROWS:-}" ] || { echo "ERROR: bad TPCH_SF '$TPCH_SF'"; exit 1; }
TABLES="lineitem orders customer supplier nation region"
ALL_QUERIES=(q3 q5 q10 q12)
declare -A QTITLE=(
    [q3]="shipping priority, segment BUILDING, 1995-03-15 (customer, orders, lineitem)"
    [q5]="local supplier volume, region ASIA, 1994 (customer, orders, lineitem, supplier, nation, region)"
    [q10]="returned items, 1993-10-01 + 3 months (customer, orders, lineitem, nation)"
    [q12]="shipping modes, MAIL and SHIP, 1994 (orders, lineitem)")
read -r -a QUERIES <<<"${TPCH_JOIN_QUERIES:-${ALL_QUERIES[*]}}"
for q in "${QUERIES[@]}"; do
    case " ${ALL_QUERIES[*]} " in *" $q "*) ;; *) echo "ERROR: no query $q (TPCH_JOIN_QUERIES: ${ALL_QUERIES[*]})"; exit 1 ;; esac
done
if [ -z "${BENCH_START:-}" ]; then
    if [ -n "${PGPORT:-}" ]; then BENCH_START=0; else BENCH_START=1; fi
fi
mkdir -p "$OUT" || exit 1

gx_find_pg_config || exit 1
bench_on_exit

# ------------------------------------------------------------------ setup
bench_ensure_installed || exit 1
if [ "$BENCH_START" = 1 ]; then
    gx_setup_user || exit 1
    # shared_buffers (bench/lib.sh: 100 bytes a "row"): the heap takes
    # about 160 bytes a lineitem, 120 an order, 180 a customer; the column
    # cache holds every table's cached columns (fixed-width ones, numeric,
    # char(n) up to 8 bytes: about 100 bytes a lineitem, 48 an order, 32 a
    # customer or supplier) with room, in 128 MB units
    bench_cluster_init "${BENCH_PORT:-54336}" $(( (LI_ROWS + ORD_ROWS + CUST_ROWS + SUPP_ROWS) * 2 )) \
        "gpuext.cache_size = ${TPCH_JOIN_CACHE_MB:-$(( (LI_ROWS * 112 + ORD_ROWS * 56 + (CUST_ROWS + SUPP_ROWS) * 40) / 1048576 / 128 * 128 + 1024 ))}MB" || exit 1
    gx_cluster_start || exit 1
fi
gx_psql -d postgres -qc "CREATE DATABASE \"$DB\"" 2>/dev/null
gx_psql -d "$DB" -qc "CREATE EXTENSION IF NOT EXISTS gpuext" || { echo "ERROR: CREATE EXTENSION gpuext failed"; exit 1; }
gx_psql -d "$DB" -c "SELECT * FROM gpuext_devices()" | tee "$OUT/tpch_join_devices.txt"
NGPU=$(gx_has_gpu "$DB")
gx_log "GPUs listed by gpuext_devices(): $NGPU"

TPCH_LOAD_S=n/a
tpch_gen "$DB" || exit 1
LI_COUNT=$(gx_psql -d "$DB" -Atc "SELECT count(*) FROM lineitem")
PG_ROWS=$(gx_psql -d "$DB" -Atc "SELECT $(printf '(SELECT count(*) FROM %s) + ' $TABLES) 0")
# shellcheck disable=SC2086
bench_tables_prewarm "$DB" $TABLES

# ------------------------------------------------------------------ configs
bench_report_configs "$GPU_DEV" "$WORK_MEM" TPCH_JOIN_SKIP

CACHE_LOAD_MS=n/a; CACHE_ROWS=n/a
if cfg_enabled gpucache; then
    # shellcheck disable=SC2086
    bench_cache_load "$OUT/tpch_join_cache_load.txt" "$GPU_DEV" $TABLES
fi

# ------------------------------------------------------------------ DuckDB
declare -A MS RUNSN ALLMS RES PLAN CHECK REF REF_CFG
FAILED=0
DUCKDB_THREADS=${TPCH_JOIN_DUCKDB_THREADS:-16}
# the columns the four queries read, per table (char(n) as text: no
# trailing blanks; DuckDB compares VARCHAR as written)
DUCK_SPECS=$(printf '%s\t%s\t%s\n' \
    lineitem "l_orderkey, l_suppkey, l_extendedprice, l_discount, l_returnflag::text, l_shipdate, l_commitdate, l_receiptdate, l_shipmode::text" \
    "'l_orderkey': 'BIGINT', 'l_suppkey': 'BIGINT', 'l_extendedprice': 'DECIMAL(15,2)', 'l_discount': 'DECIMAL(15,2)', 'l_returnflag': 'VARCHAR', 'l_shipdate': 'DATE', 'l_commitdate': 'DATE', 'l_receiptdate': 'DATE', 'l_shipmode': 'VARCHAR'" \
    orders "o_orderkey, o_custkey, o_orderdate, o_orderpriority::text, o_shippriority" \
    "'o_orderkey': 'BIGINT', 'o_custkey': 'BIGINT', 'o_orderdate': 'DATE', 'o_orderpriority': 'VARCHAR', 'o_shippriority': 'INTEGER'" \
    customer "c_custkey, c_name, c_address, c_nationkey, c_phone::text, c_acctbal, c_mktsegment::text, c_comment" \
    "'c_custkey': 'BIGINT', 'c_name': 'VARCHAR', 'c_address': 'VARCHAR', 'c_nationkey': 'BIGINT', 'c_phone': 'VARCHAR', 'c_acctbal': 'DECIMAL(15,2)', 'c_mktsegment': 'VARCHAR', 'c_comment': 'VARCHAR'" \
    supplier "s_suppkey, s_nationkey" "'s_suppkey': 'BIGINT', 's_nationkey': 'BIGINT'" \
    nation "n_nationkey, n_name::text, n_regionkey" "'n_nationkey': 'BIGINT', 'n_name': 'VARCHAR', 'n_regionkey': 'BIGINT'" \
    region "r_regionkey, r_name::text" "'r_regionkey': 'BIGINT', 'r_name': 'VARCHAR'")
tj_duckdb() {   # LOG: 0 when DuckDB ran the queries
    local qfiles
    qfiles=$(printf "$QDIR/duckdb/%s.sql," "${QUERIES[@]}" | sed 's/,$//')
    GXD_PGOPTIONS="${BENCH_OPTS[serial]}" gxd_copy_tables_and_run "$DB" "$DUCK_SPECS" "$qfiles" "$RUNS" "$1"
}
bench_duckdb_run tj_duckdb "$OUT/tpch_join_duckdb.log" "${QUERIES[@]}"
if [ -z "$DUCKDB_NOTE" ] && [ "$DUCKDB_ROWS" != "$PG_ROWS" ]; then
    echo "duckdb: WARNING: DuckDB holds '$DUCKDB_ROWS' rows, PostgreSQL $PG_ROWS"
fi

# ------------------------------------------------------------------ timing
# tj_plan OPTS Q: the plan's join, scan and aggregate nodes nested
# (bench/tpch/plan.awk), from EXPLAIN under OPTS
tj_plan() {
    local p
    p=$(PGOPTIONS="$1" gx_psql -d "$DB" -Atc "EXPLAIN $(cat "$QDIR/$2.sql")" 2>/dev/null |
        awk -v mode=tree -f "$QDIR/plan.awk")
    echo "${p:-err}"
}

# tj_norm RESULT: a result without the blanks before a column separator
# and with one blank between rows (char(n) values are padded in
# PostgreSQL's output, not in DuckDB's copies)
tj_norm() { sed -E 's/ +\|/|/g; s/ +/ /g; s/ $//' <<<"$1"; }

# tj_explain Q NAME: EXPLAIN (ANALYZE, VERBOSE) of query Q under
# configuration NAME, when it ran and the budget leaves time, into
# $OUT/tpch_join_explain_<Q>_<NAME>.txt: the plan column from it (how a
# GpuJoin joined), the execution time and every node's own time
# (plan.awk mode=time), largest first
declare -A EXPLAIN_FILE EXEC_MS SELF TOP
tj_explain() {
    local q=$1 name=$2 f p
    EXPLAIN_FILE[$q,$name]=""; EXEC_MS[$q,$name]=n/a; SELF[$q,$name]=""; TOP[$q,$name]=""
    [ -n "${BENCH_OPTS[$name]:-}" ] && bench_is_num "${MS[$q,$name]:-}" || return 0
    if ! bench_budget_ok "$(awk -v m="${MS[$q,$name]}" 'BEGIN { printf "%d", m / 500 + 1 }')"; then
        gx_log "$q: no EXPLAIN ANALYZE under ${BENCH_TITLE[$name]} ($BENCH_BUDGET_VAR)"
        return 0
    fi
    f=$OUT/tpch_join_explain_${q}_$name.txt
    EXPLAIN_FILE[$q,$name]=$f
    PGOPTIONS="$(bench_opts "$name")" gx_psql -d "$DB" -c "EXPLAIN (ANALYZE, VERBOSE) $(cat "$QDIR/$q.sql")" >"$f" 2>&1
    EXEC_MS[$q,$name]=$(sed -n 's/^ *Execution Time: \([0-9.]*\) ms.*/\1/p' "$f")
    if [ -z "${EXEC_MS[$q,$name]}" ]; then
        EXEC_MS[$q,$name]=n/a
        gx_warn "$q: EXPLAIN ANALYZE under ${BENCH_TITLE[$name]} failed: $(tail -n 2 "$f")"
        return 0
    fi
    p=$(awk -v mode=tree -f "$QDIR/plan.awk" "$f") && PLAN[$q,$name]=$p
    # the nodes' own times, largest first: "self ms share% total ms node"
    SELF[$q,$name]=$(awk -v mode=time -f "$QDIR/plan.awk" "$f" | sort -t "$(printf '\t')" -k1,1gr |
        awk -F '\t' -v e="${EXEC_MS[$q,$name]}" '{ printf "%10.3f ms %4.0f%%  %10.3f ms  %s\n", $1, (e > 0 ? 100 * $1 / e : 0), $2, $3 }')
    TOP[$q,$name]=$(head -n 3 <<<"${SELF[$q,$name]}" | awk '{ ms = $1; pct = $3; $1 = $2 = $3 = $4 = $5 = ""; sub(/^ +/, ""); printf "%s%s %s ms (%s)", (NR > 1 ? "; " : ""), $0, ms, pct }')
    gx_log "$q under ${BENCH_TITLE[$name]}: ${EXEC_MS[$q,$name]} ms; own time: ${TOP[$q,$name]} ($f)"
}

# Two passes, so that a budget leaves out the secondary configurations
# rather than the last queries: first PG serial (the reference) and GPU
# cached (the aim) of every query, with DuckDB's check and the EXPLAIN
# ANALYZE of the TPCH_JOIN_EXPLAIN configurations among them; then the
# other configurations (bench/lib.sh's order: gpu gpupar par8 cpu),
# checked against the same reference (BENCH_KEEP_REF)
FULL_ORDER=("${RUN_ORDER[@]}")
PASS1=(serial gpucache)
PASS2=()
for name in "${FULL_ORDER[@]}"; do
    case " ${PASS1[*]} " in *" $name "*) ;; *) PASS2+=("$name") ;; esac
done
in_list() { local x=$1; shift; case " $* " in *" $x "*) true ;; *) false ;; esac; }
for q in "${QUERIES[@]}"; do
    gx_log "$q: $(cat "$QDIR/$q.sql")"
    RUN_ORDER=("${PASS1[@]}")
    bench_run_query "$q" "$QDIR/$q.sql"
    if [ "${RES[$q,duckdb]}" != n/a ] && [ "${RES[$q,duckdb]}" != err ]; then
        RES[$q,duckdb]=$(tj_norm "${RES[$q,duckdb]}")
    fi
    ref=""
    [ -n "${REF[$q]:-}" ] && ref=$(tj_norm "${REF[$q]}")
    bench_check_duckdb "$q" "$ref"
    gx_log "$q result (${BENCH_TITLE[${REF_CFG[$q]:-serial}]}): ${REF[$q]}"
    for name in "${EXPLAIN_CFGS[@]}"; do
        in_list "$name" "${PASS1[@]}" && tj_explain "$q" "$name"
    done
done
for q in "${QUERIES[@]}"; do
    gx_log "$q: the other configurations (${PASS2[*]})"
    RUN_ORDER=("${PASS2[@]}")
    BENCH_KEEP_REF=1 bench_run_query "$q" "$QDIR/$q.sql"
    for name in "${EXPLAIN_CFGS[@]}"; do
        in_list "$name" "${PASS1[@]}" || tj_explain "$q" "$name"
    done
done
RUN_ORDER=("${FULL_ORDER[@]}")

# ------------------------------------------------------------------ aim
# issue 15's aim, as ratios (not a gate): every TPC-H query at least 10x
# faster than DuckDB at 16 threads on cached tables (GPU cached)
AIM=""
for q in "${QUERIES[@]}"; do
    r=$(bench_xratio "${MS[$q,duckdb]}" "${MS[$q,gpucache]}")
    if [ "$r" = n/a ]; then
        met="n/a"
    elif awk -v r="${r%x}" 'BEGIN { exit !(r >= 10) }'; then
        met=met
    else
        met="not met"
    fi
    AIM="$AIM${AIM:+; }$q $r ($met)"
done

# ------------------------------------------------------------------ report
bench_report_facts "$DB"
TJ_S=$((SECONDS - BENCH_T0))
# tj_md_table: every query's ms and DuckDB ms / ms, by configuration
tj_md_table() {
    local q name hdr="| configuration" sep="|---" row c
    for q in "${QUERIES[@]}"; do hdr="$hdr | $q ms | $q vs DuckDB"; sep="$sep|---:|---:"; done
    echo "$hdr |"; echo "$sep|"
    for name in "${ALL_CFGS[@]}"; do
        row="| ${BENCH_TITLE[$name]}"
        for q in "${QUERIES[@]}"; do
            c=${MS[$q,$name]}
            [ "${CHECK[$q,$name]:-}" = FAIL ] && c="$c FAIL"
            row="$row | $c | $(bench_xratio "${MS[$q,duckdb]}" "${MS[$q,$name]}")"
        done
        echo "$row |"
    done
}
MD=$OUT/tpch_join.md
{
    echo "# TPC-H Q3, Q5, Q10, Q12, SF $TPCH_SF ($LI_COUNT lineitem rows)"
    echo
    echo "- $PGVER, CPU: ${CPU_NAME:-?} ($(gx_nproc) cores), GPU: ${GPU_NAME:-none}"
    if [ "$TPCH_LOAD_S" = n/a ]; then load="there already"; else load="loaded in $TPCH_LOAD_S s"; fi
    echo "- data: bench/tpch/gen.sh ($SIZES), $load; no keys or indexes; prewarmed; work_mem = $WORK_MEM"
    echo "- queries: bench/tpch/q3.sql, q5.sql, q10.sql, q12.sql (the spec's text, validation parameters)"
    echo "- ms: the best of up to $RUNS runs (psql \\timing; a run of ${LONG_S} s or more is not repeated; one past ${BENCH_RUN_TIMEOUT_S} s is cancelled)"
    echo "- vs DuckDB: DuckDB ms / ms (above 1: faster than DuckDB); vs PG serial: PG serial ms / ms"
    echo "- plan: bench/tpch/plan.awk's nesting of the join, scan and aggregate nodes (fallback plans left out); GpuJoin:device / :fallback from EXPLAIN ANALYZE (configurations $(printf '%s ' "${EXPLAIN_CFGS[@]}" | sed 's/ $//'))"
    echo "- check: rows equal to PG serial's text (ok), or FAIL; DuckDB: the same once char(n) padding is dropped"
    echo "- GPU cached: gpuext_cache_load() of $TABLES cached $CACHE_ROWS rows in $CACHE_LOAD_MS ms"
    if [ -z "$DUCKDB_NOTE" ]; then
        echo "- $DUCKDB_TITLE: DuckDB $DUCKDB_VERSION, in-memory copies of the columns the queries read (CSV export $DUCKDB_EXPORT_S s; load and all runs $DUCKDB_RUN_S s), best of $RUNS after a warm-up; bench/tpch/duckdb/q*.sql"
    else
        echo "- $DUCKDB_TITLE: n/a, $DUCKDB_NOTE"
    fi
    [ "$BUDGET_S" != 0 ] && echo "- TPCH_JOIN_BUDGET_S = $BUDGET_S (this run: $TJ_S s)"
    for q in "${QUERIES[@]}"; do
        echo
        echo "## $q: ${QTITLE[$q]} (bench/tpch/$q.sql)"
        echo
        bench_md_query_table "$q" "${ALL_CFGS[@]}"
        echo
        r=${REF[$q]}
        [ "${#r}" -gt 240 ] && r="${r:0:240} ... (all of it in tpch_join.json)"
        echo "- result (${BENCH_TITLE[${REF_CFG[$q]:-serial}]}): \`$r\`"
        for name in "${EXPLAIN_CFGS[@]}"; do
            [ -n "${EXPLAIN_FILE[$q,$name]:-}" ] || continue
            echo "- where the time goes under ${BENCH_TITLE[$name]} (EXPLAIN ANALYZE, $(basename "${EXPLAIN_FILE[$q,$name]}")): execution ${EXEC_MS[$q,$name]} ms; each node's own time, largest first:"
            echo
            echo '```'
            echo "   own time share    node total  node"
            # the nodes of 1% and more (at most 8), the rest summed
            awk -v e="${EXEC_MS[$q,$name]}" '{ if (n < 8 && $3 + 0 >= 1) { print; n++ } else { k++; ms += $1 } }
                END { if (k) printf "%10.3f ms %4.0f%%  (%d more nodes)\n", ms, (e > 0 ? 100 * ms / e : 0), k }' <<<"${SELF[$q,$name]}"
            echo '```'
        done
    done
    # the summary last (test/gpu/run.sh shows the end of its output)
    echo
    echo "## Aim of issue 15 (a ratio, not a gate)"
    echo
    echo "- TPC-H Q3, Q5, Q10, Q12 at least 10x faster than $DUCKDB_TITLE on cached tables (DuckDB ms / GPU cached ms): $AIM"
    echo
    echo "## All queries (ms, and DuckDB ms / ms)"
    echo
    tj_md_table
    echo
    if [ "$FAILED" = 1 ]; then echo "**FAIL: see the check columns**"; else echo "all results checked: ok"; fi
} >"$MD"

# JSON: the facts through bench/groupby/groupby_json.py (no cub section)
FACTS=$OUT/tpch_join_facts.tsv
{
    bench_fact meta sf "$TPCH_SF"
    bench_fact meta lineitem_rows "$LI_COUNT"
    bench_fact meta rows "$PG_ROWS"
    bench_fact meta table_size "$(bench_oneline "$SIZES")"
    bench_fact meta load_s "$TPCH_LOAD_S"
    bench_fact meta runs "$RUNS"
    bench_fact meta long_s "$LONG_S"
    bench_fact meta timeout_s "$BENCH_RUN_TIMEOUT_S"
    bench_meta_facts "$TJ_S"
    bench_fact meta aim_tpch "$(bench_oneline "$AIM")"
    bench_fact duckdb title "$(bench_oneline "$DUCKDB_TITLE")"
    bench_fact duckdb version "$(bench_oneline "$DUCKDB_VERSION")"
    bench_fact duckdb threads "$DUCKDB_THREADS"
    bench_fact duckdb export_s "$DUCKDB_EXPORT_S"
    bench_fact duckdb run_s "$DUCKDB_RUN_S"
    bench_fact duckdb note "$(bench_oneline "$DUCKDB_NOTE")"
    for name in "${ALL_CFGS[@]}"; do bench_fact title "$name" "$(bench_oneline "${BENCH_TITLE[$name]}")"; done
    for q in "${QUERIES[@]}"; do
        bench_fact query "$q" "$(bench_oneline "$(cat "$QDIR/$q.sql")")"
        bench_fact qmeta "$q" result "$(bench_oneline "${REF[$q]}")"
        for name in "${EXPLAIN_CFGS[@]}"; do
            [ -n "${EXPLAIN_FILE[$q,$name]:-}" ] || continue
            bench_fact qmeta "$q" "explain_file_$name" "$(basename "${EXPLAIN_FILE[$q,$name]}")"
            bench_fact qmeta "$q" "exec_ms_$name" "${EXEC_MS[$q,$name]}"
            bench_fact qmeta "$q" "own_time_$name" "$(bench_oneline "$(sed 's/^ *//; s/  */ /g' <<<"${SELF[$q,$name]}" | paste -sd';' - | sed 's/;/; /g')")"
        done
        bench_facts_cfgs "$q" "${ALL_CFGS[@]}"
    done
} >"$FACTS"
bench_report_end "$FACTS" tpch_join "$MD" "$TJ_S" "PG serial"
