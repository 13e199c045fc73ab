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

# bench_create_db DB FILE: the database DB (made when missing) with the
# extension gpuext (created, or updated to the installed version); prints
# gpuext_devices() and writes it to FILE.  Returns 1 when the extension
# cannot be created.
bench_create_db() {
    gx_psql -d postgres -qc "CREATE DATABASE $1" 2>/dev/null
    gx_psql -d "$1" -qc "CREATE EXTENSION IF NOT EXISTS gpuext" || { echo "ERROR: CREATE EXTENSION gpuext failed"; return 1; }
    gx_psql -d "$1" -qc "ALTER EXTENSION gpuext UPDATE" >/dev/null 2>&1
    gx_psql -d "$1" -c "SELECT * FROM gpuext_devices()" | tee "$2"
}

# bench_ensure_installed: build and install gpuext from this checkout when
# BENCH_BUILD=1, or when it is not installed and BENCH_BUILD is not 0
bench_ensure_installed() {
    if [ "${BENCH_BUILD:-}" = 1 ] || { [ "${BENCH_BUILD:-}" != 0 ] && [ ! -f "$("$PG_CONFIG" --pkglibdir)/gpuext.so" ]; }; then
        gx_build && gx_install || { echo "ERROR: build/install failed"; return 1; }
    fi
}

# ------------------------------------------------------------------
# Query configurations, run and checked as bench/groupby.sh and
# bench/join.sh do.  The caller sets DB, OUT, RUNS, LONG_S, BUDGET_S,
# BENCH_T0 (SECONDS at its start), BENCH_NAME (the prefix of its log
# files: groupby, join), BENCH_BUDGET_VAR (its budget's variable, named in
# messages), RUN_ORDER (the configurations in the order they run),
# BENCH_TITLE / BENCH_OPTS (bench_define_configs), DUCKDB_TITLE, and
# defines cfg_enabled NAME (true: it runs), cfg_why NAME (why not) and the
# function named by BENCH_PLAN_FN (OPTS Q: the plan column); it declares
# the associative arrays MS RUNSN ALLMS RES PLAN CHECK REF REF_CFG (keys
# "Q,NAME"; REF and REF_CFG by Q) and sets FAILED=0.  Optional:
# BENCH_RUN_TIMEOUT_S (a statement_timeout for every run: a run past it is
# cancelled, "cancelled (> N s)"), BENCH_RESULT_FN (a function Q NAME,
# run after a configuration's timed runs: it may extend T_RES, e.g. with a
# checksum that a separate query computes).
#
#   bench_budget_ok [SECONDS]          SECONDS more still within BUDGET_S
#   bench_opts NAME                    PGOPTIONS of a configuration
#   bench_time_runs Q NAME QFILE       T_MS, T_RUNS, T_ALL, T_RES, T_STABLE
#   bench_run_query Q QFILE            every configuration of RUN_ORDER
#   bench_check_duckdb Q REF           CHECK[Q,duckdb] against REF
#   bench_fastest Q NAME...            the fastest configuration of NAMEs
#   bench_cache_load LOG DEVICE TABLE...   gpuext_cache_load, CACHE_*
#   bench_duckdb_results LOG Q...      MS/RES of DuckDB from its log
#   bench_md_query_table Q NAME...     a query's markdown table
#   bench_md_all_table "Q..." NAME...  ms of every query and configuration
#   bench_facts_cfgs Q NAME...         the "cfg" facts of the JSON

# bench_budget_ok [SECONDS]: true when BUDGET_S is 0, or when SECONDS more
# (default 0) still end within it
bench_budget_ok() {
    [ "$BUDGET_S" = 0 ] || [ $(( SECONDS - BENCH_T0 + ${1:-0} )) -lt "$BUDGET_S" ]
}

# bench_opts NAME: PGOPTIONS of configuration NAME; with a budget also a
# statement_timeout of what is left of it (at least 1 s), so that no run
# overshoots it, or BENCH_RUN_TIMEOUT_S where that is less
bench_opts() {
    local left=0 run=${BENCH_RUN_TIMEOUT_S:-0}
    if [ "$BUDGET_S" != 0 ]; then
        left=$(( BUDGET_S - (SECONDS - BENCH_T0) ))
        [ "$left" -lt 1 ] && left=1
    fi
    if [ "$run" != 0 ] && { [ "$left" = 0 ] || [ "$run" -lt "$left" ]; }; then left=$run; fi
    if [ "$left" = 0 ]; then
        echo "${BENCH_OPTS[$1]}"
    else
        echo "${BENCH_OPTS[$1]} -c statement_timeout=${left}s"
    fi
}

# bench_time_runs Q NAME QFILE: runs QFILE under configuration NAME up to
# RUNS times (one psql session each, \timing: the last "Time:" line);
# sets T_MS (the best; err on an error, timeout when the first run was
# cancelled by the statement_timeout of bench_opts: T_WHY says which),
# T_RUNS, T_ALL (every run's ms), T_RES (the first run's output but the
# timing), T_STABLE (0 when a later run's result differed); the runs'
# output goes to $OUT/<BENCH_NAME>_<Q>_<NAME>.log.  A run of LONG_S
# seconds or more is not repeated, nor one that would end past BUDGET_S.
bench_time_runs() {
    local q=$1 name=$2 qf=$3 log=$OUT/${BENCH_NAME}_$1_$2.log r out rc ms="" res why
    T_MS=err; T_RUNS=0; T_ALL=""; T_RES=""; T_STABLE=1; T_WHY=""
    : >"$log"
    for ((r = 1; r <= RUNS; r++)); do
        if [ "$r" -gt 1 ]; then
            awk -v m="$ms" -v l="$LONG_S" 'BEGIN { exit !(m >= l * 1000) }' && break
            bench_budget_ok "$(awk -v m="$ms" 'BEGIN { printf "%d", m / 1000 + 1 }')" || break
        fi
        # which limit a cancelled run met
        why="end of $BENCH_BUDGET_VAR"
        if [ "${BENCH_RUN_TIMEOUT_S:-0}" != 0 ] &&
            { [ "$BUDGET_S" = 0 ] || [ "$BENCH_RUN_TIMEOUT_S" -lt $(( BUDGET_S - (SECONDS - BENCH_T0) )) ]; }; then
            why="> $BENCH_RUN_TIMEOUT_S s"
        fi
        out=$({ printf '%s\n' '\timing on'; cat "$qf"; } | PGOPTIONS="$(bench_opts "$name")" gx_psql -q -At -d "$DB" -f - 2>&1)
        rc=$?
        printf '# run %d (exit %d)\n%s\n' "$r" "$rc" "$out" >>"$log"
        ms=$(printf '%s\n' "$out" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -n 1)
        res=$(printf '%s\n' "$out" | grep -v '^Time: ' | tr '\n' ' ' | sed 's/ *$//')
        if [ "$rc" != 0 ] && printf '%s' "$out" | grep -q 'statement timeout'; then
            # cancelled: the runs before count
            echo "   ${BENCH_TITLE[$name]}: run $r cancelled ($why)"
            [ "$r" = 1 ] && { T_MS=timeout; T_WHY=$why; return 1; }
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

# bench_fail Q NAME WHAT: a loud FAIL line; FAILED=1
bench_fail() {
    FAILED=1
    echo "!!!!!!!! FAIL $1: ${BENCH_TITLE[$2]} $3 !!!!!!!!"
}

# bench_run_query Q QFILE: query Q (QFILE: what psql runs) under every
# configuration of RUN_ORDER that cfg_enabled allows and the budget leaves
# time for: the plan column (BENCH_PLAN_FN), for the first GPU
# configuration one untimed run with gpuext.jit_wait = on (the compiled
# kernel ready), bench_time_runs, BENCH_RESULT_FN; the first result is the
# reference (REF: PG serial's when RUN_ORDER starts with serial), every
# other must equal it, and a configuration's runs one another (else FAIL).
# BENCH_KEEP_REF=1: a later call for the same Q (other configurations in
# RUN_ORDER: bench/tpch_join.sh's second pass) checks against the REF of
# the earlier one, when it has one
bench_run_query() {
    local q=$1 qf=$2 name warmed=0
    [ "${BENCH_KEEP_REF:-0}" = 1 ] || REF[$q]=""
    for name in "${RUN_ORDER[@]}"; do
        MS[$q,$name]=n/a; RUNSN[$q,$name]=0; ALLMS[$q,$name]=""; RES[$q,$name]=n/a; PLAN[$q,$name]=n/a
        if ! cfg_enabled "$name"; then
            CHECK[$q,$name]=$(cfg_why "$name")
            continue
        fi
        if ! bench_budget_ok; then
            CHECK[$q,$name]="skipped (budget)"
            printf '   %-18s skipped (%s=%s)\n' "${BENCH_TITLE[$name]}" "$BENCH_BUDGET_VAR" "$BUDGET_S"
            continue
        fi
        PLAN[$q,$name]=$("$BENCH_PLAN_FN" "$(bench_opts "$name")" "$q")
        case "$name" in
            gpu*) if [ "$warmed" = 0 ]; then
                      warmed=1
                      PGOPTIONS="$(bench_opts "$name") -c gpuext.jit_wait=on" gx_psql -d "$DB" -At -f "$qf" >/dev/null 2>&1
                  fi ;;
        esac
        bench_time_runs "$q" "$name" "$qf"
        if [ -n "${BENCH_RESULT_FN:-}" ] && [ "$T_MS" != timeout ] && [ "$T_MS" != err ]; then
            "$BENCH_RESULT_FN" "$q" "$name"
        fi
        MS[$q,$name]=$T_MS; RUNSN[$q,$name]=$T_RUNS; ALLMS[$q,$name]=$T_ALL; RES[$q,$name]=$T_RES
        if [ "$T_MS" = timeout ]; then
            MS[$q,$name]=n/a; RES[$q,$name]=n/a; CHECK[$q,$name]="cancelled ($T_WHY)"
            continue
        elif [ "$T_MS" = err ]; then
            CHECK[$q,$name]=FAIL
            bench_fail "$q" "$name" "failed: $(printf '%s' "$T_RES" | tail -c 300)"
        elif [ -z "${REF[$q]}" ]; then
            REF[$q]=$T_RES; REF_CFG[$q]=$name; CHECK[$q,$name]=ref
        elif [ "$T_RES" = "${REF[$q]}" ]; then
            CHECK[$q,$name]=ok
        else
            CHECK[$q,$name]=FAIL
            bench_fail "$q" "$name" "returned '$T_RES', ${BENCH_TITLE[${REF_CFG[$q]}]} '${REF[$q]}'"
        fi
        if [ "$T_STABLE" = 0 ]; then
            CHECK[$q,$name]=FAIL
            bench_fail "$q" "$name" "returned different results in its runs (see $OUT/${BENCH_NAME}_${q}_$name.log)"
        fi
        printf '   %-18s %10s ms  (best of %s: %s)  plan=%s  %s\n' "${BENCH_TITLE[$name]}" "${MS[$q,$name]}" \
            "$T_RUNS" "$T_ALL" "${PLAN[$q,$name]}" "${CHECK[$q,$name]}"
    done
}

# bench_same_approx A B: 0 when two results have the same fields, equal but
# for numbers within 1e-9 relative (DuckDB's sum of double avg() values)
bench_same_approx() {
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

# bench_check_duckdb Q REF: CHECK[Q,duckdb] from DuckDB's result against
# REF (what PostgreSQL's result says in DuckDB's form): ok, approx
# (bench_same_approx), FAIL, or DUCKDB_NOTE when DuckDB did not run
bench_check_duckdb() {
    local q=$1 ref=$2
    CHECK[$q,duckdb]=n/a
    if [ "${RES[$q,duckdb]}" != n/a ]; then
        if [ "${MS[$q,duckdb]}" = err ] || [ "${RES[$q,duckdb]}" = err ]; then
            CHECK[$q,duckdb]=FAIL
            BENCH_TITLE[duckdb]=$DUCKDB_TITLE
            bench_fail "$q" duckdb "failed (see $OUT/${BENCH_NAME}_duckdb.log)"
        elif [ -z "$ref" ]; then
            CHECK[$q,duckdb]="unchecked (no PostgreSQL result to check against)"
        elif [ "${RES[$q,duckdb]}" = "$ref" ]; then
            CHECK[$q,duckdb]=ok
        elif bench_same_approx "${RES[$q,duckdb]}" "$ref"; then
            CHECK[$q,duckdb]=approx
        else
            CHECK[$q,duckdb]=FAIL
            BENCH_TITLE[duckdb]=$DUCKDB_TITLE
            bench_fail "$q" duckdb "returned '${RES[$q,duckdb]}', PG '$ref'"
        fi
        printf '   %-18s %10s ms  (best of %s)  %s\n' "$DUCKDB_TITLE" "${MS[$q,duckdb]}" "$RUNS" "${CHECK[$q,duckdb]}"
    elif [ -n "$DUCKDB_NOTE" ]; then
        CHECK[$q,duckdb]=$DUCKDB_NOTE
    fi
}

# bench_is_num V / bench_lt A B / bench_xratio A B (A / B, 2 decimals and
# an x, or n/a)
bench_is_num() { [[ $1 =~ ^[0-9]+(\.[0-9]+)?$ ]]; }
bench_lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 < b + 0) }'; }
bench_xratio() {
    awk -v a="$1" -v b="$2" 'BEGIN { if (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && a + 0 > 0 && b + 0 > 0) printf "%.2fx", a / b; else print "n/a" }'
}

# bench_fastest Q NAME...: the configuration of NAMEs with the lowest ms
# (none: empty)
bench_fastest() {
    local q=$1 best="" name
    shift
    for name in "$@"; do
        bench_is_num "${MS[$q,$name]:-}" || continue
        if [ -z "$best" ] || bench_lt "${MS[$q,$name]}" "${MS[$q,$best]}"; then best=$name; fi
    done
    echo "$best"
}

# bench_tables_prewarm DB TABLE...: SIZES ("t 12 MB, u 3 MB"), then each
# table read into shared buffers (pg_prewarm, when it can be created)
bench_tables_prewarm() {
    local db=$1 t
    shift
    SIZES=$(for t in "$@"; do gx_psql -d "$db" -Atc "SELECT '$t ' || pg_size_pretty(pg_table_size('$t'))"; done | paste -sd, - | sed 's/,/, /g')
    gx_psql -d "$db" -qc "CREATE EXTENSION IF NOT EXISTS pg_prewarm" >/dev/null 2>&1 &&
        for t in "$@"; do gx_psql -d "$db" -Atc "SELECT pg_prewarm('$t')" >/dev/null 2>&1; done
    return 0
}

# bench_cache_load LOG DEVICE TABLE...: SELECT gpuext_cache_load(TABLE) for
# each (gpuext.device DEVICE, and the settings of BENCH_CACHE_OPTS, e.g.
# "-c gpuext.devices=gpu0,gpu1": a load puts its entries on the session's
# devices); sets CACHE_LOAD_MS (all of them) and CACHE_ROWS (the rows
# cached, summed; compared with BENCH_CACHE_WANT, the rows of the tables,
# counted here when it is unset).  Pages not all-visible are not
# cached (their rows would be read from the heap by every "cached" run):
# when fewer rows than the tables hold were cached, VACUUM (FREEZE) them
# once more, now that nothing else runs, and load again.  A failure is
# logged; the configuration still runs.
bench_cache_load() {
    local log=$1 dev=$2 want
    shift 2
    CACHE_LOAD_MS=n/a; CACHE_ROWS=n/a
    want=${BENCH_CACHE_WANT:-$(gx_psql -d "$DB" -Atc "SELECT $(printf '(SELECT count(*) FROM %s) + ' "$@") 0")}
    _bench_cache_load "$log" "$dev" "$@" || return 1
    if [ "${CACHE_ROWS:-0}" -lt "$want" ]; then
        gx_log "cache load: ${CACHE_ROWS:-?} of $want rows; VACUUM $* and load again"
        gx_psql -d "$DB" -qc "VACUUM (FREEZE) $(printf '%s, ' "$@" | sed 's/, $//')" >>"$log" 2>&1
        _bench_cache_load "$log" "$dev" "$@" || return 1
    fi
    if [ "${CACHE_ROWS:-0}" -lt "$want" ]; then
        gx_warn "the column cache holds ${CACHE_ROWS:-?} of the $want rows of $*: $(grep -v -E '^[0-9]+$' "$log" | tr '\n' ' ')"
    fi
    gx_psql -d "$DB" -c "SELECT * FROM gpuext_cache" | tee -a "$log"
}
_bench_cache_load() {
    local log=$1 dev=$2 t0 tbl n
    shift 2
    t0=$(date +%s%N)
    CACHE_ROWS=0
    for tbl in "$@"; do
        n=$(PGOPTIONS="-c gpuext.device=$dev ${BENCH_CACHE_OPTS:-}" gx_psql -d "$DB" -Atc "SELECT gpuext_cache_load('$tbl')" 2>>"$log" | tee -a "$log" | grep -E '^[0-9]+$' | tail -n 1)
        if [ -z "$n" ]; then
            gx_log "cache load of $tbl failed: $(tail -n 3 "$log")"
            CACHE_LOAD_MS=n/a; CACHE_ROWS=n/a
            return 1
        fi
        CACHE_ROWS=$((CACHE_ROWS + n))
    done
    CACHE_LOAD_MS=$(( ($(date +%s%N) - t0) / 1000000 ))
    gx_log "cache load: $CACHE_ROWS rows of $* in $CACHE_LOAD_MS ms"
}

# bench_duckdb_results LOG Q...: MS, RES, RUNSN, PLAN of configuration
# duckdb for each Q from gx_duckdb_bench's LOG; DUCKDB_VERSION; DUCKDB_ROWS:
# the result of its last --exec (the rows loaded)
bench_duckdb_results() {
    local log=$1 q ms r
    shift
    DUCKDB_VERSION=$(gxd_field "$log" version)
    DUCKDB_ROWS=$(sed -n 's/^exec=[0-9]* result=//p' "$log" | tail -n 1)
    for q in "$@"; do
        ms=$(sed -n "s/^query=$q .* min_ms=\([^ ]*\) .*/\1/p" "$log" | head -n 1)
        r=$(gxd_query_result "$log" "$q") || r=err
        MS[$q,duckdb]=${ms:-err}; RES[$q,duckdb]=$r; RUNSN[$q,duckdb]=$RUNS; PLAN[$q,duckdb]=duckdb
    done
}

# bench_md_query_table Q NAME...: a query's table (configuration, ms,
# runs, vs PG serial, vs DuckDB, plan, check)
bench_md_query_table() {
    local q=$1 name
    shift
    echo "| configuration | ms | runs | vs PG serial | vs DuckDB | plan | check |"
    echo "|---|---:|---:|---:|---:|---|---|"
    for name in "$@"; do
        echo "| ${BENCH_TITLE[$name]} | ${MS[$q,$name]} | ${RUNSN[$q,$name]} | $(bench_xratio "${MS[$q,serial]}" "${MS[$q,$name]}") | $(bench_xratio "${MS[$q,duckdb]}" "${MS[$q,$name]}") | ${PLAN[$q,$name]} | ${CHECK[$q,$name]} |"
    done
}

# bench_md_all_table "Q..." NAME...: ms of every query (columns) and
# configuration (rows), FAIL marked
bench_md_all_table() {
    local qs q name hdr="| configuration" sep="|---" row c
    read -r -a qs <<<"$1"
    shift
    for q in "${qs[@]}"; do hdr="$hdr | $q"; sep="$sep|---:"; done
    echo "$hdr |"; echo "$sep|"
    for name in "$@"; do
        row="| ${BENCH_TITLE[$name]}"
        for q in "${qs[@]}"; do
            c=${MS[$q,$name]}
            [ "${CHECK[$q,$name]:-}" = FAIL ] && c="$c FAIL"
            row="$row | $c"
        done
        echo "$row |"
    done
}

# bench_fact FIELD...: one tab-separated line of the facts the JSON is
# written from; bench_oneline TEXT: TEXT on one line
bench_fact() { local IFS=$'\t'; printf '%s\n' "$*" | tr -d '\r'; }

# bench_gen_jobs JOBS ROWS: the sessions a generator runs at once: JOBS, or
# the cores (at most 16) when empty; 1 for fewer than 200000 rows
bench_gen_jobs() {
    local jobs=$1 rows=$2
    if [ -z "$jobs" ]; then
        jobs=$(nproc 2>/dev/null || echo 2)
        [ "$jobs" -gt 16 ] && jobs=16
    fi
    [ "$rows" -lt 200000 ] && jobs=1
    [ "$jobs" -lt 1 ] && jobs=1
    echo "$jobs"
}

# bench_md_tail: a report's end: every query's figures in one table
# (QUERIES, ALL_CFGS) and whether all results checked (FAILED)
bench_md_tail() {
    echo
    echo "## All queries (ms)"
    echo
    bench_md_all_table "${QUERIES[*]}" "${ALL_CFGS[@]}"
    echo
    if [ "$FAILED" = 1 ]; then echo "**FAIL: see the check columns**"; else echo "all results checked: ok"; fi
}

# bench_report_facts DB: what a report's header names (GPU_NAME, CPU_NAME,
# PGVER) and its configurations with DuckDB's (ALL_CFGS, BENCH_TITLE[duckdb])
bench_report_facts() {
    GPU_NAME=$(gx_psql -d "$1" -At -c "SELECT string_agg(name, '; ') FROM gpuext_devices() WHERE kind ILIKE '%gpu%' OR kind ILIKE '%cuda%'" 2>/dev/null)
    CPU_NAME=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
    PGVER=$("$PG_CONFIG" --version)
    ALL_CFGS=("${CFG_NAMES[@]}" duckdb)
    BENCH_TITLE[duckdb]=$DUCKDB_TITLE
}

# bench_meta_facts SECONDS: the meta facts every report's JSON has (the
# run's settings, machine and cache load: BUDGET_S, WORK_MEM, GPU_DEV,
# bench_report_facts', CACHE_LOAD_MS, CACHE_ROWS, FAILED)
bench_meta_facts() {
    bench_fact meta budget_s "$BUDGET_S"
    bench_fact meta seconds "$1"
    bench_fact meta work_mem "$WORK_MEM"
    bench_fact meta gpu_device "$GPU_DEV"
    bench_fact meta postgres "$(bench_oneline "$PGVER")"
    bench_fact meta cpu "$(bench_oneline "${CPU_NAME:-}")"
    bench_fact meta cores "$(gx_nproc)"
    bench_fact meta gpu "$(bench_oneline "${GPU_NAME:-}")"
    bench_fact meta cache_load_ms "$CACHE_LOAD_MS"
    bench_fact meta cache_rows "$CACHE_ROWS"
    bench_fact meta failed "$FAILED"
}
bench_oneline() { printf '%s' "$1" | tr '\n\t' '  '; }

# bench_facts_cfgs Q NAME...: the cfg facts of a query's configurations
bench_facts_cfgs() {
    local q=$1 name
    shift
    for name in "$@"; do
        bench_fact cfg "$q" "$name" ms "${MS[$q,$name]}"
        bench_fact cfg "$q" "$name" runs "${RUNSN[$q,$name]}"
        bench_fact cfg "$q" "$name" all_ms "${ALLMS[$q,$name]}"
        bench_fact cfg "$q" "$name" plan "${PLAN[$q,$name]}"
        bench_fact cfg "$q" "$name" check "$(bench_oneline "${CHECK[$q,$name]}")"
        bench_fact cfg "$q" "$name" result "$(bench_oneline "${RES[$q,$name]}")"
    done
}

# bench_report_configs DEVICE WORK_MEM SKIP_VAR [GPUEXT_OPTS]: the
# configurations of bench/groupby.sh and bench/join.sh: bench_define_configs
# DEVICE ("GPU cold" for gpu; a DEVICE other than gpu named in the GPU
# ones' titles), CFG_NAMES (serial par8 cpu gpu gpupar gpucache),
# RUN_ORDER (PG serial, the reference, first, then the GPU ones, so that a
# budget leaves out the others first), GPUEXT_CFGS; every configuration
# with work_mem = WORK_MEM, the gpuext ones also with GPUEXT_OPTS.
# cfg_enabled / cfg_why then say which run: not those in the variable
# named SKIP_VAR (GROUPBY_SKIP), the GPU ones with a GPU (NGPU > 0) or
# with DEVICE other than gpu.
bench_report_configs() {
    local dev=$1 wm=$2 extra=${4:-} name
    BENCH_SKIP_VAR=$3; BENCH_GPU_DEV=$dev
    bench_define_configs "$dev"
    BENCH_TITLE[gpu]="GPU cold"
    if [ "$dev" != gpu ]; then
        for name in gpu gpupar gpucache; do BENCH_TITLE[$name]="${BENCH_TITLE[$name]} [$dev]"; done
    fi
    CFG_NAMES=(serial par8 cpu gpu gpupar gpucache)
    RUN_ORDER=(serial gpucache gpu gpupar par8 cpu)
    GPUEXT_CFGS=(cpu gpu gpupar gpucache)
    for name in "${CFG_NAMES[@]}"; do
        BENCH_OPTS[$name]="${BENCH_OPTS[$name]} -c work_mem=$wm"
    done
    for name in "${GPUEXT_CFGS[@]}"; do
        BENCH_OPTS[$name]="${BENCH_OPTS[$name]}${extra:+ $extra}"
    done
}
cfg_enabled() {
    case " ${!BENCH_SKIP_VAR:-} " in *" $1 "*) return 1 ;; esac
    case "$1" in
        gpu|gpupar|gpucache) [ "$NGPU" -gt 0 ] || [ "$BENCH_GPU_DEV" != gpu ] ;;
        *) true ;;
    esac
}
cfg_why() {
    case " ${!BENCH_SKIP_VAR:-} " in *" $1 "*) echo "skipped ($BENCH_SKIP_VAR)"; return ;; esac
    echo "skipped (no GPU)"
}

# bench_duckdb_run FUNC LOG Q...: DUCKDB_TITLE (DuckDB with DUCKDB_THREADS,
# at most the cores), MS/RES/... of configuration duckdb n/a for each Q,
# then, unless bench/duckdb/lib.sh is missing, BENCH_DUCKDB=0, the
# configuration is skipped (cfg_enabled duckdb), no library is at hand or
# the budget has not BENCH_DUCKDB_EST_S (default 0) seconds left, FUNC LOG (gxd_copy_and_run of the caller's tables
# and queries) and bench_duckdb_results; DUCKDB_NOTE says why not (empty
# when it ran)
bench_duckdb_run() {
    local fn=$1 log=$2 q
    shift 2
    [ "$DUCKDB_THREADS" -gt "$(gx_nproc)" ] && DUCKDB_THREADS=$(gx_nproc)
    DUCKDB_TITLE="DuckDB ${DUCKDB_THREADS}t"
    DUCKDB_VERSION=n/a; DUCKDB_EXPORT_S=n/a; DUCKDB_RUN_S=n/a; DUCKDB_NOTE="not run"; DUCKDB_ROWS=n/a
    for q in "$@"; do
        MS[$q,duckdb]=n/a; RUNSN[$q,duckdb]=0; ALLMS[$q,duckdb]=""; RES[$q,duckdb]=n/a; PLAN[$q,duckdb]=n/a
    done
    # shellcheck source=bench/duckdb/lib.sh
    if ! . "$(dirname "${BASH_SOURCE[0]}")/duckdb/lib.sh"; then
        DUCKDB_NOTE="bench/duckdb/lib.sh missing"
    elif [ "${BENCH_DUCKDB:-}" = 0 ] || ! cfg_enabled duckdb; then
        DUCKDB_NOTE="skipped (BENCH_DUCKDB=0 / $BENCH_SKIP_VAR)"
    elif [ "${BENCH_DUCKDB:-}" != 1 ] && ! gxd_available; then
        DUCKDB_NOTE="no .carry/libduckdb.so.xz (bench/duckdb/fetch.sh)"
    elif ! bench_budget_ok "${BENCH_DUCKDB_EST_S:-0}"; then
        DUCKDB_NOTE="skipped ($BENCH_BUDGET_VAR)"
    else
        gx_log "$DUCKDB_TITLE: export, load, run $*"
        if "$fn" "$log"; then
            DUCKDB_NOTE=""
            bench_duckdb_results "$log" "$@"
        else
            DUCKDB_NOTE="failed (see the duckdb: lines above)"
        fi
        rm -rf "$GXD_TMP"; GXD_TMP=""
    fi
    [ -n "$DUCKDB_NOTE" ] && gx_log "$DUCKDB_TITLE: n/a, $DUCKDB_NOTE"
    return 0
}

# bench_report_end FACTS NAME MD SECONDS REF: the end of bench/groupby.sh,
# join.sh, tpch_join.sh and multigpu.sh: $OUT/NAME.json from FACTS
# (bench/groupby/groupby_json.py), MD printed, then exit: 2 when FAILED
# (results differ from REF's, e.g. "PG serial"), else 0
bench_report_end() {
    local facts=$1 json=$OUT/$2.json md=$3
    if command -v python3 >/dev/null 2>&1; then
        python3 "$(dirname "${BASH_SOURCE[0]}")/groupby/groupby_json.py" "$facts" "$json" || gx_warn "$2.json not written"
    else
        gx_warn "no python3: $2.json not written (the facts are in $facts)"
    fi
    echo
    cat "$md"
    echo
    gx_log "wrote $md, $json and logs in $OUT ($4 s)"
    if [ "$FAILED" = 1 ]; then
        echo "!!!!!!!! FAIL: results differ from $5's or runs failed (see above) !!!!!!!!"
        exit 2
    fi
    exit 0
}
