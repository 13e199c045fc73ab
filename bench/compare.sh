#!/usr/bin/env bash
# bench/compare.sh - old-vs-new comparison of the filter benchmark: the
# queries bench/queries/q1..q10 on one table tablet, run by two builds of
# gpuext, "old" (a source tree given by OLD_SRC, e.g. the landed main) and
# "new" (this working tree), on one cluster.
#
#   OLD_SRC=.carry/old bench/compare.sh            # 100M rows, own cluster
#   ROWS=200000 OLD_SRC=/tmp/oldsrc BENCH_PORT=54342 bench/compare.sh
#
# Make the old tree with e.g.
#   mkdir -p .carry/old && git archive <old-commit> | tar -x -C .carry/old
#
# Steps: copies both trees to a temp dir and builds them with the same
# PG_CONFIG (make; make install DESTDIR=<stage>) while a throwaway cluster
# (bench/run.sh's settings, gpuext not preloaded yet) loads tablet with ROWS
# rows (test/lib.sh gx_load_tablet).  Then phases old, new, old, new: each
# stops the cluster, copies that build's gpuext.so and extension files
# (gpuext.control, gpuext--*.sql) into PG_CONFIG's pkglibdir / sharedir,
# starts the cluster with gpuext preloaded (a fresh service, an empty
# column cache), DROP/CREATE EXTENSION gpuext, pg_prewarm('tablet'),
# gpuext_cache_load('tablet') (timed), and runs every query in these
# configurations (bench/lib.sh; the same settings as bench/run.sh's):
#   par8      PG par8      gpuext.enabled = off, 8 workers (reference: its
#                          new/old ratio shows the run-to-run noise)
#   gpucache  GPU cached   tablet in the device cache
#   gpu       GPU cold     GPU copy: heap pages copied to the device
#   gpupar    GPU par8     GPU copy, parallel GpuScan with 8 workers
# each timed as bench/run.sh does (bench_time_query: pgbench -n -t BENCH_T
# -r, or with BENCH_T=0 one client-timed run for queries of 1 s or more and
# pgbench -t BENCH_T_FAST for faster ones); a query's first GPU
# configuration first runs it once with gpuext.jit_wait = on.  All results
# are checked against the first one (MISMATCH).  After the first old/new
# pair, DuckDB (16 threads, bench/duckdb/; when .carry/libduckdb.so.xz
# exists) runs the queries once as a second reference (it does not depend
# on gpuext).  The second pair runs only when COMPARE_BUDGET_S leaves room
# for it (estimated from the first pair).  The figure of a query in a
# configuration is the best (lowest) of its phases of that build; the
# report has old, new and new/old per query and configuration, and per
# configuration the worst (highest) ratio and the geometric mean.
#
# Without a GPU (gpuext_devices() lists none) the GPU configurations run
# on gpuext's CPU device, labelled "[cpu dev]": for trying the script out.
#
# At the end the new build stays installed.
#
# Environment:
#   OLD_SRC          old source tree (default .carry/old of this checkout)
#   NEW_SRC          new source tree (default: this checkout)
#   ROWS             table rows (default 100000000)
#   OUT              output dir (default /tmp/out): compare.md, compare.json,
#                    compare_summary.txt, compare_raw.tsv (every measurement),
#                    build_{old,new}.log, duckdb.log, compare_logs/ (pgbench
#                    logs, cache loads)
#   BENCH_T, BENCH_T_FAST   as in bench/run.sh (default BENCH_T: 3 when
#                    ROWS >= 1e7, else 5; test/gpu/run.sh uses 0)
#   BENCH_SKIP       configurations to leave out: par8 gpucache gpu gpupar duckdb
#   BENCH_DUCKDB     1: run DuckDB, 0: not (default: when
#                    .carry/libduckdb.so.xz exists); BENCH_DUCKDB_THREADS (16),
#                    BENCH_DUCKDB_TMP (where the CSV export goes; default $OUT)
#   COMPARE_PAIRS    old/new pairs of phases (default 2)
#   COMPARE_BUDGET_S seconds this script may take (default 0: no limit); a
#                    pair after the first runs only if it fits, judged by the
#                    first pair's time (and DuckDB only if its estimate,
#                    COMPARE_DUCKDB_EST_S, default ROWS/2e6 s, min 15, fits)
#   COMPARE_OLD_LABEL / COMPARE_NEW_LABEL   names for the report
#   COMPARE_QDIR     the queries q1.sql..q10.sql (default bench/queries)
#   COMPARE_EXPLAIN  queries (e.g. "q1 q9") whose EXPLAIN (ANALYZE, VERBOSE)
#                    in the GPU cached configuration is kept for every phase
#                    (compare_logs/explain_<q>_<phase>.txt) and whose
#                    timing lines end the report (where the time goes)
#   BENCH_DB         database (default bench)
#   BENCH_PORT       port of the own cluster (default 54332)
#   PG_CONFIG        as in test/run.sh (its pkglibdir and sharedir must be
#                    writable: root, or sudo)
# Exit status: 0; 2 on a result MISMATCH; 1 when something failed.

set -u -o pipefail
exec 2>&1

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=test/lib.sh
. "$HERE/../test/lib.sh"
# shellcheck source=bench/lib.sh
. "$HERE/lib.sh"

T0=$SECONDS
ROWS=${ROWS:-100000000}
OUT=${OUT:-/tmp/out}
DB=${BENCH_DB:-bench}
OLD_SRC=${OLD_SRC:-$GX_ROOT/.carry/old}
NEW_SRC=${NEW_SRC:-$GX_ROOT}
PAIRS=${COMPARE_PAIRS:-2}
BUDGET=${COMPARE_BUDGET_S:-0}
QDIR=${COMPARE_QDIR:-$GX_ROOT/bench/queries}
if [ -z "${BENCH_T:-}" ]; then
    if [ "$ROWS" -ge 10000000 ]; then BENCH_T=3; else BENCH_T=5; fi
fi
export BENCH_T
DUCKDB_EST=${COMPARE_DUCKDB_EST_S:-$(( ROWS / 2000000 ))}
[ "$DUCKDB_EST" -lt 15 ] && DUCKDB_EST=15
mkdir -p "$OUT" || exit 1
RAW=$OUT/compare_raw.tsv
LOGS=$OUT/compare_logs
: >"$RAW" || exit 1
rm -rf "$LOGS" && mkdir -p "$LOGS" || exit 1

gx_find_pg_config || exit 1
PKGLIBDIR=$("$PG_CONFIG" --pkglibdir)
EXTDIR=$("$PG_CONFIG" --sharedir)/extension

for v in OLD_SRC NEW_SRC; do
    d=${!v}
    if [ ! -f "$d/Makefile" ] || [ ! -f "$d/gpuext.control" ]; then
        echo "ERROR: $v=$d is not a gpuext source tree (no Makefile / gpuext.control)"
        echo "       e.g.: mkdir -p .carry/old && git archive <commit> | tar -x -C .carry/old"
        exit 1
    fi
done
OLD_SRC=$(cd "$OLD_SRC" && pwd)
NEW_SRC=$(cd "$NEW_SRC" && pwd)
OLD_LABEL=${COMPARE_OLD_LABEL:-$OLD_SRC}
NEW_LABEL=${COMPARE_NEW_LABEL:-$NEW_SRC}
if [ -z "${COMPARE_NEW_LABEL:-}" ] && h=$(git -C "$NEW_SRC" rev-parse --short HEAD 2>/dev/null); then
    NEW_LABEL="$NEW_SRC (HEAD $h + working tree changes)"
fi

WORK=$(mktemp -d /tmp/gx_compare.XXXXXX) || exit 1
INSTALLED=none      # the build whose files are in pkglibdir/sharedir
BUILD_PIDS=""

# install files as root, through sudo when not root and not writable
as_installer() {
    if gx_is_root || { [ -w "$PKGLIBDIR" ] && [ -w "$EXTDIR" ]; }; then
        "$@"
    else
        sudo "$@"
    fi
}

# install_variant old|new: that build's gpuext.so and extension files into
# place (cluster stopped)
install_variant() {
    local st=$WORK/stage_$1
    [ -f "$st$PKGLIBDIR/gpuext.so" ] || { echo "ERROR: no $1 build in $st"; return 1; }
    gx_log "installing the $1 build"
    as_installer rm -f "$PKGLIBDIR/gpuext.so" "$EXTDIR/gpuext.control" "$EXTDIR"/gpuext--*.sql &&
        as_installer cp "$st$PKGLIBDIR/gpuext.so" "$PKGLIBDIR/gpuext.so" &&
        as_installer cp "$st$EXTDIR"/gpuext.control "$st$EXTDIR"/gpuext--*.sql "$EXTDIR/" || return 1
    INSTALLED=$1
}

cleanup() {
    local p
    for p in $BUILD_PIDS; do kill "$p" 2>/dev/null; done
    [ -n "${GXD_TMP:-}" ] && rm -rf "$GXD_TMP"   # DuckDB CSV export (bench/duckdb/lib.sh)
    gx_cluster_stop
    # leave the new build installed
    if [ "$INSTALLED" != new ] && [ "$INSTALLED" != none ]; then
        install_variant new || echo "WARNING: the $INSTALLED build stays installed in $PKGLIBDIR"
    fi
    gx_cluster_remove
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP PIPE

raw() { local IFS=$'\t'; echo "$*" >>"$RAW"; }
elapsed() { echo $((SECONDS - T0)); }

# ------------------------------------------------------------------ build
# build_tree old|new SRC: copy SRC (no .git, .carry, build outputs), make,
# make install DESTDIR=WORK/stage_<v>; log in OUT/build_<v>.log
build_tree() {
    local v=$1 src=$2 dir=$WORK/src_$1 log=$OUT/build_$1.log jobs
    jobs=$(( $(gx_nproc) / 2 )); [ "$jobs" -lt 1 ] && jobs=1
    mkdir -p "$dir" || return 1
    (cd "$src" && tar -cf - --exclude=./.git --exclude=./.carry --exclude=./.gl --exclude=./.whl \
        --exclude=./shared --exclude=./results --exclude=./tmp_check --exclude=./log \
        --exclude='*.o' --exclude='*.so' --exclude='*.bc' .) | tar -xf - -C "$dir" || return 1
    {
        echo "# $v: $src, built in $dir"
        make -C "$dir" -j"$jobs" PG_CONFIG="$PG_CONFIG" &&
            make -C "$dir" PG_CONFIG="$PG_CONFIG" install DESTDIR="$WORK/stage_$v"
    } >"$log" 2>&1
}
gx_log "building old ($OLD_SRC) and new ($NEW_SRC) in $WORK, meanwhile loading tablet"
build_tree old "$OLD_SRC" & pid_old=$!
build_tree new "$NEW_SRC" & pid_new=$!
BUILD_PIDS="$pid_old $pid_new"

# ------------------------------------------------------------------ cluster + table
gx_setup_user || exit 1
bench_cluster_init "${BENCH_PORT:-54332}" "$ROWS" || exit 1
bench_set_preload off     # no gpuext installed yet: load without it
gx_cluster_start || exit 1
gx_psql -d postgres -qc "CREATE DATABASE $DB" || exit 1
gx_load_tablet "$DB" "$ROWS" || exit 1
# only all-visible blocks are cached: settle what the load's VACUUM left
gx_psql -d "$DB" -qc "VACUUM tablet" || exit 1
# write the load's dirty buffers now, not at the first phase's shutdown
gx_psql -d "$DB" -qc "CHECKPOINT" || exit 1
gx_psql -d "$DB" -qc "CREATE EXTENSION IF NOT EXISTS pg_prewarm" || gx_warn "no pg_prewarm"
LOAD_S=$(elapsed)

brc=0
wait "$pid_old" || { brc=1; echo "ERROR: building the old tree failed:"; tail -n 30 "$OUT/build_old.log"; }
wait "$pid_new" || { brc=1; echo "ERROR: building the new tree failed:"; tail -n 30 "$OUT/build_new.log"; }
BUILD_PIDS=""
[ "$brc" = 0 ] || exit 1
gx_log "builds and load done after $(elapsed) s (load: $LOAD_S s)"
bench_set_preload on

QUERIES=()
for i in 1 2 3 4 5 6 7 8 9 10; do
    [ -f "$QDIR/q$i.sql" ] && QUERIES+=("q$i")
done

skipped() { case " ${BENCH_SKIP:-} " in *" $1 "*) return 0 ;; esac; return 1; }
CFGS=()
for c in par8 gpucache gpu gpupar; do skipped "$c" || CFGS+=("$c"); done

declare -A REF TITLE
MISMATCH=0
GPUDEV=""
NGPU=0
declare -A PHASE_S

# run_phase old|new INDEX
run_phase() {
    local v=$1 idx=$2 t0=$SECONDS md5 ngpu cl_ms q c warmed ok
    echo
    gx_log "phase $idx: $v build ($(elapsed) s so far)"
    gx_cluster_stop
    install_variant "$v" || return 1
    gx_cluster_start || return 1
    PGOPTIONS="-c client_min_messages=warning" gx_psql -d "$DB" -qc "DROP EXTENSION IF EXISTS gpuext CASCADE" &&
        gx_psql -d "$DB" -qc "CREATE EXTENSION gpuext" || { echo "ERROR: CREATE EXTENSION gpuext ($v) failed"; return 1; }
    md5=$(md5sum "$PKGLIBDIR/gpuext.so" | cut -c1-12)
    ngpu=$(gx_has_gpu "$DB")
    if [ -z "$GPUDEV" ]; then
        NGPU=$ngpu
        gx_psql -d "$DB" -c "SELECT * FROM gpuext_devices()" | tee "$OUT/devices.txt"
        if [ "$NGPU" -gt 0 ]; then GPUDEV=gpu; sfx=""; else GPUDEV=cpu; sfx=" [cpu dev]"; fi
        bench_define_configs "$GPUDEV"
        TITLE=([par8]="PG par8" [gpu]="GPU cold$sfx" [gpupar]="GPU par8$sfx" [gpucache]="GPU cached$sfx")
        [ "$NGPU" -gt 0 ] || gx_warn "no GPU listed by gpuext_devices(): the GPU configurations run on the CPU device"
    elif [ "$ngpu" != "$NGPU" ]; then
        gx_warn "the $v build lists $ngpu GPUs, the first phase $NGPU"
    fi
    gx_psql -d "$DB" -Atc "SELECT pg_prewarm('tablet')" >/dev/null 2>&1 || gx_warn "pg_prewarm failed"
    cl_ms=n/a
    if ! skipped gpucache; then
        local t1
        t1=$(date +%s%N)
        if PGOPTIONS="-c gpuext.device=$GPUDEV" gx_psql -d "$DB" -Atc "SELECT gpuext_cache_load('tablet')" \
                >"$LOGS/cache_load_$idx.txt" 2>&1; then
            cl_ms=$(( ($(date +%s%N) - t1) / 1000000 ))
            gx_log "cache load: $(tr '\n' ' ' <"$LOGS/cache_load_$idx.txt")rows in $cl_ms ms"
        else
            cl_ms=err
            gx_warn "cache load failed ($v): $(tail -n 3 "$LOGS/cache_load_$idx.txt")"
        fi
    fi
    for q in "${QUERIES[@]}"; do
        gx_log "phase $idx ($v) $q: $(cat "$QDIR/$q.sql")"
        warmed=0
        for c in "${CFGS[@]}"; do
            ok=0
            case $c in gpu*) [ "$warmed" = 0 ] && ok=1; warmed=1 ;; esac
            bench_time_query "$DB" "$QDIR/$q.sql" "${BENCH_OPTS[$c]}" "$LOGS/pgbench_${q}_${c}_$idx.log" "$ok"
            if [ -z "${REF[$q]:-}" ]; then
                REF[$q]=$BQ_RES
            elif [ "$BQ_RES" != "${REF[$q]}" ]; then
                echo "!!!!!!!! MISMATCH $q: ${TITLE[$c]} ($v) returned '$BQ_RES', the first run '${REF[$q]}' !!!!!!!!"
                MISMATCH=1
            fi
            raw ms "$idx" "$v" "$c" "$q" "$BQ_MS" "$BQ_PLAN" "$BQ_RES"
            printf '   %-20s %10s ms  plan=%-7s result=%s\n' "${TITLE[$c]}" "$BQ_MS" "$BQ_PLAN" "$BQ_RES"
            if [ "$c" = gpucache ] && [[ " ${COMPARE_EXPLAIN:-} " == *" $q "* ]]; then
                PGOPTIONS="${BENCH_OPTS[$c]}" gx_psql -d "$DB" -c "EXPLAIN (ANALYZE, VERBOSE) $(cat "$QDIR/$q.sql")" \
                    >"$LOGS/explain_${q}_$idx.txt" 2>&1
            fi
        done
    done
    PHASE_S[$idx]=$((SECONDS - t0))
    raw phase "$idx" "$v" "${PHASE_S[$idx]}" "$md5" "$cl_ms" "$ngpu"
    gx_log "phase $idx ($v, gpuext.so md5 $md5) took ${PHASE_S[$idx]} s"
}

# ------------------------------------------------------------------ DuckDB
run_duckdb() {
    local reps=$BENCH_T q ms r drows
    [ "$reps" = 0 ] && reps=${BENCH_T_FAST:-5}
    DUCKDB_THREADS=${BENCH_DUCKDB_THREADS:-16}
    gx_log "DuckDB ${DUCKDB_THREADS}t: export tablet, load, run ${#QUERIES[@]} queries ($(elapsed) s so far)"
    local t0=$SECONDS
    if GXD_PGOPTIONS="${BENCH_OPTS[serial]}" gxd_bench "$DB" "$OUT/duckdb.log" "$DUCKDB_THREADS" "$reps" \
            "${BENCH_DUCKDB_TMP:-$OUT}" "${QUERIES[@]}"; then
        DUCKDB_NOTE=""
        drows=$(gxd_field "$OUT/duckdb.log" rows)
        [ "$drows" = "$ROWS" ] || echo "duckdb: WARNING: DuckDB holds '$drows' rows, ROWS=$ROWS"
        raw meta duckdb_version "$(gxd_field "$OUT/duckdb.log" version)"
        raw meta duckdb_threads "$DUCKDB_THREADS"
        raw meta duckdb_reps "$reps"
        raw meta duckdb_load_ms "$(gxd_field "$OUT/duckdb.log" load_ms)"
        raw meta duckdb_export_s "$GXD_EXPORT_S"
        for q in "${QUERIES[@]}"; do
            ms=$(gxd_query_ms "$OUT/duckdb.log" "$q")
            r=$(gxd_query_result "$OUT/duckdb.log" "$q") || r=err
            raw duck "$q" "${ms:-err}" "$r"
            if [ -n "${REF[$q]:-}" ] && [ "$r" != "${REF[$q]}" ]; then
                echo "!!!!!!!! MISMATCH $q: DuckDB returned '$r', PostgreSQL '${REF[$q]}' !!!!!!!!"
                MISMATCH=1
            fi
            printf '   %-4s %-20s %10s ms  result=%s\n' "$q" "DuckDB ${DUCKDB_THREADS}t" "${ms:-err}" "$r"
        done
        gx_log "DuckDB took $((SECONDS - t0)) s"
    else
        DUCKDB_NOTE="failed (see the duckdb: lines of the output)"
    fi
}

# ------------------------------------------------------------------ phases
DUCKDB_NOTE="not run"
duckdb_wanted() {
    # shellcheck source=bench/duckdb/lib.sh
    if ! . "$GX_ROOT/bench/duckdb/lib.sh"; then
        DUCKDB_NOTE="bench/duckdb/lib.sh missing"; return 1
    elif [ "${BENCH_DUCKDB:-}" = 0 ] || skipped duckdb; then
        DUCKDB_NOTE="skipped (BENCH_DUCKDB=0 / BENCH_SKIP)"; return 1
    elif [ "${BENCH_DUCKDB:-}" != 1 ] && ! gxd_available; then
        DUCKDB_NOTE="no .carry/libduckdb.so.xz (bench/duckdb/fetch.sh)"; return 1
    fi
}
fits() {   # fits SECONDS: does a step of about that long fit the budget?
    [ "$BUDGET" = 0 ] || [ $(( $(elapsed) + $1 + 15 )) -le "$BUDGET" ]
}

FAILED=0
PAIRS_RUN=0
idx=0
for ((pair = 1; pair <= PAIRS; pair++)); do
    if [ "$pair" -gt 1 ]; then
        est=$(( (PHASE_S[1] + PHASE_S[2]) * 11 / 10 ))
        if ! fits "$est"; then
            gx_log "no time for pair $pair (about $est s; $(elapsed) s of COMPARE_BUDGET_S=$BUDGET used)"
            raw meta note "pair $pair left out: about $est s did not fit COMPARE_BUDGET_S=$BUDGET after $(elapsed) s"
            break
        fi
    fi
    for v in old new; do
        idx=$((idx + 1))
        run_phase "$v" "$idx" || { FAILED=1; break 2; }
    done
    PAIRS_RUN=$pair
    if [ "$pair" = 1 ] && duckdb_wanted; then
        if fits "$DUCKDB_EST"; then
            run_duckdb
        else
            DUCKDB_NOTE="left out: its estimate ($DUCKDB_EST s) did not fit COMPARE_BUDGET_S=$BUDGET after $(elapsed) s"
            gx_log "DuckDB $DUCKDB_NOTE"
        fi
    fi
done

# ------------------------------------------------------------------ report
GPU_NAME=$(gx_psql -d "$DB" -At -c "SELECT string_agg(name, '; ') FROM gpuext_devices() WHERE kind ILIKE '%gpu%' OR kind ILIKE '%cuda%'" 2>/dev/null)
raw meta rows "$ROWS"
raw meta bench_t "$BENCH_T"
raw meta bench_t_fast "${BENCH_T_FAST:-5}"
raw meta old_label "$OLD_LABEL"
raw meta new_label "$NEW_LABEL"
raw meta device "${GPUDEV:-none}"
raw meta gpu "${GPU_NAME:-}"
raw meta cpu "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)"
raw meta cores "$(gx_nproc)"
raw meta postgres "$("$PG_CONFIG" --version)"
raw meta pairs_planned "$PAIRS"
raw meta pairs_run "$PAIRS_RUN"
raw meta budget_s "$BUDGET"
raw meta load_s "$LOAD_S"
raw meta total_s "$(elapsed)"
raw meta duckdb_note "$DUCKDB_NOTE"
raw meta failed "$FAILED"
raw meta configs "${CFGS[*]}"
for c in "${CFGS[@]}"; do raw title "$c" "${TITLE[$c]}"; done

if ! command -v python3 >/dev/null 2>&1; then
    echo "python3 not found: no report; the measurements are in $RAW"
    exit 1
fi
python3 "$HERE/compare_report.py" "$RAW" "$OUT" "$QDIR"
prc=$?
# the timing lines of the kept EXPLAIN ANALYZE outputs, per query and phase
for q in ${COMPARE_EXPLAIN:-}; do
    for f in "$LOGS"/explain_"${q}"_*.txt; do
        [ -f "$f" ] || continue
        idx=${f##*_}; idx=${idx%.txt}
        echo "EXPLAIN ANALYZE $q, phase $idx ($(awk -F'\t' -v i="$idx" '$1 == "phase" && $2 == i {print $3}' "$RAW")):"
        grep -E 'Time|Device|Chunks|Kernel|Wait|Rows|JIT|Cache|ms' "$f" | grep -v 'Output:' | sed 's/^/    /'
    done
done >>"$OUT/compare_summary.txt"
gx_log "wrote compare.md, compare.json, compare_summary.txt, compare_raw.tsv in $OUT ($(elapsed) s)"
[ "$FAILED" = 1 ] && { echo "ERROR: a phase failed (see above)"; exit 1; }
[ "$MISMATCH" = 1 ] && exit 2
exit "$prc"
