#!/usr/bin/env bash
# test/standby.sh - a hot standby stays correct.  WAL replay changes heap
# pages without going through a backend, so gpuext keeps the column cache
# off during recovery (only permanent tables outside recovery are cached):
# a standby's scans read the heap, which replay keeps current.  This test
# starts a primary and a streaming hot standby, both running gpuext, and
# checks on the standby that loading into the cache is refused, that no
# scan reads a cache entry, and that every answer of a forced GpuScan
# equals gpuext off there and the primary's, through inserts, updates,
# deletes, a VACUUM and a refresh of the primary's cached copy.
#
#   test/standby.sh        # after test/run.sh installed gpuext
#
# Two throwaway clusters on this machine (ports GPUEXT_TEST_PORT + 20 and
# + 21), removed at the end.  Environment: PG_CONFIG (as test/run.sh),
# GPUEXT_DEVICE (gpuext.device of both; default cpu).  The last line is the
# runner line "N passed, M failed".

set -u -o pipefail
exec 2>&1

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=test/lib.sh
. "$HERE/lib.sh"

DEVICE=${GPUEXT_DEVICE:-cpu}
BASEPORT=$(( ${GPUEXT_TEST_PORT:-54329} + 20 ))
# shellcheck source=test/nodes.sh
. "$HERE/nodes.sh"

# start_standby NAME PORT PRIMARY: a streaming hot standby of PRIMARY
start_standby() {
    local base
    base=$(mktemp -d /tmp/gpuext-pg.XXXXXX) || return 1
    mkdir -p "$base/sock"
    chmod 755 "$base" "$base/sock"
    gx_is_root && chown -R "$GX_USER" "$base"
    N_BASE[$1]=$base; N_DATA[$1]=$base/data; N_SOCK[$1]=$base/sock; N_PORT[$1]=$2
    NODES+=("$1")
    gx_log "pg_basebackup of $3 into $base/data"
    (cd "$base" && gx_as "$PGBIN/pg_basebackup" -D "$base/data" -h "${N_SOCK[$3]}" -p "${N_PORT[$3]}" \
        -U "$GX_USER" -R -X stream) >"$base/basebackup.log" 2>&1 || { cat "$base/basebackup.log"; return 1; }
    {
        echo "port = $2"
        echo "unix_socket_directories = '$base/sock'"
        echo "hot_standby = on"
    } >>"$base/data/postgresql.conf"
    use_node "$1"
    gx_cluster_start
}

# q NODE SQL [OPTIONS]: the answer on NODE, one line
q() {
    use_node "$1"
    PGOPTIONS="${3:-}" gx_psql -d postgres -At -c "$2" 2>&1 | tr '\n' ' '
}

# caught_up: wait until the standby replayed everything the primary wrote
caught_up() {
    local lsn i
    lsn=$(q primary "SELECT pg_current_wal_lsn()")
    lsn=${lsn% }
    for i in $(seq 1 600); do
        [ "$(q standby "SELECT pg_last_wal_replay_lsn() >= '$lsn'::pg_lsn")" = "t " ] && return 0
        sleep 0.1
    done
    echo "the standby did not replay up to $lsn within 60 s; its log:"
    use_node standby
    tail -n 20 "$GX_LOG"
    return 1
}

# same NAME SQL: on the standby, a forced GpuScan equals gpuext off there
# and the primary's answer
same() {
    local on off prim
    on=$(q standby "$2" "-c gpuext.force=on")
    off=$(q standby "$2" "-c gpuext.enabled=off")
    prim=$(q primary "$2" "-c gpuext.enabled=off")
    check "$1: GpuScan on the standby = gpuext off" "$on" "$off"
    check "$1: standby = primary" "$on" "$prim"
}

gx_find_pg_config || { FAILED=1; exit 1; }
gx_setup_user || { FAILED=1; exit 1; }
node_libpq

gx_log "a primary and a hot standby (gpuext.device = $DEVICE)"
start_node primary "$BASEPORT" "wal_level = replica" "max_wal_senders = 4" ||
    { FAILED=$((FAILED + 1)); exit 1; }
use_node primary
gx_psql -d postgres -q <<'EOF' || { FAILED=$((FAILED + 1)); exit 1; }
CREATE TABLE sb (id int4, v int4, f float8);
INSERT INTO sb SELECT g, g % 100, (g % 997) / 10.0 FROM generate_series(1, 100000) g;
VACUUM (FREEZE) sb;
SELECT gpuext_cache_load('sb');
EOF
start_standby standby $((BASEPORT + 1)) primary || { FAILED=$((FAILED + 1)); exit 1; }
caught_up || { FAILED=$((FAILED + 1)); exit 1; }
# the standby streams: a row written now reaches it
q primary "CREATE TABLE sb_stream (x int4); INSERT INTO sb_stream VALUES (42)" >/dev/null
caught_up || FAILED=$((FAILED + 1))
check "the standby streams from the primary" "$(q standby "SELECT x FROM sb_stream")" "42 "

check "the standby is in recovery" "$(q standby "SELECT pg_is_in_recovery()")" "t "
load=$(q standby "SELECT gpuext_cache_load('sb')")
echo "     (the standby's answer to gpuext_cache_load: $load)"
check "loading into the cache is refused during recovery" \
    "$(echo "$load" | grep -c 'cannot load into the gpuext cache during recovery')" "1"
check "refreshing too" \
    "$(q standby "SELECT gpuext_cache_refresh('sb')" | grep -c 'during recovery')" "1"
check "nothing cached on the standby" "$(q standby "SELECT count(*) FROM gpuext_cache")" "0 "
check "the primary's copy is cached" \
    "$(q primary "SELECT state FROM gpuext_cache WHERE \"table\" = 'sb'::regclass")" "ready "
check "a forced scan on the standby is a GpuScan" \
    "$(q standby "EXPLAIN (COSTS OFF) SELECT count(*) FROM sb WHERE v = 7" "-c gpuext.force=on" | grep -c 'GpuScan')" "1"
check "and reads no cache entry" \
    "$(q standby "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT count(*) FROM sb WHERE v = 7" "-c gpuext.force=on" | grep -c 'Cached Chunks')" "0"
same "after the load" "SELECT count(*), sum(id), sum(f::numeric) FROM sb WHERE v = 7"

# changes replayed on the standby (the primary's cache marks them stale)
q primary "UPDATE sb SET v = 1000 WHERE id % 777 = 1; DELETE FROM sb WHERE id % 999 = 2; INSERT INTO sb SELECT g, 7, 1.5 FROM generate_series(200001, 201000) g" >/dev/null
caught_up || FAILED=$((FAILED + 1))
same "after updates, deletes, inserts" "SELECT count(*), sum(id), sum(f::numeric) FROM sb WHERE v = 7 OR v = 1000"
same "rows" "SELECT id, v FROM sb WHERE v = 1000 ORDER BY id LIMIT 20"

# VACUUM and a refresh on the primary; replay again
q primary "VACUUM sb" >/dev/null
q primary "SELECT gpuext_cache_refresh('sb')" >/dev/null
q primary "UPDATE sb SET v = 7 WHERE id % 555 = 3" >/dev/null
caught_up || FAILED=$((FAILED + 1))
same "after VACUUM, a refresh and more updates" "SELECT count(*), sum(id), sum(f::numeric) FROM sb WHERE v = 7"
check "the primary's cached scan agrees" \
    "$(q primary "SELECT count(*), sum(id), sum(f::numeric) FROM sb WHERE v = 7" "-c gpuext.force=on")" \
    "$(q standby "SELECT count(*), sum(id), sum(f::numeric) FROM sb WHERE v = 7" "-c gpuext.enabled=off")"
