#!/usr/bin/env bash
# bench/run.sh - the Tablet-paper filter benchmark + a TPC-B overhead check.
#
#   ROWS=1000000 bench/run.sh                 # starts its own cluster
#   BENCH_START=0 PGHOST=... PGPORT=... bench/run.sh   # use a running one
#
# For each query bench/queries/qN.sql: pgbench -n -f qN.sql -t T -r under
#   (a) PG serial     gpuext.enabled=off, max_parallel_workers_per_gather=0
#   (b) PG parallel 8 gpuext.enabled=off, 8 workers per gather
#   (c) gpuext CPU    gpuext.force=on, gpuext.device=cpu, no parallel workers
#   (d) gpuext GPU    gpuext.force=on, gpuext.device=gpu (n/a without GPU)
#   (e) GPU, backend deform: (d) with gpuext.device_deform=off (only with
#                     BENCH_HOSTDEFORM=1)
#   (f) GPU mapped    (d) with gpuext.transfer=mapped (only with BENCH_MAPPED=1)
#   (g) GPU bk-deform mapped: (e) with gpuext.transfer=mapped (only with
#                     BENCH_MAPPED=1 and BENCH_HOSTDEFORM=1)
# checks that all configurations return the same result, then TPC-B
# (pgbench -i -s 10) with and without gpuext in shared_preload_libraries.
#
# Environment:
#   ROWS          table rows (default 1000000)
#   OUT           output dir (default /tmp/out): bench.md, bench.json, logs,
#                 explain_q1_*.txt
#   BENCH_START   1: own throwaway cluster (default when PGPORT is unset)
#   BENCH_BUILD   1: build and install first (default: only when gpuext is
#                 not installed)
#   BENCH_TPCB    0 to skip TPC-B (always skipped without own cluster)
#   BENCH_T       pgbench transactions per query (default 5; 3 if ROWS>=1e7)
#   BENCH_SKIP    configurations to leave out, e.g. "cpu" (serial always runs)
#   BENCH_HOSTDEFORM  1: also run (e)
#   BENCH_MAPPED  1: also run (f) (and (g) with BENCH_HOSTDEFORM=1)
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
    gx_cluster_init "${BENCH_PORT:-54330}" \
        "shared_buffers = ${sb_mb}MB" \
        "max_worker_processes = 16" \
        "max_parallel_workers = 16" \
        "max_parallel_maintenance_workers = 8" \
        "max_wal_size = 20GB" \
        "checkpoint_timeout = 30min" \
        "synchronous_commit = off" \
        "work_mem = 64MB" \
        "gpuext.staging_size = ${GPUEXT_STAGING_MB:-256}" || exit 1
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
CFG_NAMES=(serial par8 cpu gpu gpuhd gpumap gpuhdmap)
CFG_TITLES=("PG serial" "PG par8" "gpuext CPU" "gpuext GPU" "GPU bk-deform" "GPU mapped" "GPU bk-def mapped")
CFG_OPTS=(
    "-c gpuext.enabled=off -c max_parallel_workers_per_gather=0"
    "-c gpuext.enabled=off -c max_parallel_workers_per_gather=8 -c parallel_setup_cost=0 -c parallel_tuple_cost=0 -c min_parallel_table_scan_size=0"
    "-c gpuext.force=on -c gpuext.device=cpu -c max_parallel_workers_per_gather=0"
    "-c gpuext.force=on -c gpuext.device=gpu -c max_parallel_workers_per_gather=0"
    "-c gpuext.force=on -c gpuext.device=gpu -c gpuext.device_deform=off -c max_parallel_workers_per_gather=0"
    "-c gpuext.force=on -c gpuext.device=gpu -c gpuext.transfer=mapped -c max_parallel_workers_per_gather=0"
    "-c gpuext.force=on -c gpuext.device=gpu -c gpuext.device_deform=off -c gpuext.transfer=mapped -c max_parallel_workers_per_gather=0"
)
cfg_enabled() {
    case " ${BENCH_SKIP:-} " in *" $1 "*) [ "$1" = serial ] || return 1 ;; esac
    case "$1" in
        gpu) [ "$NGPU" -gt 0 ] ;;
        gpuhd) [ "$NGPU" -gt 0 ] && [ "${BENCH_HOSTDEFORM:-0}" = 1 ] ;;
        gpumap) [ "$NGPU" -gt 0 ] && [ "${BENCH_MAPPED:-0}" = 1 ] ;;
        gpuhdmap) [ "$NGPU" -gt 0 ] && [ "${BENCH_MAPPED:-0}" = 1 ] && [ "${BENCH_HOSTDEFORM:-0}" = 1 ] ;;
        *) true ;;
    esac
}

QUERIES=()
for i in 1 2 3 4 5 6 7 8 9 10; do
    [ -f "$QDIR/q$i.sql" ] && QUERIES+=("q$i")
done

MISMATCH=0
declare -A MS RES PLAN

# explain of q1 per configuration (where the time goes)
for c in "${!CFG_NAMES[@]}"; do
    name=${CFG_NAMES[$c]}
    cfg_enabled "$name" || continue
    PGOPTIONS="${CFG_OPTS[$c]}" gx_psql -d "$DB" -c "EXPLAIN (ANALYZE, VERBOSE) $(cat "$QDIR/q1.sql")" \
        >"$OUT/explain_q1_$name.txt" 2>&1
done
# the GPU at the largest chunk size: kernel time per byte on big chunks
if cfg_enabled gpu; then
    PGOPTIONS="${CFG_OPTS[3]} -c gpuext.chunk_rows=1048576" gx_psql -d "$DB" \
        -c "EXPLAIN (ANALYZE, VERBOSE) $(cat "$QDIR/q1.sql")" >"$OUT/explain_q1_gpu_1m.txt" 2>&1
fi

for q in "${QUERIES[@]}"; do
    sql=$(cat "$QDIR/$q.sql")
    gx_log "$q: $sql"
    ref=""
    for c in "${!CFG_NAMES[@]}"; do
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
        # result check (also warms the caches)
        r=$(gx_psql -d "$DB" -At -f "$QDIR/$q.sql" 2>&1 | tr '\n' ' ' | sed 's/ *$//')
        RES[$q,$name]=$r
        if [ -z "$ref" ]; then
            ref=$r
        elif [ "$r" != "$ref" ]; then
            echo "!!!!!!!! MISMATCH $q: ${CFG_TITLES[$c]} returned '$r', PG serial '$ref' !!!!!!!!"
            MISMATCH=1
        fi
        log=$OUT/pgbench_${q}_$name.log
        "$PGBENCH" -n -f "$QDIR/$q.sql" -t "$BENCH_T" -r "$DB" >"$log" 2>&1
        ms=$(awk '/statement latencies/ {f = 1; next} f && $1 ~ /^[0-9]+(\.[0-9]+)?$/ {print $1; exit}' "$log")
        [ -n "$ms" ] || ms=$(sed -n 's/^latency average = \([0-9.]*\) ms.*/\1/p' "$log" | head -n 1)
        [ -n "$ms" ] || { ms=err; echo "pgbench failed for $q/$name:"; tail -n 5 "$log"; }
        MS[$q,$name]=$ms
        printf '   %-11s %10s ms  plan=%-7s result=%s\n' "${CFG_TITLES[$c]}" "$ms" "${PLAN[$q,$name]}" "$r"
    done
    unset PGOPTIONS
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

# ------------------------------------------------------------------ report
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2fx", a / b; else print "n/a" }'; }
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
    echo "- per-statement latency from \`pgbench -n -t $BENCH_T -r\` (ms, mean); table \`tablet\` warmed by a first run"
    echo "- speedups: serial/GPU, par8/GPU, serial/gpuext-CPU, GPU backend deform/GPU device deform, GPU copy/GPU mapped (higher is better for gpuext, for device deform, for mapped)"
    echo
    echo "| query | PG serial ms | PG par8 ms | gpuext CPU ms | gpuext GPU ms | GPU bk-deform ms | GPU mapped ms | GPU bk-def mapped ms | GPU vs serial | GPU vs par8 | CPU vs serial | dev/bk deform | copy/mapped | result | same |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"
    for q in "${QUERIES[@]}"; do
        same=yes
        for name in par8 cpu gpu gpuhd gpumap gpuhdmap; do
            r=${RES[$q,$name]}
            [ "$r" = n/a ] || [ "$r" = "${RES[$q,serial]}" ] || same="**MISMATCH**"
        done
        note=""
        [ "${PLAN[$q,cpu]}" = pg ] && note=" (cpu: no GpuScan)"
        [ "${PLAN[$q,gpu]}" = pg ] && note="$note (gpu: no GpuScan)"
        echo "| $q | ${MS[$q,serial]} | ${MS[$q,par8]} | ${MS[$q,cpu]} | ${MS[$q,gpu]} | ${MS[$q,gpuhd]} | ${MS[$q,gpumap]} | ${MS[$q,gpuhdmap]} | $(ratio "${MS[$q,serial]}" "${MS[$q,gpu]}") | $(ratio "${MS[$q,par8]}" "${MS[$q,gpu]}") | $(ratio "${MS[$q,serial]}" "${MS[$q,cpu]}") | $(ratio "${MS[$q,gpuhd]}" "${MS[$q,gpu]}") | $(ratio "${MS[$q,gpu]}" "${MS[$q,gpumap]}") | ${RES[$q,serial]//|/, } | $same$note |"
    done
    echo
    echo "Queries:"
    echo
    for q in "${QUERIES[@]}"; do echo "- $q: \`$(cat "$QDIR/$q.sql")\`"; done
    echo
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
    echo "  \"queries\": ["
    n=0
    for q in "${QUERIES[@]}"; do
        n=$((n + 1))
        echo "    {\"query\": \"$q\", \"sql\": $(json_str "$(cat "$QDIR/$q.sql")"),"
        echo "     \"ms\": {\"pg_serial\": $(num_or_null "${MS[$q,serial]}"), \"pg_par8\": $(num_or_null "${MS[$q,par8]}"), \"gpuext_cpu\": $(num_or_null "${MS[$q,cpu]}"), \"gpuext_gpu\": $(num_or_null "${MS[$q,gpu]}"), \"gpu_backend_deform\": $(num_or_null "${MS[$q,gpuhd]}"), \"gpu_mapped\": $(num_or_null "${MS[$q,gpumap]}"), \"gpu_backend_deform_mapped\": $(num_or_null "${MS[$q,gpuhdmap]}")},"
        echo "     \"plan\": {\"gpuext_cpu\": \"${PLAN[$q,cpu]}\", \"gpuext_gpu\": \"${PLAN[$q,gpu]}\"},"
        echo "     \"result\": {\"pg_serial\": $(json_str "${RES[$q,serial]}"), \"pg_par8\": $(json_str "${RES[$q,par8]}"), \"gpuext_cpu\": $(json_str "${RES[$q,cpu]}"), \"gpuext_gpu\": $(json_str "${RES[$q,gpu]}")}}$([ "$n" -lt "${#QUERIES[@]}" ] && echo ,)"
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
