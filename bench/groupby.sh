#!/usr/bin/env bash
# bench/groupby.sh - GROUP BY over one table with 10, 10K, 1M and 50M groups
# (issue 14), against PostgreSQL, DuckDB and a CUB sort of the keys.
#
#   GROUPBY_ROWS=1000000 bench/groupby.sh         # quick check, any host
#   bench/groupby.sh                              # GPU host: 100M rows
#   BENCH_START=0 PGHOST=... PGPORT=... bench/groupby.sh   # a running server
#   SKIP_TESTS=1 SKIP_BENCH=1 BENCH_GROUPBY=1 test/gpu/run.sh   # on the GPU host
#
# Starts a cluster with gpuext preloaded (bench/lib.sh, as bench/tpch.sh),
# generates t(id int8, g10, g10k, g1m, g50m, v int4) of GROUPBY_ROWS rows
# (bench/groupby/gen.sh: inside PostgreSQL, parallel sessions; gN =
# (id * 2654435761) mod min(N, rows): exactly rows / N rows a group, spread
# over the table, no sorted runs; v a hash of id in -100000..100000;
# VACUUM (FREEZE, ANALYZE)), prewarms it and runs, for gK in g10 g10k g1m
# g50m (bench/groupby/gK.sql),
#
#   SELECT gK, count(*), sum(v), min(v), max(v), avg(v) FROM t GROUP BY gK
#
# wrapped so that no group reaches the client: an aggregate over its rows
# returns one row, groups|rows|sum(sum)|min(min)|max(max)|sum(avg)|mix,
# where mix = sum over the groups of w(g) x (sum + 3 min + 7 max + 11 count),
# w(g) = (g x 40503 + 1) mod 65521: a value attached to the wrong group
# changes it.  The wrapper costs the same in every configuration (a plain
# Aggregate above the GROUP BY); EXPLAIN ANALYZE shows the GROUP BY node's
# own time.  Configurations (bench/lib.sh bench_define_configs):
#
#   serial    PG serial     gpuext.enabled = off, no parallel workers
#   par8      PG par8       gpuext.enabled = off, 8 workers per gather
#   cpu       gpuext CPU    gpuext.force = on, gpuext.device = cpu
#   gpu       GPU cold      GPU, no column cache
#   gpupar    GPU par8      GPU with 8 parallel workers, no column cache
#   gpucache  GPU cached    GPU after SELECT gpuext_cache_load('t')
#   duckdb    DuckDB Nt     DuckDB (bench/duckdb/, .carry/libduckdb.so.xz) with
#                           GROUPBY_DUCKDB_THREADS (16, at most the cores) on
#                           an in-memory copy of g10..g50m, v (CSV export,
#                           bench/duckdb/lib.sh gxd_export); the same query
#                           files
#
# The gpuext configurations run with gpuext.enable_preagg = on (the GPU
# GROUP BY) when the server knows that parameter; otherwise without it
# ("preagg GUC: n/a" in the report).  The GPU configurations need a GPU in
# gpuext_devices() (GROUPBY_GPU_DEVICE=cpu runs them on the CPU device, to
# check the script on a host without one).  All PostgreSQL configurations
# run with work_mem = GROUPBY_WORK_MEM (1GB).
#
# Timing: each configuration runs a query up to GROUPBY_RUNS times (3), one
# psql session a run, \timing (the client round trip, no connection set-up);
# the figure is the best run.  A run of GROUPBY_LONG_S (30) seconds or
# more is not repeated, nor one that would end past GROUPBY_BUDGET_S.
# Per query the configurations run in the order serial, gpucache, gpu,
# gpupar, par8, cpu (then a budget leaves out the CPU ones first); DuckDB
# and the CUB baseline run before the queries.
# The first GPU configuration of a query first runs it once untimed with
# gpuext.jit_wait = on (the compiled kernel ready).  DuckDB: one warm-up run
# (its result is compared), then GROUPBY_RUNS timed runs, the best counted.
#
# Check: every run's result must equal PG serial's text exactly (DuckDB's
# avg() is a double: sum(avg) within 1e-9 relative counts as "approx");
# anything else is a FAIL, printed loudly; the exit status is then 2.
#
# CUB baseline: when nvcc (PATH or /usr/local/cuda/bin) and a GPU
# (nvidia-smi -L) are there, bench/cub/sort_keys.cu is built (-arch
# GROUPBY_CUDA_ARCH, sm_90) and run over rows keys of g50m's distribution
# (min(50M, rows) groups): cub::DeviceRadixSort::SortKeys (32 bits, and the
# key range's bits), SortPairs with int32 values, DeviceReduce::ReduceByKey
# after it; the report sets the fastest GPU configuration's g50m time (and
# its GROUP BY node's, from EXPLAIN ANALYZE) against SortKeys (issue 14's
# bar: within 3x).  Otherwise "skipped (no GPU)".
#
# Output in $OUT: a table per query (ms, runs, speedup vs PG serial and vs
# DuckDB, plan, check), EXPLAIN (ANALYZE, VERBOSE) of the fastest gpuext
# configuration per query (groupby_explain_<q>_<config>.txt), groupby.md,
# groupby.json (bench/groupby/groupby_json.py), logs.
#
# Time: with 100M rows on the GPU host, loading takes about a minute or
# two and PG serial takes tens of seconds a query (far more at 50M groups);
# everything with 3 runs can take over 20 minutes.  Under a 10-minute limit:
# GROUPBY_BUDGET_S (test/gpu/run.sh sets it from BENCH_BUDGET_S),
# GROUPBY_RUNS=1 or GROUPBY_SKIP="cpu par8".
#
# Environment:
#   GROUPBY_ROWS      rows of t (default 100000000; 1000000 for a quick check)
#   GROUPBY_QUERIES   which of g10 g10k g1m g50m (default all four)
#   GROUPBY_RUNS      runs per query and configuration, best counted (3)
#   GROUPBY_LONG_S    a run this long is not repeated (30)
#   GROUPBY_BUDGET_S  seconds for the whole script (0: no limit); past it
#                     the remaining runs and configurations are skipped
#                     (n/a), and a run still going is cancelled
#                     (statement_timeout: "cancelled (budget)")
#   GROUPBY_SKIP      configurations to leave out, e.g. "cpu duckdb cub"
#   GROUPBY_WORK_MEM  work_mem of the PostgreSQL configurations (1GB)
#   GROUPBY_GPU_DEVICE  gpuext.device of the GPU configurations (gpu; cpu
#                     runs them without a GPU)
#   GROUPBY_JOBS, GROUPBY_BATCH, GROUPBY_FORCE   bench/groupby/gen.sh
#   GROUPBY_DUCKDB_THREADS  DuckDB threads (16, at most the cores)
#   GROUPBY_CUB_REPS  timed runs of each CUB call (5); GROUPBY_CUDA_ARCH (sm_90)
#   OUT               output dir (default /tmp/out)
#   BENCH_START       1: own throwaway cluster (default when PGPORT is unset)
#   BENCH_BUILD       1: build and install first (default: when not installed)
#   BENCH_PORT        port of the own cluster (default 54333)
#   BENCH_DB          database (default groupby)
#   BENCH_DUCKDB      1: run DuckDB, 0: not (default: when a library exists);
#                     GX_DUCKDB_LIB: an unpacked libduckdb.so instead of
#                     .carry/libduckdb.so.xz; BENCH_DUCKDB_TMP: where the CSV
#                     export goes (default $OUT; removed afterwards)
#   PG_CONFIG         as in test/run.sh

set -u -o pipefail
exec 2>&1

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=test/lib.sh
. "$HERE/../test/lib.sh"
# shellcheck source=bench/lib.sh
. "$HERE/lib.sh"
# shellcheck source=bench/groupby/gen.sh
. "$HERE/groupby/gen.sh"

GB_T0=$SECONDS
GROUPBY_ROWS=${GROUPBY_ROWS:-100000000}
export GROUPBY_ROWS
case "$GROUPBY_ROWS" in ''|*[!0-9]*|0) echo "ERROR: bad GROUPBY_ROWS '$GROUPBY_ROWS'"; exit 1 ;; esac
OUT=${OUT:-/tmp/out}
DB=${BENCH_DB:-groupby}
QDIR=$HERE/groupby
read -r -a QUERIES <<<"${GROUPBY_QUERIES:-g10 g10k g1m g50m}"
RUNS=${GROUPBY_RUNS:-3}
LONG_S=${GROUPBY_LONG_S:-30}
BUDGET_S=${GROUPBY_BUDGET_S:-0}
WORK_MEM=${GROUPBY_WORK_MEM:-1GB}
GPU_DEV=${GROUPBY_GPU_DEVICE:-gpu}
for v in RUNS LONG_S BUDGET_S; do
    case "${!v}" in ''|*[!0-9]*) echo "ERROR: GROUPBY_$v must be a number, not '${!v}'"; exit 1 ;; esac
done
[ "$RUNS" -lt 1 ] && RUNS=1
for q in "${QUERIES[@]}"; do
    [ -f "$QDIR/$q.sql" ] || { echo "ERROR: no query $q (GROUPBY_QUERIES: g10 g10k g1m g50m)"; exit 1; }
done
if [ -z "${BENCH_START:-}" ]; then
    if [ -n "${PGPORT:-}" ]; then BENCH_START=0; else BENCH_START=1; fi
fi
mkdir -p "$OUT" || exit 1

gx_find_pg_config || exit 1

# GB_TMP: the CUB build (removed at exit, as the DuckDB export)
GB_TMP=""
# shellcheck disable=SC2016 # expanded at exit
bench_on_exit 'if [ -n "$GB_TMP" ]; then rm -rf "$GB_TMP"; fi'

# bench/lib.sh's query runs: budget, log names, plan column
BENCH_T0=$GB_T0
BENCH_NAME=groupby
BENCH_BUDGET_VAR=GROUPBY_BUDGET_S
BENCH_PLAN_FN=gb_plan

# ------------------------------------------------------------------ setup
bench_ensure_installed || exit 1
if [ "$BENCH_START" = 1 ]; then
    gx_setup_user || exit 1
    # bench/lib.sh sizes shared_buffers at 100 bytes a row and the column
    # cache at 48 bytes a row; t takes about 64 bytes a row in the heap and
    # 28 bytes of columns plus the row map: 1.5 x the rows leaves room
    bench_cluster_init "${BENCH_PORT:-54333}" $((GROUPBY_ROWS * 3 / 2)) || exit 1
    gx_cluster_start || exit 1
fi
gx_psql -d postgres -qc "CREATE DATABASE $DB" 2>/dev/null
gx_psql -d "$DB" -qc "CREATE EXTENSION IF NOT EXISTS gpuext" || { echo "ERROR: CREATE EXTENSION gpuext failed"; exit 1; }
gx_psql -d "$DB" -c "SELECT * FROM gpuext_devices()" | tee "$OUT/groupby_devices.txt"
NGPU=$(gx_has_gpu "$DB")
gx_log "GPUs listed by gpuext_devices(): $NGPU"

groupby_gen "$DB" || exit 1
T_ROWS=$(gx_psql -d "$DB" -Atc "SELECT count(*) FROM t")
T_SIZE=$(gx_psql -d "$DB" -Atc "SELECT pg_size_pretty(pg_table_size('t'))")
gx_psql -d "$DB" -qc "CREATE EXTENSION IF NOT EXISTS pg_prewarm" >/dev/null 2>&1 &&
    gx_psql -d "$DB" -Atc "SELECT pg_prewarm('t')" >/dev/null 2>&1
declare -A NGROUPS=(
    [g10]=$(groupby_ngroups 10 "$GROUPBY_ROWS") [g10k]=$(groupby_ngroups 10000 "$GROUPBY_ROWS")
    [g1m]=$(groupby_ngroups 1000000 "$GROUPBY_ROWS") [g50m]=$(groupby_ngroups 50000000 "$GROUPBY_ROWS"))

# ------------------------------------------------------------------ configs
# the GPU GROUP BY's parameter: on where the server knows it
PREAGG=$(gx_psql -d "$DB" -Atc "SELECT current_setting('gpuext.enable_preagg', true)" 2>/dev/null | tail -n 1)
if [ -n "$PREAGG" ]; then
    PREAGG_NOTE="gpuext.enable_preagg = on (default here: $PREAGG)"
    PREAGG_OPT="-c gpuext.enable_preagg=on"
else
    PREAGG_NOTE="n/a (the server does not know gpuext.enable_preagg)"
    PREAGG_OPT=""
fi
gx_log "GPU GROUP BY: $PREAGG_NOTE"

bench_report_configs "$GPU_DEV" "$WORK_MEM" GROUPBY_SKIP "$PREAGG_OPT"

# GPU cached: t into the column cache (a failure is reported, the
# configuration still runs)
CACHE_LOAD_MS=n/a; CACHE_ROWS=n/a
if cfg_enabled gpucache; then
    bench_cache_load "$OUT/groupby_cache_load.txt" "$GPU_DEV" t
fi

# ------------------------------------------------------------------ CUB
# bench/cub/sort_keys.cu over rows keys with g50m's group count (before
# the queries: a budget does not leave it out)
CUB_NOTE="not run"; CUB_DEVICE=""; CUB_CHECK=n/a
declare -A CUB_MS CUB_MEAN
CUB_OPS=(sort_keys sort_keys_bits sort_pairs reduce_by_key sort_reduce)
for op in "${CUB_OPS[@]}"; do CUB_MS[$op]=n/a; CUB_MEAN[$op]=n/a; done
NVCC=$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)
CUB_GROUPS=$(groupby_ngroups 50000000 "$GROUPBY_ROWS")
CUB_LOG=$OUT/groupby_cub.log
if ! cfg_enabled cub; then
    CUB_NOTE="skipped (GROUPBY_SKIP)"
elif [ ! -x "$NVCC" ] || ! nvidia-smi -L >/dev/null 2>&1; then
    CUB_NOTE="skipped (no GPU)"
elif [ "$GROUPBY_ROWS" -gt 2147483647 ]; then
    CUB_NOTE="skipped (more than 2^31-1 keys)"
elif ! bench_budget_ok 60; then
    CUB_NOTE="skipped (GROUPBY_BUDGET_S)"
else
    GB_TMP=$(mktemp -d "$OUT/cub_tmp.XXXXXX") || exit 1
    gx_log "CUB: $NVCC -arch=${GROUPBY_CUDA_ARCH:-sm_90} bench/cub/sort_keys.cu; $GROUPBY_ROWS keys, $CUB_GROUPS groups"
    if ! "$NVCC" -O3 -arch="${GROUPBY_CUDA_ARCH:-sm_90}" -o "$GB_TMP/sort_keys" "$HERE/cub/sort_keys.cu" >"$CUB_LOG" 2>&1; then
        CUB_NOTE="build failed (groupby_cub.log)"
        tail -n 20 "$CUB_LOG"
    elif ! "$GB_TMP/sort_keys" --n "$GROUPBY_ROWS" --groups "$CUB_GROUPS" --reps "${GROUPBY_CUB_REPS:-5}" >>"$CUB_LOG" 2>&1; then
        CUB_NOTE="failed (groupby_cub.log)"
        tail -n 20 "$CUB_LOG"
    else
        CUB_NOTE=""
    fi
    CUB_DEVICE=$(sed -n 's/^device=//p' "$CUB_LOG" | head -n 1)
    CUB_CHECK=$(sed -n 's/^check=\([^ ]*\).*/\1/p' "$CUB_LOG" | head -n 1)
    [ -n "$CUB_CHECK" ] || CUB_CHECK=n/a
    for op in "${CUB_OPS[@]}"; do
        ms=$(sed -n "s/^op=$op ms=\([0-9.]*\) mean_ms=\([0-9.]*\).*/\1 \2/p" "$CUB_LOG" | head -n 1)
        [ -n "$ms" ] && { CUB_MS[$op]=${ms% *}; CUB_MEAN[$op]=${ms#* }; }
    done
    grep -E '^(device|n|op|check)=' "$CUB_LOG" | sed 's/^/   cub: /'
    if [ "$CUB_CHECK" = FAIL ]; then
        FAILED=1
        echo "!!!!!!!! FAIL cub: bench/cub/sort_keys.cu's check failed (groupby_cub.log) !!!!!!!!"
    fi
    rm -rf "$GB_TMP"; GB_TMP=""
fi
[ -n "$CUB_NOTE" ] && gx_log "CUB: $CUB_NOTE"
# ------------------------------------------------------------------ DuckDB
declare -A MS RUNSN ALLMS RES PLAN CHECK
DUCKDB_THREADS=${GROUPBY_DUCKDB_THREADS:-16}
T_COLS="g10, g10k, g1m, g50m, v"
DUCK_COLS="'g10': 'INTEGER', 'g10k': 'INTEGER', 'g1m': 'INTEGER', 'g50m': 'INTEGER', 'v': 'INTEGER'"
gb_duckdb() {   # LOG: 0 when DuckDB ran the queries
    local q qfiles=""
    for q in "${QUERIES[@]}"; do qfiles="$qfiles${qfiles:+,}$QDIR/$q.sql"; done
    GXD_PGOPTIONS="${BENCH_OPTS[serial]}" \
        gxd_copy_and_run "$DB" t "$T_COLS" "$DUCK_COLS" "$qfiles" "$RUNS" "$1"
}
bench_duckdb_run gb_duckdb "$OUT/groupby_duckdb.log" "${QUERIES[@]}"
if [ -z "$DUCKDB_NOTE" ] && [ "$DUCKDB_ROWS" != "$T_ROWS" ]; then
    echo "duckdb: WARNING: DuckDB holds '$DUCKDB_ROWS' rows, t $T_ROWS"
fi

# ------------------------------------------------------------------ timing
# gb_plan OPTS Q: the plan's nodes of interest, top down, joined by +
# (Gpu* nodes, the aggregation strategy, Gather, Sort); a GpuPreAgg that
# finalizes on the device is "GpuPreAgg+final" (its fallback plan below it
# is not counted)
gb_plan() {
    local p
    p=$(PGOPTIONS="$1" gx_psql -d "$DB" -Atc "EXPLAIN $(cat "$QDIR/$2.sql")" 2>/dev/null |
        awk '/Finalize: on the device/ { print "final"; f = 1; next } f && /->/ { exit } { print }' |
        grep -oE 'Gpu[A-Za-z]*|HashAggregate|GroupAggregate|MixedAggregate|Gather( Merge)?|Sort|^final$' |
        awk '!seen[$0]++' | tr ' ' '_' | paste -sd+ -)
    echo "${p:-err}"
}

FAILED=0
declare -A REF REF_CFG
for q in "${QUERIES[@]}"; do
    gx_log "$q (${NGROUPS[$q]} groups): $(cat "$QDIR/$q.sql")"
    bench_run_query "$q" "$QDIR/$q.sql"
    bench_check_duckdb "$q" "${REF[$q]:-}"
    gx_log "$q result (${BENCH_TITLE[${REF_CFG[$q]:-serial}]}): ${REF[$q]}"
done

# ------------------------------------------------------------------ where the time goes
# EXPLAIN (ANALYZE, VERBOSE) of each query under its fastest gpuext
# configuration: the whole execution, and the GROUP BY node (the first node
# below the wrapper's Aggregate, a Subquery Scan skipped)
declare -A BEST EXPLAIN_FILE AGG_MS EXEC_MS AGG_NODE
for q in "${QUERIES[@]}"; do
    BEST[$q]=$(bench_fastest "$q" "${GPUEXT_CFGS[@]}")
    EXPLAIN_FILE[$q]=""; AGG_MS[$q]=n/a; EXEC_MS[$q]=n/a; AGG_NODE[$q]=""
    [ -n "${BEST[$q]}" ] || continue
    if ! bench_budget_ok "$(awk -v m="${MS[$q,${BEST[$q]}]}" 'BEGIN { printf "%d", m / 500 + 1 }')"; then
        gx_log "$q: no EXPLAIN ANALYZE (GROUPBY_BUDGET_S)"
        continue
    fi
    f=$OUT/groupby_explain_${q}_${BEST[$q]}.txt
    EXPLAIN_FILE[$q]=$f
    PGOPTIONS="$(bench_opts "${BEST[$q]}")" gx_psql -d "$DB" -c "EXPLAIN (ANALYZE, VERBOSE) $(cat "$QDIR/$q.sql")" >"$f" 2>&1
    node=$(grep -E 'actual time=' "$f" | sed -n '2,$p' | grep -v 'Subquery Scan' | head -n 1)
    AGG_NODE[$q]=$(printf '%s' "$node" | sed 's/^[ >-]*//; s/ *(cost=.*//')
    AGG_MS[$q]=$(printf '%s' "$node" | sed -n 's/.*actual time=[0-9.]*\.\.\([0-9.]*\) .*/\1/p')
    EXEC_MS[$q]=$(sed -n 's/^ *Execution Time: \([0-9.]*\) ms.*/\1/p' "$f")
    [ -n "${AGG_MS[$q]}" ] || AGG_MS[$q]=n/a
    [ -n "${EXEC_MS[$q]}" ] || EXEC_MS[$q]=n/a
    gx_log "$q under ${BENCH_TITLE[${BEST[$q]}]}: ${AGG_NODE[$q]:-?} ${AGG_MS[$q]} ms of ${EXEC_MS[$q]} ms ($f)"
done

# ------------------------------------------------------------------ CUB bar
# issue 14's bar: the fastest GPU configuration at g50m within 3x of SortKeys
CUB_CFG=""; CUB_RATIO=n/a; CUB_NODE_RATIO=n/a; CUB_WITHIN=n/a
for q in "${QUERIES[@]}"; do [ "$q" = g50m ] && CUB_CFG=$(bench_fastest g50m gpu gpupar gpucache); done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else print "n/a" }'; }
if [ -n "$CUB_CFG" ] && bench_is_num "${CUB_MS[sort_keys]}"; then
    CUB_RATIO=$(ratio "${MS[g50m,$CUB_CFG]}" "${CUB_MS[sort_keys]}")
    [ "${BEST[g50m]:-}" = "$CUB_CFG" ] && CUB_NODE_RATIO=$(ratio "${AGG_MS[g50m]}" "${CUB_MS[sort_keys]}")
    if bench_is_num "$CUB_RATIO"; then
        if bench_lt "$CUB_RATIO" 3.0000001; then CUB_WITHIN=yes; else CUB_WITHIN=no; fi
    fi
fi

# ------------------------------------------------------------------ report
bench_report_facts "$DB"
GB_S=$((SECONDS - GB_T0))
MD=$OUT/groupby.md
{
    echo "# GROUP BY: $T_ROWS rows of t ($T_SIZE), 10 / 10K / 1M / 50M groups"
    echo
    echo "- $PGVER, CPU: ${CPU_NAME:-?} ($(gx_nproc) cores), GPU: ${GPU_NAME:-none}"
    if [ "$GROUPBY_LOAD_S" = n/a ]; then load="t there already"; else load="loaded in $GROUPBY_LOAD_S s"; fi
    echo "- data: bench/groupby/gen.sh, $load; t prewarmed; work_mem = $WORK_MEM"
    echo "- query: \`SELECT gK, count(*), sum(v), min(v), max(v), avg(v) FROM t GROUP BY gK\` in a wrapper returning groups|rows|sum|min|max|sum(avg)|mix (bench/groupby/gK.sql)"
    echo "- ms: the best of up to $RUNS runs (psql \\timing; a run of ${LONG_S} s or more is not repeated); runs: how many"
    echo "- vs PG serial: PG serial ms / ms; vs DuckDB: DuckDB ms / ms (above 1: faster than DuckDB)"
    echo "- check: the result text equals PG serial's (ok), DuckDB's within 1e-9 (approx), or FAIL"
    echo "- GPU GROUP BY: $PREAGG_NOTE; GPU cached: gpuext_cache_load('t') cached $CACHE_ROWS rows in $CACHE_LOAD_MS ms"
    if [ -z "$DUCKDB_NOTE" ]; then
        echo "- $DUCKDB_TITLE: DuckDB $DUCKDB_VERSION, in-memory copy of g10..g50m, v (CSV export $DUCKDB_EXPORT_S s; load and all runs $DUCKDB_RUN_S s), best of $RUNS after a warm-up"
    else
        echo "- $DUCKDB_TITLE: n/a, $DUCKDB_NOTE"
    fi
    [ "$BUDGET_S" != 0 ] && echo "- GROUPBY_BUDGET_S = $BUDGET_S (this run: $GB_S s)"
    for q in "${QUERIES[@]}"; do
        echo
        echo "## $q: ${NGROUPS[$q]} groups"
        echo
        bench_md_query_table "$q" "${ALL_CFGS[@]}"
        echo
        echo "- result (${BENCH_TITLE[${REF_CFG[$q]:-serial}]}): \`${REF[$q]}\`"
        if [ -n "${EXPLAIN_FILE[$q]}" ]; then
            echo "- fastest gpuext configuration: ${BENCH_TITLE[${BEST[$q]}]}; its GROUP BY node (${AGG_NODE[$q]:-?}) ${AGG_MS[$q]} ms of ${EXEC_MS[$q]} ms execution: $(basename "${EXPLAIN_FILE[$q]}")"
        fi
    done
    echo
    echo "## CUB baseline (bench/cub/sort_keys.cu): $GROUPBY_ROWS int32 keys, $CUB_GROUPS groups"
    echo
    if [ -n "$CUB_NOTE" ]; then
        echo "- $CUB_NOTE"
    else
        echo "- device: $CUB_DEVICE; check: $CUB_CHECK; best of ${GROUPBY_CUB_REPS:-5} after a warm-up"
        echo
        echo "| CUB call | ms | mean ms |"
        echo "|---|---:|---:|"
        for op in "${CUB_OPS[@]}"; do echo "| $op | ${CUB_MS[$op]} | ${CUB_MEAN[$op]} |"; done
        echo
        if [ -n "$CUB_CFG" ]; then
            echo "- g50m, ${BENCH_TITLE[$CUB_CFG]} (the fastest GPU configuration): ${MS[g50m,$CUB_CFG]} ms = ${CUB_RATIO}x SortKeys; within 3x: $CUB_WITHIN"
            [ "$CUB_NODE_RATIO" != n/a ] && echo "- its GROUP BY node alone (EXPLAIN ANALYZE): ${AGG_MS[g50m]} ms = ${CUB_NODE_RATIO}x SortKeys"
        else
            echo "- no GPU configuration timed g50m"
        fi
    fi
    bench_md_tail
} >"$MD"

# JSON: the facts (tab-separated, one a line) through bench/groupby/groupby_json.py
FACTS=$OUT/groupby_facts.tsv
{
    bench_fact meta rows "$T_ROWS"
    bench_fact meta table_size "$T_SIZE"
    bench_fact meta load_s "$GROUPBY_LOAD_S"
    bench_fact meta runs "$RUNS"
    bench_fact meta long_s "$LONG_S"
    bench_meta_facts "$GB_S"
    bench_fact meta preagg "$(bench_oneline "$PREAGG_NOTE")"
    bench_fact duckdb title "$(bench_oneline "$DUCKDB_TITLE")"
    bench_fact duckdb version "$(bench_oneline "$DUCKDB_VERSION")"
    bench_fact duckdb threads "$DUCKDB_THREADS"
    bench_fact duckdb export_s "$DUCKDB_EXPORT_S"
    bench_fact duckdb run_s "$DUCKDB_RUN_S"
    bench_fact duckdb note "$(bench_oneline "$DUCKDB_NOTE")"
    bench_fact cub note "$(bench_oneline "$CUB_NOTE")"
    bench_fact cub device "$(bench_oneline "$CUB_DEVICE")"
    bench_fact cub n "$GROUPBY_ROWS"
    bench_fact cub groups "$CUB_GROUPS"
    bench_fact cub check "$CUB_CHECK"
    bench_fact cub g50m_config "$CUB_CFG"
    bench_fact cub g50m_ratio_vs_sort_keys "$CUB_RATIO"
    bench_fact cub g50m_node_ratio_vs_sort_keys "$CUB_NODE_RATIO"
    bench_fact cub within_3x "$CUB_WITHIN"
    for op in "${CUB_OPS[@]}"; do bench_fact cubop "$op" "${CUB_MS[$op]}" "${CUB_MEAN[$op]}"; done
    for name in "${ALL_CFGS[@]}"; do bench_fact title "$name" "$(bench_oneline "${BENCH_TITLE[$name]}")"; done
    for q in "${QUERIES[@]}"; do
        bench_fact query "$q" "$(bench_oneline "$(cat "$QDIR/$q.sql")")"
        bench_fact qmeta "$q" groups "${NGROUPS[$q]}"
        bench_fact qmeta "$q" result "$(bench_oneline "${REF[$q]}")"
        bench_fact qmeta "$q" explain_config "${BEST[$q]}"
        bench_fact qmeta "$q" explain_file "$(basename "${EXPLAIN_FILE[$q]:-}")"
        bench_fact qmeta "$q" agg_node "$(bench_oneline "${AGG_NODE[$q]}")"
        bench_fact qmeta "$q" agg_node_ms "${AGG_MS[$q]}"
        bench_fact qmeta "$q" exec_ms "${EXEC_MS[$q]}"
        bench_facts_cfgs "$q" "${ALL_CFGS[@]}"
    done
} >"$FACTS"
bench_report_end "$FACTS" groupby "$MD" "$GB_S" "PG serial"
