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
# EXPLAIN ANALYZE of q1, then TPC-B (pgbench -i -s 10) with and without
# gpuext in shared_preload_libraries.
#
# Environment:
#   ROWS          table rows (default 1000000)
#   OUT           output dir (default /tmp/out): bench.md, bench.json, logs,
#                 explain_q1_*.txt
#   BENCH_START   1: own throwaway cluster (default when PGPORT is unset)
#   BENCH_BUILD   1: build and install first (default: only when gpuext is
#                 not installed)
#   BENCH_TPCB    0 to skip TPC-B (always skipped without own cluster)
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
PGBENCH=$PGBIN/pgbench

cleanup() {
    [ -n "${GXD_TMP:-}" ] && rm -rf "$GXD_TMP"   # DuckDB CSV export (bench/duckdb/lib.sh)
    if [ "$BENCH_START" = 1 ]; then
        gx_cluster_stop
        gx_cluster_remove
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP PIPE

# ------------------------------------------------------------------ setup
if [ "${BENCH_BUILD:-}" = 1 ] || { [ "${BENCH_BUILD:-}" != 0 ] && [ ! -f "$("$PG_CONFIG" --pkglibdir)/gpuext.so" ]; }; then
    gx_build && gx_install || { echo "ERROR: build/install failed"; exit 1; }
fi

if [ "$BENCH_START" = 1 ]; then
    gx_setup_user || exit 1
    # shared_buffers: ~100 bytes a row (table ~60 B/row + index), >= 1 GB,
    # at most half of the memory
    sb_mb=$(( ROWS / 10000 ))
    [ "$sb_mb" -lt 1024 ] && sb_mb=1024
    mem_mb=$(awk '/MemTotal/ {print int($2 / 1024)}' /proc/meminfo 2>/dev/null)
    if [ -n "$mem_mb" ] && [ "$sb_mb" -gt $((mem_mb / 2)) ]; then sb_mb=$((mem_mb / 2)); fi
    # device cache: ~33 bytes a row for tablet's 7 columns and row map, in
    # 128 MB entries of about 4M rows: 48 bytes a row, >= 1 GB
    cache_mb=$(( ROWS / 20000 ))
    [ "$cache_mb" -lt 1024 ] && cache_mb=1024
    gx_cluster_init "${BENCH_PORT:-54330}" \
        "shared_buffers = ${sb_mb}MB" \
        "max_worker_processes = 16" \
        "max_parallel_workers = 16" \
        "max_parallel_maintenance_workers = 8" \
        "max_wal_size = 20GB" \
        "checkpoint_timeout = 30min" \
        "synchronous_commit = off" \
        "work_mem = 64MB" \
        "gpuext.staging_size = ${GPUEXT_STAGING_MB:-256}" \
        "gpuext.cache_size = ${cache_mb}MB" || exit 1
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
# every GPU configuration but "gpucache" runs with gpuext.use_cache = off
NOCACHE="-c gpuext.use_cache=off"
CFG_NAMES=(serial par8 cpu gpuhd gpu gpumap gpupar gpucache)
CFG_TITLES=("PG serial" "PG par8" "gpuext CPU" "GPU bk-deform" "GPU copy" "GPU mapped" "GPU par8" "GPU cached")
CFG_OPTS=(
    "-c gpuext.enabled=off -c max_parallel_workers_per_gather=0"
    "-c gpuext.enabled=off -c max_parallel_workers_per_gather=8 -c parallel_setup_cost=0 -c parallel_tuple_cost=0 -c min_parallel_table_scan_size=0"
    "-c gpuext.force=on -c gpuext.device=cpu -c max_parallel_workers_per_gather=0 $NOCACHE"
    "-c gpuext.force=on -c gpuext.device=gpu -c gpuext.device_deform=off -c max_parallel_workers_per_gather=0 $NOCACHE"
    "-c gpuext.force=on -c gpuext.device=gpu -c gpuext.transfer=copy -c max_parallel_workers_per_gather=0 $NOCACHE"
    "-c gpuext.force=on -c gpuext.device=gpu -c gpuext.transfer=mapped -c max_parallel_workers_per_gather=0 $NOCACHE"
    "-c gpuext.force=on -c gpuext.device=gpu -c max_parallel_workers_per_gather=8 -c parallel_setup_cost=0 -c parallel_tuple_cost=0 -c min_parallel_table_scan_size=0 $NOCACHE"
    "-c gpuext.force=on -c gpuext.device=gpu -c gpuext.use_cache=on -c max_parallel_workers_per_gather=0"
)
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
        export PGOPTIONS="${CFG_OPTS[$c]}"
        # plan check: is GpuScan used (c, d) / not used (a, b)?
        if gx_psql -d "$DB" -Atc "EXPLAIN $sql" 2>/dev/null | grep -q 'GpuScan'; then
            PLAN[$q,$name]=gpuscan
        else
            PLAN[$q,$name]=pg
        fi
        # the first GPU configuration of a query: one run that waits for the
        # filter's compiled kernel (all GPU configurations share it), so
        # that the timed runs do not depend on when the background compile ends
        case "$name" in
            gpu*) if [ "$warmed" = 0 ]; then
                      PGOPTIONS="${CFG_OPTS[$c]} -c gpuext.jit_wait=on" \
                          gx_psql -d "$DB" -At -f "$QDIR/$q.sql" >/dev/null 2>&1
                      warmed=1
                  fi ;;
        esac
        # result check (also warms the caches); BENCH_T=0: its time is the figure
        t0=$(date +%s%N)
        r=$(gx_psql -d "$DB" -At -f "$QDIR/$q.sql" 2>&1 | tr '\n' ' ' | sed 's/ *$//')
        t1=$(date +%s%N)
        RES[$q,$name]=$r
        if [ -z "$ref" ]; then
            REF[$q]=$r
            ref=$r
        elif [ "$r" != "$ref" ]; then
            echo "!!!!!!!! MISMATCH $q: ${CFG_TITLES[$c]} returned '$r', PG serial '$ref' !!!!!!!!"
            MISMATCH=1
        fi
        log=$OUT/pgbench_${q}_$name.log
        ms=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e6 }')
        if [ "$BENCH_T" = 0 ] && awk -v m="$ms" 'BEGIN { exit !(m >= 1000) }'; then
            # one run, timed by the client: connecting (a few ms) is noise here
            :
        else
            # pgbench: statement latency without connection setup
            tt=$BENCH_T
            [ "$tt" = 0 ] && tt=${BENCH_T_FAST:-5}
            "$PGBENCH" -n -f "$QDIR/$q.sql" -t "$tt" -r "$DB" >"$log" 2>&1
            ms=$(awk '/statement latencies/ {f = 1; next} f && $1 ~ /^[0-9]+(\.[0-9]+)?$/ {print $1; exit}' "$log")
            [ -n "$ms" ] || ms=$(sed -n 's/^latency average = \([0-9.]*\) ms.*/\1/p' "$log" | head -n 1)
            [ -n "$ms" ] || { ms=err; echo "pgbench failed for $q/$name:"; tail -n 5 "$log"; }
        fi
        MS[$q,$name]=$ms
        printf '   %-11s %10s ms  plan=%-7s result=%s\n' "${CFG_TITLES[$c]}" "$ms" "${PLAN[$q,$name]}" "$r"
    done
    unset PGOPTIONS
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
TPS_WITH=n/a; TPS_WITHOUT=n/a; TPS_RATIO=n/a
tpcb_tps() { sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$1" | tail -n 1; }
if [ "$BENCH_START" = 1 ] && [ "${BENCH_TPCB:-1}" != 0 ]; then
    if [ "$ROWS" -ge 10000000 ]; then TT=20; else TT=10; fi
    gx_log "TPC-B: pgbench -i -s 10, then -c 8 -j 8 -T $TT -M prepared"
    gx_psql -d postgres -qc "DROP DATABASE IF EXISTS tpcb" && gx_psql -d postgres -qc "CREATE DATABASE tpcb"
    if "$PGBENCH" -i -q -s 10 tpcb >"$OUT/tpcb_init.log" 2>&1; then
        "$PGBENCH" -c 8 -j 8 -T 3 -M prepared tpcb >/dev/null 2>&1   # warm-up
        "$PGBENCH" -c 8 -j 8 -T "$TT" -M prepared tpcb >"$OUT/tpcb_with_gpuext.log" 2>&1
        TPS_WITH=$(tpcb_tps "$OUT/tpcb_with_gpuext.log")
        # later lines of postgresql.conf win: append, later remove again
        echo "shared_preload_libraries = ''   # gx-tpcb-no-gpuext" >>"$GX_DATA/postgresql.conf"
        gx_cluster_restart &&
            gx_psql -d postgres -Atc "SHOW shared_preload_libraries" &&
            "$PGBENCH" -c 8 -j 8 -T 3 -M prepared tpcb >/dev/null 2>&1 &&
            "$PGBENCH" -c 8 -j 8 -T "$TT" -M prepared tpcb >"$OUT/tpcb_without_gpuext.log" 2>&1
        TPS_WITHOUT=$(tpcb_tps "$OUT/tpcb_without_gpuext.log" 2>/dev/null)
        grep -v 'gx-tpcb-no-gpuext' "$GX_DATA/postgresql.conf" >"$GX_BASE/conf.tmp" &&
            cat "$GX_BASE/conf.tmp" >"$GX_DATA/postgresql.conf" && rm -f "$GX_BASE/conf.tmp"
        gx_cluster_restart
        [ -n "$TPS_WITH" ] || TPS_WITH=err
        [ -n "$TPS_WITHOUT" ] || TPS_WITHOUT=err
        TPS_RATIO=$(awk -v a="$TPS_WITH" -v b="$TPS_WITHOUT" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.3f", a / b; else print "n/a" }')
        gx_log "TPC-B tps with gpuext $TPS_WITH, without $TPS_WITHOUT, ratio $TPS_RATIO"
    else
        echo "pgbench -i failed:"; tail -n 5 "$OUT/tpcb_init.log"
    fi
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
num_or_null() { case "$1" in ''|n/a|err) echo null ;; *) echo "$1" ;; esac; }
json_str() { printf '"%s"' "$(printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g' | tr '\n\t' '  ')"; }

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
    echo "## TPC-B (pgbench -s 10, -c 8 -j 8 -M prepared)"
    echo
    echo "| gpuext preloaded tps | not preloaded tps | ratio |"
    echo "|---:|---:|---:|"
    echo "| $TPS_WITH | $TPS_WITHOUT | $TPS_RATIO |"
} >"$MD"

JS=$OUT/bench.json
{
    echo "{"
    echo "  \"rows\": $ROWS,"
    echo "  \"transactions_per_query\": $BENCH_T,"
    echo "  \"postgres\": $(json_str "$PGVER"),"
    echo "  \"cpu\": $(json_str "${CPU_NAME:-}"),"
    echo "  \"cores\": $(gx_nproc),"
    echo "  \"gpu\": $(json_str "${GPU_NAME:-}"),"
    echo "  \"mismatch\": $([ "$MISMATCH" = 1 ] && echo true || echo false),"
    echo "  \"duckdb\": {\"title\": $(json_str "$DUCKDB_TITLE"), \"version\": $(json_str "$DUCKDB_VERSION"), \"threads\": $DUCKDB_THREADS, \"load_ms\": $(num_or_null "$DUCKDB_LOAD_MS"), \"export_s\": $(num_or_null "$DUCKDB_EXPORT_S"), \"note\": $(json_str "$DUCKDB_NOTE")},"
    echo "  \"queries\": ["
    n=0
    for q in "${QUERIES[@]}"; do
        n=$((n + 1))
        echo "    {\"query\": \"$q\", \"sql\": $(json_str "$(cat "$QDIR/$q.sql")"),"
        echo "     \"ms\": {\"pg_serial\": $(num_or_null "${MS[$q,serial]}"), \"pg_par8\": $(num_or_null "${MS[$q,par8]}"), \"gpuext_cpu\": $(num_or_null "${MS[$q,cpu]}"), \"gpuext_gpu\": $(num_or_null "${MS[$q,gpu]}"), \"gpu_backend_deform\": $(num_or_null "${MS[$q,gpuhd]}"), \"gpu_mapped\": $(num_or_null "${MS[$q,gpumap]}"), \"gpu_par8\": $(num_or_null "${MS[$q,gpupar]}"), \"gpu_cached\": $(num_or_null "${MS[$q,gpucache]}"), \"duckdb\": $(num_or_null "${MS[$q,duckdb]}")},"
        echo "     \"gpu_vs_duckdb\": $(ratio_num "${MS[$q,duckdb]}" "${MS[$q,gpu]}"),"
        echo "     \"plan\": {\"gpuext_cpu\": \"${PLAN[$q,cpu]}\", \"gpuext_gpu\": \"${PLAN[$q,gpu]}\"},"
        echo "     \"result\": {\"pg_serial\": $(json_str "${RES[$q,serial]}"), \"pg_par8\": $(json_str "${RES[$q,par8]}"), \"gpuext_cpu\": $(json_str "${RES[$q,cpu]}"), \"gpuext_gpu\": $(json_str "${RES[$q,gpu]}"), \"duckdb\": $(json_str "${RES[$q,duckdb]}")}}$([ "$n" -lt "${#QUERIES[@]}" ] && echo ,)"
    done
    echo "  ],"
    echo "  \"tpcb\": {\"scale\": 10, \"tps_with_gpuext\": $(num_or_null "$TPS_WITH"), \"tps_without_gpuext\": $(num_or_null "$TPS_WITHOUT"), \"ratio\": $(num_or_null "$TPS_RATIO")}"
    echo "}"
} >"$JS"

echo
cat "$MD"
echo
gx_log "wrote $MD, $JS, logs and explain_q1_*.txt in $OUT"
if [ "$MISMATCH" = 1 ]; then
    echo "!!!!!!!! MISMATCH: configurations returned different results (see above) !!!!!!!!"
    exit 2
fi
exit 0
