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

# gb_budget_ok [SECONDS]: true when GROUPBY_BUDGET_S is 0, or when SECONDS
# more (default 0) still end within it
gb_budget_ok() {
    [ "$BUDGET_S" = 0 ] || [ $(( SECONDS - GB_T0 + ${1:-0} )) -lt "$BUDGET_S" ]
}
# gb_opts NAME: PGOPTIONS of configuration NAME; with a budget also a
# statement_timeout of what is left of it (at least 1 s), so that no run
# overshoots it
gb_opts() {
    local left
    if [ "$BUDGET_S" = 0 ]; then
        echo "${BENCH_OPTS[$1]}"
    else
        left=$(( BUDGET_S - (SECONDS - GB_T0) ))
        [ "$left" -lt 1 ] && left=1
        echo "${BENCH_OPTS[$1]} -c statement_timeout=${left}s"
    fi
}

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

bench_define_configs "$GPU_DEV"
BENCH_TITLE[gpu]="GPU cold"
if [ "$GPU_DEV" != gpu ]; then
    for name in gpu gpupar gpucache; do BENCH_TITLE[$name]="${BENCH_TITLE[$name]} [$GPU_DEV]"; done
fi
CFG_NAMES=(serial par8 cpu gpu gpupar gpucache)
# the order they run in: PG serial (the reference) first, then the GPU ones,
# so that a budget leaves out the others first
RUN_ORDER=(serial gpucache gpu gpupar par8 cpu)
GPUEXT_CFGS=(cpu gpu gpupar gpucache)
for name in "${CFG_NAMES[@]}"; do
    BENCH_OPTS[$name]="${BENCH_OPTS[$name]} -c work_mem=$WORK_MEM"
done
for name in "${GPUEXT_CFGS[@]}"; do
    BENCH_OPTS[$name]="${BENCH_OPTS[$name]}${PREAGG_OPT:+ $PREAGG_OPT}"
done
# cfg_enabled NAME: not in GROUPBY_SKIP; the GPU ones with a GPU (or
# GROUPBY_GPU_DEVICE other than gpu)
cfg_enabled() {
    case " ${GROUPBY_SKIP:-} " in *" $1 "*) return 1 ;; esac
    case "$1" in
        gpu|gpupar|gpucache) [ "$NGPU" -gt 0 ] || [ "$GPU_DEV" != gpu ] ;;
        *) true ;;
    esac
}
# why a configuration does not run
cfg_why() {
    case " ${GROUPBY_SKIP:-} " in *" $1 "*) echo "skipped (GROUPBY_SKIP)"; return ;; esac
    echo "skipped (no GPU)"
}

# GPU cached: t into the column cache (a failure is reported, the
# configuration still runs)
CACHE_LOAD_MS=n/a; CACHE_ROWS=n/a
if cfg_enabled gpucache; then
    t0=$(date +%s%N)
    if PGOPTIONS="-c gpuext.device=$GPU_DEV" gx_psql -d "$DB" -Atc "SELECT gpuext_cache_load('t')" >"$OUT/groupby_cache_load.txt" 2>&1; then
        CACHE_LOAD_MS=$(( ($(date +%s%N) - t0) / 1000000 ))
        CACHE_ROWS=$(grep -E '^[0-9]+$' "$OUT/groupby_cache_load.txt" | tail -n 1)
        gx_log "cache load: ${CACHE_ROWS:-?} rows in $CACHE_LOAD_MS ms"
        # pages not all-visible are not cached (their rows would be read
        # from the heap by every "cached" run): VACUUM once more, now that
        # nothing else runs, and load again
        if [ "${CACHE_ROWS:-0}" -lt "$GROUPBY_ROWS" ]; then
            gx_log "cache load: ${CACHE_ROWS:-?} of $GROUPBY_ROWS rows; VACUUM t and load again"
            gx_psql -d "$DB" -qc "VACUUM (FREEZE) t" >>"$OUT/groupby_cache_load.txt" 2>&1
            t0=$(date +%s%N)
            if PGOPTIONS="-c gpuext.device=$GPU_DEV" gx_psql -d "$DB" -Atc "SELECT gpuext_cache_load('t')" >>"$OUT/groupby_cache_load.txt" 2>&1; then
                CACHE_LOAD_MS=$(( ($(date +%s%N) - t0) / 1000000 ))
                CACHE_ROWS=$(grep -E '^[0-9]+$' "$OUT/groupby_cache_load.txt" | tail -n 1)
                gx_log "cache load (again): ${CACHE_ROWS:-?} rows in $CACHE_LOAD_MS ms"
            fi
        fi
        if [ "${CACHE_ROWS:-0}" -lt "$GROUPBY_ROWS" ]; then
            gx_warn "the column cache holds ${CACHE_ROWS:-?} of t's $GROUPBY_ROWS rows: $(grep -v -E '^[0-9]+$' "$OUT/groupby_cache_load.txt" | tr '\n' ' ')"
        fi
        gx_psql -d "$DB" -c "SELECT * FROM gpuext_cache" | tee -a "$OUT/groupby_cache_load.txt"
    else
        gx_log "cache load failed: $(tail -n 3 "$OUT/groupby_cache_load.txt")"
    fi
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
elif ! gb_budget_ok 60; then
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
[ "$DUCKDB_THREADS" -gt "$(gx_nproc)" ] && DUCKDB_THREADS=$(gx_nproc)
DUCKDB_TITLE="DuckDB ${DUCKDB_THREADS}t"
DUCKDB_VERSION=n/a; DUCKDB_EXPORT_S=n/a; DUCKDB_RUN_S=n/a; DUCKDB_NOTE="not run"
for q in "${QUERIES[@]}"; do
    MS[$q,duckdb]=n/a; RUNSN[$q,duckdb]=0; ALLMS[$q,duckdb]=""; RES[$q,duckdb]=n/a; PLAN[$q,duckdb]=n/a
done
T_COLS="g10, g10k, g1m, g50m, v"
DUCK_COLS="'g10': 'INTEGER', 'g10k': 'INTEGER', 'g1m': 'INTEGER', 'g50m': 'INTEGER', 'v': 'INTEGER'"
gb_duckdb() {   # LOG: 0 when DuckDB ran the queries
    local q qfiles=""
    for q in "${QUERIES[@]}"; do qfiles="$qfiles${qfiles:+,}$QDIR/$q.sql"; done
    GXD_PGOPTIONS="${BENCH_OPTS[serial]}" \
        gxd_copy_and_run "$DB" t "$T_COLS" "$DUCK_COLS" "$qfiles" "$RUNS" "$1"
}
# shellcheck source=bench/duckdb/lib.sh
if ! . "$HERE/duckdb/lib.sh"; then
    DUCKDB_NOTE="bench/duckdb/lib.sh missing"
elif [ "${BENCH_DUCKDB:-}" = 0 ] || ! cfg_enabled duckdb; then
    DUCKDB_NOTE="skipped (BENCH_DUCKDB=0 / GROUPBY_SKIP)"
elif [ "${BENCH_DUCKDB:-}" != 1 ] && ! gxd_available; then
    DUCKDB_NOTE="no .carry/libduckdb.so.xz (bench/duckdb/fetch.sh)"
elif ! gb_budget_ok; then
    DUCKDB_NOTE="skipped (GROUPBY_BUDGET_S)"
else
    gx_log "$DUCKDB_TITLE: export t, load, run ${QUERIES[*]}"
    if gb_duckdb "$OUT/groupby_duckdb.log"; then
        DUCKDB_NOTE=""
        DUCKDB_VERSION=$(gxd_field "$OUT/groupby_duckdb.log" version)
        drows=$(sed -n 's/^exec=3 result=//p' "$OUT/groupby_duckdb.log")
        [ "$drows" = "$T_ROWS" ] || echo "duckdb: WARNING: DuckDB holds '$drows' rows, t $T_ROWS"
        for q in "${QUERIES[@]}"; do
            ms=$(sed -n "s/^query=$q .* min_ms=\([^ ]*\) .*/\1/p" "$OUT/groupby_duckdb.log" | head -n 1)
            r=$(gxd_query_result "$OUT/groupby_duckdb.log" "$q") || r=err
            MS[$q,duckdb]=${ms:-err}; RES[$q,duckdb]=$r; RUNSN[$q,duckdb]=$RUNS; PLAN[$q,duckdb]=duckdb
        done
    else
        DUCKDB_NOTE="failed (see the duckdb: lines above)"
    fi
    rm -rf "$GXD_TMP"; GXD_TMP=""
fi
[ -n "$DUCKDB_NOTE" ] && gx_log "$DUCKDB_TITLE: n/a, $DUCKDB_NOTE"

# ------------------------------------------------------------------ timing
# gb_plan OPTS QFILE: the plan's nodes of interest, top down, joined by +
# (Gpu* nodes, the aggregation strategy, Gather, Sort); a GpuPreAgg that
# finalizes on the device is "GpuPreAgg+final" (its fallback plan below it
# is not counted)
gb_plan() {
    local p
    p=$(PGOPTIONS="$1" gx_psql -d "$DB" -Atc "EXPLAIN $(cat "$2")" 2>/dev/null |
        awk '/Finalize: on the device/ { print "final"; f = 1; next } f && /->/ { exit } { print }' |
        grep -oE 'Gpu[A-Za-z]*|HashAggregate|GroupAggregate|MixedAggregate|Gather( Merge)?|Sort|^final$' |
        awk '!seen[$0]++' | tr ' ' '_' | paste -sd+ -)
    echo "${p:-err}"
}

# gb_time Q NAME: runs query Q under configuration NAME up to RUNS times
# (one psql session each, \timing); sets T_MS (the best; err on an error,
# timeout when the first run was cancelled at the end of the budget),
# T_RUNS, T_ALL (every run's ms), T_RES (the first run's result), T_STABLE
# (0 when a later run's result differed); the runs' output goes to
# $OUT/groupby_<q>_<name>.log
gb_time() {
    local q=$1 name=$2 qf=$QDIR/$1.sql log=$OUT/groupby_$1_$2.log r out rc ms="" res
    T_MS=err; T_RUNS=0; T_ALL=""; T_RES=""; T_STABLE=1
    : >"$log"
    for ((r = 1; r <= RUNS; r++)); do
        if [ "$r" -gt 1 ]; then
            # a long run is not repeated, nor one that would end past the budget
            awk -v m="$ms" -v l="$LONG_S" 'BEGIN { exit !(m >= l * 1000) }' && break
            gb_budget_ok "$(awk -v m="$ms" 'BEGIN { printf "%d", m / 1000 + 1 }')" || break
        fi
        out=$({ printf '%s\n' '\timing on'; cat "$qf"; } | PGOPTIONS="$(gb_opts "$name")" gx_psql -q -At -d "$DB" -f - 2>&1)
        rc=$?
        printf '# run %d (exit %d)\n%s\n' "$r" "$rc" "$out" >>"$log"
        ms=$(printf '%s\n' "$out" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -n 1)
        res=$(printf '%s\n' "$out" | grep -v '^Time: ' | tr '\n' ' ' | sed 's/ *$//')
        if [ "$rc" != 0 ] && [ "$BUDGET_S" != 0 ] && printf '%s' "$out" | grep -q 'statement timeout'; then
            # cancelled at the end of the budget: the runs before count
            echo "   ${BENCH_TITLE[$name]}: run $r cancelled at the end of GROUPBY_BUDGET_S"
            [ "$r" = 1 ] && { T_MS=timeout; return 1; }
            break
        fi
        if [ "$rc" != 0 ] || [ -z "$ms" ]; then
            echo "   ${BENCH_TITLE[$name]}: run $r failed (exit $rc): $(printf '%s' "$res" | tail -c 300)"
            [ "$r" = 1 ] && T_RES=$res
            T_MS=err
            return 1
        fi
        T_ALL="$T_ALL${T_ALL:+ }$ms"; T_RUNS=$r
        if [ "$r" = 1 ]; then
            T_RES=$res
        elif [ "$res" != "$T_RES" ]; then
            T_STABLE=0
            echo "   ${BENCH_TITLE[$name]}: run $r returned '$res', run 1 '$T_RES'"
        fi
    done
    # shellcheck disable=SC2086
    T_MS=$(printf '%s\n' $T_ALL | sort -g | head -n 1)
}

# same_approx A B: 0 when two results have the same fields, equal but for
# numbers within 1e-9 relative (DuckDB's sum of double avg() values)
same_approx() {
    awk -v a="$1" -v b="$2" 'BEGIN {
        n = split(a, x, /[ |]/); m = split(b, y, /[ |]/); if (n != m) exit 1
        for (i = 1; i <= n; i++) {
            if (x[i] == y[i]) continue
            if (x[i] !~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/ || y[i] !~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/) exit 1
            d = x[i] - y[i]; if (d < 0) d = -d
            s = x[i] < 0 ? -x[i] : x[i]; if (s < 1) s = 1
            if (d > 1e-9 * s) exit 1
        }
        exit 0 }'
}

FAILED=0
declare -A REF REF_CFG
fail() {   # Q NAME WHAT
    FAILED=1
    echo "!!!!!!!! FAIL $1: ${BENCH_TITLE[$2]} $3 !!!!!!!!"
}
for q in "${QUERIES[@]}"; do
    gx_log "$q (${NGROUPS[$q]} groups): $(cat "$QDIR/$q.sql")"
    warmed=0
    REF[$q]=""
    for name in "${RUN_ORDER[@]}"; do
        MS[$q,$name]=n/a; RUNSN[$q,$name]=0; ALLMS[$q,$name]=""; RES[$q,$name]=n/a; PLAN[$q,$name]=n/a
        if ! cfg_enabled "$name"; then
            CHECK[$q,$name]=$(cfg_why "$name")
            continue
        fi
        if ! gb_budget_ok; then
            CHECK[$q,$name]="skipped (budget)"
            printf '   %-18s skipped (GROUPBY_BUDGET_S=%s)\n' "${BENCH_TITLE[$name]}" "$BUDGET_S"
            continue
        fi
        PLAN[$q,$name]=$(gb_plan "$(gb_opts "$name")" "$QDIR/$q.sql")
        # the first GPU configuration waits for the compiled kernel, untimed
        case "$name" in
            gpu*) if [ "$warmed" = 0 ]; then
                      warmed=1
                      PGOPTIONS="$(gb_opts "$name") -c gpuext.jit_wait=on" gx_psql -d "$DB" -At -f "$QDIR/$q.sql" >/dev/null 2>&1
                  fi ;;
        esac
        gb_time "$q" "$name"
        MS[$q,$name]=$T_MS; RUNSN[$q,$name]=$T_RUNS; ALLMS[$q,$name]=$T_ALL; RES[$q,$name]=$T_RES
        if [ "$T_MS" = timeout ]; then
            MS[$q,$name]=n/a; RES[$q,$name]=n/a; CHECK[$q,$name]="cancelled (budget)"
            continue
        elif [ "$T_MS" = err ]; then
            CHECK[$q,$name]=FAIL
            fail "$q" "$name" "failed: $(printf '%s' "$T_RES" | tail -c 300)"
        elif [ -z "${REF[$q]}" ]; then
            # PG serial's result, or the first configuration's when serial is skipped
            REF[$q]=$T_RES; REF_CFG[$q]=$name; CHECK[$q,$name]=ref
        elif [ "$T_RES" = "${REF[$q]}" ]; then
            CHECK[$q,$name]=ok
        else
            CHECK[$q,$name]=FAIL
            fail "$q" "$name" "returned '$T_RES', ${BENCH_TITLE[${REF_CFG[$q]}]} '${REF[$q]}'"
        fi
        if [ "$T_STABLE" = 0 ]; then
            CHECK[$q,$name]=FAIL
            fail "$q" "$name" "returned different results in its runs (see $OUT/groupby_${q}_$name.log)"
        fi
        printf '   %-18s %10s ms  (best of %s: %s)  plan=%s  %s\n' "${BENCH_TITLE[$name]}" "${MS[$q,$name]}" \
            "$T_RUNS" "$T_ALL" "${PLAN[$q,$name]}" "${CHECK[$q,$name]}"
    done
    CHECK[$q,duckdb]=n/a
    if [ "${RES[$q,duckdb]}" != n/a ]; then
        if [ "${MS[$q,duckdb]}" = err ] || [ "${RES[$q,duckdb]}" = err ]; then
            CHECK[$q,duckdb]=FAIL
            BENCH_TITLE[duckdb]=$DUCKDB_TITLE
            fail "$q" duckdb "failed (see $OUT/groupby_duckdb.log)"
        elif [ -z "${REF[$q]:-}" ]; then
            CHECK[$q,duckdb]="unchecked (no PostgreSQL result to check against)"
        elif [ "${RES[$q,duckdb]}" = "${REF[$q]}" ]; then
            CHECK[$q,duckdb]=ok
        elif same_approx "${RES[$q,duckdb]}" "${REF[$q]}"; then
            CHECK[$q,duckdb]=approx
        else
            CHECK[$q,duckdb]=FAIL
            BENCH_TITLE[duckdb]=$DUCKDB_TITLE
            fail "$q" duckdb "returned '${RES[$q,duckdb]}', PG '${REF[$q]}'"
        fi
        printf '   %-18s %10s ms  (best of %s)  %s\n' "$DUCKDB_TITLE" "${MS[$q,duckdb]}" "$RUNS" "${CHECK[$q,duckdb]}"
    elif [ -n "$DUCKDB_NOTE" ]; then
        CHECK[$q,duckdb]=$DUCKDB_NOTE
    fi
    gx_log "$q result (${BENCH_TITLE[${REF_CFG[$q]:-serial}]}): ${REF[$q]}"
done

# ------------------------------------------------------------------ where the time goes
# is_num V / lt A B
is_num() { [[ $1 =~ ^[0-9]+(\.[0-9]+)?$ ]]; }
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 < b + 0) }'; }
# gb_fastest Q NAME...: the configuration of NAMEs with the lowest ms (none: empty)
gb_fastest() {
    local q=$1 best="" name
    shift
    for name in "$@"; do
        is_num "${MS[$q,$name]:-}" || continue
        if [ -z "$best" ] || lt "${MS[$q,$name]}" "${MS[$q,$best]}"; then best=$name; fi
    done
    echo "$best"
}
# EXPLAIN (ANALYZE, VERBOSE) of each query under its fastest gpuext
# configuration: the whole execution, and the GROUP BY node (the first node
# below the wrapper's Aggregate, a Subquery Scan skipped)
declare -A BEST EXPLAIN_FILE AGG_MS EXEC_MS AGG_NODE
for q in "${QUERIES[@]}"; do
    BEST[$q]=$(gb_fastest "$q" "${GPUEXT_CFGS[@]}")
    EXPLAIN_FILE[$q]=""; AGG_MS[$q]=n/a; EXEC_MS[$q]=n/a; AGG_NODE[$q]=""
    [ -n "${BEST[$q]}" ] || continue
    if ! gb_budget_ok "$(awk -v m="${MS[$q,${BEST[$q]}]}" 'BEGIN { printf "%d", m / 500 + 1 }')"; then
        gx_log "$q: no EXPLAIN ANALYZE (GROUPBY_BUDGET_S)"
        continue
    fi
    f=$OUT/groupby_explain_${q}_${BEST[$q]}.txt
    EXPLAIN_FILE[$q]=$f
    PGOPTIONS="$(gb_opts "${BEST[$q]}")" gx_psql -d "$DB" -c "EXPLAIN (ANALYZE, VERBOSE) $(cat "$QDIR/$q.sql")" >"$f" 2>&1
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
for q in "${QUERIES[@]}"; do [ "$q" = g50m ] && CUB_CFG=$(gb_fastest g50m gpu gpupar gpucache); done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else print "n/a" }'; }
if [ -n "$CUB_CFG" ] && is_num "${CUB_MS[sort_keys]}"; then
    CUB_RATIO=$(ratio "${MS[g50m,$CUB_CFG]}" "${CUB_MS[sort_keys]}")
    [ "${BEST[g50m]:-}" = "$CUB_CFG" ] && CUB_NODE_RATIO=$(ratio "${AGG_MS[g50m]}" "${CUB_MS[sort_keys]}")
    if is_num "$CUB_RATIO"; then
        if lt "$CUB_RATIO" 3.0000001; then CUB_WITHIN=yes; else CUB_WITHIN=no; fi
    fi
fi

# ------------------------------------------------------------------ report
xratio() { local r; r=$(ratio "$1" "$2"); [ "$r" = n/a ] && echo n/a || echo "${r}x"; }
GPU_NAME=$(gx_psql -d "$DB" -At -c "SELECT string_agg(name, '; ') FROM gpuext_devices() WHERE kind ILIKE '%gpu%' OR kind ILIKE '%cuda%'" 2>/dev/null)
CPU_NAME=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
PGVER=$("$PG_CONFIG" --version)
ALL_CFGS=("${CFG_NAMES[@]}" duckdb)
BENCH_TITLE[duckdb]=$DUCKDB_TITLE
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
        echo "| configuration | ms | runs | vs PG serial | vs DuckDB | plan | check |"
        echo "|---|---:|---:|---:|---:|---|---|"
        for name in "${ALL_CFGS[@]}"; do
            echo "| ${BENCH_TITLE[$name]} | ${MS[$q,$name]} | ${RUNSN[$q,$name]} | $(xratio "${MS[$q,serial]}" "${MS[$q,$name]}") | $(xratio "${MS[$q,duckdb]}" "${MS[$q,$name]}") | ${PLAN[$q,$name]} | ${CHECK[$q,$name]} |"
        done
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
    echo
    echo "## All queries (ms)"
    echo
    hdr="| configuration"; sep="|---"
    for q in "${QUERIES[@]}"; do hdr="$hdr | $q"; sep="$sep|---:"; done
    echo "$hdr |"; echo "$sep|"
    for name in "${ALL_CFGS[@]}"; do
        row="| ${BENCH_TITLE[$name]}"
        for q in "${QUERIES[@]}"; do
            c=${MS[$q,$name]}
            [ "${CHECK[$q,$name]:-}" = FAIL ] && c="$c FAIL"
            row="$row | $c"
        done
        echo "$row |"
    done
    echo
    if [ "$FAILED" = 1 ]; then echo "**FAIL: see the check columns**"; else echo "all results checked: ok"; fi
} >"$MD"

# JSON: the facts (tab-separated, one a line) through bench/groupby/groupby_json.py
FACTS=$OUT/groupby_facts.tsv
fact() { local IFS=$'\t'; printf '%s\n' "$*" | tr -d '\r'; }
oneline() { printf '%s' "$1" | tr '\n\t' '  '; }
{
    fact meta rows "$T_ROWS"
    fact meta table_size "$T_SIZE"
    fact meta load_s "$GROUPBY_LOAD_S"
    fact meta runs "$RUNS"
    fact meta long_s "$LONG_S"
    fact meta budget_s "$BUDGET_S"
    fact meta seconds "$GB_S"
    fact meta work_mem "$WORK_MEM"
    fact meta preagg "$(oneline "$PREAGG_NOTE")"
    fact meta gpu_device "$GPU_DEV"
    fact meta postgres "$(oneline "$PGVER")"
    fact meta cpu "$(oneline "${CPU_NAME:-}")"
    fact meta cores "$(gx_nproc)"
    fact meta gpu "$(oneline "${GPU_NAME:-}")"
    fact meta cache_load_ms "$CACHE_LOAD_MS"
    fact meta cache_rows "$CACHE_ROWS"
    fact meta failed "$FAILED"
    fact duckdb title "$(oneline "$DUCKDB_TITLE")"
    fact duckdb version "$(oneline "$DUCKDB_VERSION")"
    fact duckdb threads "$DUCKDB_THREADS"
    fact duckdb export_s "$DUCKDB_EXPORT_S"
    fact duckdb run_s "$DUCKDB_RUN_S"
    fact duckdb note "$(oneline "$DUCKDB_NOTE")"
    fact cub note "$(oneline "$CUB_NOTE")"
    fact cub device "$(oneline "$CUB_DEVICE")"
    fact cub n "$GROUPBY_ROWS"
    fact cub groups "$CUB_GROUPS"
    fact cub check "$CUB_CHECK"
    fact cub g50m_config "$CUB_CFG"
    fact cub g50m_ratio_vs_sort_keys "$CUB_RATIO"
    fact cub g50m_node_ratio_vs_sort_keys "$CUB_NODE_RATIO"
    fact cub within_3x "$CUB_WITHIN"
    for op in "${CUB_OPS[@]}"; do fact cubop "$op" "${CUB_MS[$op]}" "${CUB_MEAN[$op]}"; done
    for name in "${ALL_CFGS[@]}"; do fact title "$name" "$(oneline "${BENCH_TITLE[$name]}")"; done
    for q in "${QUERIES[@]}"; do
        fact query "$q" "$(oneline "$(cat "$QDIR/$q.sql")")"
        fact qmeta "$q" groups "${NGROUPS[$q]}"
        fact qmeta "$q" result "$(oneline "${REF[$q]}")"
        fact qmeta "$q" explain_config "${BEST[$q]}"
        fact qmeta "$q" explain_file "$(basename "${EXPLAIN_FILE[$q]:-}")"
        fact qmeta "$q" agg_node "$(oneline "${AGG_NODE[$q]}")"
        fact qmeta "$q" agg_node_ms "${AGG_MS[$q]}"
        fact qmeta "$q" exec_ms "${EXEC_MS[$q]}"
        for name in "${ALL_CFGS[@]}"; do
            fact cfg "$q" "$name" ms "${MS[$q,$name]}"
            fact cfg "$q" "$name" runs "${RUNSN[$q,$name]}"
            fact cfg "$q" "$name" all_ms "${ALLMS[$q,$name]}"
            fact cfg "$q" "$name" plan "${PLAN[$q,$name]}"
            fact cfg "$q" "$name" check "$(oneline "${CHECK[$q,$name]}")"
            fact cfg "$q" "$name" result "$(oneline "${RES[$q,$name]}")"
        done
    done
} >"$FACTS"
if command -v python3 >/dev/null 2>&1; then
    python3 "$HERE/groupby/groupby_json.py" "$FACTS" "$OUT/groupby.json" || gx_warn "groupby.json not written"
else
    gx_warn "no python3: groupby.json not written (the facts are in $FACTS)"
fi

echo
cat "$MD"
echo
gx_log "wrote $MD, $OUT/groupby.json and logs in $OUT ($GB_S s)"
if [ "$FAILED" = 1 ]; then
    echo "!!!!!!!! FAIL: results differ from PG serial's or runs failed (see above) !!!!!!!!"
    exit 2
fi
exit 0
