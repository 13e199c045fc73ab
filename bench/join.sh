#!/usr/bin/env bash
# bench/join.sh - joins (issue 15): the workloads of Table 4 of "Relational
# joins on graphics processors" (../shared/papers), against PostgreSQL and
# DuckDB.
#
#   JOIN_ROWS=200000 JOIN_BAND_ROWS=5000 bench/join.sh   # quick check, any host
#   bench/join.sh                                 # GPU host: 16M x 16M, 1M x 1M
#   BENCH_START=0 PGHOST=... PGPORT=... bench/join.sh   # a running server
#   SKIP_TESTS=1 SKIP_BENCH=1 BENCH_JOIN=1 test/gpu/run.sh   # on the GPU host
#
# Starts a cluster with gpuext preloaded (bench/lib.sh, as bench/groupby.sh),
# generates the paper's tables of (rid int4, key int4) inside PostgreSQL
# (bench/join/gen.sh: r with every key of 0..JOIN_ROWS-1 once, s with
# uniform keys, s10 / s50 / s90 with 10% / 50% / 90% of the keys 1, br and
# bs of JOIN_BAND_ROWS uniform keys; VACUUM (FREEZE, ANALYZE)), prewarms
# them and runs (the query files are written to $OUT/join_sql/):
#
#   count    SELECT count(*) FROM r JOIN s ON r.key = s.key
#   skew10, skew50, skew90   the same over s10, s50, s90 (as s)
#   pairs    the pairs to the client: psql runs
#              \copy (SELECT r.rid, s.rid FROM r JOIN s ON r.key = s.key) to '/dev/null'
#            (COPY ... TO STDOUT: the pairs are formed as text and sent to
#            psql, which writes them to /dev/null, not printing them); the
#            result is psql's "COPY <rows>" (\set QUIET off)
#   hpairs   pairs with gpuext.join_gather = off: the backend reads each
#            joined row back (the outer row from its heap page, the inner
#            row it kept) instead of the columns the device gathered
#   mcount, mpairs   count and pairs as GpuJoin's sort-merge join: the
#            same SELECTs with gpuext.enable_hashjoin = off (a SET before
#            the query in the timed file, PGOPTIONS for EXPLAIN and the
#            pairs' checksum), so that gpuext.force plans the merge join;
#            the PostgreSQL and DuckDB configurations run them as count and
#            pairs (the setting is gpuext's alone)
#   semi     SELECT count(*) FROM r WHERE EXISTS (SELECT 1 FROM s WHERE s.key = r.key)
#   anti     the same with NOT EXISTS
#   group    SELECT count(*), sum(c), sum(t) FROM (SELECT r.key % 1000 AS g,
#            count(*) AS c, sum(s.rid) AS t FROM r JOIN s ON r.key = s.key
#            GROUP BY 1) q: GROUP BY over the join, whose 1000 groups
#            the GpuJoin makes on the device (join_agg.cpp)
#   bandD    SELECT count(*) FROM br AS r JOIN bs AS s
#              ON r.key <= s.key AND s.key <= r.key + D
#            for each D of JOIN_BAND_WIDTHS (1 10 100): GpuJoin's range
#            join (gpuext.enable_nestloop), PostgreSQL's nested loop with
#            gpuext off (the plan column says which ran)
#
# Configurations (bench/lib.sh bench_define_configs), as bench/groupby.sh:
#
#   serial    PG serial     gpuext.enabled = off, no parallel workers
#   par8      PG par8       gpuext.enabled = off, 8 workers per gather
#   cpu       gpuext CPU    gpuext.force = on, gpuext.device = cpu
#   gpu       GPU cold      GPU, no column cache
#   gpupar    GPU par8      GPU with 8 parallel workers, no column cache
#   gpucache  GPU cached    GPU after gpuext_cache_load of every table
#   duckdb    DuckDB Nt     DuckDB (bench/duckdb/, .carry/libduckdb.so.xz) with
#                           JOIN_DUCKDB_THREADS (16, at most the cores) on
#                           in-memory copies of the tables (CSV export); the
#                           same queries, pairs as COPY (...) TO '/dev/null'
#                           (its result: the rows written)
#
# The GPU configurations need a GPU in gpuext_devices() (JOIN_GPU_DEVICE=cpu
# runs them on the CPU device, to check the script on a host without one).
# All PostgreSQL configurations run with work_mem = JOIN_WORK_MEM (1GB).
# The plan column: the plan's join nodes top down (GpuJoin, HashJoin,
# NestedLoop, ...; below a GpuJoin its fallback plan is not counted), a
# GpuJoin with ":device", ":fallback" or ":mixed" from an untimed EXPLAIN
# (ANALYZE, TIMING off) of the query in that configuration ("Joined: on
# the device" or "by the Hash Join below"), before its timed runs.
#
# Timing: each configuration runs a query up to JOIN_RUNS times (3), one
# psql session a run, \timing (the client round trip, no connection set-up);
# the figure is the best run.  A run of JOIN_LONG_S (30) seconds or more is
# not repeated, nor one that would end past JOIN_BUDGET_S; a run past
# JOIN_TIMEOUT_S (600) is cancelled ("cancelled (> N s)": PostgreSQL's
# nested loop over 1M x 1M rows takes hours).  Per query the configurations
# run in the order serial, gpucache, gpu, gpupar, par8, cpu (a budget leaves
# out the CPU ones first); DuckDB runs all queries before them (one warm-up
# run, then JOIN_RUNS timed runs, the best counted).
#
# Check: every run's result must equal PG serial's text exactly (counts).
# pairs: after the timed runs every configuration also runs, untimed,
#   SELECT count(*), sum(hashint8((r.rid::int8 << 32) | s.rid)) FROM r JOIN s ON r.key = s.key
# (a checksum of the pairs its join forms); its result is "COPY ROWS COUNT|SUM",
# and DuckDB's row count must equal ROWS.  Anything else is a FAIL,
# printed loudly; the exit status is then 2.
#
# Output in $OUT: a table per query (ms, runs, speedup vs PG serial and vs
# DuckDB, plan, check), EXPLAIN (ANALYZE, VERBOSE) of the fastest gpuext
# configuration per query (join_explain_<q>_<config>.txt; pairs: of its
# SELECT) with the join node's time, its build and probe time and the
# scans', join.md with the issue's aims as ratios, join.json
# (bench/groupby/groupby_json.py), logs.
#
# Time: with 16M rows on the GPU host, loading takes about a minute, PG
# serial a few seconds a query; the band joins on PostgreSQL's plan reach
# JOIN_TIMEOUT_S in every configuration.  Under a 10-minute limit:
# JOIN_BUDGET_S (test/gpu/run.sh sets it from BENCH_BUDGET_S), JOIN_RUNS=1,
# JOIN_SKIP="cpu par8", JOIN_TIMEOUT_S=60 or JOIN_QUERIES without the bands.
#
# Environment:
#   JOIN_ROWS         rows of r, s, s10, s50, s90 (default 16000000)
#   JOIN_BAND_ROWS    rows of br, bs (default 1000000)
#   JOIN_BAND_WIDTHS  the band joins' widths D (default "1 10 100")
#   JOIN_QUERIES      which queries (default: count skew10 skew50 skew90
#                     pairs hpairs mcount mpairs semi anti group and a bandD per
#                     width)
#   JOIN_RUNS         runs per query and configuration, best counted (3)
#   JOIN_LONG_S       a run this long is not repeated (30)
#   JOIN_TIMEOUT_S    a run this long is cancelled (600; 0: no limit)
#   JOIN_BUDGET_S     seconds for the whole script (0: no limit); past it
#                     the remaining runs and configurations are skipped
#                     (n/a), and a run still going is cancelled
#   JOIN_SKIP         configurations to leave out, e.g. "cpu duckdb"
#   JOIN_WORK_MEM     work_mem of the PostgreSQL configurations (1GB)
#   JOIN_CACHE_MB     gpuext.cache_size (default: room for every table)
#   JOIN_GPU_DEVICE   gpuext.device of the GPU configurations (gpu; cpu
#                     runs them without a GPU)
#   JOIN_JOINED       0: no EXPLAIN ANALYZE for the plan column (default 1)
#   JOIN_JOBS, JOIN_BATCH, JOIN_FORCE   bench/join/gen.sh
#   JOIN_DUCKDB_THREADS  DuckDB threads (16, at most the cores)
#   OUT               output dir (default /tmp/out)
#   BENCH_START       1: own throwaway cluster (default when PGPORT is unset)
#   BENCH_BUILD       1: build and install first (default: when not installed)
#   BENCH_PORT        port of the own cluster (default 54334)
#   BENCH_DB          database (default join)
#   BENCH_DUCKDB      1: run DuckDB, 0: not (default: when a library exists);
#                     GX_DUCKDB_LIB, BENCH_DUCKDB_TMP: as in bench/groupby.sh
#   PG_CONFIG         as in test/run.sh

set -u -o pipefail
exec 2>&1

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=test/lib.sh
. "$HERE/../test/lib.sh"
# shellcheck source=bench/lib.sh
. "$HERE/lib.sh"
# shellcheck source=bench/join/gen.sh
. "$HERE/join/gen.sh"

BENCH_T0=$SECONDS
BENCH_NAME=join
BENCH_BUDGET_VAR=JOIN_BUDGET_S
BENCH_PLAN_FN=jb_plan
BENCH_RESULT_FN=jb_result
JOIN_ROWS=${JOIN_ROWS:-16000000}
JOIN_BAND_ROWS=${JOIN_BAND_ROWS:-1000000}
export JOIN_ROWS JOIN_BAND_ROWS
OUT=${OUT:-/tmp/out}
DB=${BENCH_DB:-join}
SQLDIR=$OUT/join_sql
read -r -a WIDTHS <<<"${JOIN_BAND_WIDTHS:-1 10 100}"
RUNS=${JOIN_RUNS:-3}
LONG_S=${JOIN_LONG_S:-30}
BUDGET_S=${JOIN_BUDGET_S:-0}
BENCH_RUN_TIMEOUT_S=${JOIN_TIMEOUT_S:-600}
WORK_MEM=${JOIN_WORK_MEM:-1GB}
GPU_DEV=${JOIN_GPU_DEVICE:-gpu}
for v in JOIN_ROWS JOIN_BAND_ROWS RUNS LONG_S BUDGET_S BENCH_RUN_TIMEOUT_S "WIDTHS[@]"; do
    for x in ${!v}; do
        case "$x" in ''|*[!0-9]*) echo "ERROR: $v must be a number, not '$x'"; exit 1 ;; esac
    done
done
[ "$RUNS" -lt 1 ] && RUNS=1
ALL_QUERIES=(count skew10 skew50 skew90 pairs hpairs mcount mpairs semi anti group)
for d in "${WIDTHS[@]}"; do ALL_QUERIES+=("band$d"); done
read -r -a QUERIES <<<"${JOIN_QUERIES:-${ALL_QUERIES[*]}}"
for q in "${QUERIES[@]}"; do
    case " ${ALL_QUERIES[*]} " in *" $q "*) ;; *) echo "ERROR: no query $q (JOIN_QUERIES: ${ALL_QUERIES[*]})"; exit 1 ;; esac
done
if [ -z "${BENCH_START:-}" ]; then
    if [ -n "${PGPORT:-}" ]; then BENCH_START=0; else BENCH_START=1; fi
fi
mkdir -p "$OUT" "$SQLDIR/duckdb" || exit 1

gx_find_pg_config || exit 1
bench_on_exit

# ------------------------------------------------------------------ queries
# jb_sql Q: the SELECT of query Q (what EXPLAIN shows, what DuckDB runs)
EQ_JOIN="FROM r JOIN s ON r.key = s.key"
jb_sql() {
    case "$1" in
        count | mcount) echo "SELECT count(*) $EQ_JOIN" ;;
        skew*) echo "SELECT count(*) FROM r JOIN s${1#skew} AS s ON r.key = s.key" ;;
        pairs | hpairs | mpairs) echo "SELECT r.rid, s.rid $EQ_JOIN" ;;
        semi) echo "SELECT count(*) FROM r WHERE EXISTS (SELECT 1 FROM s WHERE s.key = r.key)" ;;
        anti) echo "SELECT count(*) FROM r WHERE NOT EXISTS (SELECT 1 FROM s WHERE s.key = r.key)" ;;
        band*) echo "SELECT count(*) FROM br AS r JOIN bs AS s ON r.key <= s.key AND s.key <= r.key + ${1#band}" ;;
        group) echo "SELECT count(*), sum(c), sum(t) FROM (SELECT r.key % 1000 AS g, count(*) AS c, sum(s.rid) AS t $EQ_JOIN GROUP BY 1) q" ;;
    esac
}
# jb_qopts Q: the settings query Q runs with besides its configuration's
# (the merge join's queries: the hash join off; psql's last "Time:" line,
# the query's, is the one timed)
jb_qopts() {
    case "$1" in
        mcount | mpairs) echo "-c gpuext.enable_hashjoin=off" ;;
        hpairs) echo "-c gpuext.join_gather=off" ;;
    esac
}
# the files: Q.sql (the SELECT), Q.run.sql (what psql times), duckdb/Q.sql
for q in "${QUERIES[@]}"; do
    echo "$(jb_sql "$q");" >"$SQLDIR/$q.sql"
    case "$q" in
        mcount | mpairs) echo "SET gpuext.enable_hashjoin = off;" ;;
        hpairs) echo "SET gpuext.join_gather = off;" ;;
    esac >"$SQLDIR/$q.run.sql"
    if [ "$q" = pairs ] || [ "$q" = hpairs ] || [ "$q" = mpairs ]; then
        printf '%s\n' '\set QUIET off' "\\copy ($(jb_sql "$q")) to '/dev/null'" >>"$SQLDIR/$q.run.sql"
        echo "COPY ($(jb_sql "$q")) TO '/dev/null' (FORMAT csv);" >"$SQLDIR/duckdb/$q.sql"
    else
        cat "$SQLDIR/$q.sql" >>"$SQLDIR/$q.run.sql" && cp "$SQLDIR/$q.sql" "$SQLDIR/duckdb/$q.sql"
    fi
done
PAIRS_CHECK_SQL="SELECT count(*), sum(hashint8((r.rid::int8 << 32) | s.rid)) $EQ_JOIN"

# ------------------------------------------------------------------ setup
bench_ensure_installed || exit 1
if [ "$BENCH_START" = 1 ]; then
    gx_setup_user || exit 1
    # bench/lib.sh sizes shared_buffers at 100 bytes a row: the five tables
    # of 36 bytes a row in the heap, with room
    # the column cache holds every table at once: entries of at most 4M
    # rows in 128 MB units (bench/lib.sh sizes it for wider rows)
    bench_cluster_init "${BENCH_PORT:-54334}" $((JOIN_ROWS * 2 + JOIN_BAND_ROWS)) \
        "gpuext.cache_size = ${JOIN_CACHE_MB:-$(( (JOIN_ROWS * 5 + JOIN_BAND_ROWS * 2) / 4000000 * 128 + 1024 ))}MB" || exit 1
    gx_cluster_start || exit 1
fi
gx_psql -d postgres -qc "CREATE DATABASE \"$DB\"" 2>/dev/null
gx_psql -d "$DB" -qc "CREATE EXTENSION IF NOT EXISTS gpuext" || { echo "ERROR: CREATE EXTENSION gpuext failed"; exit 1; }
gx_psql -d "$DB" -c "SELECT * FROM gpuext_devices()" | tee "$OUT/join_devices.txt"
NGPU=$(gx_has_gpu "$DB")
gx_log "GPUs listed by gpuext_devices(): $NGPU"

join_gen "$DB" || exit 1
# shellcheck disable=SC2086
bench_tables_prewarm "$DB" $JOIN_TABLES

# ------------------------------------------------------------------ configs
bench_report_configs "$GPU_DEV" "$WORK_MEM" JOIN_SKIP

CACHE_LOAD_MS=n/a; CACHE_ROWS=n/a
if cfg_enabled gpucache; then
    # shellcheck disable=SC2086
    bench_cache_load "$OUT/join_cache_load.txt" "$GPU_DEV" $JOIN_TABLES
fi

# ------------------------------------------------------------------ DuckDB
declare -A MS RUNSN ALLMS RES PLAN CHECK REF REF_CFG
FAILED=0
DUCKDB_THREADS=${JOIN_DUCKDB_THREADS:-16}
jb_duckdb() {   # LOG: 0 when DuckDB ran the queries
    local qfiles
    qfiles=$(printf "$SQLDIR/duckdb/%s.sql," "${QUERIES[@]}" | sed 's/,$//')
    GXD_PGOPTIONS="${BENCH_OPTS[serial]}" gxd_copy_and_run "$DB" "$JOIN_TABLES" "rid, key" \
        "'rid': 'INTEGER', 'key': 'INTEGER'" "$qfiles" "$RUNS" "$1"
}
bench_duckdb_run jb_duckdb "$OUT/join_duckdb.log" "${QUERIES[@]}"
if [ -z "$DUCKDB_NOTE" ]; then
    want=$(gx_psql -d "$DB" -Atc "SELECT $(printf '(SELECT count(*) FROM %s) + ' $JOIN_TABLES) 0")
    [ "$DUCKDB_ROWS" = "$want" ] || echo "duckdb: WARNING: DuckDB holds '$DUCKDB_ROWS' rows, PostgreSQL $want"
fi

# ------------------------------------------------------------------ timing
# jb_plan OPTS Q: the plan's join nodes (and Gather, Materialize) top down,
# joined by +, down to the first GpuJoin (its fallback plan below is not
# counted); a GpuJoin's "Joined:" from EXPLAIN (ANALYZE, TIMING off) when
# JOIN_JOINED is not 0 and the budget leaves time
jb_plan() {
    local p joined
    set -- "$1 $(jb_qopts "$2")" "$2"
    p=$(PGOPTIONS="$1" gx_psql -d "$DB" -Atc "EXPLAIN $(jb_sql "$2")" 2>/dev/null |
        awk '{ print } /GpuJoin/ { exit }' |
        grep -oE 'Gpu[A-Za-z]*|(Parallel )?Hash( Right| Left| Full)?( Semi| Anti)? Join|Merge( Right| Left| Full)?( Semi| Anti)? Join|Nested Loop( Right| Left)?( Semi| Anti)?( Join)?|Gather( Merge)?|Materialize' |
        tr -d ' ' | paste -sd+ -)
    if [[ $p == *GpuJoin* ]] && [ "${JOIN_JOINED:-1}" != 0 ] && bench_budget_ok; then
        joined=$(PGOPTIONS="$1" gx_psql -d "$DB" -Atc "EXPLAIN (ANALYZE, TIMING off, COSTS off) $(jb_sql "$2")" 2>/dev/null |
            sed -n 's/^ *Joined: //p' | head -n 1)
        # (which algorithm: a merge join's plan says so)
        PGOPTIONS="$1" gx_psql -d "$DB" -Atc "EXPLAIN $(jb_sql "$2")" 2>/dev/null |
            grep -q 'Algorithm: Merge' && p=${p/GpuJoin/GpuJoin(merge)}
        case "$joined" in
            "on the device") p=${p/GpuJoin/GpuJoin:device} ;;
            "by the Hash Join below" | "by the Nested Loop below") p=${p/GpuJoin/GpuJoin:fallback} ;;
            "") p=${p/GpuJoin/GpuJoin:?} ;;
            *) p=${p/GpuJoin/GpuJoin:mixed} ;;
        esac
    fi
    echo "${p:-err}"
}

# jb_result Q NAME (BENCH_RESULT_FN): pairs: the checksum of the pairs
# that configuration NAME's join forms, untimed, after T_RES (the rows)
jb_result() {
    local sum
    [ "$1" = pairs ] || [ "$1" = hpairs ] || [ "$1" = mpairs ] || return 0
    sum=$(PGOPTIONS="$(bench_opts "$2") $(jb_qopts "$1")" gx_psql -d "$DB" -Atc "$PAIRS_CHECK_SQL" 2>&1 | tr '\n' ' ' | sed 's/ *$//')
    T_RES="$T_RES $sum"
}

for q in "${QUERIES[@]}"; do
    gx_log "$q: $(cat "$SQLDIR/$q.run.sql" | tr '\n' ' ')"
    bench_run_query "$q" "$SQLDIR/$q.run.sql"
    # DuckDB's pairs: the rows written, n of PostgreSQL's "COPY n ..."
    ref=${REF[$q]:-}
    { [ "$q" = pairs ] || [ "$q" = hpairs ] || [ "$q" = mpairs ]; } && ref=$(awk '{ print $2 }' <<<"$ref")
    bench_check_duckdb "$q" "$ref"
    gx_log "$q result (${BENCH_TITLE[${REF_CFG[$q]:-serial}]}): ${REF[$q]}"
done

# ------------------------------------------------------------------ where the time goes
# EXPLAIN (ANALYZE, VERBOSE) of each query's SELECT under its fastest
# gpuext configuration: the execution, the join node (the first node with
# Join, GpuJoin or Nested Loop in its name), a GpuJoin's build and probe
# time, and the scans below it
declare -A BEST EXPLAIN_FILE JOIN_NODE JOIN_MS EXEC_MS DETAIL
node_ms() { sed -n 's/.*actual time=[0-9.]*\.\.\([0-9.]*\) .*/\1/p' <<<"$1"; }
for q in "${QUERIES[@]}"; do
    BEST[$q]=$(bench_fastest "$q" "${GPUEXT_CFGS[@]}")
    EXPLAIN_FILE[$q]=""; JOIN_MS[$q]=n/a; EXEC_MS[$q]=n/a; JOIN_NODE[$q]=""; DETAIL[$q]=""
    [ -n "${BEST[$q]}" ] || continue
    if ! bench_budget_ok "$(awk -v m="${MS[$q,${BEST[$q]}]}" 'BEGIN { printf "%d", m / 500 + 1 }')"; then
        gx_log "$q: no EXPLAIN ANALYZE (JOIN_BUDGET_S)"
        continue
    fi
    f=$OUT/join_explain_${q}_${BEST[$q]}.txt
    EXPLAIN_FILE[$q]=$f
    PGOPTIONS="$(bench_opts "${BEST[$q]}") $(jb_qopts "$q")" gx_psql -d "$DB" -c "EXPLAIN (ANALYZE, VERBOSE) $(jb_sql "$q")" >"$f" 2>&1
    node=$(grep -E 'actual time=' "$f" | grep -E 'GpuJoin|Join|Nested Loop' | head -n 1)
    JOIN_NODE[$q]=$(printf '%s' "$node" | sed 's/^[ >-]*//; s/ *(cost=.*//')
    JOIN_MS[$q]=$(node_ms "$node")
    EXEC_MS[$q]=$(sed -n 's/^ *Execution Time: \([0-9.]*\) ms.*/\1/p' "$f")
    # the GpuJoin's lines (Joined, Build Time, Probe Time, rows) and the scans' times
    DETAIL[$q]=$( {
        sed -n 's/^ *\(Joined\|Build Time\|Probe Time\|Inner Rows\|Outer Rows\|Rows From Device\): \(.*\)/\1 \2/p' "$f"
        grep -E 'Scan on .*actual time=' "$f" | grep -v 'never executed' |
            sed 's/^[ >-]*\([A-Za-z ]*Scan on [a-z0-9_.]*\( [a-z0-9_]*\)\{0,1\}\) .*actual time=[0-9.]*\.\.\([0-9.]*\) .*/\1 \3 ms/'
    } | paste -sd";" - | sed "s/;/; /g; s/  */ /g")
    [ -n "${JOIN_MS[$q]}" ] || JOIN_MS[$q]=n/a
    [ -n "${EXEC_MS[$q]}" ] || EXEC_MS[$q]=n/a
    gx_log "$q under ${BENCH_TITLE[${BEST[$q]}]}: ${JOIN_NODE[$q]:-?} ${JOIN_MS[$q]} ms of ${EXEC_MS[$q]} ms; ${DETAIL[$q]} ($f)"
done

# ------------------------------------------------------------------ aims
# the issue's aims, as ratios (not gates)
declare -A AIM
has_q() { case " ${QUERIES[*]} " in *" $1 "*) true ;; *) false ;; esac; }
AIM[count]=n/a
if has_q count && bench_is_num "${MS[count,gpucache]}"; then
    if bench_lt "${MS[count,gpucache]}" 10; then met=met; else met="not met"; fi
    AIM[count]="${MS[count,gpucache]} ms (aim: under 10 ms: $met; $(bench_xratio "${MS[count,duckdb]}" "${MS[count,gpucache]}") DuckDB, $(bench_xratio "${MS[count,par8]}" "${MS[count,gpucache]}") PG par8; plan ${PLAN[count,gpucache]})"
fi
# the merge join against the hash join, per GPU configuration, count and pairs
AIM[merge]=""
for pair in count:mcount pairs:mpairs; do
    h=${pair%:*}; m=${pair#*:}
    has_q "$h" && has_q "$m" || continue
    for name in gpucache gpu; do
        bench_is_num "${MS[$h,$name]}" && bench_is_num "${MS[$m,$name]}" || continue
        if bench_lt "${MS[$m,$name]}" "$(awk -v x="${MS[$h,$name]}" 'BEGIN { print 2 * x }')"; then
            met=met; else met="not met"; fi
        AIM[merge]="${AIM[merge]}${AIM[merge]:+; }$h, ${BENCH_TITLE[$name]}: merge ${MS[$m,$name]} ms, hash ${MS[$h,$name]} ms ($(awk -v a="${MS[$m,$name]}" -v b="${MS[$h,$name]}" 'BEGIN { printf "%.2f", a / b }')x: $met; plans ${PLAN[$m,$name]}, ${PLAN[$h,$name]})"
    done
done
[ -n "${AIM[merge]}" ] || AIM[merge]="n/a (needs count and mcount, or pairs and mpairs, on a GPU configuration)"
AIM[band]=""
for d in "${WIDTHS[@]}"; do
    q=band$d
    has_q "$q" || continue
    b=$(bench_fastest "$q" "${GPUEXT_CFGS[@]}")
    if [ -z "$b" ]; then
        r="no gpuext configuration finished"
    elif bench_is_num "${MS[$q,par8]}"; then
        r="$(bench_xratio "${MS[$q,par8]}" "${MS[$q,$b]}") (${BENCH_TITLE[$b]}, plan ${PLAN[$q,$b]})"
    elif [[ ${CHECK[$q,par8]} == cancelled* ]] && [ "$BENCH_RUN_TIMEOUT_S" != 0 ]; then
        r="more than $(bench_xratio "$((BENCH_RUN_TIMEOUT_S * 1000))" "${MS[$q,$b]}") (PG par8 ${CHECK[$q,par8]}; ${BENCH_TITLE[$b]}, plan ${PLAN[$q,$b]})"
    else
        r="n/a (PG par8: ${CHECK[$q,par8]})"
    fi
    AIM[band]="${AIM[band]}${AIM[band]:+; }d = $d: $r"
done
[ -n "${AIM[band]}" ] || AIM[band]=n/a

# ------------------------------------------------------------------ report
bench_report_facts "$DB"
JB_S=$((SECONDS - BENCH_T0))
MD=$OUT/join.md
{
    echo "# Joins: r, s of $JOIN_ROWS rows (rid int4, key int4), band joins over $JOIN_BAND_ROWS rows"
    echo
    echo "- $PGVER, CPU: ${CPU_NAME:-?} ($(gx_nproc) cores), GPU: ${GPU_NAME:-none}"
    if [ "$JOIN_LOAD_S" = n/a ]; then load="there already"; else load="loaded in $JOIN_LOAD_S s"; fi
    echo "- data: bench/join/gen.sh ($SIZES), $load; prewarmed; work_mem = $WORK_MEM"
    echo "- keys: r every key of 0..$((JOIN_ROWS - 1)) once; s uniform; s10 / s50 / s90 with 10% / 50% / 90% of the keys 1; br, bs uniform in 0..$((JOIN_BAND_ROWS - 1))"
    echo "- pairs: psql's \`\\copy (SELECT r.rid, s.rid ...) to '/dev/null'\`: the pairs go to the client as text (COPY TO STDOUT), psql writes them to /dev/null; result \"COPY rows\"; DuckDB: \`COPY (...) TO '/dev/null'\` (its rows)"
    echo "- hpairs: pairs with gpuext.join_gather = off: GpuJoin's rows read back by the backend (the outer row from its heap page, the inner row it kept) instead of the columns the device gathered; the same query elsewhere"
    echo "- mcount, mpairs: count and pairs with gpuext.enable_hashjoin = off: GpuJoin's sort-merge join where gpuext plans (plan GpuJoin(merge)), the same query elsewhere"
    echo "- group: GROUP BY over the join (1000 groups of r.key % 1000, count(*) and sum(s.rid) of each), summed into one row: where gpuext plans, the GpuJoin adds each pair into a group table on the device and returns the groups (its plan node: FinalHashAgg(GpuJoin...))"
    echo "- ms: the best of up to $RUNS runs (psql \\timing; a run of ${LONG_S} s or more is not repeated; one past ${BENCH_RUN_TIMEOUT_S} s is cancelled); runs: how many"
    echo "- vs PG serial: PG serial ms / ms; vs DuckDB: DuckDB ms / ms (above 1: faster than DuckDB)"
    echo "- plan: the join nodes top down; GpuJoin:device / :fallback: EXPLAIN ANALYZE's \"Joined: on the device\" / \"by the Hash Join below\" (a band join: \"by the Nested Loop below\")"
    echo "- check: the count equals PG serial's (ok), pairs: rows and the checksum \`count(*)|sum(hashint8((r.rid::int8 << 32) | s.rid))\` of the configuration's join (DuckDB: rows), or FAIL"
    echo "- GPU cached: gpuext_cache_load() of $JOIN_TABLES cached $CACHE_ROWS rows in $CACHE_LOAD_MS ms"
    if [ -z "$DUCKDB_NOTE" ]; then
        echo "- $DUCKDB_TITLE: DuckDB $DUCKDB_VERSION, in-memory copies (CSV export $DUCKDB_EXPORT_S s; load and all runs $DUCKDB_RUN_S s), best of $RUNS after a warm-up"
    else
        echo "- $DUCKDB_TITLE: n/a, $DUCKDB_NOTE"
    fi
    [ "$BUDGET_S" != 0 ] && echo "- JOIN_BUDGET_S = $BUDGET_S (this run: $JB_S s)"
    echo
    echo "## Aims of issue 15 (ratios, not gates)"
    echo
    echo "- count(*) of r JOIN s on cached inputs, GPU cached: ${AIM[count]}"
    echo "- sort-merge within 2x of the hash join (mcount / mpairs against count / pairs): ${AIM[merge]}"
    echo "- band join at least 50x faster than PG par8: ${AIM[band]}"
    echo "- TPC-H Q3, Q5, Q10, Q12 at least 10x DuckDB: bench/tpch_join.sh (BENCH_TPCH_JOIN=1)"
    for q in "${QUERIES[@]}"; do
        echo
        echo "## $q: \`$(jb_sql "$q")\`"
        echo
        bench_md_query_table "$q" "${ALL_CFGS[@]}"
        echo
        echo "- result (${BENCH_TITLE[${REF_CFG[$q]:-serial}]}): \`${REF[$q]}\`"
        if [ -n "${EXPLAIN_FILE[$q]}" ]; then
            echo "- where the time goes, fastest gpuext configuration ${BENCH_TITLE[${BEST[$q]}]}: join node (${JOIN_NODE[$q]:-?}) ${JOIN_MS[$q]} ms of ${EXEC_MS[$q]} ms execution; ${DETAIL[$q]:-} ($(basename "${EXPLAIN_FILE[$q]}"))"
        fi
    done
    bench_md_tail
} >"$MD"

# JSON: the facts through bench/groupby/groupby_json.py (no cub section)
FACTS=$OUT/join_facts.tsv
{
    bench_fact meta rows "$JOIN_ROWS"
    bench_fact meta band_rows "$JOIN_BAND_ROWS"
    bench_fact meta table_size "$(bench_oneline "$SIZES")"
    bench_fact meta load_s "$JOIN_LOAD_S"
    bench_fact meta runs "$RUNS"
    bench_fact meta long_s "$LONG_S"
    bench_fact meta timeout_s "$BENCH_RUN_TIMEOUT_S"
    bench_meta_facts "$JB_S"
    bench_fact meta aim_count "$(bench_oneline "${AIM[count]}")"
    bench_fact meta aim_band "$(bench_oneline "${AIM[band]}")"
    bench_fact meta aim_merge "$(bench_oneline "${AIM[merge]}")"
    bench_fact duckdb title "$(bench_oneline "$DUCKDB_TITLE")"
    bench_fact duckdb version "$(bench_oneline "$DUCKDB_VERSION")"
    bench_fact duckdb threads "$DUCKDB_THREADS"
    bench_fact duckdb export_s "$DUCKDB_EXPORT_S"
    bench_fact duckdb run_s "$DUCKDB_RUN_S"
    bench_fact duckdb note "$(bench_oneline "$DUCKDB_NOTE")"
    for name in "${ALL_CFGS[@]}"; do bench_fact title "$name" "$(bench_oneline "${BENCH_TITLE[$name]}")"; done
    for q in "${QUERIES[@]}"; do
        bench_fact query "$q" "$(bench_oneline "$(cat "$SQLDIR/$q.run.sql")")"
        bench_fact qmeta "$q" result "$(bench_oneline "${REF[$q]}")"
        bench_fact qmeta "$q" explain_config "${BEST[$q]}"
        bench_fact qmeta "$q" explain_file "$(basename "${EXPLAIN_FILE[$q]:-}")"
        bench_fact qmeta "$q" join_node "$(bench_oneline "${JOIN_NODE[$q]}")"
        bench_fact qmeta "$q" join_node_ms "${JOIN_MS[$q]}"
        bench_fact qmeta "$q" exec_ms "${EXEC_MS[$q]}"
        bench_fact qmeta "$q" detail "$(bench_oneline "${DETAIL[$q]}")"
        bench_facts_cfgs "$q" "${ALL_CFGS[@]}"
    done
} >"$FACTS"
bench_report_end "$FACTS" join "$MD" "$JB_S" "PG serial"
