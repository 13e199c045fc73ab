#!/usr/bin/env bash
# bench/tpch.sh - TPC-H Q1 and Q6 on generated TPC-H-style data: the
# baseline for GROUP BY aggregation on the device.
#
#   TPCH_SF=0.1 bench/tpch.sh                  # own throwaway cluster
#   TPCH_SF=10 bench/tpch.sh                   # GPU host: 60M lineitems
#   BENCH_START=0 PGHOST=... PGPORT=... bench/tpch.sh   # a running server
#
# Starts a cluster with gpuext preloaded (bench/lib.sh, as bench/run.sh),
# generates the TPC-H tables at TPCH_SF (bench/tpch/gen.sh: generated in
# PostgreSQL by parallel sessions, VACUUM ANALYZE; the queries here read
# lineitem, bench/tpch_join.sh's the others too), prewarms lineitem, and
# times bench/tpch/q1.sql and q6.sql (the standard texts: Q1 with delta 90
# days, Q6 for 1994, discount 0.06 +- 0.01, quantity < 24) with
# bench/lib.sh bench_time_query (result-check run, then pgbench -n -t
# TPCH_T -r: the mean statement latency) under
#   serial    PG serial     gpuext.enabled=off, no parallel workers
#   par8      PG par8       gpuext.enabled=off, 8 workers per gather
#   cpu       gpuext CPU    gpuext.force=on, gpuext.device=cpu
#   gpu       GPU cold      GPU, transfer = copy, no column cache
#   gpupar    GPU par8      GPU with 8 parallel workers, no column cache
#   gpucache  GPU cached    GPU after gpuext_cache_load('lineitem')
#   duckdb    DuckDB Nt     DuckDB (bench/duckdb/, when .carry/libduckdb.so.xz
#                           exists) on an in-memory copy of the 7 columns of
#                           lineitem the queries read (bench/tpch/duckdb/:
#                           the queries with constant dates)
# (the GPU configurations only when gpuext_devices() lists a GPU; the
# configurations' settings are bench/lib.sh bench_define_configs').
# Q1 and Q6 run as GpuPreAgg in the gpuext configurations (the plan column
# says which gpuext node EXPLAIN shows).
#
# Every configuration's result text must equal PG serial's exactly
# (numerics included); DuckDB's avg() is a double, so its numbers may also
# differ in the last digits (relative 1e-12: "approx").  Prints a table of
# ms and speedups against PG serial, EXPLAIN (ANALYZE, VERBOSE, BUFFERS) of
# Q1 under the fastest gpuext configuration with the scan's share of the
# time, and writes tpch.md, tpch.json (bench/tpch/tpch_json.py) and logs
# into $OUT.  Exit status 2 on a result mismatch.
#
# Environment:
#   TPCH_SF       scale factor (default 1; 0.1 for a quick run; 10 or more on
#                 the GPU host)
#   TPCH_JOBS     parallel loading sessions (bench/tpch/gen.sh)
#   TPCH_T        pgbench transactions per query and configuration (default
#                 3; SF >= 10: 0); 0: the result-check run is the figure when
#                 it took 1 s or more (bench/lib.sh, BENCH_T=0)
#   TPCH_SKIP     configurations to leave out, e.g. "par8 duckdb"
#   OUT           output dir (default /tmp/out)
#   BENCH_START   1: own throwaway cluster (default when PGPORT is unset)
#   BENCH_BUILD   1: build and install first (default: when not installed)
#   BENCH_PORT    port of the own cluster (default 54332)
#   BENCH_DB      database (default tpch)
#   BENCH_DUCKDB  1: run DuckDB, 0: not (default: when .carry/libduckdb.so.xz
#                 exists); BENCH_DUCKDB_THREADS (default 16, at most the
#                 cores); BENCH_DUCKDB_TMP: where the CSV export goes
#                 (default $OUT; removed afterwards)
#   PG_CONFIG     as in test/run.sh

set -u -o pipefail
exec 2>&1

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=test/lib.sh
. "$HERE/../test/lib.sh"
# shellcheck source=bench/lib.sh
. "$HERE/lib.sh"
# shellcheck source=bench/tpch/gen.sh
. "$HERE/tpch/gen.sh"

TPCH_SF=${TPCH_SF:-1}
export TPCH_SF
OUT=${OUT:-/tmp/out}
DB=${BENCH_DB:-tpch}
QDIR=$HERE/tpch
QUERIES=(q1 q6)
if [ -z "${BENCH_START:-}" ]; then
    if [ -n "${PGPORT:-}" ]; then BENCH_START=0; else BENCH_START=1; fi
fi
# about SF x 6M lineitems; at SF >= 10 one run of PG serial takes minutes
LI_ROWS=$(awk -v s="$TPCH_SF" 'BEGIN { printf "%d", s * 6000000 }')
if [ -z "${TPCH_T:-}" ]; then
    if [ "$LI_ROWS" -ge 60000000 ]; then TPCH_T=0; else TPCH_T=3; fi
fi
export BENCH_T=$TPCH_T
mkdir -p "$OUT" || exit 1

gx_find_pg_config || exit 1

bench_on_exit

# ------------------------------------------------------------------ setup
bench_ensure_installed || exit 1
if [ "$BENCH_START" = 1 ]; then
    gx_setup_user || exit 1
    # bench/lib.sh sizes shared_buffers at 100 bytes a row (>= 1 GB, at most
    # half the memory): a lineitem row takes about 150 bytes, so ask for
    # twice the rows (also the column cache: 48 bytes a "row", >= 1 GB)
    bench_cluster_init "${BENCH_PORT:-54332}" $((LI_ROWS * 2)) || exit 1
    gx_cluster_start || exit 1
fi
gx_psql -d postgres -qc "CREATE DATABASE $DB" 2>/dev/null
gx_psql -d "$DB" -qc "CREATE EXTENSION IF NOT EXISTS gpuext" || { echo "ERROR: CREATE EXTENSION gpuext failed"; exit 1; }
gx_psql -d "$DB" -c "SELECT * FROM gpuext_devices()" | tee "$OUT/tpch_devices.txt"
NGPU=$(gx_has_gpu "$DB")
gx_log "GPUs listed by gpuext_devices(): $NGPU"

TPCH_LOAD_S=n/a
tpch_gen "$DB" || exit 1
LI_COUNT=$(gx_psql -d "$DB" -Atc "SELECT count(*) FROM lineitem")
LI_SIZE=$(gx_psql -d "$DB" -Atc "SELECT pg_size_pretty(pg_table_size('lineitem'))")
gx_psql -d "$DB" -qc "CREATE EXTENSION IF NOT EXISTS pg_prewarm" >/dev/null 2>&1 &&
    gx_psql -d "$DB" -Atc "SELECT pg_prewarm('lineitem')" >/dev/null 2>&1

# ------------------------------------------------------------------ configs
bench_define_configs gpu
BENCH_TITLE[gpu]="GPU cold"
CFG_NAMES=(serial par8 cpu gpu gpupar gpucache)
cfg_enabled() {
    case " ${TPCH_SKIP:-} " in *" $1 "*) return 1 ;; esac
    case "$1" in
        gpu|gpupar|gpucache) [ "$NGPU" -gt 0 ] ;;
        *) true ;;
    esac
}

# GPU cached: lineitem into the device's column cache (what it can hold of
# it; a failure is reported and the configuration still runs)
CACHE_LOAD_MS=n/a
if cfg_enabled gpucache; then
    t0=$(date +%s%N)
    if PGOPTIONS="-c gpuext.device=gpu" gx_psql -d "$DB" -Atc "SELECT gpuext_cache_load('lineitem')" >"$OUT/tpch_cache_load.txt" 2>&1; then
        CACHE_LOAD_MS=$(( ($(date +%s%N) - t0) / 1000000 ))
        gx_log "cache load: $(tr '\n' ' ' <"$OUT/tpch_cache_load.txt") rows in $CACHE_LOAD_MS ms"
        gx_psql -d "$DB" -c "SELECT * FROM gpuext_cache" | tee -a "$OUT/tpch_cache_load.txt"
    else
        gx_log "cache load failed: $(tail -n 3 "$OUT/tpch_cache_load.txt")"
    fi
fi

# ------------------------------------------------------------------ DuckDB
# bench/duckdb/lib.sh: build gx_duckdb_bench, export the columns the two
# queries read with gxd_export (GXD_TABLE/GXD_COLUMNS), load them with
# --exec statements (the program's own --csv-glob load is tablet's), run
# bench/tpch/duckdb/q*.sql (one warm-up run, whose result is compared, then
# the timed runs)
DUCKDB_THREADS=${BENCH_DUCKDB_THREADS:-16}
[ "$DUCKDB_THREADS" -gt "$(gx_nproc)" ] && DUCKDB_THREADS=$(gx_nproc)
DUCKDB_TITLE="DuckDB ${DUCKDB_THREADS}t"
DUCKDB_VERSION=n/a; DUCKDB_EXPORT_S=n/a; DUCKDB_NOTE="not run"
declare -A MS RES PLAN
for q in "${QUERIES[@]}"; do MS[$q,duckdb]=n/a; RES[$q,duckdb]=n/a; PLAN[$q,duckdb]=duckdb; done
tpch_duckdb() {   # LOG: 0 when DuckDB ran both queries
    local reps=$TPCH_T
    [ "$reps" = 0 ] && reps=${BENCH_T_FAST:-5}
    GXD_PGOPTIONS="${BENCH_OPTS[serial]}" \
        gxd_copy_and_run "$DB" lineitem "$TPCH_Q1_COLS" "$TPCH_Q1_DUCK_TYPES" \
        "$QDIR/duckdb/q1.sql,$QDIR/duckdb/q6.sql" "$reps" "$1"
}
# shellcheck source=bench/duckdb/lib.sh
if ! . "$HERE/duckdb/lib.sh"; then
    DUCKDB_NOTE="bench/duckdb/lib.sh missing"
elif [ "${BENCH_DUCKDB:-}" = 0 ] || ! cfg_enabled duckdb; then
    DUCKDB_NOTE="skipped (BENCH_DUCKDB=0 / TPCH_SKIP)"
elif [ "${BENCH_DUCKDB:-}" != 1 ] && ! gxd_available; then
    DUCKDB_NOTE="no .carry/libduckdb.so.xz (bench/duckdb/fetch.sh)"
else
    gx_log "$DUCKDB_TITLE: export lineitem, load, run Q1 and Q6"
    if tpch_duckdb "$OUT/tpch_duckdb.log"; then
        DUCKDB_NOTE=""
        DUCKDB_VERSION=$(gxd_field "$OUT/tpch_duckdb.log" version)
        drows=$(sed -n 's/^exec=3 result=//p' "$OUT/tpch_duckdb.log")
        [ "$drows" = "$LI_COUNT" ] || echo "duckdb: WARNING: DuckDB holds '$drows' rows, lineitem $LI_COUNT"
        for q in "${QUERIES[@]}"; do
            ms=$(gxd_query_ms "$OUT/tpch_duckdb.log" "$q")
            r=$(gxd_query_result "$OUT/tpch_duckdb.log" "$q") || r=err
            MS[$q,duckdb]=${ms:-err}; RES[$q,duckdb]=$r
        done
    else
        DUCKDB_NOTE="failed (see the duckdb: lines above)"
    fi
    rm -rf "$GXD_TMP"; GXD_TMP=""
fi
[ -n "$DUCKDB_NOTE" ] && gx_log "$DUCKDB_TITLE: n/a, $DUCKDB_NOTE"

# same_approx A B: 0 when two flattened results have the same fields, the
# numbers equal within a relative 1e-12 (DuckDB's avg() is a double)
same_approx() {
    awk -v a="$1" -v b="$2" 'BEGIN {
        n = split(a, x, /[ |]/); m = split(b, y, /[ |]/); if (n != m) exit 1
        for (i = 1; i <= n; i++) {
            if (x[i] == y[i]) continue
            if (x[i] !~ /^-?[0-9.]+$/ || y[i] !~ /^-?[0-9.]+$/) exit 1
            d = x[i] - y[i]; if (d < 0) d = -d
            s = x[i] < 0 ? -x[i] : x[i]; if (s < 1) s = 1
            if (d > 1e-12 * s) exit 1
        }
        exit 0 }'
}

# ------------------------------------------------------------------ timing
MISMATCH=0
declare -A REF SAME
for q in "${QUERIES[@]}"; do
    gx_log "$q: $(cat "$QDIR/$q.sql")"
    warmed=0
    for name in "${CFG_NAMES[@]}"; do
        if ! cfg_enabled "$name"; then
            MS[$q,$name]=n/a; RES[$q,$name]=n/a; PLAN[$q,$name]=n/a; SAME[$q,$name]=n/a
            continue
        fi
        # the first GPU configuration waits for the compiled kernel
        wait_jit=0
        case "$name" in gpu*) [ "$warmed" = 0 ] && wait_jit=1; warmed=1 ;; esac
        bench_time_query "$DB" "$QDIR/$q.sql" "${BENCH_OPTS[$name]}" "$OUT/tpch_pgbench_${q}_$name.log" "$wait_jit"
        MS[$q,$name]=$BQ_MS; RES[$q,$name]=$BQ_RES; PLAN[$q,$name]=$BQ_PLAN
        if [ "$name" = serial ]; then
            REF[$q]=$BQ_RES; SAME[$q,$name]=ref
        elif [ "$BQ_RES" = "${REF[$q]:-}" ]; then
            SAME[$q,$name]=yes
        else
            SAME[$q,$name]=MISMATCH; MISMATCH=1
            echo "!!!!!!!! MISMATCH $q: ${BENCH_TITLE[$name]} returned '$BQ_RES', PG serial '${REF[$q]:-}' !!!!!!!!"
        fi
        printf '   %-12s %10s ms  plan=%-7s\n' "${BENCH_TITLE[$name]}" "$BQ_MS" "$BQ_PLAN"
    done
    SAME[$q,duckdb]=n/a
    if [ "${RES[$q,duckdb]}" != n/a ]; then
        if [ "${RES[$q,duckdb]}" = "${REF[$q]:-}" ]; then
            SAME[$q,duckdb]=yes
        elif same_approx "${RES[$q,duckdb]}" "${REF[$q]:-}"; then
            SAME[$q,duckdb]=approx
        else
            SAME[$q,duckdb]=MISMATCH; MISMATCH=1
            echo "!!!!!!!! MISMATCH $q: $DUCKDB_TITLE returned '${RES[$q,duckdb]}', PG serial '${REF[$q]:-}' !!!!!!!!"
        fi
        printf '   %-12s %10s ms  plan=%-7s\n' "$DUCKDB_TITLE" "${MS[$q,duckdb]}" duckdb
    fi
    gx_log "$q result (PG serial): ${REF[$q]:-}"
done

# ------------------------------------------------------------------ where the time goes
# EXPLAIN ANALYZE of Q1 under the fastest gpuext configuration (by Q1 ms)
BEST=""
for name in cpu gpu gpupar gpucache; do
    cfg_enabled "$name" || continue
    awk -v m="${MS[q1,$name]}" 'BEGIN { exit !(m ~ /^[0-9.]+$/) }' || continue
    if [ -z "$BEST" ] || awk -v a="${MS[q1,$name]}" -v b="${MS[q1,$BEST]}" 'BEGIN { exit !(a < b) }'; then BEST=$name; fi
done
EXPLAIN_FILE=""; SCAN_MS=n/a; EXEC_MS=n/a
if [ -n "$BEST" ]; then
    EXPLAIN_FILE=$OUT/tpch_explain_q1_$BEST.txt
    PGOPTIONS="${BENCH_OPTS[$BEST]}" gx_psql -d "$DB" -c "EXPLAIN (ANALYZE, VERBOSE, BUFFERS) $(cat "$QDIR/q1.sql")" >"$EXPLAIN_FILE" 2>&1
    # the scan node (the last line with actual time: the plan's leaf, per
    # loop for parallel workers) and the whole execution
    SCAN_MS=$(grep -E 'Scan .*actual time=' "$EXPLAIN_FILE" | tail -n 1 | sed -n 's/.*actual time=[0-9.]*\.\.\([0-9.]*\) .*/\1/p')
    EXEC_MS=$(sed -n 's/^ *Execution Time: \([0-9.]*\) ms.*/\1/p' "$EXPLAIN_FILE")
    [ -n "$SCAN_MS" ] || SCAN_MS=n/a
    [ -n "$EXEC_MS" ] || EXEC_MS=n/a
fi

# ------------------------------------------------------------------ report
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && a + 0 > 0 && b + 0 > 0) printf "%.2fx", a / b; else print "n/a" }'; }
GPU_NAME=$(gx_psql -d "$DB" -At -c "SELECT string_agg(name, '; ') FROM gpuext_devices() WHERE kind ILIKE '%gpu%' OR kind ILIKE '%cuda%'" 2>/dev/null)
CPU_NAME=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
PGVER=$("$PG_CONFIG" --version)
ALL_CFGS=("${CFG_NAMES[@]}" duckdb)
BENCH_TITLE[duckdb]=$DUCKDB_TITLE
MD=$OUT/tpch.md
{
    echo "# TPC-H Q1 and Q6, SF $TPCH_SF ($LI_COUNT lineitem rows, $LI_SIZE)"
    echo
    echo "- $PGVER, CPU: ${CPU_NAME:-?} ($(gx_nproc) cores), GPU: ${GPU_NAME:-none}"
    echo "- data: bench/tpch/gen.sh, loaded in $TPCH_LOAD_S s; lineitem prewarmed"
    if [ "$TPCH_T" = 0 ]; then
        echo "- ms: runs of 1 s or more: the result-check run (client-timed); faster: mean of \`pgbench -n -t ${BENCH_T_FAST:-5} -r\`"
    else
        echo "- ms: mean statement latency of \`pgbench -n -t $TPCH_T -r\` after the result-check run"
    fi
    echo "- speedup: PG serial ms / ms; same: result text equal to PG serial's (approx: numbers within 1e-12 relative)"
    echo "- plan: gpupreagg / gpuscan when EXPLAIN shows a GpuPreAgg / GpuScan, pg otherwise"
    echo "- GPU cached: gpuext_cache_load('lineitem') $CACHE_LOAD_MS ms"
    if [ -z "$DUCKDB_NOTE" ]; then
        echo "- $DUCKDB_TITLE: DuckDB $DUCKDB_VERSION, in-memory copy of 7 lineitem columns (CSV export $DUCKDB_EXPORT_S s), bench/tpch/duckdb/q*.sql"
    else
        echo "- $DUCKDB_TITLE: n/a, $DUCKDB_NOTE"
    fi
    echo
    echo "| configuration | Q1 ms | Q1 speedup | Q1 plan | Q1 same | Q6 ms | Q6 speedup | Q6 plan | Q6 same |"
    echo "|---|---:|---:|---|---|---:|---:|---|---|"
    for name in "${ALL_CFGS[@]}"; do
        row="| ${BENCH_TITLE[$name]}"
        for q in "${QUERIES[@]}"; do
            row="$row | ${MS[$q,$name]} | $(ratio "${MS[$q,serial]}" "${MS[$q,$name]}") | ${PLAN[$q,$name]} | ${SAME[$q,$name]}"
        done
        echo "$row |"
    done
    echo
    for q in "${QUERIES[@]}"; do echo "- $q (PG serial): \`${REF[$q]:-}\`"; done
    echo
    if [ -n "$EXPLAIN_FILE" ]; then
        echo "## Where the time goes: Q1 under ${BENCH_TITLE[$BEST]} (the fastest gpuext configuration)"
        echo
        echo "- scan node: $SCAN_MS ms (per loop) of $EXEC_MS ms execution ($(awk -v s="$SCAN_MS" -v e="$EXEC_MS" 'BEGIN { if (s + 0 > 0 && e + 0 > 0) printf "%.0f%%", 100 * s / e; else print "n/a" }')); the rest is the aggregation (expressions on numeric, grouping) and sort"
        echo
        echo '```'
        cat "$EXPLAIN_FILE"
        echo '```'
    fi
} >"$MD"

# JSON: the facts (tab-separated, one a line) through bench/tpch/tpch_json.py
FACTS=$OUT/tpch_facts.tsv
fact() { local IFS=$'\t'; printf '%s\n' "$*" | tr -d '\r'; }
oneline() { printf '%s' "$1" | tr '\n\t' '  '; }
{
    fact meta sf "$TPCH_SF"
    fact meta lineitem_rows "$LI_COUNT"
    fact meta load_s "$TPCH_LOAD_S"
    fact meta transactions_per_query "$TPCH_T"
    fact meta postgres "$(oneline "$PGVER")"
    fact meta cpu "$(oneline "${CPU_NAME:-}")"
    fact meta cores "$(gx_nproc)"
    fact meta gpu "$(oneline "${GPU_NAME:-}")"
    fact meta cache_load_ms "$CACHE_LOAD_MS"
    fact meta mismatch "$MISMATCH"
    fact meta explain_config "$BEST"
    fact meta q1_scan_ms "$SCAN_MS"
    fact meta q1_exec_ms "$EXEC_MS"
    fact duckdb title "$(oneline "$DUCKDB_TITLE")"
    fact duckdb version "$(oneline "$DUCKDB_VERSION")"
    fact duckdb threads "$DUCKDB_THREADS"
    fact duckdb export_s "$DUCKDB_EXPORT_S"
    fact duckdb note "$(oneline "$DUCKDB_NOTE")"
    for name in "${ALL_CFGS[@]}"; do fact title "$name" "$(oneline "${BENCH_TITLE[$name]}")"; done
    for q in "${QUERIES[@]}"; do
        fact query "$q" "$(oneline "$(cat "$QDIR/$q.sql")")"
        for name in "${ALL_CFGS[@]}"; do
            fact ms "$q" "$name" "${MS[$q,$name]}"
            fact plan "$q" "$name" "${PLAN[$q,$name]}"
            fact same "$q" "$name" "${SAME[$q,$name]}"
            fact result "$q" "$name" "$(oneline "${RES[$q,$name]}")"
        done
    done
} >"$FACTS"
if command -v python3 >/dev/null 2>&1; then
    python3 "$HERE/tpch/tpch_json.py" "$FACTS" "$OUT/tpch.json" || gx_warn "tpch.json not written"
else
    gx_warn "no python3: tpch.json not written (the facts are in $FACTS)"
fi

echo
cat "$MD"
echo
gx_log "wrote $MD, $OUT/tpch.json and logs in $OUT"
if [ "$MISMATCH" = 1 ]; then
    echo "!!!!!!!! MISMATCH: configurations returned different results (see above) !!!!!!!!"
    exit 2
fi
exit 0
