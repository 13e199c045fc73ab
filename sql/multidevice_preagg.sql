--
-- multidevice_preagg: GpuPreAgg on several devices (issue 17).  Each
-- device of the node's set adds its chunks (a cache entry's where it
-- lies, heap pages on the least loaded device) into a group table of its
-- own; once every chunk of a pass is done, GROUP_MERGE tasks on the home
-- device merge the other devices' tables into the home table through peer
-- access, and GROUP_READ returns its groups.  A group the home table has
-- no room for comes back as a row of partial states, or, when the node
-- finalizes (one row per group), makes the pass run again.  Every query
-- runs with gpuext off and on every selection of gpuext.devices (md_check,
-- setup.sql); the same expected output holds with one device of a kind or
-- several (test/run.sh with GPUEXT_CPU_DEVICES=2 runs two CPU devices).
--
SET max_parallel_workers_per_gather = 0;
CREATE TABLE mdp (id int4, k int4, k2 int2, v int4, v8 int8, f8 float8, f4 float4,
                  n numeric(12,2), ok bool);
INSERT INTO mdp
SELECT g, g % 1000, (g % 7)::int2,
       CASE WHEN g % 101 = 0 THEN NULL ELSE g % 5000 - 2500 END,
       g::int8 * 1000003,
       CASE WHEN g % 97 = 0 THEN NULL ELSE (g % 1234) / 8.0 + 1000000 END,
       ((g % 300) / 4.0)::float4,
       CASE WHEN g % 89 = 0 THEN NULL ELSE (g % 100000) / 100.0 - 300 END,
       g % 3 = 0
FROM generate_series(1, 200000) g;
UPDATE mdp SET k = NULL WHERE id % 997 = 0;
VACUUM ANALYZE mdp;

-- with several devices, did q's GpuPreAgg merge their tables?  (EXPLAIN
-- ANALYZE: Group Merges and Groups Merged > 0 where Devices lists several;
-- true for a node of one device)
CREATE FUNCTION mdp_merged(q text) RETURNS bool LANGUAGE plpgsql SET gpuext.force = on AS $$
DECLARE
    line text;
    several bool := false;
    merges bigint := 0;
    merged bigint := 0;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
        IF line ~ '^\s*Devices: .*,' THEN
            several := true;
        ELSIF line ~ 'Group Merges: ' THEN
            merges := merges + substring(line from 'Group Merges: (\d+)')::bigint;
        ELSIF line ~ 'Groups Merged: ' THEN
            merged := merged + substring(line from 'Groups Merged: (\d+)')::bigint;
        END IF;
    END LOOP;
    RETURN NOT several OR (merges > 0 AND merged > 0);
END $$;
-- q's EXPLAIN ANALYZE lines that match pat (what holds on any device)
CREATE FUNCTION mdp_explain(q text, pat text) RETURNS SETOF text LANGUAGE sql
    SET gpuext.force = on AS $$
    SELECT l FROM gx_explain(q, 'ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF') l WHERE l ~ pat
$$;

-- chunks of heap pages on every device: many groups, few groups, NULL keys
SET gpuext.chunk_rows = 16384;
SELECT md_check('SELECT id % 50000, count(*), sum(v), min(v8), max(f8) FROM mdp GROUP BY 1');
SELECT md_check('SELECT k, count(*), count(v), sum(v), avg(v), min(v), max(v) FROM mdp GROUP BY k');
SELECT md_check('SELECT k2, count(*), sum(v), avg(v), min(n), max(n), bool_and(ok) FROM mdp GROUP BY k2');
SELECT md_check('SELECT k2, ok, count(*) FROM mdp WHERE id % 3 = 1 GROUP BY k2, ok');
SELECT mdp_merged('SELECT k, count(*), sum(v) FROM mdp GROUP BY k') AS merged;
SELECT * FROM mdp_explain('SELECT k, count(*), sum(v) FROM mdp GROUP BY k',
                          'Custom Scan|Finalize|Group Table Slots|Groups From Device|Host');
-- FILTER
SELECT md_check('SELECT k2, count(*) FILTER (WHERE v > 0), sum(v) FILTER (WHERE ok), max(v8) FILTER (WHERE v < 0), avg(n) FILTER (WHERE NOT ok) FROM mdp GROUP BY k2');
-- floats (eighths and quarters: every partial sum is exact, in any order
-- and on every device, so sums and averages are PostgreSQL's to the bit;
-- the shifted sums of a variance merged across the tables' shifts)
SELECT md_check('SELECT k % 10, avg(f8), sum(f8), min(f8), max(f4), sum(f4), count(f8) FROM mdp GROUP BY 1');
SELECT md_check('SELECT k2, round(stddev(f8)::numeric, 6), round(var_pop(f4)::numeric, 6), round(stddev_samp(f8)::numeric, 6) FROM mdp GROUP BY k2');
-- numeric and int8 sums (exact 128-bit sums), their averages, an exact variance
SELECT md_check('SELECT k % 20, sum(n), avg(n), sum(v8), avg(v8), variance(v) FROM mdp GROUP BY 1');

-- passes: a table too small for the groups (gpuext.preagg_memory) runs
-- the input again per partition of the groups, each pass merging its
-- devices' tables; finalizing (every group in one pass's home table) and
-- not
SET gpuext.preagg_memory = '1MB';
SELECT md_check('SELECT id, count(*), sum(v), max(f8) FROM mdp GROUP BY id');
SELECT * FROM mdp_explain('SELECT id, count(*), sum(v) FROM mdp GROUP BY id',
                          'Custom Scan|Finalized|Host');
SET gpuext.enable_preagg_final = off;
SELECT md_check('SELECT id, count(*), sum(v), max(f8) FROM mdp GROUP BY id');
SELECT md_check('SELECT id % 30000, count(*), avg(n) FROM mdp GROUP BY 1');
RESET gpuext.enable_preagg_final;
RESET gpuext.preagg_memory;

-- the finalizing plan (TPC-H Q1's shape): finalized on the device, its
-- devices' tables merged first (without sorts, which make the plan of a
-- Finalize GroupAggregate over a Sort of six rows as cheap)
CREATE TABLE mdp_li (
    l_quantity numeric(15,2), l_extendedprice numeric(15,2), l_discount numeric(15,2),
    l_tax numeric(15,2), l_returnflag char(1), l_linestatus char(1), l_shipdate date);
INSERT INTO mdp_li
SELECT 1 + g % 50, (g * 7919 % 10000000) / 100.0 + 900, (g % 11) / 100.0, (g % 9) / 100.0,
       substr('ANR', 1 + g % 3, 1), substr('FO', 1 + g % 2, 1), date '1992-01-01' + g % 2500
FROM generate_series(1, 100000) g;
VACUUM ANALYZE mdp_li;
SET enable_sort = off;
SELECT md_check('select l_returnflag, l_linestatus, sum(l_quantity) as sum_qty, sum(l_extendedprice) as sum_base_price, sum(l_extendedprice * (1 - l_discount)) as sum_disc_price, sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) as sum_charge, avg(l_quantity) as avg_qty, avg(l_extendedprice) as avg_price, avg(l_discount) as avg_disc, count(*) as count_order from mdp_li where l_shipdate <= date ''1998-12-01'' - interval ''90'' day group by l_returnflag, l_linestatus order by l_returnflag, l_linestatus');
SELECT * FROM mdp_explain('select l_returnflag, l_linestatus, sum(l_quantity), avg(l_extendedprice * (1 - l_discount)), count(*) from mdp_li where l_shipdate <= date ''1998-09-02'' group by l_returnflag, l_linestatus',
                          'Custom Scan|Finalize|Groups From Device|Host');
SELECT mdp_merged('select l_returnflag, l_linestatus, sum(l_quantity), count(*) from mdp_li group by l_returnflag, l_linestatus') AS merged;
RESET enable_sort;

-- cached: entries spread over the devices by block range, each entry's
-- chunk on its device, adding into that device's table
SET gpuext.cache_entry_rows = 20000;
SELECT gpuext_cache_load('mdp') AS rows_cached;
SELECT chunks > 1 AS several_entries, devices = md_cache_labels() AS on_every_cache_device
FROM gpuext_cache WHERE "table" = 'mdp'::regclass;
SET gpuext.force = on;
-- (the partial plan: a finalizing one's fallback never runs a chunk)
SET gpuext.enable_preagg_final = off;
SELECT md_spread('SELECT k, count(*), sum(v) FROM mdp GROUP BY k') AS spread;
RESET gpuext.enable_preagg_final;
SELECT md_read_cache('SELECT k, count(*), sum(v) FROM mdp GROUP BY k') AS read_the_entries;
SELECT mdp_merged('SELECT k, count(*), sum(v) FROM mdp GROUP BY k') AS merged;
RESET gpuext.force;
SELECT md_check('SELECT k, count(*), sum(v), min(n), max(f8) FROM mdp GROUP BY k');
SELECT md_check('SELECT k2, count(*), sum(v8), avg(n), sum(f4) FROM mdp GROUP BY k2');
SELECT md_check('SELECT id % 40000, count(*), sum(v) FROM mdp GROUP BY 1');
-- a write makes its block stale, read from the heap on some device
UPDATE mdp SET v = v + 1, k = 5000 WHERE id % 5000 = 7;
SELECT md_check('SELECT k, count(*), sum(v), max(v8) FROM mdp GROUP BY k');
SELECT gpuext_cache_evict('mdp') > 0 AS evicted;

-- each device's table holds its groups, and the home table has no room for
-- all of them: the statistics say 600 groups (tables of 2048 slots, 1024
-- groups), the table has 1800 in runs of 50 rows, and the cache deals its
-- entries of 10000 rows (200 groups) to the devices in turn.  With several
-- devices none fills up, but the merge finds no room for some groups:
-- returned as rows of partial states, or, finalizing, the pass runs again
-- with a larger table (one device: its table fills up, and the pass runs
-- again as well)
CREATE TABLE mdp_skew (k int4, v int4, f float8) WITH (autovacuum_enabled = off);
INSERT INTO mdp_skew SELECT g % 600, g, g / 4.0 FROM generate_series(1, 60000) g;
ANALYZE mdp_skew;
DELETE FROM mdp_skew;
INSERT INTO mdp_skew SELECT g / 50, g, g / 4.0 FROM generate_series(0, 89999) g;
VACUUM mdp_skew;
SET gpuext.cache_entry_rows = 10000;
SELECT gpuext_cache_load('mdp_skew') AS rows_cached;
SELECT md_check('SELECT k, count(*), sum(v), avg(f), max(v) FROM mdp_skew GROUP BY k');
SELECT * FROM mdp_explain('SELECT k, count(*), sum(v), avg(f) FROM mdp_skew GROUP BY k',
                          'Custom Scan|Finalized|Host');
SET gpuext.enable_preagg_final = off;
SELECT md_check('SELECT k, count(*), sum(v), avg(f), max(v) FROM mdp_skew GROUP BY k');
RESET gpuext.enable_preagg_final;
SELECT gpuext_cache_evict('mdp_skew') > 0 AS evicted;
RESET gpuext.cache_entry_rows;

-- parallel plans: every process's chunks on every device, each adding into
-- that device's table (the leader's, in the DSM); the last process to
-- finish merges them and returns the groups
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT k2, count(*), sum(v) FROM mdp GROUP BY k2');
RESET gpuext.force;
SELECT md_check('SELECT k2, count(*), sum(v), avg(n), min(v8) FROM mdp GROUP BY k2');
SELECT md_check('SELECT id % 20000, count(*), sum(v), max(f8) FROM mdp GROUP BY 1');
SELECT md_check('SELECT k, count(*) FILTER (WHERE ok), sum(v8) FROM mdp WHERE id % 4 <> 0 GROUP BY k');
SELECT md_check('SELECT k, count(*), sum(v), avg(f) FROM mdp_skew GROUP BY k');
RESET min_parallel_table_scan_size;
RESET parallel_tuple_cost;
RESET parallel_setup_cost;
SET max_parallel_workers_per_gather = 0;

-- rescans: a correlated subquery's GpuPreAgg runs once per outer row, its
-- tables emptied by each run's merges and reads (a LIMIT that stops a run
-- early: fresh tables for the next)
SELECT md_check('SELECT s.x, (SELECT count(*) FROM (SELECT k, count(*) FROM mdp WHERE k % 3 = s.x GROUP BY k) q) FROM generate_series(0, 2) s(x)');
SELECT md_check('SELECT s.x, (SELECT count(*) FROM (SELECT k, count(*) c FROM mdp WHERE k % 4 = s.x GROUP BY k LIMIT 7) q) FROM generate_series(0, 3) s(x)');

-- a cursor over GpuPreAgg, fetched in parts, backward too
SET gpuext.force = on;
BEGIN;
DECLARE mdp_c SCROLL CURSOR FOR
    SELECT k, count(*), sum(v), max(v8) FROM mdp WHERE k < 20 GROUP BY k ORDER BY k;
FETCH 3 FROM mdp_c;
FETCH 2 FROM mdp_c;
FETCH PRIOR FROM mdp_c;
FETCH LAST FROM mdp_c;
FETCH ABSOLUTE 10 FROM mdp_c;
CLOSE mdp_c;
DECLARE mdp_c2 CURSOR FOR SELECT k2, count(*), sum(v) FROM mdp GROUP BY k2 ORDER BY k2;
FETCH 2 FROM mdp_c2;
FETCH ALL FROM mdp_c2;
COMMIT;
SET gpuext.enabled = off;
SELECT k, count(*), sum(v), max(v8) FROM mdp WHERE k IN (0, 1, 2, 3, 4, 9, 19) GROUP BY k ORDER BY k;
SELECT k2, count(*), sum(v) FROM mdp GROUP BY k2 ORDER BY k2;
RESET gpuext.enabled;
RESET gpuext.force;
RESET gpuext.chunk_rows;

DROP TABLE mdp;
DROP TABLE mdp_li;
DROP TABLE mdp_skew;
DROP FUNCTION mdp_merged(text);
DROP FUNCTION mdp_explain(text, text);
