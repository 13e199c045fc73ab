#!/usr/bin/env bash
# test/ptree_crash.sh - a gpuext_ptree index survives a crash.  Three
# sessions insert into a table with gpuext_ptree indexes (keys that add
# nodes, split paths and add continuation entries), a fourth deletes and
# vacuums, a fifth compares index scans with sequential scans in one
# snapshot meanwhile; the cluster is stopped with -m immediate; after WAL
# replay gpuext_ptree_check passes, every index answer equals a sequential
# scan's, and after a VACUUM the index holds exactly the table's rows.  An
# unlogged table's index comes back empty (its init fork) and takes rows.
#
#   test/ptree_crash.sh        # after test/run.sh installed gpuext (~20 s)
#
# A throwaway cluster on port GPUEXT_TEST_PORT + 30, removed at the end.
# Environment: PG_CONFIG (as test/run.sh), GPUEXT_DEVICE (default cpu),
# PTREE_CRASH_SECONDS (how long the writers run before the crash; 4).
# The last line is the runner line "N passed, M failed".

set -u -o pipefail
exec 2>&1

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=test/lib.sh
. "$HERE/lib.sh"

DEVICE=${GPUEXT_DEVICE:-cpu}
BASEPORT=$(( ${GPUEXT_TEST_PORT:-54329} + 30 ))
SECONDS_RUN=${PTREE_CRASH_SECONDS:-4}
# shellcheck source=test/nodes.sh
. "$HERE/nodes.sh"

# q SQL [OPTIONS]: the answer, one line
q() {
    PGOPTIONS="${2:-}" gx_psql -d postgres -At -c "$1" 2>&1 | tr '\n' ' '
}

# same NAME SQL: a forced gpuext_ptree index scan equals a sequential scan
same() {
    local idx seq
    idx=$(q "$2" "-c enable_seqscan=off -c enable_bitmapscan=off -c gpuext.enabled=off")
    seq=$(q "$2" "-c enable_indexscan=off -c enable_bitmapscan=off -c gpuext.enabled=off")
    check "$1" "$idx" "$seq"
}

# the structure check of both indexes, and their TIDs against the table
checked() {
    check "$1: gpuext_ptree_check passes (k)" "$(q "SELECT count(*) FROM gpuext_ptree_check('pc_k_pt')")" "1 "
    check "$1: gpuext_ptree_check passes (t)" "$(q "SELECT count(*) FROM gpuext_ptree_check('pc_t_pt')")" "1 "
    same "$1: equality" "SELECT count(*), sum(id) FROM pc WHERE k = 4242"
    same "$1: range" "SELECT count(*), sum(id) FROM pc WHERE k BETWEEN -500 AND 3000"
    same "$1: order" "SELECT string_agg(k::text, ',' ORDER BY k) FROM (SELECT k FROM pc WHERE k > 8000 ORDER BY k) s"
    same "$1: text" "SELECT count(*), sum(id) FROM pc WHERE t ~>=~ 'key-1' AND t ~<~ 'key-2'"
    same "$1: NULLs" "SELECT count(*) FROM pc WHERE k IS NULL"
}

gx_find_pg_config || { FAILED=1; exit 1; }
gx_setup_user || { FAILED=1; exit 1; }

gx_log "a cluster for the crash (gpuext.device = $DEVICE)"
start_node crash "$BASEPORT" || { FAILED=$((FAILED + 1)); exit 1; }
use_node crash
gx_psql -d postgres -q <<'EOF' || { FAILED=$((FAILED + 1)); exit 1; }
CREATE TABLE pc (id int8, k int8, t text);
INSERT INTO pc SELECT g, (g * 7919) % 10000, 'key-' || (g % 1000) FROM generate_series(1, 20000) g;
CREATE INDEX pc_k_pt ON pc USING gpuext_ptree (k);
CREATE INDEX pc_t_pt ON pc USING gpuext_ptree (t text_pattern_ops);
CREATE SEQUENCE pc_ids START 100000;
CREATE UNLOGGED TABLE pcu (k int4);
CREATE INDEX pcu_k_pt ON pcu USING gpuext_ptree (k);
INSERT INTO pcu SELECT g FROM generate_series(1, 1000) g;
CHECKPOINT;
EOF

# writers: small transactions until the crash ends them
writer() { # $1: a seed
    local sql i
    for i in $(seq 1 100000); do
        sql="INSERT INTO pc SELECT nextval('pc_ids'), CASE WHEN g % 50 = 0 THEN NULL WHEN g % 7 = 0 THEN 4242
             ELSE (g * $1 + $i * 131) % 20000 - 5000 END, 'key-' || ((g * $1 + $i) % 3000) || repeat('x', g % 5)
             FROM generate_series(1, 50) g;"
        gx_psql -d postgres -qc "$sql" >/dev/null 2>&1 || return 0
    done
}
vacuumer() {
    local i
    for i in $(seq 1 100000); do
        gx_psql -d postgres -qc "DELETE FROM pc WHERE id % 97 = $((i % 97)); VACUUM pc" >/dev/null 2>&1 || return 0
    done
}
# a reader meanwhile: in one snapshot an index scan and a sequential scan
# agree and an ordered index scan is in order (a line per disagreement)
READS=$GX_BASE/reads
READ_SQL="BEGIN ISOLATION LEVEL REPEATABLE READ;
SET LOCAL gpuext.enabled = off;
SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off; SET LOCAL enable_sort = off;
SELECT 'scan', count(*), sum(id) FROM pc WHERE k BETWEEN -3000 AND 3000;
SELECT 'disorder', count(*) FROM (SELECT k, lag(k) OVER () AS p
    FROM (SELECT k FROM pc WHERE k > 5000 ORDER BY k) s) w WHERE p > k;
SET LOCAL enable_seqscan = on; SET LOCAL enable_indexscan = off;
SELECT 'scan', count(*), sum(id) FROM pc WHERE k BETWEEN -3000 AND 3000;
COMMIT;"
reader() {
    local i out
    for i in $(seq 1 100000); do
        out=$(gx_psql -d postgres -At -c "$READ_SQL" 2>/dev/null) || return 0
        # here-strings, not pipes: grep -q exiting early would fail a pipe (pipefail)
        if [ "$(grep '^scan|' <<<"$out" | sort -u | wc -l)" != 1 ] || ! grep -qx 'disorder|0' <<<"$out"; then
            tr '\n' ' ' <<<"$out" >>"$READS.bad"
        fi
        echo "$i" >"$READS"
    done
}
gx_log "writers and a reader for $SECONDS_RUN s, then pg_ctl stop -m immediate"
writer 104729 & W1=$!
writer 7777 & W2=$!
writer 31 & W3=$!
vacuumer & W4=$!
reader & W5=$!
sleep "$SECONDS_RUN"
check "rows were written before the crash" "$(q "SELECT count(*) > 20000 FROM pc")" "t "
(cd "$GX_BASE" && gx_as "$PGBIN/pg_ctl" -D "$GX_DATA" -w -t 60 -m immediate stop) >/dev/null 2>&1
wait $W1 $W2 $W3 $W4 $W5 2>/dev/null
check "the reader read while they wrote" "$([ "$(cat "$READS" 2>/dev/null || echo 0)" -gt 3 ] && echo yes)" "yes"
check "an index scan equalled a sequential scan in each snapshot, in order" "$(cat "$READS.bad" 2>/dev/null)" ""
gx_cluster_start || { FAILED=$((FAILED + 1)); exit 1; }
check "recovery replayed WAL" "$(grep -c 'redo done\|redo starts' "$GX_LOG" | awk '{print ($1 > 0)}')" "1"

checked "after the crash"
# (INDEX_CLEANUP ON: VACUUM would skip the indexes when few pages have dead items)
gx_psql -d postgres -qc "VACUUM (INDEX_CLEANUP ON) pc" >/dev/null
check "after VACUUM the k index holds the table's rows exactly" \
    "$(q "SELECT c.tids + c.null_tids = (SELECT count(*) FROM pc) FROM gpuext_ptree_check('pc_k_pt') c")" "t "
check "and the t index too" \
    "$(q "SELECT c.tids + c.null_tids = (SELECT count(*) FROM pc) FROM gpuext_ptree_check('pc_t_pt') c")" "t "
gx_psql -d postgres -qc "INSERT INTO pc SELECT nextval('pc_ids'), g % 9000, 'key-' || g FROM generate_series(1, 3000) g" >/dev/null
checked "inserts after recovery"

check "the unlogged table's index is empty after the crash" \
    "$(q "SELECT keys, tids FROM gpuext_ptree_check('pcu_k_pt')")" "0|0 "
gx_psql -d postgres -qc "INSERT INTO pcu SELECT g FROM generate_series(1, 100) g" >/dev/null
check "and takes rows" \
    "$(q "SELECT count(*) FROM pcu WHERE k BETWEEN 10 AND 20" "-c enable_seqscan=off -c enable_bitmapscan=off")" "11 "
