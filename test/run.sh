#!/usr/bin/env bash
# test/run.sh - THE test command of gpuext.
#
#   test/run.sh
#
# Builds (make clean + make), installs, runs the unit tests (make unittest),
# starts a throwaway PostgreSQL cluster with gpuext preloaded and runs the
# regression tests (make installcheck) against it.  The last line printed
# is "N passed, M failed" (unit-test cases + regression tests); the exit
# status is non-zero when anything failed.
#
# Environment:
#   PG_CONFIG          default: pg_config on PATH, else
#                      /usr/lib/postgresql/15/bin/pg_config; initdb/pg_ctl
#                      are taken from its --bindir (works with a relocated tree)
#   GPUEXT_DEVICE      gpuext.device of the test cluster (default cpu; gpu on
#                      a GPU host)
#   GPUEXT_TRANSFER    gpuext.transfer of the test cluster (copy or mapped;
#                      default: not set, i.e. the GUC's default)
#   GPUEXT_JIT_WAIT=1  gpuext.jit_wait = on: every filter runs its compiled
#                      kernel (GPU), compiled before the first chunk
#   GPUEXT_TEST_PORT   port of the test cluster (default 54329)
#   GPUEXT_STAGING_MB  gpuext.staging_size (default 64)
#   GPUEXT_CACHE_MB    gpuext.cache_size (default 256: two entries, so that
#                      sql/cache.sql sees eviction)
#   GPUEXT_CPU_DEVICES gpuext.cpu_devices (default 1): 2 runs every CPU query
#                      over two CPU devices, the multi-device paths (cache
#                      entries spread by block range, chunks placed by load,
#                      objects reached by peer access) on a host without GPUs
#   GPUEXT_TEST_USER   OS user for the cluster when run as root (default gpuext)
#   GPUEXT_NO_CLEAN=1  do not "make clean" first;  GPUEXT_KEEP=1 keep the cluster
#                      dir and the regression directory (results/)
#   GPUEXT_REGRESS, GPUEXT_ISOLATION   when set, the regression / isolation
#                      tests to run instead of the Makefile's lists (to
#                      iterate on one test: GPUEXT_REGRESS=preagg
#                      GPUEXT_ISOLATION= GPUEXT_SKIP_UNIT=1 test/run.sh)
#   GPUEXT_SKIP_UNIT=1 skip the unit tests
#   GPUEXT_SKIP_CRASH=1 skip test/ptree_crash.sh (run with the whole suite,
#                      or when GPUEXT_REGRESS names ptree)

set -u -o pipefail
exec 2>&1

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=test/lib.sh
. "$HERE/lib.sh"
cd "$GX_ROOT" || exit 1

DEVICE=${GPUEXT_DEVICE:-cpu}
TRANSFER=${GPUEXT_TRANSFER:-}
PORT=${GPUEXT_TEST_PORT:-54329}
STAGING=${GPUEXT_STAGING_MB:-64}

PASSED=0
FAILED=0
RC_DONE=0
IC_DIR=""

finish() {
    # stop the cluster before printing the runner line, so it is the last line
    gx_cluster_stop
    gx_cluster_remove
    if [ -n "$IC_DIR" ] && [ "${GPUEXT_KEEP:-0}" = 1 ]; then
        echo "kept the regression directory $IC_DIR (results/, output_iso/)"
    elif [ -n "$IC_DIR" ]; then
        rm -rf "$IC_DIR"
    fi
    IC_DIR=""
    if [ "$RC_DONE" = 0 ]; then
        RC_DONE=1
        echo "$PASSED passed, $FAILED failed"
    fi
}
trap finish EXIT
trap 'exit 130' INT TERM HUP PIPE

fail_out() { # fatal step failure: count it and stop
    echo "ERROR: $*"
    FAILED=$((FAILED + 1))
    exit 1
}

gx_find_pg_config || fail_out "no usable pg_config"

# ---------------------------------------------------------------- build
gx_log "build"
gx_build || fail_out "build failed"
gx_install || fail_out "make install failed"

# ---------------------------------------------------------------- unit tests
gx_log "unit tests: make unittest"
UT_LOG=$(mktemp /tmp/gpuext-unit.XXXXXX)
if [ "${GPUEXT_SKIP_UNIT:-0}" = 1 ]; then
    echo "(skipped: GPUEXT_SKIP_UNIT=1)" | tee "$UT_LOG"
else
    make -C "$GX_ROOT" PG_CONFIG="$PG_CONFIG" unittest 2>&1 | tee "$UT_LOG"
fi
ut_rc=${PIPESTATUS[0]}
ut_p=0; ut_f=0; ut_lines=0
while read -r p f; do
    ut_p=$((ut_p + p)); ut_f=$((ut_f + f)); ut_lines=$((ut_lines + 1))
done < <(sed -n 's/^[A-Za-z0-9_./-]*: \([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed.*$/\1 \2/p' "$UT_LOG")
rm -f "$UT_LOG"
if [ "$ut_rc" != 0 ] && [ "$ut_f" = 0 ]; then
    echo "ERROR: make unittest exited with $ut_rc"
    ut_f=1
fi
if [ "$ut_lines" = 0 ] && [ "$ut_rc" = 0 ]; then
    gx_warn "make unittest printed no '<name>: N passed, M failed' line"
fi
gx_log "unit tests: $ut_p passed, $ut_f failed"
PASSED=$((PASSED + ut_p)); FAILED=$((FAILED + ut_f))

# ---------------------------------------------------------------- cluster
gx_setup_user || fail_out "no OS user for the cluster"
gx_cluster_init "$PORT" \
    "gpuext.device = '$DEVICE'" \
    "gpuext.staging_size = $STAGING" \
    "gpuext.cache_size = ${GPUEXT_CACHE_MB:-256}" \
    "gpuext.cpu_devices = ${GPUEXT_CPU_DEVICES:-1}" \
    ${TRANSFER:+"gpuext.transfer = '$TRANSFER'"} \
    ${GPUEXT_JIT_WAIT:+"gpuext.jit_wait = on"} \
    "max_worker_processes = 16" \
    "max_prepared_transactions = 10" || fail_out "initdb failed"
gx_cluster_start || fail_out "cluster start failed"
gx_psql -d postgres -c "SELECT version()" -At || fail_out "cannot connect"

# ---------------------------------------------------------------- regression
# pg_regress writes results/ next to the tests: run it in a copy of the
# checkout owned by the cluster user.
IC_DIR=$(mktemp -d /tmp/gpuext-ic.XXXXXX)
chmod 755 "$IC_DIR"
tar -C "$GX_ROOT" --exclude=./.git --exclude=./.carry --exclude='*.o' --exclude='*.so' \
    --exclude='*.bc' --exclude=./results -cf - . | tar -C "$IC_DIR" -xf -
gx_is_root && chown -R "$GX_USER" "$IC_DIR"

gx_log "regression tests: make installcheck (gpuext.device=$DEVICE${TRANSFER:+, gpuext.transfer=$TRANSFER})"
RG_LOG=$(mktemp /tmp/gpuext-regress.XXXXXX)
(cd "$IC_DIR" && gx_as env PGHOST="$PGHOST" PGPORT="$PGPORT" PGUSER="$PGUSER" \
    make PG_CONFIG="$PG_CONFIG" PGHOST="$PGHOST" PGPORT="$PGPORT" PGUSER="$PGUSER" \
        ${GPUEXT_REGRESS+REGRESS="$GPUEXT_REGRESS"} ${GPUEXT_ISOLATION+ISOLATION="$GPUEXT_ISOLATION"} \
        installcheck) 2>&1 | tee "$RG_LOG"
rg_rc=${PIPESTATUS[0]}
# pg_regress up to 15 prints "test name ... ok", from 16 TAP lines
# ("ok 1 - name", "not ok 2 - name")
rg_p=$(grep -cE '^[[:space:]]*(test[[:space:]]+)?[^[:space:]]+[[:space:]]+\.\.\.[[:space:]]+ok\b|^ok[[:space:]]+[0-9]+[[:space:]]' "$RG_LOG")
rg_f=$(grep -E '^[[:space:]]*(test[[:space:]]+)?[^[:space:]]+[[:space:]]+\.\.\.[[:space:]]+(FAILED|failed)|^not ok[[:space:]]+[0-9]+[[:space:]]' "$RG_LOG" | grep -vc 'failed (ignored)')
rm -f "$RG_LOG"
if [ "$rg_rc" != 0 ] && [ "$rg_f" = 0 ]; then
    echo "ERROR: make installcheck exited with $rg_rc"
    rg_f=1
fi
rm -f "$GX_ROOT/regression.diffs" "$GX_ROOT/regression_iso.diffs"
if [ -s "$IC_DIR/regression.diffs" ]; then
    cp "$IC_DIR/regression.diffs" "$IC_DIR/regression.out" "$GX_ROOT/" 2>/dev/null
    echo "==> regression.diffs (first 300 lines; full file in $GX_ROOT/regression.diffs)"
    head -n 300 "$IC_DIR/regression.diffs"
fi
if [ -s "$IC_DIR/output_iso/regression.diffs" ]; then
    cp "$IC_DIR/output_iso/regression.diffs" "$GX_ROOT/regression_iso.diffs" 2>/dev/null
    echo "==> isolation regression.diffs (first 300 lines; full file in $GX_ROOT/regression_iso.diffs)"
    head -n 300 "$IC_DIR/output_iso/regression.diffs"
fi
if [ "$rg_f" != 0 ]; then
    echo "==> server log (last 40 lines)"
    tail -n 40 "$GX_LOG" 2>/dev/null
fi
gx_log "regression tests: $rg_p passed, $rg_f failed"
PASSED=$((PASSED + rg_p)); FAILED=$((FAILED + rg_f))

# ---------------------------------------------------------------- crash
# gpuext_ptree through a crash (test/ptree_crash.sh, its own cluster, ~10 s):
# with the whole suite, or when GPUEXT_REGRESS names ptree
if [ "${GPUEXT_SKIP_CRASH:-0}" != 1 ] && { [ -z "${GPUEXT_REGRESS+x}" ] || [[ " $GPUEXT_REGRESS " == *" ptree "* ]]; }; then
    gx_log "crash recovery: test/ptree_crash.sh"
    CR_LOG=$(mktemp /tmp/gpuext-crash.XXXXXX)
    "$HERE/ptree_crash.sh" 2>&1 | tee "$CR_LOG"
    read -r cr_p cr_f < <(tail -n 1 "$CR_LOG" | sed -n 's/^\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed$/\1 \2/p')
    rm -f "$CR_LOG"
    [ -n "${cr_p:-}" ] || { echo "ERROR: test/ptree_crash.sh printed no runner line"; cr_p=0; cr_f=1; }
    gx_log "crash recovery: $cr_p passed, $cr_f failed"
    PASSED=$((PASSED + cr_p)); FAILED=$((FAILED + cr_f))
fi

[ "$FAILED" = 0 ] && exit 0
exit 1
