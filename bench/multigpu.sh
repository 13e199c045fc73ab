#!/usr/bin/env bash
# bench/multigpu.sh - several devices (issue 17): cached scans, the 16M x
# 16M join and TPC-H Q1 on 1, 2, ... N GPUs, against PostgreSQL with 16
# workers and DuckDB with 16 threads, and the rows that fit in the column
# cache with 1 GPU and with N.
#
#   MULTI_DEVICE=cpu bench/multigpu.sh        # any host: 2 CPU devices, tiny sizes
#   bench/multigpu.sh                         # GPU host: 100M rows, 16M x 16M, SF 10
#   SKIP_TESTS=1 SKIP_BENCH=1 BENCH_MULTI=1 test/gpu/run.sh   # the GPU host, in 10 minutes
#   BENCH_START=0 PGHOST=... PGPORT=... bench/multigpu.sh     # a running server
#
# Workloads (MULTI_WORKLOADS, in this order):
#
#   scan   table tablet of MULTI_ROWS rows (test/lib.sh gx_load_tablet,
#          bench/sql/), the Tablet paper's queries bench/queries/q1..q10
#   join   r and s of MULTI_JOIN_ROWS rows (bench/join/gen.sh: r with every
#          key once, s uniform keys; r JOIN s has MULTI_JOIN_ROWS pairs):
#            count  SELECT count(*) FROM r JOIN s ON r.key = s.key
#            count_parts  the same with gpuext.join_device_parts = on: the
#                   table split by key hash over the devices
#            pairs  the pairs to the client, as bench/join.sh: psql's
#                   \copy (SELECT r.rid, s.rid FROM r JOIN s ON ...) to '/dev/null'
#   tpch   TPC-H data at MULTI_TPCH_SF (bench/tpch/gen.sh), Q1
#          (bench/tpch/q1.sql, query tpch_q1) over lineitem
#
# Starts a cluster with gpuext preloaded (bench/lib.sh bench_cluster_init;
# autovacuum and full_page_writes off), generates the data of every
# workload at once (each generator with its parallel sessions), VACUUM
# (FREEZE)s what is left without all-visible pages (the cache takes only
# those), prewarms the tables and gives each parallel_workers =
# MULTI_PG_WORKERS.  Then, per workload:
#
#   1. PG Nw: every query with gpuext off and MULTI_PG_WORKERS parallel
#      workers (parallel costs 0, work_mem MULTI_WORK_MEM): the baseline,
#      and the reference every other result is checked against
#   2. for each device count k of MULTI_DEVICE_COUNTS (default 1..N, N the
#      GPUs that gpuext_devices() lists, at most MULTI_GPUS): evict every
#      cached table, load the workload's tables with gpuext_cache_load in
#      a session with gpuext.devices = the first k devices (the load deals
#      its entries out to them by block range; gpuext.cache_entry_rows =
#      MULTI_ENTRY_ROWS), then every query with the same gpuext.devices,
#      gpuext.force = on, gpuext.device = MULTI_DEVICE, use_cache = on, no
#      parallel workers: one untimed warm-up run (gpuext.jit_wait = on),
#      then the best of MULTI_RUNS; then EXPLAIN (ANALYZE, VERBOSE) of each
#      query (multigpu_explain_<q>_k<k>.txt: its "Device Chunks" line says
#      how many chunks each device ran; plan.awk's own time per node)
#
# and at the end DuckDB (bench/duckdb/, when .carry/libduckdb.so.xz exists)
# with MULTI_DUCKDB_THREADS threads on in-memory copies of tablet, r, s and
# the 7 columns of lineitem Q1 reads: every query in one process (pairs:
# COPY (...) TO '/dev/null'), a warm-up run, then the best of MULTI_RUNS.
#
# Timing: psql \timing of one session a run (bench/lib.sh
# bench_time_runs); a run of MULTI_LONG_S or more is not repeated, one past
# MULTI_TIMEOUT_S is cancelled.  Check: every result must equal PG Nw's
# text (pairs: the rows, and count(*), sum(hashint8(rid pair)) of the
# configuration's own join; DuckDB: equal, or within 1e-9 relative for
# Q1's avg, "approx"); anything else is a loud FAIL and exit status 2.
#
# Rows that fit: gpuext.cache_size (the total over the devices; its 128 MB
# units are dealt out to the cache's devices in turn) gives each device a
# share; with the bytes a row takes in the cache (gpuext_cache: bytes /
# rows after the load) the report computes the rows of each table that fit
# on 1 .. N devices, for this run's cache_size and for MULTI_FIT_CACHE_MB
# (default: N x a GPU's memory, larger than one GPU's; a device's share is
# at most its memory less MULTI_FIT_RESERVE_MB), without filling it.
#
# Budget: MULTI_BUDGET_S counts from the script's start (the build
# included).  The TPC-H scale is lowered (10, 5, 3, 2, 1, 0.5, ...) until
# the estimated generation of all the data fits MULTI_GEN_SHARE percent of
# what is left after the build (estimate: 16, 8 and 38 core-seconds per
# million tablet, join and lineitem rows, the H100 host's rates, over the
# cores or, when more, the largest over its 16 sessions, plus 30%); then a device count whose
# workload step (evict, load, queries, EXPLAIN) would not fit, judged by
# the step before it, is left out, and DuckDB only runs when its estimated
# export and load (heap MB / 400 + 10 s) fit.  The report says what was
# left out.  On the GPU host (2 H200, 32 cores) the build takes about a
# minute, the data about 3 to 3.5 (SF 10 fits), the PostgreSQL runs about
# one, the device runs one to 1.5, DuckDB under one: about 8 minutes in
# all, inside test/gpu/run.sh's 540 s.  The CPU smoke run takes well under
# a minute on 2 cores.
#
# Without a GPU: MULTI_DEVICE=cpu runs the same on the CPU devices of
# gpuext.cpu_devices = MULTI_CPU_DEVICES (labels cpu, cpu1, ... stand for
# gpu0, gpu1, ...; the cache lives on them when the service has no GPU)
# with tiny default sizes; they share the CPU device's threads, so their
# "speedups" mean nothing, the procedure and the report do.
#
# Output in $OUT: multigpu.md (per workload a table: ms for each k, k vs 1,
# the Device Chunks line of k = 2, PG Nw and DuckDB ms, check; the loads
# and where their entries went; the rows that fit; where the time goes
# for the slowest queries), multigpu.json (bench/groupby/groupby_json.py),
# the EXPLAIN ANALYZE files, logs.
#
# Environment:
#   MULTI_DEVICE        gpu (default) or cpu (the CPU devices, tiny sizes)
#   MULTI_CPU_DEVICES   gpuext.cpu_devices with MULTI_DEVICE=cpu (default 2)
#   MULTI_GPUS          at most this many devices (default: all of the kind)
#   MULTI_DEVICE_COUNTS the device counts k (default "1 2 .. N")
#   MULTI_WORKLOADS     default "scan join tpch"
#   MULTI_QUERIES       the scan queries (default "q1 .. q10")
#   MULTI_ROWS          tablet rows (100000000; cpu: 300000)
#   MULTI_JOIN_ROWS     rows of r and s (16000000; cpu: 200000)
#   MULTI_TPCH_SF       TPC-H scale (10; cpu: 0.05), lowered to fit the budget
#   MULTI_RUNS          timed runs after the warm-up, best counted (3)
#   MULTI_LONG_S        a run this long is not repeated (10)
#   MULTI_TIMEOUT_S     a run this long is cancelled (300; 0: no limit)
#   MULTI_BUDGET_S      seconds for the whole script (0: no limit)
#   MULTI_GEN_SHARE     percent of the budget left after the build that the
#                       data generation may take (50)
#   MULTI_PG_WORKERS    PostgreSQL's parallel workers (16)
#   MULTI_DUCKDB_THREADS  DuckDB's threads (16, at most the cores)
#   MULTI_SKIP          leave out "pg", "duckdb" and/or "explain"
#   MULTI_WORK_MEM      work_mem of every configuration (1GB)
#   MULTI_CACHE_MB      gpuext.cache_size (default: every device's share
#                       holds the largest workload's tables)
#   MULTI_ENTRY_ROWS    gpuext.cache_entry_rows of the loads (gpu: 0, the
#                       engine's: what fits 128 MB, up to 4M rows; cpu:
#                       1/16 of the largest table, at least 20000, so that
#                       tiny tables still have entries for every device)
#   MULTI_FIT_CACHE_MB  the gpuext.cache_size the rows-that-fit figures
#                       assume besides this run's (gpu: N x the smallest
#                       GPU memory; cpu: N x 4096)
#   MULTI_FIT_RESERVE_MB  device memory a GPU keeps from the cache in those
#                       figures, for staging and the queries (8192)
#   JOIN_JOBS, JOIN_BATCH, JOIN_FORCE, TPCH_JOBS, TPCH_BATCH, TPCH_FORCE
#                       the generators' (bench/join/gen.sh, bench/tpch/gen.sh)
#   OUT                 output dir (default /tmp/out)
#   BENCH_START         1: own throwaway cluster (default when PGPORT is unset)
#   BENCH_BUILD         1: build and install first (default: when not installed)
#   BENCH_PORT          port of the own cluster (default 54338)
#   BENCH_DB            database (default multigpu)
#   BENCH_DUCKDB        1: run DuckDB, 0: not (default: when a library exists);
#                       GX_DUCKDB_LIB, BENCH_DUCKDB_TMP: bench/duckdb/lib.sh
#   PG_CONFIG           as in test/run.sh

set -u -o pipefail
exec 2>&1

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=test/lib.sh
. "$HERE/../test/lib.sh"
# shellcheck source=bench/lib.sh
. "$HERE/lib.sh"
# shellcheck source=bench/join/gen.sh
. "$HERE/join/gen.sh"
# shellcheck source=bench/tpch/gen.sh
. "$HERE/tpch/gen.sh"
# join/gen.sh's r and s only (their own tag: a database of bench/join.sh's
# seven tables is not taken for this one, nor the other way round)
JOIN_TABLES="r s"
JOIN_TAG=v1rs

BENCH_T0=$SECONDS
BENCH_NAME=multigpu
BENCH_BUDGET_VAR=MULTI_BUDGET_S
BENCH_PLAN_FN=mg_plan
BENCH_RESULT_FN=mg_result
BENCH_SKIP_VAR=MULTI_SKIP
MODE=${MULTI_DEVICE:-gpu}
case "$MODE" in
    gpu) KIND=gpu; DEF_ROWS=100000000; DEF_JROWS=16000000; DEF_SF=10 ;;
    cpu) KIND=cpu; DEF_ROWS=300000; DEF_JROWS=200000; DEF_SF=0.05 ;;
    *) echo "ERROR: MULTI_DEVICE must be gpu or cpu, not '$MODE'"; exit 1 ;;
esac
GPU_DEV=$MODE
ROWS=${MULTI_ROWS:-$DEF_ROWS}
JROWS=${MULTI_JOIN_ROWS:-$DEF_JROWS}
SF_ASKED=${MULTI_TPCH_SF:-$DEF_SF}
CPU_DEVS=${MULTI_CPU_DEVICES:-2}
RUNS=${MULTI_RUNS:-3}
LONG_S=${MULTI_LONG_S:-10}
BENCH_RUN_TIMEOUT_S=${MULTI_TIMEOUT_S:-300}
BUDGET_S=${MULTI_BUDGET_S:-0}
GEN_SHARE=${MULTI_GEN_SHARE:-50}
PGW=${MULTI_PG_WORKERS:-16}
DUCKDB_THREADS=${MULTI_DUCKDB_THREADS:-16}
FIT_RESERVE_MB=${MULTI_FIT_RESERVE_MB:-8192}
WORK_MEM=${MULTI_WORK_MEM:-1GB}
OUT=${OUT:-/tmp/out}
DB=${BENCH_DB:-multigpu}
SQLDIR=$OUT/multigpu_sql
read -r -a WORKLOADS <<<"${MULTI_WORKLOADS:-scan join tpch}"
read -r -a SCAN_QUERIES <<<"${MULTI_QUERIES:-q1 q2 q3 q4 q5 q6 q7 q8 q9 q10}"
for v in ROWS JROWS CPU_DEVS RUNS LONG_S BENCH_RUN_TIMEOUT_S BUDGET_S GEN_SHARE PGW DUCKDB_THREADS \
    FIT_RESERVE_MB MULTI_GPUS MULTI_CACHE_MB MULTI_ENTRY_ROWS MULTI_FIT_CACHE_MB; do
    case "${!v-0}" in ''|*[!0-9]*) echo "ERROR: $v must be a number, not '${!v}'"; exit 1 ;; esac
done
awk -v s="$SF_ASKED" 'BEGIN { exit !(s ~ /^[0-9]*\.?[0-9]+$/ && s + 0 > 0) }' ||
    { echo "ERROR: MULTI_TPCH_SF must be a positive number, not '$SF_ASKED'"; exit 1; }
[ "$RUNS" -lt 1 ] && RUNS=1
for w in "${WORKLOADS[@]}"; do
    case "$w" in scan | join | tpch) ;; *) echo "ERROR: no workload $w (MULTI_WORKLOADS: scan join tpch)"; exit 1 ;; esac
done
for q in "${SCAN_QUERIES[@]}"; do
    [ -f "$HERE/queries/$q.sql" ] || { echo "ERROR: no query bench/queries/$q.sql (MULTI_QUERIES)"; exit 1; }
done
if [ -z "${BENCH_START:-}" ]; then
    if [ -n "${PGPORT:-}" ]; then BENCH_START=0; else BENCH_START=1; fi
fi
mkdir -p "$OUT" "$SQLDIR/duckdb" || exit 1
gx_find_pg_config || exit 1
bench_on_exit

# what the report lists as left out (the budget, a failed step)
LEFT_OUT=()
has_w() { case " ${WORKLOADS[*]} " in *" $1 "*) true ;; *) false ;; esac; }
in_skip() { case " ${MULTI_SKIP:-} " in *" $1 "*) true ;; *) false ;; esac; }

# ------------------------------------------------------------------ workloads
# wl_tables W / wl_queries W / wl_title W
wl_tables() {
    case "$1" in scan) echo tablet ;; join) echo "r s" ;; tpch) echo lineitem ;; esac
}
wl_queries() {
    case "$1" in scan) echo "${SCAN_QUERIES[*]}" ;; join) echo "count count_parts pairs" ;; tpch) echo tpch_q1 ;; esac
}
wl_title() {
    case "$1" in
        scan) echo "Scans: tablet, $ROWS rows" ;;
        join) echo "Join: r, s of $JROWS rows (rid int4, key int4)" ;;
        tpch) echo "TPC-H Q1, SF $SF (${TROWS[lineitem]:-?} lineitem rows)" ;;
    esac
}
# mg_sql Q: the SELECT of query Q (EXPLAIN, the plan column);
# mg_qfile Q: the file psql times
EQ_JOIN="FROM r JOIN s ON r.key = s.key"
mg_sql() {
    case "$1" in
        count | count_parts) echo "SELECT count(*) $EQ_JOIN" ;;
        pairs) echo "SELECT r.rid, s.rid $EQ_JOIN" ;;
        tpch_q1) cat "$TPCH_DIR/q1.sql" ;;
        *) cat "$HERE/queries/$1.sql" ;;
    esac
}
# mg_pre Q: what a session runs before query Q (count_parts: the table
# split by key over the devices, gpuext.join_device_parts = on)
mg_pre() {
    case "$1" in count_parts) echo "SET gpuext.join_device_parts = on; " ;; esac
}
mg_qfile() {
    case "$1" in
        count | count_parts | pairs | tpch_q1) echo "$SQLDIR/$1.run.sql" ;;
        *) echo "$HERE/queries/$1.sql" ;;
    esac
}
echo "$(mg_sql count);" >"$SQLDIR/count.run.sql"
printf '%s\n' "$(mg_pre count_parts)" "$(mg_sql count_parts);" >"$SQLDIR/count_parts.run.sql"
printf '%s\n' '\set QUIET off' "\\copy ($(mg_sql pairs)) to '/dev/null'" >"$SQLDIR/pairs.run.sql"
cp "$TPCH_DIR/q1.sql" "$SQLDIR/tpch_q1.run.sql"
PAIRS_CHECK_SQL="SELECT count(*), sum(hashint8((r.rid::int8 << 32) | s.rid)) $EQ_JOIN"
ALLQ=()
for w in "${WORKLOADS[@]}"; do
    read -r -a qs <<<"$(wl_queries "$w")"
    ALLQ+=("${qs[@]}")
done

# ------------------------------------------------------------------ build, plan
bench_ensure_installed || exit 1
BUILD_S=$((SECONDS - BENCH_T0))

# mg_gen_est SF: estimated seconds to generate the workloads' data at once
# at TPC-H scale SF (core-seconds per million rows: tablet 16, r and s 8,
# lineitem with the other TPC-H tables 38: the H100 host's runs), over the
# cores, and at least the largest generator's own over its 16 sessions
mg_gen_est() {
    local cs="" cores
    cores=$(gx_nproc)
    has_w scan && cs="$cs $(awk -v r="$ROWS" 'BEGIN { print r / 1e6 * 16 }')"
    has_w join && cs="$cs $(awk -v r="$JROWS" 'BEGIN { print 2 * r / 1e6 * 8 }')"
    has_w tpch && cs="$cs $(awk -v s="$1" 'BEGIN { print s * 6 * 38 }')"
    # shellcheck disable=SC2086
    printf '%s\n' $cs | awk -v n="$cores" '{ t += $1; if ($1 > m) m = $1; g++ }
        END { if (!g) { print 0; exit } if (n > 16 * g) n = 16 * g; p = n < 16 ? n : 16
              e = t / n; if (m / p > e) e = m / p; printf "%d", 1.3 * e + 5 }'
}
SF=$SF_ASKED
GEN_EST=$(mg_gen_est "$SF")
if has_w tpch && [ "$BUDGET_S" != 0 ]; then
    gen_allowed=$(( (BUDGET_S - BUILD_S) * GEN_SHARE / 100 ))
    if [ "$GEN_EST" -gt "$gen_allowed" ]; then
        for cand in 5 3 2 1 0.5 0.2 0.1 0.05 0.02 0.01; do
            awk -v c="$cand" -v s="$SF_ASKED" 'BEGIN { exit !(c < s) }' || continue
            SF=$cand
            GEN_EST=$(mg_gen_est "$SF")
            [ "$GEN_EST" -le "$gen_allowed" ] && break
        done
        LEFT_OUT+=("TPC-H at SF $SF, not $SF_ASKED: the data at SF $SF_ASKED would take about $(mg_gen_est "$SF_ASKED") s to generate, more than the $gen_allowed s ($GEN_SHARE% of what MULTI_BUDGET_S left after the build) it may take; at SF $SF about $GEN_EST s")
        gx_log "TPC-H scale lowered to $SF (${LEFT_OUT[-1]})"
    fi
fi
LI_EST=$(awk -v s="$SF" 'BEGIN { printf "%d", s * 6000000 }')

# ------------------------------------------------------------------ cluster
# the number of devices that will hold the cache (the GPUs, else the CPU
# devices), before the server says it
if [ "$KIND" = cpu ]; then
    NDEV_EST=$CPU_DEVS
else
    NDEV_EST=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
    [ "${NDEV_EST:-0}" -gt 0 ] || NDEV_EST=8
fi
# each device's share of the cache holds the largest workload (bytes a
# row in the cache: tablet 33, r and s 12.3, lineitem 94; 15% and two
# units of room)
NEED_MB=0
for w in "${WORKLOADS[@]}"; do
    case "$w" in
        scan) b=$(( ROWS * 34 )) ;;
        join) b=$(( JROWS * 2 * 13 )) ;;
        tpch) b=$(( LI_EST * 96 )) ;;
    esac
    mb=$(( b / 1048576 * 115 / 100 + 256 ))
    [ "$mb" -gt "$NEED_MB" ] && NEED_MB=$mb
done
CACHE_MB=${MULTI_CACHE_MB:-$(( (NDEV_EST * NEED_MB + 127) / 128 * 128 ))}
[ "$CACHE_MB" -lt 1024 ] && [ -z "${MULTI_CACHE_MB:-}" ] && CACHE_MB=1024
if [ -z "${MULTI_ENTRY_ROWS:-}" ]; then
    if [ "$KIND" = cpu ]; then
        ENTRY_ROWS=0
        for n in $ROWS $JROWS $LI_EST; do [ "$n" -gt "$ENTRY_ROWS" ] && ENTRY_ROWS=$n; done
        ENTRY_ROWS=$(( (ENTRY_ROWS + 15) / 16 ))
        [ "$ENTRY_ROWS" -lt 20000 ] && ENTRY_ROWS=20000
    else
        ENTRY_ROWS=0
    fi
else
    ENTRY_ROWS=$MULTI_ENTRY_ROWS
fi

if [ "$BENCH_START" = 1 ]; then
    gx_setup_user || exit 1
    # shared_buffers at 100 bytes a "row" (bench/lib.sh): tablet ~60 bytes
    # a row, r and s 36, lineitem ~160
    sb_rows=0
    has_w scan && sb_rows=$((sb_rows + ROWS))
    has_w join && sb_rows=$((sb_rows + JROWS))
    has_w tpch && sb_rows=$((sb_rows + 2 * LI_EST))
    extra=("gpuext.cache_size = ${CACHE_MB}MB" "max_worker_processes = $((PGW + 8))"
           "max_parallel_workers = $PGW" "autovacuum = off" "full_page_writes = off")
    [ "$KIND" = cpu ] && extra+=("gpuext.cpu_devices = $CPU_DEVS")
    bench_cluster_init "${BENCH_PORT:-54338}" "$sb_rows" "${extra[@]}" || exit 1
    gx_cluster_start || exit 1
fi
bench_create_db "$DB" "$OUT/multigpu_devices.txt" || exit 1
CACHE_MB=$(gx_psql -d "$DB" -Atc "SELECT setting FROM pg_settings WHERE name = 'gpuext.cache_size'")
NGPU=$(gx_has_gpu "$DB")
if [ "$KIND" = gpu ] && [ "$NGPU" = 0 ]; then
    echo "ERROR: gpuext_devices() lists no GPU (MULTI_DEVICE=cpu runs this on CPU devices)"; exit 1
fi
if [ "$KIND" = cpu ] && [ "$NGPU" != 0 ]; then
    echo "ERROR: MULTI_DEVICE=cpu on a host with a GPU: the cache lives on the GPUs there"; exit 1
fi
# the devices of the kind, in device order: label, memory (MB, empty for
# the CPU devices), name
LABELS=(); MEM=(); DNAME=()
while IFS='|' read -r l m n; do
    LABELS+=("$l"); MEM+=("$m"); DNAME+=("$n")
done < <(gx_psql -d "$DB" -Atc "SELECT label, memory_mb, name FROM gpuext_devices() WHERE kind = '$KIND' ORDER BY device")
NALL=${#LABELS[@]}
N=$NALL
[ -n "${MULTI_GPUS:-}" ] && [ "$MULTI_GPUS" -lt "$N" ] && [ "$MULTI_GPUS" -gt 0 ] && N=$MULTI_GPUS
read -r -a KS <<<"${MULTI_DEVICE_COUNTS:-$(seq -s ' ' 1 "$N")}"
for k in "${KS[@]}"; do
    case "$k" in ''|*[!0-9]*|0) echo "ERROR: bad device count '$k' (MULTI_DEVICE_COUNTS)"; exit 1 ;; esac
    [ "$k" -le "$N" ] || { echo "ERROR: device count $k, but $N device(s) of kind $KIND (MULTI_GPUS)"; exit 1; }
done
declare -A DEVS
for k in "${KS[@]}"; do DEVS[$k]=$(IFS=,; echo "${LABELS[*]:0:$k}"); done
KMAX=${KS[-1]}
for k in "${KS[@]}"; do [ "$k" -gt "$KMAX" ] && KMAX=$k; done
# the device count whose Device Chunks line the tables show: 2, else the most
KDC=$KMAX
case " ${KS[*]} " in *" 2 "*) KDC=2 ;; esac
has_k() { case " ${KS[*]} " in *" $1 "*) true ;; *) false ;; esac; }
gx_log "$NALL device(s) of kind $KIND (${LABELS[*]}); device counts ${KS[*]}; gpuext.cache_size ${CACHE_MB} MB; entry rows $ENTRY_ROWS"
[ "$N" -lt 2 ] && gx_warn "one device: no scaling to measure (k = 1 only)"

# ------------------------------------------------------------------ data
# every workload's generator at once, each with its parallel sessions
# (their logs: multigpu_gen_<w>.log); then VACUUM of the tables that still
# have pages without the all-visible bit (a page another generator's
# snapshot still saw when its VACUUM ran)
declare -A GEN_OK TROWS BPR RBPR
GEN_T0=$SECONDS
gpids=(); gws=()
for w in "${WORKLOADS[@]}"; do
    case "$w" in
        scan) gx_load_tablet "$DB" "$ROWS" ;;
        join) JOIN_ROWS=$JROWS join_gen "$DB" ;;
        tpch) TPCH_SF=$SF tpch_gen "$DB" ;;
    esac >"$OUT/multigpu_gen_$w.log" 2>&1 &
    gpids+=($!); gws+=("$w")
done
gx_log "generating the data of ${WORKLOADS[*]} at once (estimate: about $GEN_EST s)"
for i in "${!gpids[@]}"; do
    w=${gws[$i]}
    if wait "${gpids[$i]}"; then GEN_OK[$w]=1; else GEN_OK[$w]=0; fi
    sed 's/^/   /' "$OUT/multigpu_gen_$w.log"
    if [ "${GEN_OK[$w]}" = 0 ]; then
        echo "!!!!!!!! FAIL: generating the data of workload $w failed (multigpu_gen_$w.log) !!!!!!!!"
        LEFT_OUT+=("workload $w: its data could not be generated")
    fi
done
TABLES=()
for w in "${WORKLOADS[@]}"; do
    [ "${GEN_OK[$w]}" = 1 ] || continue
    for t in $(wl_tables "$w"); do TABLES+=("$t"); done
done
# (FREEZE, up to three rounds: right after the generators, VACUUMs were
# seen to freeze pages without setting their bits, which the next one
# then set)
TABLES_IN=$(printf "'%s'," "${TABLES[@]}" | sed 's/,$//')
for round in 1 2 3; do
    vts=$([ -n "$TABLES_IN" ] && gx_psql -d "$DB" -Atc "SELECT relname FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r' AND relallvisible < relpages AND relname IN ($TABLES_IN)")
    [ -n "$vts" ] || break
    gx_log "VACUUM (FREEZE) of $(echo "$vts" | paste -sd' ' -): pages without the all-visible bit (round $round)"
    vpids=()
    for t in $vts; do
        gx_psql -d "$DB" -qc "VACUUM (FREEZE) $t" &
        vpids+=($!)
    done
    for p in "${vpids[@]}"; do wait "$p"; done
done
GEN_S=$((SECONDS - GEN_T0))
gx_log "data ready in $GEN_S s (estimate $GEN_EST s)"
# shellcheck disable=SC2086
bench_tables_prewarm "$DB" "${TABLES[@]}"
for t in "${TABLES[@]}"; do
    gx_psql -d "$DB" -qc "ALTER TABLE $t SET (parallel_workers = $PGW)"
    TROWS[$t]=$(PGOPTIONS="-c gpuext.enabled=off -c max_parallel_workers_per_gather=$PGW" gx_psql -d "$DB" -Atc "SELECT count(*) FROM $t")
done

# ------------------------------------------------------------------ configurations
# pg: gpuext off, PGW workers (bench/lib.sh's par8 with PGW); gpuK: the
# cached GpuScan configuration (bench/lib.sh gpucache) on the first K
# devices; duckdb
bench_define_configs "$GPU_DEV"
BENCH_TITLE[pg]="PG ${PGW}w"
BENCH_OPTS[pg]="${BENCH_OPTS[par8]/per_gather=8/per_gather=$PGW} -c work_mem=$WORK_MEM"
CFG_NAMES=(pg)
for k in "${KS[@]}"; do
    if [ "$KIND" = gpu ]; then t="$k GPU"; else t="$k CPU dev"; fi
    [ "$k" -gt 1 ] && t="${t}s"
    BENCH_TITLE[gpu$k]=$t
    BENCH_OPTS[gpu$k]="${BENCH_OPTS[gpucache]} -c gpuext.devices=${DEVS[$k]} -c work_mem=$WORK_MEM"
    CFG_NAMES+=("gpu$k")
done
cfg_enabled() {
    case "$1" in pg | duckdb) ! in_skip "$1" ;; *) true ;; esac
}
cfg_why() { echo "skipped (MULTI_SKIP)"; }
declare -A MS RUNSN ALLMS RES PLAN CHECK REF REF_CFG
declare -A DEVCH EXEC_MS TOP EFILE LOAD_MS LOAD_ROWS LOAD_DEVS STEP_S
FAILED=0
for q in "${ALLQ[@]}"; do
    for name in "${CFG_NAMES[@]}" duckdb; do
        MS[$q,$name]=n/a; RUNSN[$q,$name]=0; ALLMS[$q,$name]=""; RES[$q,$name]=n/a
        PLAN[$q,$name]=n/a; CHECK[$q,$name]="not run"
    done
    REF[$q]=""; REF_CFG[$q]=""
    for k in "${KS[@]}"; do DEVCH[$q,$k]=n/a; EXEC_MS[$q,$k]=n/a; TOP[$q,$k]=""; EFILE[$q,$k]=""; done
done

# mg_plan OPTS Q (BENCH_PLAN_FN): the plan's join, scan and aggregate
# nodes (bench/tpch/plan.awk), and the devices of its multi-device nodes
mg_plan() {
    local p tree devs
    p=$(PGOPTIONS="$1" gx_psql -d "$DB" -Atc "$(mg_pre "$2")EXPLAIN $(mg_sql "$2")" 2>/dev/null)
    tree=$(awk -v mode=tree -f "$TPCH_DIR/plan.awk" <<<"$p")
    devs=$(sed -n 's/^ *Devices: //p' <<<"$p" | tr -d ' ' | sort -u | paste -sd';' -)
    echo "${tree:-err}${devs:+ [$devs]}"
}

# mg_result Q NAME (BENCH_RESULT_FN): pairs: the checksum of the pairs
# that configuration NAME's join forms, untimed, after T_RES (the rows)
mg_result() {
    local sum
    [ "$1" = pairs ] || return 0
    sum=$(PGOPTIONS="$(bench_opts "$2")" gx_psql -d "$DB" -Atc "$PAIRS_CHECK_SQL" 2>&1 | tr '\n' ' ' | sed 's/ *$//')
    T_RES="$T_RES $sum"
}

# mg_explain Q K: EXPLAIN (ANALYZE, VERBOSE) of Q on K devices, when it
# ran and the budget leaves time: DEVCH (its "Device Chunks" lines; "one
# device" when no node ran on several), EXEC_MS, TOP (the three largest
# own times of its nodes, bench/tpch/plan.awk), EFILE
mg_explain() {
    local q=$1 k=$2 name=gpu$2 f
    in_skip explain && return 0
    bench_is_num "${MS[$q,$name]}" || return 0
    if ! bench_budget_ok "$(awk -v m="${MS[$q,$name]}" 'BEGIN { printf "%d", m / 500 + 1 }')"; then
        gx_log "$q: no EXPLAIN ANALYZE on $k device(s) (MULTI_BUDGET_S)"
        return 0
    fi
    f=$OUT/multigpu_explain_${q}_k$k.txt
    EFILE[$q,$k]=$f
    PGOPTIONS="$(bench_opts "$name")" gx_psql -d "$DB" -c "$(mg_pre "$q")EXPLAIN (ANALYZE, VERBOSE) $(mg_sql "$q")" >"$f" 2>&1
    EXEC_MS[$q,$k]=$(sed -n 's/^ *Execution Time: \([0-9.]*\) ms.*/\1/p' "$f")
    if [ -z "${EXEC_MS[$q,$k]}" ]; then
        EXEC_MS[$q,$k]=n/a
        gx_warn "$q: EXPLAIN ANALYZE on $k device(s) failed: $(tail -n 2 "$f")"
        return 0
    fi
    DEVCH[$q,$k]=$(sed -n 's/^ *Device Chunks: //p' "$f" | paste -sd';' - | sed 's/;/; /g')
    [ -n "${DEVCH[$q,$k]}" ] || DEVCH[$q,$k]="one device"
    TOP[$q,$k]=$(awk -v mode=time -f "$TPCH_DIR/plan.awk" "$f" | sort -t "$(printf '\t')" -k1,1gr | head -n 3 |
        awk -F '\t' -v e="${EXEC_MS[$q,$k]}" '{ printf "%s%s %.3f ms (%.0f%%)", (NR > 1 ? "; " : ""), $3, $1, (e > 0 ? 100 * $1 / e : 0) }')
}

# mg_evict: every table out of the cache
mg_evict() {
    gx_psql -d "$DB" -Atc "SELECT count(gpuext_cache_evict(\"table\")) FROM gpuext_cache" >/dev/null 2>&1
}

# mg_step W K: workload W on the first K devices (evict, load, every
# query, EXPLAIN ANALYZE); left out when the step before it says it would
# not fit the budget
mg_step() {
    local w=$1 k=$2 name=gpu$2 t0=$SECONDS est=${STEP_S[$1]:-0} q tables want=0 t
    read -r -a tables <<<"$(wl_tables "$w")"
    read -r -a qs <<<"$(wl_queries "$w")"
    if ! bench_budget_ok "$est"; then
        for q in "${qs[@]}"; do CHECK[$q,$name]="skipped (budget)"; done
        if [ "$est" -gt 0 ]; then
            LEFT_OUT+=("$w on $k device(s): the step on fewer devices took $est s, more than MULTI_BUDGET_S left")
        else
            LEFT_OUT+=("$w on $k device(s): MULTI_BUDGET_S was spent")
        fi
        gx_log "$w on $k device(s): skipped (MULTI_BUDGET_S)"
        return 0
    fi
    gx_log "$w on $k device(s): gpuext.devices = ${DEVS[$k]}"
    mg_evict
    for t in "${tables[@]}"; do want=$((want + TROWS[$t])); done
    BENCH_CACHE_OPTS="-c gpuext.devices=${DEVS[$k]} -c gpuext.cache_entry_rows=$ENTRY_ROWS" BENCH_CACHE_WANT=$want \
        bench_cache_load "$OUT/multigpu_cache_${w}_k$k.txt" "$GPU_DEV" "${tables[@]}" ||
        LEFT_OUT+=("$w on $k device(s): the cache load failed (multigpu_cache_${w}_k$k.txt); the queries read the heap")
    LOAD_MS[$w,$k]=$CACHE_LOAD_MS; LOAD_ROWS[$w,$k]=$CACHE_ROWS
    LOAD_DEVS[$w,$k]=$(gx_psql -d "$DB" -Atc "SELECT string_agg(\"table\"::text || ' ' || chunks || ' entries on ' || devices, '; ' ORDER BY \"table\"::text) FROM gpuext_cache")
    # the bytes a row takes in the cache (the first load of the table)
    while IFS='|' read -r t b r rb; do
        [ -n "$t" ] && [ "${r:-0}" -gt 0 ] && [ -z "${BPR[$t]:-}" ] || continue
        BPR[$t]=$(awk -v b="$b" -v r="$r" 'BEGIN { printf "%.2f", b / r }')
        RBPR[$t]=$(awk -v b="$rb" -v r="$r" 'BEGIN { printf "%.2f", b / r }')
    done < <(gx_psql -d "$DB" -Atc "SELECT \"table\", bytes, rows, reserved_bytes FROM gpuext_cache")
    for q in "${qs[@]}"; do
        gx_log "$q on ${DEVS[$k]}"
        RUN_ORDER=("$name")
        BENCH_KEEP_REF=1 bench_run_query "$q" "$(mg_qfile "$q")"
    done
    for q in "${qs[@]}"; do mg_explain "$q" "$k"; done
    STEP_S[$w]=$((SECONDS - t0))
}

# ------------------------------------------------------------------ the runs
for w in "${WORKLOADS[@]}"; do
    [ "${GEN_OK[$w]}" = 1 ] || continue
    read -r -a qs <<<"$(wl_queries "$w")"
    gx_log "=== $(wl_title "$w")"
    # PG Nw: the baseline and the reference
    for q in "${qs[@]}"; do
        gx_log "$q: $(mg_sql "$q" | tr '\n' ' ')"
        RUN_ORDER=(pg)
        BENCH_KEEP_REF=0 bench_run_query "$q" "$(mg_qfile "$q")"
    done
    for k in "${KS[@]}"; do mg_step "$w" "$k"; done
done
mg_evict

# ------------------------------------------------------------------ DuckDB
# one process: copies of the tables the workloads read, every query
mg_duckdb() {
    local specs="" qfiles="" q w f
    for q in "${QUERIES_RUN[@]}"; do
        f=$SQLDIR/duckdb/$q.sql
        case "$q" in
            count | count_parts) echo "$(mg_sql count);" >"$f" ;;
            pairs) echo "COPY ($(mg_sql pairs)) TO '/dev/null' (FORMAT csv);" >"$f" ;;
            tpch_q1) cp "$TPCH_DIR/duckdb/q1.sql" "$f" ;;
            *) cp "$(gxd_query_file "$q")" "$f" ;;
        esac
        qfiles="$qfiles${qfiles:+,}$f"
    done
    for w in "${WORKLOADS[@]}"; do
        [ "${GEN_OK[$w]}" = 1 ] || continue
        case "$w" in
            scan) specs="${specs}tablet"$'\t'"id, ui, ni5, ni20, uf, nf5, nf20"$'\t'"'id': 'INTEGER', 'ui': 'INTEGER', 'ni5': 'INTEGER', 'ni20': 'INTEGER', 'uf': 'REAL', 'nf5': 'REAL', 'nf20': 'REAL'"$'\n' ;;
            join) for t in r s; do specs="$specs$t"$'\t'"rid, key"$'\t'"'rid': 'INTEGER', 'key': 'INTEGER'"$'\n'; done ;;
            tpch) specs="${specs}lineitem"$'\t'"$TPCH_Q1_COLS"$'\t'"$TPCH_Q1_DUCK_TYPES"$'\n' ;;
        esac
    done
    GXD_PGOPTIONS="-c gpuext.enabled=off" gxd_copy_tables_and_run "$DB" "$specs" "$qfiles" "$RUNS" "$1"
}
QUERIES_RUN=()
for w in "${WORKLOADS[@]}"; do
    [ "${GEN_OK[$w]}" = 1 ] || continue
    read -r -a qs <<<"$(wl_queries "$w")"
    QUERIES_RUN+=("${qs[@]}")
done
HEAP_MB=0
[ "${#TABLES[@]}" -gt 0 ] &&
    HEAP_MB=$(gx_psql -d "$DB" -Atc "SELECT (sum(pg_relation_size(c)) / 1048576)::int FROM unnest(ARRAY[$(printf "'%s'," "${TABLES[@]}" | sed 's/,$//')]::regclass[]) c")
BENCH_DUCKDB_EST_S=$(( ${HEAP_MB:-0} / 400 + 10 ))
DUCKDB_TITLE="DuckDB ${DUCKDB_THREADS}t"; DUCKDB_NOTE="not run"; DUCKDB_VERSION=n/a
if [ "${#QUERIES_RUN[@]}" -gt 0 ]; then
    bench_duckdb_run mg_duckdb "$OUT/multigpu_duckdb.log" "${QUERIES_RUN[@]}"
    [ "$DUCKDB_NOTE" = "skipped (MULTI_BUDGET_S)" ] &&
        LEFT_OUT+=("DuckDB: its export and load (about $BENCH_DUCKDB_EST_S s) did not fit MULTI_BUDGET_S")
    [ -z "$DUCKDB_NOTE" ] && gx_log "$DUCKDB_TITLE's results of ${QUERIES_RUN[*]} against ${BENCH_TITLE[pg]}'s:"
    for q in "${QUERIES_RUN[@]}"; do
        ref=${REF[$q]:-}
        [ "$q" = pairs ] && ref=$(awk '{ print $2 }' <<<"$ref")
        bench_check_duckdb "$q" "$ref"
    done
fi

# ------------------------------------------------------------------ rows that fit
# mg_shares CACHE_MB: each device's share of a cache of CACHE_MB (its
# 128 MB units dealt out to the NALL devices in turn), in MB, at most the
# device's memory less FIT_RESERVE_MB (GPUs; with CAP=1)
mg_shares() {
    local units=$(( $1 / 128 )) i u cap=$2 s
    for ((i = 0; i < NALL; i++)); do
        u=$(( units / NALL + (i < units % NALL ? 1 : 0) ))
        s=$((u * 128))
        if [ "$cap" = 1 ] && [ -n "${MEM[$i]}" ] && [ $(( (MEM[i] - FIT_RESERVE_MB) / 128 * 128 )) -lt "$s" ]; then
            s=$(( (MEM[i] - FIT_RESERVE_MB) / 128 * 128 ))
            [ "$s" -lt 0 ] && s=0
        fi
        printf '%s ' "$s"
    done
}
if [ -n "${MULTI_FIT_CACHE_MB:-}" ]; then
    FIT_MB=$MULTI_FIT_CACHE_MB
elif [ "$KIND" = gpu ]; then
    minmem=$(printf '%s\n' "${MEM[@]}" | grep -E '^[0-9]+$' | sort -n | head -n 1)
    FIT_MB=$(( NALL * ${minmem:-4096} ))
else
    FIT_MB=$(( NALL * 4096 ))
fi
read -r -a SHARE_RUN <<<"$(mg_shares "$CACHE_MB" 0)"
read -r -a SHARE_FIT <<<"$(mg_shares "$FIT_MB" 1)"
# mg_fit BPR "SHARES": the rows of a table of BPR bytes a row that fit on
# the first k devices (their shares, MB), for each k of KS ("k=rows ...")
mg_fit() {
    local bpr=$1 sh k i mb
    read -r -a sh <<<"$2"
    for k in "${KS[@]}"; do
        mb=0
        for ((i = 0; i < k; i++)); do mb=$((mb + sh[i])); done
        awk -v m="$mb" -v b="$bpr" -v k="$k" 'BEGIN { printf "%s=%.0f ", k, (b > 0 ? m * 1048576 / b : 0) }'
    done
}
declare -A FIT_RUN FIT_FIT
for t in "${TABLES[@]}"; do
    [ -n "${BPR[$t]:-}" ] || continue
    for kv in $(mg_fit "${BPR[$t]}" "${SHARE_RUN[*]}"); do FIT_RUN[$t,${kv%%=*}]=${kv#*=}; done
    for kv in $(mg_fit "${BPR[$t]}" "${SHARE_FIT[*]}"); do FIT_FIT[$t,${kv%%=*}]=${kv#*=}; done
done

# ------------------------------------------------------------------ aims, slowest
# mg_speedups Q...: "min geomean n_at_least_1.8 of" of 1 vs 2 devices
mg_speedups() {
    local q
    for q in "$@"; do
        bench_is_num "${MS[$q,gpu1]:-}" && bench_is_num "${MS[$q,gpu2]:-}" && awk -v a="${MS[$q,gpu1]}" -v b="${MS[$q,gpu2]}" 'BEGIN { if (b > 0) print a / b }'
    done | awk '{ n++; l += log($1); if (min == "" || $1 < min) min = $1; if ($1 >= 1.8) ok++ }
        END { if (n) printf "%.2fx %.2fx %d %d", min, exp(l / n), ok, n }'
}
mg_aim() {
    local r min geo ok n
    r=$(mg_speedups "$@")
    [ -n "$r" ] || { echo "n/a (needs 1 and 2 devices)"; return; }
    read -r min geo ok n <<<"$r"
    if [ "$ok" = "$n" ]; then met=met; else met="not met"; fi
    echo "$ok of $n at least 1.8x ($met); lowest $min, geometric mean $geo"
}
declare -A AIM
AIM[scan]=n/a; AIM[join]=n/a; AIM[tpch]=n/a
has_w scan && AIM[scan]=$(mg_aim "${SCAN_QUERIES[@]}")
has_w join && AIM[join]=$(mg_aim count count_parts pairs)
has_w tpch && AIM[tpch]=$(mg_aim tpch_q1)
# the slowest queries on the most devices
SLOW=$(for q in "${ALLQ[@]}"; do bench_is_num "${MS[$q,gpu$KMAX]}" && echo "${MS[$q,gpu$KMAX]} $q"; done |
    sort -gr | head -n 3 | awk '{ print $2 }')

# ------------------------------------------------------------------ report
bench_report_facts "$DB"
CACHE_LOAD_MS=n/a; CACHE_ROWS=n/a
MG_S=$((SECONDS - BENCH_T0))
# mg_check Q: the check column: ok (every configuration that ran equals
# the reference), else each configuration's check that is not ok
mg_check() {
    local q=$1 name c out=""
    for name in "${ALL_CFGS[@]}"; do
        # (DuckDB not run at all: the header says why)
        [ "$name" = duckdb ] && [ -n "$DUCKDB_NOTE" ] && continue
        c=${CHECK[$q,$name]}
        case "$c" in ok | ref | approx) ;; *) out="$out${out:+; }${BENCH_TITLE[$name]}: $c" ;; esac
    done
    if [ -z "$out" ]; then echo "ok (ref ${BENCH_TITLE[${REF_CFG[$q]:-pg}]})"; else echo "$out"; fi
}
# mg_md_table Q...: a workload's table
mg_md_table() {
    local q k hdr="| query" sep="|---" row g="gpu$KMAX"
    for k in "${KS[@]}"; do hdr="$hdr | ${BENCH_TITLE[gpu$k]} ms"; sep="$sep|---:"; done
    for k in "${KS[@]}"; do [ "$k" -gt 1 ] && { hdr="$hdr | $k vs 1"; sep="$sep|---:"; }; done
    hdr="$hdr | Device Chunks (k = $KDC) | ${BENCH_TITLE[pg]} ms | $DUCKDB_TITLE ms | ${BENCH_TITLE[$g]} vs PG | ${BENCH_TITLE[$g]} vs DuckDB | check |"
    echo "$hdr"; echo "$sep|---|---:|---:|---:|---:|---|"
    for q in "$@"; do
        row="| $q"
        for k in "${KS[@]}"; do row="$row | ${MS[$q,gpu$k]}"; done
        for k in "${KS[@]}"; do [ "$k" -gt 1 ] && row="$row | $(bench_xratio "${MS[$q,gpu1]}" "${MS[$q,gpu$k]}")"; done
        echo "$row | ${DEVCH[$q,$KDC]} | ${MS[$q,pg]} | ${MS[$q,duckdb]} | $(bench_xratio "${MS[$q,pg]}" "${MS[$q,$g]}") | $(bench_xratio "${MS[$q,duckdb]}" "${MS[$q,$g]}") | $(mg_check "$q") |"
    done
}
MD=$OUT/multigpu.md
{
    if [ "$KIND" = gpu ]; then what="GPUs"; else what="CPU devices (gpuext.cpu_devices = $CPU_DEVS: stand-ins for GPUs; their speedups mean nothing)"; fi
    if [ "$KMAX" = 1 ]; then span="1 of the"; else span="1 to $KMAX"; fi
    echo "# Several devices (issue 17): $span $what"
    echo
    echo "- $PGVER, CPU: ${CPU_NAME:-?} ($(gx_nproc) cores), GPU: ${GPU_NAME:-none}"
    echo "- devices: $(gx_psql -d "$DB" -Atc "SELECT string_agg(label || ' ' || name || coalesce(' (' || memory_mb || ' MB)', '') || ', peers ' || coalesce(nullif(peers, ''), 'none'), '; ' ORDER BY device) FROM gpuext_devices() WHERE kind = '$KIND'")"
    echo "- device counts k: ${KS[*]} (gpuext.devices = $(for k in "${KS[@]}"; do printf '%s, ' "${DEVS[$k]}"; done | sed 's/, $//')); for each workload and k: every table evicted, the workload's tables loaded by \`gpuext_cache_load\` in a session with that gpuext.devices (entries dealt out to the k devices by block range; gpuext.cache_entry_rows = $ENTRY_ROWS), then every query with the same gpuext.devices, gpuext.force = on, gpuext.device = $GPU_DEV, no parallel workers"
    echo "- ms: the best of $RUNS runs after an untimed warm-up run (psql \\timing, one session a run; a run of $LONG_S s or more is not repeated); k vs 1: 1-device ms / k-device ms"
    echo "- ${BENCH_TITLE[pg]}: gpuext off, $PGW parallel workers (parallel_workers = $PGW on every table, parallel costs 0), work_mem = $WORK_MEM, best of up to $RUNS runs; the reference every result is checked against"
    if [ -z "$DUCKDB_NOTE" ]; then
        echo "- $DUCKDB_TITLE: DuckDB $DUCKDB_VERSION, in-memory copies (CSV export $DUCKDB_EXPORT_S s; load and all runs $DUCKDB_RUN_S s), best of $RUNS after a warm-up; pairs as \`COPY (...) TO '/dev/null'\`"
    else
        echo "- $DUCKDB_TITLE: n/a, $DUCKDB_NOTE"
    fi
    echo "- Device Chunks: the EXPLAIN ANALYZE line of a node that ran on several devices (chunks each ran); \"one device\": no node of the plan used more than one"
    echo "- data: $SIZES; generated at once in $GEN_S s (estimate $GEN_EST s); gpuext.cache_size = $CACHE_MB MB"
    [ "$BUDGET_S" != 0 ] && echo "- MULTI_BUDGET_S = $BUDGET_S (this run: $MG_S s, of which the build $BUILD_S s)"
    if [ "${#LEFT_OUT[@]}" -gt 0 ]; then
        echo "- left out or changed:"
        for l in "${LEFT_OUT[@]}"; do echo "  - $l"; done
    fi
    echo
    echo "## Aim: cached scans and joins at least 1.8x from 1 to 2 devices (not a gate)"
    echo
    has_w scan && echo "- scans (${SCAN_QUERIES[*]}): ${AIM[scan]}"
    has_w join && echo "- join (count, count_parts, pairs): ${AIM[join]}"
    has_w tpch && echo "- TPC-H Q1: ${AIM[tpch]}"
    for w in "${WORKLOADS[@]}"; do
        [ "${GEN_OK[$w]}" = 1 ] || continue
        read -r -a qs <<<"$(wl_queries "$w")"
        echo
        echo "## $(wl_title "$w")"
        echo
        mg_md_table "${qs[@]}"
        echo
        for q in "${qs[@]}"; do
            ex=$(for k in "${KS[@]}"; do [ "${EXEC_MS[$q,$k]}" != n/a ] && printf '%s on %s, ' "${EXEC_MS[$q,$k]}" "$k"; done | sed 's/, $//')
            echo "- $q: \`$(mg_sql "$q" | tr '\n' ' ' | sed 's/ *$//')\`; plan on $KMAX: ${PLAN[$q,gpu$KMAX]}, PG: ${PLAN[$q,pg]}; EXPLAIN ANALYZE execution ms: ${ex:-n/a}; result: \`${REF[$q]}\`"
        done
    done
    echo
    echo "## Cache loads"
    echo
    echo "| workload | k | gpuext.devices | rows cached | load ms | entries (gpuext_cache) |"
    echo "|---|---:|---|---:|---:|---|"
    for w in "${WORKLOADS[@]}"; do
        for k in "${KS[@]}"; do
            [ -n "${LOAD_MS[$w,$k]:-}" ] || continue
            echo "| $w | $k | ${DEVS[$k]} | ${LOAD_ROWS[$w,$k]} | ${LOAD_MS[$w,$k]} | ${LOAD_DEVS[$w,$k]} |"
        done
    done
    echo
    echo "## Rows that fit in the cache"
    echo
    echo "- gpuext.cache_size is the total over the $NALL cache devices; its 128 MB units are dealt out to them in turn, and a load puts a table's entries on the loading session's devices only, so k devices hold k shares"
    echo "- this run: $CACHE_MB MB, a share of $(IFS=/; echo "${SHARE_RUN[*]}") MB ($(IFS=/; echo "${LABELS[*]}"))"
    echo "- with gpuext.cache_size = $FIT_MB MB$([ "$KIND" = gpu ] && echo " ($NALL x a GPU's memory, larger than one GPU's)"): a share of $(IFS=/; echo "${SHARE_FIT[*]}") MB$([ "$KIND" = gpu ] && echo " (at most a GPU's memory less $FIT_RESERVE_MB MB for staging and the queries)")"
    echo "- bytes a row: gpuext_cache's bytes / rows after the first load (reserved: its 1 MB granules / rows); rows = the shares of the first k devices / bytes a row (nothing filled)"
    echo
    hdr="| table | bytes a row (reserved) | rows in this run"
    sep="|---|---:|---:"
    for k in "${KS[@]}"; do hdr="$hdr | fit on $k, this run's size"; sep="$sep|---:"; done
    for k in "${KS[@]}"; do hdr="$hdr | fit on $k, $FIT_MB MB"; sep="$sep|---:"; done
    echo "$hdr | $KMAX vs 1 |"; echo "$sep|---:|"
    for t in "${TABLES[@]}"; do
        [ -n "${BPR[$t]:-}" ] || continue
        row="| $t | ${BPR[$t]} (${RBPR[$t]}) | ${TROWS[$t]}"
        for k in "${KS[@]}"; do row="$row | ${FIT_RUN[$t,$k]}"; done
        for k in "${KS[@]}"; do row="$row | ${FIT_FIT[$t,$k]}"; done
        echo "$row | $(bench_xratio "${FIT_FIT[$t,$KMAX]}" "${FIT_FIT[$t,1]:-}") |"
    done
    echo
    echo "## Where the time goes: the slowest queries on $KMAX device(s)"
    echo
    if [ -z "$SLOW" ]; then echo "- (no query ran on $KMAX devices)"; fi
    for q in $SLOW; do
        echo "- $q, ${BENCH_TITLE[gpu$KMAX]} ${MS[$q,gpu$KMAX]} ms (EXPLAIN ANALYZE: the execution, the three largest own times of its nodes):"
        for k in $( (has_k 1 && echo 1; echo "$KMAX") | sort -nu); do
            if [ -n "${EFILE[$q,$k]}" ]; then
                echo "  - k = $k: execution ${EXEC_MS[$q,$k]} ms; ${TOP[$q,$k]}; Device Chunks: ${DEVCH[$q,$k]} ($(basename "${EFILE[$q,$k]}"))"
            else
                echo "  - k = $k: no EXPLAIN ANALYZE"
            fi
        done
    done
    echo
    echo "## All queries (ms)"
    echo
    bench_md_all_table "${ALLQ[*]}" "${ALL_CFGS[@]}"
    echo
    noref=$(for q in "${ALLQ[@]}"; do [ -n "${REF_CFG[$q]}" ] && [ "${REF_CFG[$q]}" != pg ] && echo "$q"; done | paste -sd' ' -)
    if [ "$FAILED" = 1 ]; then
        echo "**FAIL: see the check columns**"
    elif [ -n "$noref" ]; then
        echo "all results agree, but $noref had no ${BENCH_TITLE[pg]} result to check against (the first configuration's was the reference)"
    else
        echo "all results checked against ${BENCH_TITLE[pg]}'s: ok"
    fi
} >"$MD"

# JSON: the facts through bench/groupby/groupby_json.py (speedups against
# the 1-device configuration)
FACTS=$OUT/multigpu_facts.tsv
{
    bench_fact meta ref_config "gpu${KS[0]}"
    bench_fact meta device_kind "$KIND"
    bench_fact meta labels "$(IFS=,; echo "${LABELS[*]}")"
    bench_fact meta device_counts "${KS[*]}"
    bench_fact meta rows "$ROWS"
    bench_fact meta join_rows "$JROWS"
    bench_fact meta tpch_sf "$SF"
    bench_fact meta tpch_sf_asked "$SF_ASKED"
    bench_fact meta table_size "$(bench_oneline "$SIZES")"
    bench_fact meta gen_s "$GEN_S"
    bench_fact meta gen_est_s "$GEN_EST"
    bench_fact meta build_s "$BUILD_S"
    bench_fact meta runs "$RUNS"
    bench_fact meta long_s "$LONG_S"
    bench_fact meta timeout_s "$BENCH_RUN_TIMEOUT_S"
    bench_fact meta pg_workers "$PGW"
    bench_fact meta cache_mb "$CACHE_MB"
    bench_fact meta entry_rows "$ENTRY_ROWS"
    bench_fact meta fit_cache_mb "$FIT_MB"
    bench_fact meta left_out "$(bench_oneline "$(printf '%s; ' "${LEFT_OUT[@]}" | sed 's/; $//')")"
    bench_meta_facts "$MG_S"
    for w in scan join tpch; do has_w "$w" && bench_fact meta "aim_$w" "$(bench_oneline "${AIM[$w]}")"; done
    for t in "${TABLES[@]}"; do
        bench_fact meta "bytes_per_row_$t" "${BPR[$t]:-}"
        for k in "${KS[@]}"; do
            bench_fact meta "fit_rows_${t}_k$k" "${FIT_RUN[$t,$k]:-}"
            bench_fact meta "fit_rows_${t}_k${k}_at_fit_cache" "${FIT_FIT[$t,$k]:-}"
        done
    done
    for w in "${WORKLOADS[@]}"; do
        for k in "${KS[@]}"; do
            bench_fact meta "load_ms_${w}_k$k" "${LOAD_MS[$w,$k]:-}"
            bench_fact meta "devices_${w}_k$k" "$(bench_oneline "${LOAD_DEVS[$w,$k]:-}")"
        done
    done
    bench_fact duckdb title "$(bench_oneline "$DUCKDB_TITLE")"
    bench_fact duckdb version "$(bench_oneline "${DUCKDB_VERSION:-n/a}")"
    bench_fact duckdb threads "$DUCKDB_THREADS"
    bench_fact duckdb export_s "${DUCKDB_EXPORT_S:-n/a}"
    bench_fact duckdb run_s "${DUCKDB_RUN_S:-n/a}"
    bench_fact duckdb note "$(bench_oneline "${DUCKDB_NOTE:-}")"
    for name in "${ALL_CFGS[@]}"; do bench_fact title "$name" "$(bench_oneline "${BENCH_TITLE[$name]}")"; done
    for q in "${ALLQ[@]}"; do
        bench_fact query "$q" "$(bench_oneline "$(mg_sql "$q")")"
        bench_fact qmeta "$q" result "$(bench_oneline "${REF[$q]}")"
        for k in "${KS[@]}"; do
            bench_fact qmeta "$q" "device_chunks_k$k" "$(bench_oneline "${DEVCH[$q,$k]}")"
            bench_fact qmeta "$q" "exec_ms_k$k" "${EXEC_MS[$q,$k]}"
            bench_fact qmeta "$q" "own_time_k$k" "$(bench_oneline "${TOP[$q,$k]}")"
            bench_fact qmeta "$q" "explain_file_k$k" "$(basename "${EFILE[$q,$k]:-}")"
        done
        bench_facts_cfgs "$q" "${ALL_CFGS[@]}"
    done
} >"$FACTS"
bench_report_end "$FACTS" multigpu "$MD" "$MG_S" "${BENCH_TITLE[pg]}"
