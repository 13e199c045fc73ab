#!/usr/bin/env bash
# test/sharding.sh - gpuext beyond one server, with PostgreSQL's own
# sharding: a partitioned table on a coordinator whose partitions are
# postgres_fdw foreign tables on two shards, each shard a cluster running
# gpuext.  Scans and aggregates that postgres_fdw pushes down run on each
# shard's device (the foreign servers connect with gpuext.force = on, and
# each shard's gpuext_stat must show the GpuScans), and every answer must
# equal the one of a local copy of the table on the coordinator.
#
#   test/sharding.sh        # after test/run.sh installed gpuext
#
# Three throwaway clusters on this machine (ports GPUEXT_TEST_PORT + 10,
# + 11, + 12), removed at the end.  Environment: PG_CONFIG (as
# test/run.sh), GPUEXT_DEVICE (the shards' gpuext.device; default cpu),
# SHARD_ROWS (rows in all, default 200000).  The last line is the runner
# line "N passed, M failed".

set -u -o pipefail
exec 2>&1

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=test/lib.sh
. "$HERE/lib.sh"

DEVICE=${GPUEXT_DEVICE:-cpu}
ROWS=${SHARD_ROWS:-200000}
BASEPORT=$(( ${GPUEXT_TEST_PORT:-54329} + 10 ))
# shellcheck source=test/nodes.sh
. "$HERE/nodes.sh"

gx_find_pg_config || { FAILED=1; exit 1; }
gx_setup_user || { FAILED=1; exit 1; }
node_libpq
if [ ! -f "$("$PG_CONFIG" --sharedir)/extension/postgres_fdw.control" ]; then
    echo "postgres_fdw is not installed for $PG_CONFIG: no sharding test"
    exit 0
fi

gx_log "two shards and a coordinator (gpuext.device = $DEVICE on the shards), $ROWS rows"
start_node shard0 $((BASEPORT + 1)) && start_node shard1 $((BASEPORT + 2)) &&
    start_node coord "$BASEPORT" || { FAILED=$((FAILED + 1)); exit 1; }

# the rows of region r live on shard r % 2, in table measures_r<r % 2>
for s in 0 1; do
    use_node "shard$s"
    gx_psql -d postgres -q <<EOF || { FAILED=$((FAILED + 1)); exit 1; }
CREATE TABLE measures_p$s (id int4, region int4, v int4, f float8);
INSERT INTO measures_p$s
SELECT g, g % 4, (g * 7919) % 1000, (g % 997) / 10.0
FROM generate_series(1, $ROWS) g WHERE (g % 4) % 2 = $s;
VACUUM ANALYZE measures_p$s;
SELECT gpuext_stat_reset();
EOF
done

use_node coord
gx_psql -d postgres -q <<EOF || { FAILED=$((FAILED + 1)); exit 1; }
CREATE EXTENSION postgres_fdw;
CREATE SERVER shard0 FOREIGN DATA WRAPPER postgres_fdw
    OPTIONS (host '${N_SOCK[shard0]}', port '${N_PORT[shard0]}', dbname 'postgres',
             options '-c gpuext.force=on');
CREATE SERVER shard1 FOREIGN DATA WRAPPER postgres_fdw
    OPTIONS (host '${N_SOCK[shard1]}', port '${N_PORT[shard1]}', dbname 'postgres',
             options '-c gpuext.force=on');
CREATE USER MAPPING FOR CURRENT_USER SERVER shard0;
CREATE USER MAPPING FOR CURRENT_USER SERVER shard1;
CREATE TABLE measures (id int4, region int4, v int4, f float8) PARTITION BY LIST ((region % 2));
CREATE FOREIGN TABLE measures_p0 PARTITION OF measures FOR VALUES IN (0)
    SERVER shard0 OPTIONS (table_name 'measures_p0', use_remote_estimate 'true');
CREATE FOREIGN TABLE measures_p1 PARTITION OF measures FOR VALUES IN (1)
    SERVER shard1 OPTIONS (table_name 'measures_p1', use_remote_estimate 'true');
-- the local copy every answer is checked against
CREATE TABLE measures_local AS
SELECT g AS id, g % 4 AS region, (g * 7919) % 1000 AS v, ((g % 997) / 10.0)::float8 AS f
FROM generate_series(1, $ROWS) g;
ANALYZE measures_local;
EOF

# q NAME SQL: the answer through the shards (partitionwise aggregation, so
# that postgres_fdw pushes aggregates down) against the local copy
q() {
    local got want
    got=$(PGOPTIONS="-c enable_partitionwise_aggregate=on" gx_psql -d postgres -At -c "$2" 2>&1 | tr '\n' ' ')
    want=$(gx_psql -d postgres -At -c "${2//measures /measures_local }" 2>&1 | tr '\n' ' ')
    check "$1" "$got" "$want"
}
use_node coord
q "filter, rows"        "SELECT id, v FROM measures WHERE v = 42 AND f > 10 ORDER BY id"
q "filter, count + sum" "SELECT count(*), sum(v) FROM measures WHERE f > 50.5 AND v % 7 = 3"
q "grouped aggregates"  "SELECT region % 2, count(*), sum(v), min(f), max(f) FROM measures WHERE v < 300 GROUP BY 1 ORDER BY 1"
q "nothing selected"    "SELECT count(*), sum(v) FROM measures WHERE v > 5000"
q "one shard (pruned)"  "SELECT count(*), sum(id) FROM measures WHERE region = 2 AND v BETWEEN 100 AND 199"

# the shards ran GpuScans for the pushed-down queries
for s in 0 1; do
    use_node "shard$s"
    check "shard $s ran GpuScans" \
        "$(gx_psql -d postgres -At -c "SELECT scans >= 4 AND rows_in > 0 FROM gpuext_stat WHERE relation = 'measures_p$s'::regclass")" "t"
done

# the plan: grouped by the partition key, each shard computes its groups
# (the Foreign Scans carry the aggregate in their remote SQL)
use_node coord
check "aggregates pushed down to both shards" \
    "$(PGOPTIONS="-c enable_partitionwise_aggregate=on" gx_psql -d postgres -At -c \
        "EXPLAIN (VERBOSE, COSTS OFF) SELECT region % 2, count(*), sum(v) FROM measures WHERE v < 300 GROUP BY 1" |
        grep -cE 'Remote SQL: SELECT .*count\(\*\).* FROM public\.measures_p[01]')" "2"
