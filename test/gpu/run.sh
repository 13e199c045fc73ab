#!/usr/bin/env bash
# test/gpu/run.sh - tests + benchmark on the GPU host (Ubuntu, CUDA, no
# PostgreSQL packages).  Run as root from the checkout:
#
#   test/gpu/run.sh                    # tests, then the benchmark
#   SKIP_BENCH=1 test/gpu/run.sh       # tests only (on PostgreSQL 15, then on
#                                      # 18 when .carry/pgport18.tgz is there)
#   SKIP_TESTS=1 ROWS=10000000 test/gpu/run.sh   # benchmark only
#   BENCH_MODE=compare SKIP_TESTS=1 test/gpu/run.sh
#       # old vs new build (bench/compare.sh; old tree in .carry/old, e.g.
#       # git archive <commit> | tar -x -C .carry/old), then the TPC-B
#       # overhead (bench/tpcb.sh); about 9 minutes with the defaults
#
# Uses the relocatable PostgreSQL 15 carried at .carry/pgport.tgz (unpacked
# to /tmp/pg/pgport), runs the cluster as OS user "pg".  The tests run with
# GX_REQUIRE_GPU=1 (the unit tests fail instead of skipping without a GPU).
# The whole proof no longer fits one 10-minute call: split it, e.g.
#   GPUEXT_SKIP_UNIT=1 SKIP_BENCH=1 TEST_MAPPED=0 TEST_PG18=0 TEST_STANDBY=0 test/gpu/run.sh
#       # build, regression and isolation tests (about 2.5 minutes)
#   GX_TEST_PARTS=random,types GPUEXT_REGRESS=setup GPUEXT_ISOLATION= SKIP_BENCH=1 \
#       TEST_MAPPED=0 TEST_PG18=0 TEST_STANDBY=0 test/gpu/run.sh
#       # a share of test_kernel's comparisons (its header lists the parts:
#       # random, types, pages, cache, group, join, validation, bandwidth);
#       # test_interp (the CPU device) takes the same variable with its own
#       # parts, basic and join (its join cases take about 5 minutes here):
#       # name one of them too, e.g. GX_TEST_PARTS=random,types,basic
# ROWS (default 100000000) is the benchmark table size.
#
# BENCH_MODE: run (default) = bench/run.sh; tpcb = bench/tpcb.sh alone;
# defaults = bench/defaults.sh (ROWS, default 10M: gpuext at its defaults
# against gpuext off);
# compare = bench/compare.sh, then (unless BENCH_TPCB=0)
# bench/tpcb.sh, with BENCH_T=0 unless set, and COMPARE_BUDGET_S computed so
# that both end within BENCH_BUDGET_S (default 540; 0: no limit) seconds
# of this script's start, TPC-B's time (TPCB_RUNS x 2 runs of
# TPCB_SECONDS, default 3 x 2 x 20 s, plus set-up) kept aside: the second
# old/new pair of bench/compare.sh runs only if it fits, and when
# compare.sh took longer than planned the TPC-B runs are shortened (to 5 s
# at least; the summary shows the duration used).  Other settings: the headers of
# bench/compare.sh and bench/tpcb.sh (OLD_SRC, BENCH_SKIP, ...).
#
# BENCH_CONC=1 (off by default) runs bench/concurrency.sh after the
# benchmark above (SKIP_BENCH=1 SKIP_TESTS=1 BENCH_CONC=1: it alone): the
# column cache under many clients (issue 12), with GPUEXT_DEVICE=gpu,
# CONC_ROWS (default 20000000), CONC_SECONDS, CONC_CLIENTS (default 64),
# CONC_TPCB_SECONDS (default 10 here) and the rest of its header's
# settings from the environment; CONC_BUDGET_S defaults to what is left of
# BENCH_BUDGET_S (540) since this script's start (at least 120 s), and the
# runs are shortened to fit it.  Its table ends the summary; its JSON
# (concurrency.json) and logs go into extra.tgz.
#
# BENCH_GROUPBY=1 (off by default) runs bench/groupby.sh after that
# (SKIP_BENCH=1 SKIP_TESTS=1 BENCH_GROUPBY=1: it alone): GROUP BY with 10,
# 10K, 1M and 50M groups on GROUPBY_ROWS (default 100000000) rows against
# PostgreSQL, DuckDB and a CUB sort of the keys (issue 14), with
# GROUPBY_LONG_S defaulting to 10 here and GROUPBY_BUDGET_S to what is left
# of BENCH_BUDGET_S (540) since this script's start (at least 180 s); the
# rest of its header's settings from the environment.  Its groupby.md ends
# the summary; groupby.md and groupby.json come back as files when it ran
# alone, else in extra.tgz with its logs.
#
# BENCH_JOIN=1 (off by default) runs bench/join.sh after that
# (SKIP_BENCH=1 SKIP_TESTS=1 BENCH_JOIN=1: it alone): the joins of issue
# 15 (16M x 16M equi-joins, uniform and skewed, pairs, SEMI, ANTI; 1M x 1M
# band joins) against PostgreSQL and DuckDB, with JOIN_LONG_S defaulting to
# 10 here, JOIN_TIMEOUT_S to 60 and JOIN_BUDGET_S to what is left of
# BENCH_BUDGET_S (540) since this script's start (at least 180 s); the rest
# of its header's settings from the environment.  Its join.md ends the
# summary; join.md and join.json come back as files when it ran alone,
# else in extra.tgz with its logs.
#
# BENCH_TPCH_JOIN=1 (off by default) runs bench/tpch_join.sh after that
# (SKIP_BENCH=1 SKIP_TESTS=1 BENCH_TPCH_JOIN=1: it alone): TPC-H Q3, Q5, Q10
# and Q12 (issue 15) on data generated at TPCH_SF (default 3 here: 18M
# lineitems; build, generation, load, DuckDB and every configuration in
# about 7 minutes, within the budget below) against PostgreSQL and DuckDB, with
# TPCH_JOIN_LONG_S defaulting to 5 here, TPCH_JOIN_TIMEOUT_S to 60 and
# TPCH_JOIN_BUDGET_S to what is left of BENCH_BUDGET_S (540) since this
# script's start (at least 180 s); the rest of its header's settings from
# the environment.  Its tpch_join.md ends the summary; tpch_join.md and
# tpch_join.json come back as files when it ran alone, else in extra.tgz
# with its logs and EXPLAIN ANALYZE files.
#
# BENCH_SEARCH_SQL=1 (off by default) runs bench/search_sql.sh after that
# (SKIP_BENCH=1 SKIP_TESTS=1 BENCH_SEARCH_SQL=1: it alone): issue 16's
# lookups at the SQL level, Kaldewey's Table 1 and Figure 8 over 36M sorted
# int8 keys (batches of 16, 1K, 16K, 1M: PostgreSQL's btree plans, the
# big-set filter over the column cache, gpuext_ptree_lookup) and Table 4's
# indexed nested-loop row, with SEARCH_SQL_BUDGET_S defaulting to 300 s
# (or what is left of BENCH_BUDGET_S, at least 180 s, when that is less);
# the rest of its header's settings from the environment.  Its
# search_sql.md ends the summary; it comes back as a file when it ran
# alone, else in extra.tgz with its logs.
#
# BENCH_MULTI=1 (off by default) runs bench/multigpu.sh after that
# (SKIP_BENCH=1 SKIP_TESTS=1 BENCH_MULTI=1: it alone): several GPUs (issue
# 17), the bench queries q1-q10 over 100M cached rows, the 16M x 16M join
# (count and pairs) and TPC-H Q1 (SF 10, lowered when its generation does
# not fit) on 1, 2, ... N GPUs (MULTI_GPUS caps N), with PostgreSQL's 16
# workers and DuckDB's 16 threads as baselines, and the rows that fit in
# the column cache with 1 GPU and with N; MULTI_LONG_S defaults to 5
# here, MULTI_TIMEOUT_S to 60 and MULTI_BUDGET_S to what is left of
# BENCH_BUDGET_S (540) since this script's start (at least 180 s; the
# build, about a minute, and the data generation count in it: about 8
# minutes in all on 2 H200 with 32 cores); the rest of its header's
# settings from the environment.  Its multigpu.md ends the summary;
# multigpu.md and multigpu.json come back as files when it ran alone,
# else in extra.tgz with its logs and EXPLAIN ANALYZE files.
#
# Outputs go to ${OUT:-/tmp/out}; at most 8 files come back from the GPU
# host, so all but these are packed into extra.tgz: test.log, bench.log,
# nvidia-smi.txt, and bench.md, bench.json, explain_q1_gpu.txt,
# explain_q1_gpu_1m.txt (run) or compare.md, compare.json, tpcb.md,
# tpcb.json (compare).  The output ends with a summary (compare mode: the
# old/new table, the worst ratios, TPC-B), since only its last 12,000
# characters come back.

set -u -o pipefail
exec 2>&1

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
T0=$SECONDS
OUT=${OUT:-/tmp/out}
export OUT
mkdir -p "$OUT"
PGROOT=/tmp/pg
export ROWS=${ROWS:-100000000}

if [ "$(id -u)" != 0 ]; then
    echo "ERROR: run test/gpu/run.sh as root"
    exit 1
fi

if [ ! -x "$PGROOT/pgport/bin/pg_config" ]; then
    echo "==> unpacking .carry/pgport.tgz into $PGROOT"
    mkdir -p "$PGROOT"
    tar -xzf "$ROOT/.carry/pgport.tgz" -C "$PGROOT" || { echo "ERROR: cannot unpack pgport.tgz"; exit 1; }
fi
id -u pg >/dev/null 2>&1 || useradd -m -s /bin/bash pg || { echo "ERROR: useradd pg failed"; exit 1; }
chown -R pg "$PGROOT"
chmod 755 "$PGROOT"

export PATH=$PGROOT/pgport/bin:/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=$PGROOT/pgport/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PG_CONFIG=$PGROOT/pgport/bin/pg_config
export GPUEXT_TEST_USER=pg

{
    echo "==> $(date -u)  $(uname -a)"
    nvidia-smi 2>&1 || echo "nvidia-smi not available"
    command -v nvcc && nvcc --version
    "$PG_CONFIG" --version
} | tee "$OUT/nvidia-smi.txt"

rc=0
SUMMARY=$(mktemp /tmp/gx_gpu_summary.XXXXXX)
if [ "${SKIP_TESTS:-0}" != 1 ]; then
    # the unit tests fail rather than skip their GPU parts without a GPU
    export GX_REQUIRE_GPU=${GX_REQUIRE_GPU:-1}
    GPUEXT_DEVICE=gpu test/run.sh 2>&1 | tee "$OUT/test.log"
    rc=${PIPESTATUS[0]}
    cp -f regression.diffs "$OUT/" 2>/dev/null
    # a hot standby with gpuext on the GPU (test/standby.sh; TEST_STANDBY=0
    # skips it)
    if [ "${TEST_STANDBY:-1}" = 1 ]; then
        GPUEXT_DEVICE=gpu test/standby.sh >"$OUT/test_standby.log" 2>&1
        src=$?
        echo "==> the hot standby test: $(tail -n 1 "$OUT/test_standby.log")" | tee -a "$OUT/test.log"
        [ "$rc" = 0 ] && rc=$src
    fi
    # the same suite with zero-copy transfers, every filter running its
    # compiled kernel (jit_wait) (TEST_MAPPED=0 skips it)
    if [ "${TEST_MAPPED:-1}" = 1 ]; then
        GPUEXT_DEVICE=gpu GPUEXT_TRANSFER=mapped GPUEXT_JIT_WAIT=1 GPUEXT_NO_CLEAN=1 test/run.sh >"$OUT/test_mapped.log" 2>&1
        mrc=$?
        cp -f regression.diffs "$OUT/regression_mapped.diffs" 2>/dev/null
        echo "==> the suite with gpuext.transfer = mapped, gpuext.jit_wait = on: $(tail -n 1 "$OUT/test_mapped.log")" | tee -a "$OUT/test.log"
        [ "$rc" = 0 ] && rc=$mrc
    fi
    # the suite again on PostgreSQL 18 when its relocatable build was
    # carried (.carry/pgport18.tgz; TEST_PG18=0 skips it); then the tree is
    # rebuilt for 15 by the next build step that needs it
    if [ "${TEST_PG18:-1}" = 1 ] && [ -f "$ROOT/.carry/pgport18.tgz" ]; then
        if [ ! -x /tmp/pg18/pgport/bin/pg_config ]; then
            mkdir -p /tmp/pg18 && tar -xzf "$ROOT/.carry/pgport18.tgz" -C /tmp/pg18 && chown -R pg /tmp/pg18 && chmod 755 /tmp/pg18
        fi
        # (its own libpq: LD_LIBRARY_PATH above names 15's, which 18's psql cannot use)
        LD_LIBRARY_PATH=/tmp/pg18/pgport/lib GPUEXT_DEVICE=gpu PG_CONFIG=/tmp/pg18/pgport/bin/pg_config \
            test/run.sh >"$OUT/test_pg18.log" 2>&1
        prc=$?
        cp -f regression.diffs "$OUT/regression_pg18.diffs" 2>/dev/null
        echo "==> the suite on PostgreSQL 18: $(tail -n 1 "$OUT/test_pg18.log")" | tee -a "$OUT/test.log"
        [ "$rc" = 0 ] && rc=$prc
        make PG_CONFIG="$PG_CONFIG" clean >/dev/null 2>&1
        make -j"$(nproc)" PG_CONFIG="$PG_CONFIG" >/dev/null 2>&1 && make PG_CONFIG="$PG_CONFIG" install >/dev/null 2>&1
    fi
    # test/run.sh built and installed gpuext: the benchmark need not rebuild
    export BENCH_BUILD=${BENCH_BUILD:-0}
fi

if [ "${SKIP_BENCH:-0}" != 1 ] && [ "${BENCH_MODE:-run}" = compare ]; then
    export BENCH_T=${BENCH_T:-0}
    export TPCB_SECONDS=${TPCB_SECONDS:-20} TPCB_RUNS=${TPCB_RUNS:-3}
    # TPC-B: 2 x TPCB_RUNS runs of warm-up + TPCB_SECONDS, about 8 s of
    # restart and pgbench -i each, plus its cluster's set-up
    tpcb_est=$(( 2 * TPCB_RUNS * (TPCB_SECONDS + ${TPCB_WARMUP:-2} + 8) + 15 ))
    left=$(( ${BENCH_BUDGET_S:-540} - (SECONDS - T0) - tpcb_est ))
    [ "$left" -lt 60 ] && left=60
    [ "${BENCH_BUDGET_S:-540}" = 0 ] && left=0
    export COMPARE_BUDGET_S=${COMPARE_BUDGET_S:-$left}
    rm -f "$OUT/compare_summary.txt" "$OUT/tpcb_summary.txt"
    echo "==> compare mode: bench/compare.sh (COMPARE_BUDGET_S=$COMPARE_BUDGET_S), then bench/tpcb.sh (about $tpcb_est s)"
    bench/compare.sh 2>&1 | tee "$OUT/bench.log"
    crc=${PIPESTATUS[0]}
    # TPC-B in what is left of the budget: shorter runs when compare.sh
    # took longer than planned (at least 5 s a run)
    if [ "${BENCH_BUDGET_S:-540}" != 0 ]; then
        fit=$(( (${BENCH_BUDGET_S:-540} - (SECONDS - T0) - 15) / (2 * TPCB_RUNS) - ${TPCB_WARMUP:-2} - 8 ))
        [ "$fit" -lt 5 ] && fit=5
        if [ "$fit" -lt "$TPCB_SECONDS" ]; then
            echo "==> TPC-B runs shortened to $fit s (TPCB_SECONDS=$TPCB_SECONDS does not fit BENCH_BUDGET_S=${BENCH_BUDGET_S:-540} after $((SECONDS - T0)) s)"
            TPCB_SECONDS=$fit
        fi
    fi
    if [ "${BENCH_TPCB:-1}" = 1 ]; then
        bench/tpcb.sh 2>&1 | tee -a "$OUT/bench.log"
        trc=${PIPESTATUS[0]}
    else
        trc=0
        echo "(TPC-B skipped: BENCH_TPCB=0)" >"$OUT/tpcb_summary.txt"
    fi
    [ "$rc" = 0 ] && rc=$crc
    [ "$rc" = 0 ] && rc=$trc
    {
        echo "==================== summary: old vs new (bench/compare.sh, exit $crc) ===================="
        cat "$OUT/compare_summary.txt" 2>/dev/null || echo "(no compare_summary.txt: see bench.log)"
        echo "==================== TPC-B overhead (bench/tpcb.sh, exit $trc) ===================="
        cat "$OUT/tpcb_summary.txt" 2>/dev/null || echo "(no tpcb_summary.txt: see bench.log)"
    } >"$SUMMARY"
elif [ "${SKIP_BENCH:-0}" != 1 ] && [ "${BENCH_MODE:-run}" = tpcb ]; then
    # the TPC-B overhead alone (more or longer runs: TPCB_RUNS, TPCB_SECONDS)
    bench/tpcb.sh 2>&1 | tee "$OUT/bench.log"
    brc=${PIPESTATUS[0]}
    [ "$rc" = 0 ] && rc=$brc
    cp "$OUT/tpcb_summary.txt" "$SUMMARY" 2>/dev/null
elif [ "${SKIP_BENCH:-0}" != 1 ] && [ "${BENCH_MODE:-run}" = defaults ]; then
    # do the default settings ever make a query slower? (bench/defaults.sh)
    ROWS=${ROWS:-10000000} bench/defaults.sh 2>&1 | tee "$OUT/bench.log"
    brc=${PIPESTATUS[0]}
    [ "$rc" = 0 ] && rc=$brc
    cp "$OUT/defaults.txt" "$SUMMARY" 2>/dev/null
elif [ "${SKIP_BENCH:-0}" != 1 ]; then
    BENCH_START=1 bench/run.sh 2>&1 | tee "$OUT/bench.log"
    brc=${PIPESTATUS[0]}
    [ "$rc" = 0 ] && rc=$brc
fi

# the column cache under many clients (bench/concurrency.sh), when asked
if [ "${BENCH_CONC:-0}" = 1 ]; then
    conc_left=0
    if [ "${BENCH_BUDGET_S:-540}" != 0 ]; then
        conc_left=$(( ${BENCH_BUDGET_S:-540} - (SECONDS - T0) ))
        [ "$conc_left" -lt 120 ] && conc_left=120
    fi
    echo "==> bench/concurrency.sh (CONC_BUDGET_S=${CONC_BUDGET_S:-$conc_left})"
    GPUEXT_DEVICE=${GPUEXT_DEVICE:-gpu} CONC_ROWS=${CONC_ROWS:-20000000} \
        CONC_TPCB_SECONDS=${CONC_TPCB_SECONDS:-10} CONC_BUDGET_S=${CONC_BUDGET_S:-$conc_left} \
        CONC_JSON=${CONC_JSON:-$OUT/concurrency.json} \
        bench/concurrency.sh 2>&1 | tee "$OUT/concurrency.log"
    conc_rc=${PIPESTATUS[0]}
    [ "$rc" = 0 ] && rc=$conc_rc
    {
        echo "==================== the column cache under many clients (bench/concurrency.sh, exit $conc_rc) ===================="
        cat "$OUT/concurrency.txt" 2>/dev/null || echo "(no concurrency.txt: see concurrency.log in extra.tgz)"
    } >>"$SUMMARY"
fi

# run_report_bench NAME PREFIX TITLE [VAR=VALUE...]: bench/NAME.sh on its
# own cluster, with PREFIX_LONG_S defaulting to 10 and PREFIX_BUDGET_S to
# what is left of BENCH_BUDGET_S (540) since this script's start (at least
# 180 s), VAR=VALUE in its environment; its exit status into rc, its
# NAME.md into the summary under TITLE; run alone (SKIP_BENCH=1), its
# NAME.md and NAME.json come back as files (KEEP_REPORTS)
KEEP_REPORTS=""
run_report_bench() {
    local name=$1 pfx=$2 title=$3 left=0 brc long budget
    shift 3
    if [ "${BENCH_BUDGET_S:-540}" != 0 ]; then
        left=$(( ${BENCH_BUDGET_S:-540} - (SECONDS - T0) ))
        [ "$left" -lt 180 ] && left=180
    fi
    long=${pfx}_LONG_S; budget=${pfx}_BUDGET_S
    echo "==> bench/$name.sh (${budget}=${!budget:-$left})"
    env BENCH_START=1 "$long=${!long:-10}" "$budget=${!budget:-$left}" "$@" \
        bench/"$name".sh 2>&1 | tee "$OUT/$name.log"
    brc=${PIPESTATUS[0]}
    [ "$rc" = 0 ] && rc=$brc
    {
        echo "==================== $title (bench/$name.sh, exit $brc) ===================="
        cat "$OUT/$name.md" 2>/dev/null || echo "(no $name.md: see $name.log in extra.tgz)"
    } >>"$SUMMARY"
    [ "${SKIP_BENCH:-0}" = 1 ] && KEEP_REPORTS="$KEEP_REPORTS|$name\\.(md|json)"
}

# GROUP BY with 10 .. 50M groups (bench/groupby.sh, issue 14), when asked
if [ "${BENCH_GROUPBY:-0}" = 1 ]; then
    run_report_bench groupby GROUPBY "GROUP BY"
fi
# joins (bench/join.sh, issue 15), when asked
if [ "${BENCH_JOIN:-0}" = 1 ]; then
    run_report_bench join JOIN "joins" "JOIN_TIMEOUT_S=${JOIN_TIMEOUT_S:-60}"
fi
# TPC-H Q3, Q5, Q10, Q12 (bench/tpch_join.sh, issue 15), when asked
if [ "${BENCH_TPCH_JOIN:-0}" = 1 ]; then
    run_report_bench tpch_join TPCH_JOIN "TPC-H Q3, Q5, Q10, Q12" "TPCH_SF=${TPCH_SF:-3}" \
        "TPCH_JOIN_LONG_S=${TPCH_JOIN_LONG_S:-5}" "TPCH_JOIN_TIMEOUT_S=${TPCH_JOIN_TIMEOUT_S:-60}"
fi

# batched lookups at the SQL level (bench/search_sql.sh, issue 16), when asked
if [ "${BENCH_SEARCH_SQL:-0}" = 1 ]; then
    if [ -z "${SEARCH_SQL_BUDGET_S:-}" ] && [ "${BENCH_BUDGET_S:-540}" != 0 ]; then
        SEARCH_SQL_BUDGET_S=$(( ${BENCH_BUDGET_S:-540} - (SECONDS - T0) ))
        [ "$SEARCH_SQL_BUDGET_S" -gt 300 ] && SEARCH_SQL_BUDGET_S=300
        [ "$SEARCH_SQL_BUDGET_S" -lt 180 ] && SEARCH_SQL_BUDGET_S=180
    fi
    run_report_bench search_sql SEARCH_SQL "lookups at the SQL level (Kaldewey Table 1 / Figure 8, Table 4's INLJ)"
fi

# several GPUs (bench/multigpu.sh, issue 17), when asked
if [ "${BENCH_MULTI:-0}" = 1 ]; then
    run_report_bench multigpu MULTI "several GPUs (issue 17)" "MULTI_LONG_S=${MULTI_LONG_S:-5}" \
        "MULTI_TIMEOUT_S=${MULTI_TIMEOUT_S:-60}"
fi

# at most 8 files come back from the GPU host: keep the main ones, pack the rest
(cd "$OUT" && ls | grep -vxE "test\\.log|bench\\.(log|md|json)|nvidia-smi\\.txt|explain_q1_gpu(_1m)?\\.txt|compare\\.(md|json)|tpcb\\.(md|json)|extra\\.tgz$KEEP_REPORTS" |
    tar -czf extra.tgz -T - --remove-files 2>/dev/null)
echo "==> outputs in $OUT:"
ls -l "$OUT"
cat "$SUMMARY"
rm -f "$SUMMARY"
echo "==> test/gpu/run.sh: $((SECONDS - T0)) s, exit status $rc"
# the tests' "N passed, M failed" stays the last line
if [ "${SKIP_TESTS:-0}" != 1 ]; then
    tail -n 1 "$OUT/test.log"
fi
exit "$rc"
