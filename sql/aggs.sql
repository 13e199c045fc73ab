-- aggs: device aggregates.  count(*), count(col) and sum(int2/int4) over a
-- GpuScan whose quals all run on the device are computed with the filter:
-- the GpuScan returns one row of partial states to a Finalize Aggregate.
-- Every result is compared with gpuext off (gx_check / gx_error).

SET max_parallel_workers_per_gather = 0;
CREATE TABLE gx_ag (id int4, a int4, s int2, b int8, f float8, t text);
INSERT INTO gx_ag
SELECT g,
       CASE WHEN g % 7 = 0 THEN NULL ELSE g % 100 END,
       CASE WHEN g % 11 = 0 THEN NULL ELSE (g % 50 - 25)::int2 END,
       g::int8 * 1000000,
       g * 0.5,
       'x' || g
FROM generate_series(1, 50000) g;
VACUUM (FREEZE, ANALYZE) gx_ag;
CREATE TABLE gx_ag_empty (a int4, s int2);

-- the plan: Finalize Aggregate over a GpuScan with Device Aggregates
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT count(*), sum(id), count(a), sum(s) FROM gx_ag WHERE a > 50');
SELECT * FROM gx_explain('SELECT count(*), sum(id), count(a), sum(s) FROM gx_ag WHERE a > 50',
                         'ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF');
SELECT * FROM gx_explain('SELECT count(*) * 2 + 1, sum(s) / 3 FROM gx_ag WHERE s < 0', 'VERBOSE, COSTS OFF');
RESET gpuext.force;

-- results
SELECT gx_check('SELECT count(*), sum(id), count(a), sum(s) FROM gx_ag WHERE a > 50');
SELECT gx_check('SELECT count(*), sum(a), sum(s), count(s) FROM gx_ag WHERE s IS NULL OR a IS NULL');
SELECT gx_check('SELECT count(*) * 2 + 1, sum(s) / 3 FROM gx_ag WHERE s < 0');
SELECT gx_check('SELECT count(f), count(b), count(t) IS NULL FROM gx_ag WHERE id % 3 = 0');
-- no row selected: count 0, sum NULL
SELECT gx_check('SELECT count(*), sum(a), count(a) FROM gx_ag WHERE a > 1000');
SELECT gx_check('SELECT count(*), sum(a), sum(s) FROM gx_ag_empty WHERE a > 0');
-- only NULLs summed: NULL
SELECT gx_check('SELECT sum(a), count(a), count(*) FROM gx_ag WHERE a IS NULL');
-- sums beyond int4 (int8 state)
SELECT gx_check('SELECT sum(id), sum(id) * 2 FROM gx_ag WHERE id > 0');
-- device errors: the aggregate fails like PostgreSQL
SELECT gx_error('SELECT count(*) FROM gx_ag WHERE 100 / (a - 42) > 0');
SELECT gx_error('SELECT sum(a) FROM gx_ag WHERE a * 100000000 > 0');
-- Params: prepared statements and a correlated subquery
PREPARE gx_ag_p(int) AS SELECT count(*), sum(id) FROM gx_ag WHERE a = $1;
SELECT gx_check('EXECUTE gx_ag_p(7)');
SELECT gx_check('SELECT x, (SELECT sum(s) FROM gx_ag WHERE a = x) FROM generate_series(1, 3) x');
DEALLOCATE gx_ag_p;

-- parallel query: every process aggregates its blocks, Gather collects
-- the partial states
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT count(*), sum(id) FROM gx_ag WHERE a > 50');
RESET gpuext.force;
SELECT gx_check('SELECT count(*), sum(id), count(a), sum(s) FROM gx_ag WHERE a > 50');
SELECT gx_check('SELECT count(*), sum(a) FROM gx_ag WHERE a > 1000');
SELECT gx_error('SELECT count(*) FROM gx_ag WHERE 100 / (a - 42) > 0');
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;

-- not device aggregates of the GpuScan: other aggregates, DISTINCT, FILTER,
-- GROUP BY, HAVING, sums of int8 or floats, host quals, no quals (FILTER and
-- sums of int8 go to GpuPreAgg, a group table of one group); still the same
-- results
SET gpuext.force = on;
SELECT gx_check('SELECT sum(b) FROM gx_ag WHERE a > 50');
SELECT gx_check('SELECT avg(a), min(a), max(s) FROM gx_ag WHERE a > 50');
SELECT gx_check('SELECT count(DISTINCT a) FROM gx_ag WHERE a > 50');
SELECT gx_check('SELECT count(*) FILTER (WHERE s > 0) FROM gx_ag WHERE a > 50');
SELECT gx_check('SELECT a, count(*) FROM gx_ag WHERE a > 90 GROUP BY a');
SELECT gx_check('SELECT count(*) FROM gx_ag WHERE a > 50 HAVING count(*) > 0');
SELECT gx_check('SELECT count(*) FROM gx_ag WHERE a > 50 AND t LIKE ''x1%''');
SELECT * FROM gx_explain('SELECT sum(b) FROM gx_ag WHERE a > 50');
SELECT * FROM gx_explain('SELECT count(*) FROM gx_ag WHERE a > 50 AND t LIKE ''x1%''');
-- gpuext.enable_agg = off: GpuPreAgg's group table (one group) computes them;
-- with gpuext.enable_preagg off too, the rows go back to an Aggregate
SET gpuext.enable_agg = off;
SELECT * FROM gx_explain('SELECT count(*), sum(id) FROM gx_ag WHERE a > 50');
SELECT gx_check('SELECT count(*), sum(id) FROM gx_ag WHERE a > 50');
SET gpuext.enable_preagg = off;
SELECT * FROM gx_explain('SELECT count(*), sum(id) FROM gx_ag WHERE a > 50');
SELECT gx_check('SELECT count(*), sum(id) FROM gx_ag WHERE a > 50');
RESET gpuext.enable_preagg;
RESET gpuext.enable_agg;
RESET gpuext.force;

-- from the device cache
SELECT gpuext_cache_load('gx_ag');
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT count(*), sum(id) FROM gx_ag WHERE a > 50',
                         'ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF');
RESET gpuext.force;
SELECT gx_check('SELECT count(*), sum(id), count(a), sum(s) FROM gx_ag WHERE a > 50');
SELECT gx_check('SELECT count(*), sum(s) FROM gx_ag WHERE s < -20 OR a IS NULL');
UPDATE gx_ag SET a = 99 WHERE id = 3;
SELECT gx_check('SELECT count(*), sum(id), count(a), sum(s) FROM gx_ag WHERE a > 50');
SELECT gpuext_cache_evict('gx_ag');

DROP TABLE gx_ag, gx_ag_empty;
