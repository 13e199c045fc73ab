#!/usr/bin/env bash
# bench/run.sh - the Tablet-paper filter benchmark + a TPC-B overhead check.
#
#   ROWS=1000000 bench/run.sh                 # starts its own cluster
#   BENCH_START=0 PGHOST=... PGPORT=... bench/run.sh   # use a running one
#
# For each query bench/queries/qN.sql (the Tablet paper's ten filter
# queries: its Tables 1 and 2), timed with pgbench -n -f qN.sql -t T -r, or
# with BENCH_T=0 as the single result-check run (faster on 100M rows):
#   serial    PG serial        gpuext.enabled=off, no parallel workers
#   par8      PG parallel 8    gpuext.enabled=off, 8 workers per gather
#   cpu       gpuext CPU       the CPU device of the gpuext service
#   gpuhd     GPU bk-deform    GPU, the backend deforms (device_deform=off)
#   gpu       GPU copy         GPU, device deforming, transfer = copy
#   gpumap    GPU mapped       GPU, device deforming, transfer = mapped
#   gpupar    GPU par8         GPU copy, parallel GpuScan with 8 workers
#                     (each process computes its part of the aggregates)
#   gpucache  GPU cached       GPU, tablet loaded with gpuext_cache_load()
#   duckdb    DuckDB 16t       DuckDB, 16 threads, on an in-memory copy of
#                     tablet (bench/duckdb/README.md; when
#                     .carry/libduckdb.so.xz exists): all queries in one run
# (the GPU configurations other than gpucache run with use_cache = off;
# before the first one's timed runs, the query runs once with
# gpuext.jit_wait = on, so that the filter's compiled kernel (gpuext.jit,
# shared by all of them) is ready; all compute
# the queries' count(*) and sum(id) on the device),
# checks that all configurations return the same result, reports the
# cached kernel's memory bandwidth and the cold scan's PCIe rate from
# EXPLAIN ANALYZE of q1, then TPC-B (pgbench -s 10) with and without
# gpuext in shared_preload_libraries: TPCB_RUNS runs each, alternating,
# the database re-initialised before every run (bench/lib.sh bench_tpcb;
# bench/tpcb.sh runs the same on its own).  The cluster, the
# configurations, the timing of a query and TPC-B are in bench/lib.sh,
# shared with bench/compare.sh (old vs new build) and bench/tpcb.sh.
#
# Environment:
#   ROWS          table rows (default 1000000)
#   OUT           output dir (default /tmp/out): bench.md, bench.json, logs,
#                 explain_q1_*.txt
#   BENCH_START   1: own throwaway cluster (default when PGPORT is unset)
#   BENCH_BUILD   1: build and install first (default: only when gpuext is
#                 not installed)
#   BENCH_TPCB    0 to skip TPC-B (always skipped without own cluster);
#                 TPCB_SECONDS per run (default 20 if ROWS>=1e7, else 10),
#                 TPCB_RUNS runs each with / without gpuext (default 3),
#                 other TPCB_* settings: bench/tpcb.sh
#   BENCH_T       pgbench transactions per query (default 5; 3 if ROWS>=1e7);
#                 0: the result-check run is the figure when it took 1 s or
#                 more, else pgbench -t BENCH_T_FAST (default 5)
#   BENCH_SKIP    configurations to leave out, e.g. "cpu gpuhd"; results
#                 are checked against the first configuration that runs
#   BENCH_DUCKDB  1: run duckdb, 0: not (default: when .carry/libduckdb.so.xz
#                 exists); BENCH_DUCKDB_THREADS (16); BENCH_DUCKDB_TMP: where
#                 the CSV export goes (default $OUT; removed afterwards)
#   BENCH_DB      database (default bench)
#   BENCH_PORT    port of the own cluster (default 54330)
#   PG_CONFIG     as in test/run.sh

set -u -o pipefail
exec 2>&1

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=test/lib.sh
. "$HERE/../test/lib.sh"
# shellcheck source=bench/lib.sh
. "$HERE/lib.sh"

ROWS=${ROWS:-1000000}
OUT=${OUT:-/tmp/out}
DB=${BENCH_DB:-bench}
QDIR=$GX_ROOT/bench/queries
if [ -z "${BENCH_START:-}" ]; then
    if [ -n "${PGPORT:-}" ]; then BENCH_START=0; else BENCH_START=1; fi
fi
if [ -z "${BENCH_T:-}" ]; then
    if [ "$ROWS" -ge 10000000 ]; then BENCH_T=3; else BENCH_T=5; fi
fi
mkdir -p "$OUT" || exit 1

gx_find_pg_config || exit 1

bench_on_exit

# ------------------------------------------------------------------ setup
bench_ensure_installed || exit 1

if [ "$BENCH_START" = 1 ]; then
    gx_setup_user || exit 1
    # shared_buffers, device cache etc.: bench/lib.sh
    bench_cluster_init "${BENCH_PORT:-54330}" "$ROWS" || exit 1
    gx_cluster_start || exit 1
fi

gx_psql -d postgres -qc "CREATE DATABASE $DB" 2>/dev/null
gx_psql -d "$DB" -qc "CREATE EXTENSION IF NOT EXISTS gpuext" || { echo "ERROR: CREATE EXTENSION gpuext failed"; exit 1; }
gx_psql -d "$DB" -c "SELECT * FROM gpuext_devices()" | tee "$OUT/devices.txt"
NGPU=$(gx_has_gpu "$DB")
gx_log "GPUs listed by gpuext_devices(): $NGPU"

gx_load_tablet "$DB" "$ROWS" || exit 1
gx_psql -d "$DB" -qc "CREATE EXTENSION IF NOT EXISTS pg_prewarm" >/dev/null 2>&1 &&
    gx_psql -d "$DB" -Atc "SELECT pg_prewarm('tablet')" >/dev/null 2>&1

# ------------------------------------------------------------------ configs
# titles and PGOPTIONS: bench/lib.sh (every GPU configuration but
# "gpucache" runs with gpuext.use_cache = off)
bench_define_configs gpu
CFG_NAMES=(serial par8 cpu gpuhd gpu gpumap gpupar gpucache)
CFG_TITLES=(); CFG_OPTS=()
for name in "${CFG_NAMES[@]}"; do
    CFG_TITLES+=("${BENCH_TITLE[$name]}")
    CFG_OPTS+=("${BENCH_OPTS[$name]}")
done
NCFG=${#CFG_NAMES[@]}
cfg_index() { local i; for i in $(seq 0 $((NCFG - 1))); do [ "${CFG_NAMES[$i]}" = "$1" ] && echo "$i"; done; }
cfg_enabled() {
    case " ${BENCH_SKIP:-} " in *" $1 "*) return 1 ;; esac
    case "$1" in
        gpu|gpumap|gpupar|gpucache|gpuhd) [ "$NGPU" -gt 0 ] ;;
        *) true ;;
    esac
}

# the cached configuration reads the device cache: load tablet into it
CACHE_LOAD_MS=n/a
if cfg_enabled gpucache; then
    # only all-visible blocks are cached: settle what the load's VACUUM left
    gx_psql -d "$DB" -qc "VACUUM tablet" >/dev/null 2>&1
    t0=$(date +%s%N)
    if PGOPTIONS="-c gpuext.device=gpu" gx_psql -d "$DB" -Atc "SELECT gpuext_cache_load('tablet')" >"$OUT/cache_load.txt" 2>&1; then
        CACHE_LOAD_MS=$(( ($(date +%s%N) - t0) / 1000000 ))
        gx_log "cache load: $(tr '\n' ' ' <"$OUT/cache_load.txt") rows in $CACHE_LOAD_MS ms"
        gx_psql -d "$DB" -c "SELECT * FROM gpuext_cache" | tee -a "$OUT/cache_load.txt"
    else
        gx_log "cache load failed: $(tail -n 3 "$OUT/cache_load.txt")"
    fi
fi

QUERIES=()
for i in 1 2 3 4 5 6 7 8 9 10; do
    [ -f "$QDIR/q$i.sql" ] && QUERIES+=("q$i")
done

MISMATCH=0
declare -A MS RES PLAN REF   # REF: the first configuration's result (PG serial unless skipped)

# explain of q1 per configuration (where the time goes); before the first
# GPU configuration, q1 runs once waiting for the compilation of the
# filter's kernel (gpuext.jit_wait), which all GPU configurations share, as
# the timed queries do below
warmed=0
for c in $(seq 0 $((NCFG - 1))); do
    name=${CFG_NAMES[$c]}
    cfg_enabled "$name" || continue
    case $name in
        gpu*) if [ "$warmed" = 0 ]; then
                  PGOPTIONS="${CFG_OPTS[$c]} -c gpuext.jit_wait=on" gx_psql -d "$DB" \
                      -Atf "$QDIR/q1.sql" >/dev/null 2>&1
                  warmed=1
              fi ;;
    esac
    PGOPTIONS="${CFG_OPTS[$c]}" gx_psql -d "$DB" -c "EXPLAIN (ANALYZE, VERBOSE) $(cat "$QDIR/q1.sql")" \
        >"$OUT/explain_q1_$name.txt" 2>&1
done
# the GPU at the largest chunk size: kernel time per byte on big chunks
if cfg_enabled gpu; then
    PGOPTIONS="${CFG_OPTS[$(cfg_index gpu)]} -c gpuext.chunk_rows=1048576" gx_psql -d "$DB" \
        -c "EXPLAIN (ANALYZE, VERBOSE) $(cat "$QDIR/q1.sql")" >"$OUT/explain_q1_gpu_1m.txt" 2>&1
fi

# >>> DuckDB (f) ---------------------------------------------------------
# bench/duckdb/README.md: export tablet to CSV, load it into an in-memory
# DuckDB, run all queries there (BENCH_T timed runs after a warm-up, or
# BENCH_T_FAST with BENCH_T=0);
DUCKDB_REPS=$BENCH_T
[ "$DUCKDB_REPS" = 0 ] && DUCKDB_REPS=${BENCH_T_FAST:-5}
# MS/RES[q,duckdb], checked against PG serial in the loop below.  Any
# failure only marks DuckDB n/a.
DUCKDB_THREADS=${BENCH_DUCKDB_THREADS:-16}
DUCKDB_TITLE="DuckDB ${DUCKDB_THREADS}t"
DUCKDB_VERSION=n/a; DUCKDB_LOAD_MS=n/a; DUCKDB_EXPORT_S=n/a; DUCKDB_NOTE="not run"
for q in "${QUERIES[@]}"; do MS[$q,duckdb]="n/a"; RES[$q,duckdb]="n/a"; done
# shellcheck source=bench/duckdb/lib.sh
if ! . "$GX_ROOT/bench/duckdb/lib.sh"; then
    DUCKDB_NOTE="bench/duckdb/lib.sh missing"
elif [ "${BENCH_DUCKDB:-}" = 0 ] || case " ${BENCH_SKIP:-} " in *" duckdb "*) true ;; *) false ;; esac; then
    DUCKDB_NOTE="skipped (BENCH_DUCKDB=0 / BENCH_SKIP)"
elif [ "${BENCH_DUCKDB:-}" != 1 ] && ! gxd_available; then
    DUCKDB_NOTE="no .carry/libduckdb.so.xz (bench/duckdb/fetch.sh)"
else
    gx_log "$DUCKDB_TITLE: export tablet, load, run ${#QUERIES[@]} queries"
    if GXD_PGOPTIONS="${CFG_OPTS[0]}" gxd_bench "$DB" "$OUT/duckdb.log" "$DUCKDB_THREADS" "$DUCKDB_REPS" \
            "${BENCH_DUCKDB_TMP:-$OUT}" "${QUERIES[@]}"; then
        DUCKDB_NOTE=""
        DUCKDB_VERSION=$(gxd_field "$OUT/duckdb.log" version)
        DUCKDB_LOAD_MS=$(gxd_field "$OUT/duckdb.log" load_ms)
        DUCKDB_EXPORT_S=$GXD_EXPORT_S
        drows=$(gxd_field "$OUT/duckdb.log" rows)
        [ "$drows" = "$ROWS" ] || echo "duckdb: WARNING: DuckDB holds '$drows' rows, ROWS=$ROWS"
        for q in "${QUERIES[@]}"; do
            ms=$(gxd_query_ms "$OUT/duckdb.log" "$q")
            r=$(gxd_query_result "$OUT/duckdb.log" "$q") || r=err
            MS[$q,duckdb]=${ms:-err}; RES[$q,duckdb]=$r
        done
        gx_log "$DUCKDB_TITLE: DuckDB $DUCKDB_VERSION, export $DUCKDB_EXPORT_S s, load $DUCKDB_LOAD_MS ms, $drows rows"
    else
        DUCKDB_NOTE="failed (see the duckdb: lines of the benchmark output)"
        gx_log "$DUCKDB_TITLE: failed, marked n/a"
    fi
fi
# <<< DuckDB --------------------------------------------------------------

for q in "${QUERIES[@]}"; do
    sql=$(cat "$QDIR/$q.sql")
    gx_log "$q: $sql"
    ref=""
    warmed=0
    for c in $(seq 0 $((NCFG - 1))); do
        name=${CFG_NAMES[$c]}
        if ! cfg_enabled "$name"; then
            MS[$q,$name]="n/a"; RES[$q,$name]="n/a"; PLAN[$q,$name]="n/a"
            continue
        fi
        # plan check (GpuScan used or not), the first GPU configuration of a
        # query first runs it with gpuext.jit_wait = on (the filter's
        # compiled kernel, shared by all GPU configurations, is then ready),
        # result check (also warms the caches), timing: bench/lib.sh
        wait_jit=0
        case "$name" in gpu*) [ "$warmed" = 0 ] && wait_jit=1; warmed=1 ;; esac
        bench_time_query "$DB" "$QDIR/$q.sql" "${CFG_OPTS[$c]}" "$OUT/pgbench_${q}_$name.log" "$wait_jit"
        PLAN[$q,$name]=$BQ_PLAN
        r=$BQ_RES
        ms=$BQ_MS
        RES[$q,$name]=$r
        if [ -z "$ref" ]; then
            REF[$q]=$r
            ref=$r
        elif [ "$r" != "$ref" ]; then
            echo "!!!!!!!! MISMATCH $q: ${CFG_TITLES[$c]} returned '$r', PG serial '$ref' !!!!!!!!"
            MISMATCH=1
        fi
        MS[$q,$name]=$ms
        printf '   %-11s %10s ms  plan=%-7s result=%s\n' "${CFG_TITLES[$c]}" "$ms" "${PLAN[$q,$name]}" "$r"
    done
    # >>> DuckDB (f): result of the run above, checked against PG serial
    if [ "${RES[$q,duckdb]}" != n/a ]; then
        if [ "${RES[$q,duckdb]}" != "${REF[$q]}" ]; then
            echo "!!!!!!!! MISMATCH $q: $DUCKDB_TITLE returned '${RES[$q,duckdb]}', PostgreSQL '${REF[$q]}' !!!!!!!!"
            MISMATCH=1
        fi
        printf '   %-11s %10s ms  plan=%-7s result=%s\n' "$DUCKDB_TITLE" "${MS[$q,duckdb]}" duckdb "${RES[$q,duckdb]}"
    fi
    # <<< DuckDB
done

# ------------------------------------------------------------------ TPC-B
TPS_WITH=n/a; TPS_WITHOUT=n/a; TPS_RATIO=n/a; TPCB_TPS_WITH=""; TPCB_TPS_WITHOUT=""
if [ "$BENCH_START" = 1 ] && [ "${BENCH_TPCB:-1}" != 0 ]; then
    if [ "$ROWS" -ge 10000000 ]; then TT=${TPCB_SECONDS:-20}; else TT=${TPCB_SECONDS:-10}; fi
    TPCB_RUNS=${TPCB_RUNS:-3}
    gx_log "TPC-B: $TPCB_RUNS runs each without / with gpuext, alternating, pgbench -i -s ${TPCB_SCALE:-10} before each, -c 8 -j 8 -T $TT -M prepared"
    bench_tpcb "$OUT" "$TT" "$TPCB_RUNS"
    TPS_WITH=$TPCB_MEDIAN_WITH; TPS_WITHOUT=$TPCB_MEDIAN_WITHOUT; TPS_RATIO=$TPCB_RATIO
    gx_log "TPC-B median tps with gpuext $TPS_WITH ($TPCB_TPS_WITH), without $TPS_WITHOUT ($TPCB_TPS_WITHOUT), ratio $TPS_RATIO"
else
    gx_log "TPC-B skipped (needs BENCH_START=1 and BENCH_TPCB!=0)"
fi

# ------------------------------------------------------------------ read kernel
# the device's plain read kernel (test_kernel's bandwidth part), the
# reference for the cached kernel's bytes/s; measured in this run
READ_GBS=n/a
if [ "$NGPU" -gt 0 ] && [ "${BENCH_READ_KERNEL:-1}" = 1 ]; then
    if make -s -C "$GX_ROOT" PG_CONFIG="$PG_CONFIG" test/unit/test_kernel >"$OUT/bandwidth.txt" 2>&1 &&
        GX_BW_ONLY=1 "$GX_ROOT/test/unit/test_kernel" >>"$OUT/bandwidth.txt" 2>&1; then
        READ_GBS=$(awk '/^ *read kernel/ {print $(NF-1); exit}' "$OUT/bandwidth.txt")
        [ -n "$READ_GBS" ] || READ_GBS=n/a
    fi
    gx_log "read kernel: $READ_GBS GB/s (bandwidth.txt)"
fi

# ------------------------------------------------------------------ report
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2fx", a / b; else print "n/a" }'; }
ratio_num() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.3f", a / b; else print "null" }'; }

GPU_NAME=$(gx_psql -d "$DB" -At -c "SELECT string_agg(name, '; ') FROM gpuext_devices() WHERE kind ILIKE '%gpu%' OR kind ILIKE '%cuda%'" 2>/dev/null)
CPU_NAME=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
PGVER=$("$PG_CONFIG" --version)

MD=$OUT/bench.md
{
    echo "# gpuext benchmark ($ROWS rows)"
    echo
    echo "- $PGVER, CPU: ${CPU_NAME:-?} ($(gx_nproc) cores), GPU: ${GPU_NAME:-none}"
    if [ "$BENCH_T" = 0 ]; then
        echo "- ms: queries of 1 s or more: one run (the result check) timed by the client; faster ones: per-statement latency of \`pgbench -n -t ${BENCH_T_FAST:-5} -r\` after that run; table \`tablet\` prewarmed in shared buffers"
    else
        echo "- ms: per-statement latency from \`pgbench -n -t $BENCH_T -r\` (mean), after a first (result check) run"
    fi
    echo "- speedups: PG parallel 8 / GPU and DuckDB / GPU for the cold (copy) and cached GPU scans (higher is better for gpuext)"
    echo "- GPU cached: \`gpuext_cache_load('tablet')\` took $CACHE_LOAD_MS ms before the runs"
    if [ -z "$DUCKDB_NOTE" ]; then   # DuckDB (f)
        echo "- $DUCKDB_TITLE: DuckDB $DUCKDB_VERSION, $DUCKDB_THREADS threads, in-memory table loaded from CSV in $DUCKDB_LOAD_MS ms (CSV export from PG: $DUCKDB_EXPORT_S s); mean of $DUCKDB_REPS timed run(s) after a warm-up"
    else
        echo "- $DUCKDB_TITLE: n/a, $DUCKDB_NOTE"
    fi
    echo
    hdr="| query"
    sep="|---"
    for c in $(seq 0 $((NCFG - 1))); do hdr="$hdr | ${CFG_TITLES[$c]} ms"; sep="$sep|---:"; done
    echo "$hdr | $DUCKDB_TITLE ms | copy vs par8 | GPU par8 vs par8 | cached vs par8 | cached vs DuckDB | same |"
    echo "$sep|---:|---:|---:|---:|---:|---|"
    for q in "${QUERIES[@]}"; do
        same=yes
        for name in "${CFG_NAMES[@]}" duckdb; do
            r=${RES[$q,$name]}
            [ "$r" = n/a ] || [ "$r" = "${REF[$q]}" ] || same="**MISMATCH**"
        done
        for name in cpu gpuhd gpu gpumap gpupar gpucache; do
            [ "${PLAN[$q,$name]}" = pg ] && same="$same ($name: no GpuScan)"
        done
        row="| $q"
        for name in "${CFG_NAMES[@]}"; do row="$row | ${MS[$q,$name]}"; done
        echo "$row | ${MS[$q,duckdb]} | $(ratio "${MS[$q,par8]}" "${MS[$q,gpu]}") | $(ratio "${MS[$q,par8]}" "${MS[$q,gpupar]}") | $(ratio "${MS[$q,par8]}" "${MS[$q,gpucache]}") | $(ratio "${MS[$q,duckdb]}" "${MS[$q,gpucache]}") | $same |"
    done
    echo
    echo "Results (first configuration): $(for q in "${QUERIES[@]}"; do printf '%s=%s; ' "$q" "${REF[$q]}"; done)"
    echo
    # bandwidth: cached kernel vs HBM, cold scan vs PCIe (EXPLAIN ANALYZE of q1)
    bw_line() {   # file -> "bytes kernel_ms h2d_kb h2d_ms exec_ms chunks compiled_chunks"
        awk '/Cache Bytes Scanned:/ {cb=$4} /Kernel Time:/ {k=$3} /Bytes to Device:/ {b=$4}
             /Transfer to Device Time:/ {t=$5} /Execution Time:/ {e=$3}
             /^ *Chunks:/ {n=$2} /Compiled Kernel Chunks:/ {j=$4}
             END {printf "%s %s %s %s %s %s %s", cb+0, k+0, b+0, t+0, e+0, n+0, j+0}' "$1" 2>/dev/null
    }
    if [ -f "$OUT/explain_q1_gpucache.txt" ]; then
        read -r cb km _ _ ce cn cj <<<"$(bw_line "$OUT/explain_q1_gpucache.txt")"
        kgbs=$(awk -v b="$cb" -v k="$km" 'BEGIN { if (k > 0) printf "%.1f", b / k / 1e6; else print "n/a" }')
        qgbs=$(awk -v b="$cb" -v k="$ce" 'BEGIN { if (k > 0) printf "%.1f", b / k / 1e6; else print "n/a" }')
        echo "- cached q1: $cb bytes of cached columns scanned in $km ms of kernel time (summed over chunks, which overlap on 4 streams): $kgbs GB/s = $(ratio_num "$kgbs" "$READ_GBS") of the read kernel ($READ_GBS GB/s on this device, this run); over the whole query ($ce ms): $qgbs GB/s = $(ratio_num "$qgbs" "$READ_GBS"); compiled kernel for $cj of $cn chunks"
    fi
    if [ -f "$OUT/explain_q1_gpupar.txt" ]; then
        read -r _ _ hk ht he _ _ <<<"$(bw_line "$OUT/explain_q1_gpupar.txt")"
        echo "- cold q1 (GPU par8): $hk kB to the device over the whole query ($he ms): $(awk -v b="$hk" -v t="$he" 'BEGIN { if (t > 0) printf "%.1f GB/s", b * 1024 / t / 1e6; else print "n/a" }')"
    fi
    if [ -f "$OUT/explain_q1_gpu.txt" ]; then
        read -r _ _ hk ht he _ _ <<<"$(bw_line "$OUT/explain_q1_gpu.txt")"
        echo "- cold q1 (copy): $hk kB to the device in $ht ms of copies: $(awk -v b="$hk" -v t="$ht" 'BEGIN { if (t > 0) printf "%.1f GB/s", b * 1024 / t / 1e6; else print "n/a" }'); over the whole query ($he ms): $(awk -v b="$hk" -v t="$he" 'BEGIN { if (t > 0) printf "%.1f GB/s", b * 1024 / t / 1e6; else print "n/a" }')"
    fi
    echo
    echo "Queries:"
    echo
    for q in "${QUERIES[@]}"; do echo "- $q: \`$(cat "$QDIR/$q.sql")\`"; done
    echo
    if [ -z "$DUCKDB_NOTE" ]; then   # DuckDB (f): its translations
        echo "DuckDB translations (bench/duckdb/queries/README.md; the other queries run as they are):"
        echo
        for q in "${QUERIES[@]}"; do
            f=$GXD_DIR/queries/$q.sql
            [ -f "$f" ] && echo "- $q: \`$(cat "$f")\`"
        done
        echo
    fi
    echo "## TPC-B (pgbench -s ${TPCB_SCALE:-10}, -c 8 -j 8 -M prepared; median of ${TPCB_RUNS:-0} runs each, alternating, re-initialised before each)"
    echo
    echo "| gpuext preloaded tps | not preloaded tps | ratio | runs with | runs without |"
    echo "|---:|---:|---:|---|---|"
    echo "| $TPS_WITH | $TPS_WITHOUT | $TPS_RATIO | $TPCB_TPS_WITH | $TPCB_TPS_WITHOUT |"
} >"$MD"

JS=$OUT/bench.json
FACTS=$OUT/bench_facts.tsv
# the facts, one a line (tab-separated), and bench.json made from them by
# bench/bench_json.py with Python's json module
fact() { local IFS=$'\t'; printf '%s\n' "$*" | tr -d '\r'; }
oneline() { printf '%s' "$1" | tr '\n\t' '  '; }
{
    fact meta rows "$ROWS"
    fact meta transactions_per_query "$BENCH_T"
    fact meta postgres "$(oneline "$PGVER")"
    fact meta cpu "$(oneline "${CPU_NAME:-}")"
    fact meta cores "$(gx_nproc)"
    fact meta gpu "$(oneline "${GPU_NAME:-}")"
    fact meta mismatch "$MISMATCH"
    fact duckdb title "$(oneline "$DUCKDB_TITLE")"
    fact duckdb version "$(oneline "$DUCKDB_VERSION")"
    fact duckdb threads "$DUCKDB_THREADS"
    fact duckdb load_ms "$DUCKDB_LOAD_MS"
    fact duckdb export_s "$DUCKDB_EXPORT_S"
    fact duckdb note "$(oneline "$DUCKDB_NOTE")"
    for q in "${QUERIES[@]}"; do
        fact query "$q" sql "$(oneline "$(cat "$QDIR/$q.sql")")"
        for c in serial par8 cpu gpu gpuhd gpumap gpupar gpucache duckdb; do
            fact ms "$q" "$c" "${MS[$q,$c]:-}"
            fact result "$q" "$c" "$(oneline "${RES[$q,$c]:-}")"
        done
        fact plan "$q" cpu "${PLAN[$q,cpu]:-}"
        fact plan "$q" gpu "${PLAN[$q,gpu]:-}"
    done
    fact tpcb scale "${TPCB_SCALE:-10}"
    fact tpcb runs_each "${TPCB_RUNS:-0}"
    fact tpcb tps_with_gpuext "$TPS_WITH"
    fact tpcb tps_without_gpuext "$TPS_WITHOUT"
    fact tpcb ratio "$TPS_RATIO"
    # shellcheck disable=SC2086
    fact tpcb runs_with $TPCB_TPS_WITH
    # shellcheck disable=SC2086
    fact tpcb runs_without $TPCB_TPS_WITHOUT
} >"$FACTS"
if command -v python3 >/dev/null 2>&1; then
    python3 "$HERE/bench_json.py" "$FACTS" "$JS" || gx_warn "bench.json not written"
else
    gx_warn "no python3: bench.json not written (the facts are in $FACTS)"
fi

echo
cat "$MD"
echo
gx_log "wrote $MD, $JS, logs and explain_q1_*.txt in $OUT"
if [ "$MISMATCH" = 1 ]; then
    echo "!!!!!!!! MISMATCH: configurations returned different results (see above) !!!!!!!!"
    exit 2
fi
exit 0
