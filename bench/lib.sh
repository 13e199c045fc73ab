# shellcheck shell=bash
# bench/lib.sh - shared pieces of bench/run.sh, bench/compare.sh and
# bench/tpcb.sh; source it after test/lib.sh (needs gx_* and PGBIN):
#
#   bench_cluster_init PORT ROWS [conf lines...]   the benchmark cluster
#   bench_set_preload on|off                       gpuext preloaded or not
#   bench_define_configs [gpu|cpu]                 BENCH_TITLE[], BENCH_OPTS[]
#   bench_time_query DB QFILE OPTS LOG [warm]      BQ_MS, BQ_RES, BQ_PLAN
#   bench_tpcb OUTDIR SECONDS RUNS                 alternating TPC-B runs
#   bench_median / bench_ratio                     small arithmetic helpers
#   bench_on_exit [COMMAND]                        the cleanup at exit
#
# Environment read here: BENCH_T, BENCH_T_FAST (bench_time_query; see
# bench/run.sh), BENCH_PGBENCH_MODE (pgbench -M of bench_time_query:
# simple by default; prepared plans once per connection), TPCB_SCALE (10), TPCB_CLIENTS (8), TPCB_WARMUP (2 s),
# TPCB_EXTENSION (1: CREATE EXTENSION gpuext in the pgbench database of the
# runs with gpuext preloaded), GPUEXT_STAGING_MB (256).

# bench_on_exit [COMMAND]: at exit, stop and remove the benchmark cluster
# (a no-op when the script started none: gx_cluster_* know), remove the
# DuckDB CSV export (bench/duckdb/lib.sh), then run COMMAND; an interrupt
# exits with 130, which runs the same
bench_on_exit() {
    BENCH_EXIT_EXTRA=${1:-}
    trap bench_cleanup EXIT
    trap 'exit 130' INT TERM HUP PIPE
}

# what bench_on_exit runs
bench_cleanup() {
    [ -n "${GXD_TMP:-}" ] && rm -rf "$GXD_TMP"
    gx_cluster_stop
    gx_cluster_remove
    if [ -n "${BENCH_EXIT_EXTRA:-}" ]; then eval "$BENCH_EXIT_EXTRA"; fi
}

# bench_cluster_init PORT ROWS [extra postgresql.conf lines...]: a throwaway
# cluster (gx_cluster_init, not started) with bench/run.sh's settings for a
# tablet of ROWS rows.  Its postgresql.conf ends with an include of
# gx_bench.conf, which bench_set_preload writes.
bench_cluster_init() {
    local port=$1 rows=$2 sb_mb mem_mb cache_mb
    shift 2
    # shared_buffers: ~100 bytes a row (table ~60 B/row + index), >= 1 GB,
    # at most half of the memory
    sb_mb=$(( rows / 10000 ))
    [ "$sb_mb" -lt 1024 ] && sb_mb=1024
    mem_mb=$(awk '/MemTotal/ {print int($2 / 1024)}' /proc/meminfo 2>/dev/null)
    if [ -n "$mem_mb" ] && [ "$sb_mb" -gt $((mem_mb / 2)) ]; then sb_mb=$((mem_mb / 2)); fi
    # device cache: ~33 bytes a row for tablet's 7 columns and row map, in
    # 128 MB entries of about 4M rows: 48 bytes a row, >= 1 GB
    cache_mb=$(( rows / 20000 ))
    [ "$cache_mb" -lt 1024 ] && cache_mb=1024
    gx_cluster_init "$port" \
        "shared_buffers = ${sb_mb}MB" \
        "max_worker_processes = 16" \
        "max_parallel_workers = 16" \
        "max_parallel_maintenance_workers = 8" \
        "max_wal_size = 20GB" \
        "checkpoint_timeout = 30min" \
        "synchronous_commit = off" \
        "work_mem = 64MB" \
        "gpuext.staging_size = ${GPUEXT_STAGING_MB:-256}" \
        "gpuext.cache_size = ${cache_mb}MB" \
        "$@" \
        "include_if_exists = 'gx_bench.conf'   # bench/lib.sh: bench_set_preload" || return 1
    : >"$GX_DATA/gx_bench.conf" && chmod 644 "$GX_DATA/gx_bench.conf"
}

# bench_set_preload on|off: gpuext in shared_preload_libraries or not, from
# the next (re)start of the cluster of bench_cluster_init
bench_set_preload() {
    if [ "$1" = off ]; then
        echo "shared_preload_libraries = ''" >"$GX_DATA/gx_bench.conf"
    else
        : >"$GX_DATA/gx_bench.conf"
    fi
}

# bench_define_configs [DEVICE]: BENCH_TITLE[name] and BENCH_OPTS[name]
# (PGOPTIONS) of the query configurations of bench/run.sh; DEVICE (default
# gpu) is the gpuext.device of the GPU configurations (cpu: bench/compare.sh
# on a host without a GPU).  Every GPU configuration but "gpucache" runs
# with gpuext.use_cache = off.
declare -A BENCH_TITLE BENCH_OPTS
bench_define_configs() {
    local dev=${1:-gpu} nocache="-c gpuext.use_cache=off"
    local par="-c max_parallel_workers_per_gather=8 -c parallel_setup_cost=0 -c parallel_tuple_cost=0 -c min_parallel_table_scan_size=0"
    local ser="-c max_parallel_workers_per_gather=0"
    BENCH_TITLE=(
        [serial]="PG serial" [par8]="PG par8" [cpu]="gpuext CPU" [gpuhd]="GPU bk-deform"
        [gpu]="GPU copy" [gpumap]="GPU mapped" [gpupar]="GPU par8" [gpucache]="GPU cached")
    BENCH_OPTS=(
        [serial]="-c gpuext.enabled=off $ser"
        [par8]="-c gpuext.enabled=off $par"
        [cpu]="-c gpuext.force=on -c gpuext.device=cpu $ser $nocache"
        [gpuhd]="-c gpuext.force=on -c gpuext.device=$dev -c gpuext.device_deform=off $ser $nocache"
        [gpu]="-c gpuext.force=on -c gpuext.device=$dev -c gpuext.transfer=copy $ser $nocache"
        [gpumap]="-c gpuext.force=on -c gpuext.device=$dev -c gpuext.transfer=mapped $ser $nocache"
        [gpupar]="-c gpuext.force=on -c gpuext.device=$dev $par $nocache"
        [gpucache]="-c gpuext.force=on -c gpuext.device=$dev -c gpuext.use_cache=on $ser")
}

# bench_time_query DB QFILE OPTS LOG [WARM]: one query in one configuration
# (OPTS: its PGOPTIONS), as bench/run.sh times it:
#   - plan check: BQ_PLAN=gpupreagg when EXPLAIN shows a GpuPreAgg,
#     gpuscan when a GpuScan, else pg
#   - WARM=1: first one run with gpuext.jit_wait = on, so that the filter's
#     compiled kernel is ready (all GPU configurations share it)
#   - the result-check run: BQ_RES, its rows on one line
#   - BQ_MS: with BENCH_T=0 and a check run of 1 s or more, that run's time
#     (client side); else the per-statement latency (mean) of
#     pgbench -n -t BENCH_T -r (BENCH_T=0: BENCH_T_FAST, default 5); err
#     when pgbench failed.  LOG: pgbench's output.
bench_time_query() {
    local db=$1 qf=$2 opts=$3 log=$4 warm=${5:-0} t0 t1 tt ms
    local -x PGOPTIONS="$opts"
    local plan
    plan=$(gx_psql -d "$db" -Atc "EXPLAIN $(cat "$qf")" 2>/dev/null)
    if grep -q 'GpuPreAgg' <<<"$plan"; then
        BQ_PLAN=gpupreagg
    elif grep -q 'GpuScan' <<<"$plan"; then
        BQ_PLAN=gpuscan
    else
        BQ_PLAN=pg
    fi
    if [ "$warm" = 1 ]; then
        PGOPTIONS="$opts -c gpuext.jit_wait=on" gx_psql -d "$db" -At -f "$qf" >/dev/null 2>&1
    fi
    t0=$(date +%s%N)
    BQ_RES=$(gx_psql -d "$db" -At -f "$qf" 2>&1 | tr '\n' ' ' | sed 's/ *$//')
    t1=$(date +%s%N)
    ms=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e6 }')
    if [ "${BENCH_T:-5}" = 0 ] && awk -v m="$ms" 'BEGIN { exit !(m >= 1000) }'; then
        # one run, timed by the client: connecting (a few ms) is noise here
        :
    else
        # pgbench: statement latency without connection setup
        tt=${BENCH_T:-5}
        if [ "$tt" = 0 ]; then
            # BENCH_T=0: 5 runs, or BENCH_T_TINY (100) for queries of a few ms
            # (the client-timed run above includes connecting), whose mean
            # is otherwise within their noise
            tt=${BENCH_T_FAST:-5}
            awk -v m="$ms" 'BEGIN { exit !(m < 50) }' && tt=${BENCH_T_TINY:-100}
        fi
        "$PGBIN/pgbench" -n ${BENCH_PGBENCH_MODE:+-M "$BENCH_PGBENCH_MODE"} -f "$qf" -t "$tt" -r "$db" >"$log" 2>&1
        ms=$(awk '/statement latencies/ {f = 1; next} f && $1 ~ /^[0-9]+(\.[0-9]+)?$/ {print $1; exit}' "$log")
        [ -n "$ms" ] || ms=$(sed -n 's/^latency average = \([0-9.]*\) ms.*/\1/p' "$log" | head -n 1)
        [ -n "$ms" ] || { ms=err; echo "pgbench failed for $qf ($opts):"; tail -n 5 "$log"; }
    fi
    BQ_MS=$ms
}

# bench_median V...: the median of numbers (mean of the middle two for an
# even count); n/a when none
bench_median() {
    printf '%s\n' "$@" | grep -E '^[0-9]+(\.[0-9]+)?$' | sort -g |
        awk '{v[NR] = $1} END { if (NR == 0) print "n/a"; else if (NR % 2) printf "%.1f\n", v[(NR + 1) / 2]; else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# bench_ratio A B: A / B with 3 decimals, n/a unless both are positive numbers
bench_ratio() {
    awk -v a="$1" -v b="$2" 'BEGIN { if (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && a + 0 > 0 && b + 0 > 0) printf "%.3f", a / b; else print "n/a" }'
}

# bench_tpcb OUTDIR SECONDS RUNS: TPC-B overhead of preloading gpuext, on
# the own cluster of bench_cluster_init (restarted for every run): RUNS
# pairs of runs, alternating without / with gpuext in
# shared_preload_libraries (without first).  Before every run the database
# tpcb is made anew (pgbench -i -s TPCB_SCALE -q; with gpuext and
# TPCB_EXTENSION=1 also CREATE EXTENSION gpuext), VACUUM ANALYZE,
# TPCB_WARMUP seconds of warm-up, CHECKPOINT; then pgbench -c/-j
# TPCB_CLIENTS -T SECONDS -M prepared.  Logs: OUTDIR/tpcb_<k>_<mode>.log.
# Sets TPCB_TPS_WITH / TPCB_TPS_WITHOUT (the runs' tps, blank-separated),
# TPCB_MEDIAN_WITH / TPCB_MEDIAN_WITHOUT, TPCB_RATIO (with / without
# medians).  Leaves gpuext preloaded and the cluster running.  Returns 1
# when a run failed.
bench_tpcb() {
    local out=$1 secs=$2 runs=$3 k mode log tps rc=0
    local scale=${TPCB_SCALE:-10} clients=${TPCB_CLIENTS:-8} warm=${TPCB_WARMUP:-2}
    TPCB_TPS_WITH=""; TPCB_TPS_WITHOUT=""
    for ((k = 1; k <= runs; k++)); do
        for mode in without with; do
            log=$out/tpcb_${k}_$mode.log
            if [ "$mode" = with ]; then bench_set_preload on; else bench_set_preload off; fi
            gx_cluster_restart >"$log" || { cat "$log"; rc=1; break 2; }
            {
                echo "# run $k, gpuext $mode: shared_preload_libraries = '$(gx_psql -d postgres -Atc "SHOW shared_preload_libraries")'"
                gx_psql -d postgres -qc "DROP DATABASE IF EXISTS tpcb" &&
                    gx_psql -d postgres -qc "CREATE DATABASE tpcb" &&
                    "$PGBIN/pgbench" -i -q -s "$scale" tpcb 2>&1 &&
                    if [ "$mode" = with ] && [ "${TPCB_EXTENSION:-1}" = 1 ]; then
                        gx_psql -d tpcb -qc "CREATE EXTENSION gpuext"
                    fi &&
                    gx_psql -d tpcb -qc "VACUUM ANALYZE" &&
                    if [ "$warm" -gt 0 ]; then
                        "$PGBIN/pgbench" -c "$clients" -j "$clients" -T "$warm" -M prepared tpcb >/dev/null 2>&1
                    fi &&
                    gx_psql -d tpcb -qc "CHECKPOINT" &&
                    "$PGBIN/pgbench" -c "$clients" -j "$clients" -T "$secs" -M prepared tpcb 2>&1
            } >>"$log" 2>&1
            tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$log" | tail -n 1 | awk '{printf "%.1f", $1}')
            if [ -z "$tps" ]; then
                echo "TPC-B run $k ($mode gpuext) failed:"; tail -n 5 "$log"
                tps=err; rc=1
            fi
            gx_log "TPC-B run $k, $mode gpuext: $tps tps"
            if [ "$mode" = with ]; then
                TPCB_TPS_WITH="$TPCB_TPS_WITH${TPCB_TPS_WITH:+ }$tps"
            else
                TPCB_TPS_WITHOUT="$TPCB_TPS_WITHOUT${TPCB_TPS_WITHOUT:+ }$tps"
            fi
        done
    done
    bench_set_preload on
    gx_cluster_restart || rc=1
    # shellcheck disable=SC2086
    TPCB_MEDIAN_WITH=$(bench_median $TPCB_TPS_WITH)
    # shellcheck disable=SC2086
    TPCB_MEDIAN_WITHOUT=$(bench_median $TPCB_TPS_WITHOUT)
    TPCB_RATIO=$(bench_ratio "$TPCB_MEDIAN_WITH" "$TPCB_MEDIAN_WITHOUT")
    return "$rc"
}

# bench_ensure_installed: build and install gpuext from this checkout when
# BENCH_BUILD=1, or when it is not installed and BENCH_BUILD is not 0
bench_ensure_installed() {
    if [ "${BENCH_BUILD:-}" = 1 ] || { [ "${BENCH_BUILD:-}" != 0 ] && [ ! -f "$("$PG_CONFIG" --pkglibdir)/gpuext.so" ]; }; then
        gx_build && gx_install || { echo "ERROR: build/install failed"; return 1; }
    fi
}
