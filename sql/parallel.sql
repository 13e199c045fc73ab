--
-- parallel: Parallel Custom Scan (GpuScan) under Gather and Gather Merge.
-- Plan shapes, results against PostgreSQL's own parallel plans (gx_check:
-- gpuext off, then GpuScan forced on each device), with and without leader
-- participation, device errors raised in workers, rescans of a Gather
-- (nested loop, correlated subplan), two parallel GpuScans in one plan,
-- EXPLAIN ANALYZE counters summed over the leader and the workers, and
-- no partial path for parallel-unsafe quals.
--

-- rows, not device aggregates (tested in aggs.sql), go through the Gather
SET gpuext.enable_agg = off;
SET gpuext.enable_preagg = off;

-- 300000 rows (about 2500 pages), NULLs in every filtered column
CREATE TABLE gx_par (id int4, a int4, b int8, f float8, r float4, flag bool, t text);
INSERT INTO gx_par
SELECT g,
       CASE WHEN g % 11 = 0 THEN NULL ELSE g % 1000 - 500 END,
       CASE WHEN g % 13 = 0 THEN NULL ELSE g::int8 * 7919 % 1000003 END,
       CASE WHEN g % 17 = 0 THEN NULL ELSE (g * 37 % 20001) / 100.0 - 100 END,
       CASE WHEN g % 19 = 0 THEN NULL ELSE (g % 1001) / 10.0 - 50 END,
       CASE WHEN g % 7 = 0 THEN NULL ELSE g % 2 = 0 END,
       'r' || g
FROM generate_series(1, 300000) g;
-- ANALYZE samples 300 x the largest statistics target rows: 300000, the
-- whole table, so the estimates are the same in every run (gpuext.force
-- keeps the GpuScan's real costs: the forced plans below are chosen by
-- cost, and a sampled estimate could tip a close choice either way)
ALTER TABLE gx_par ALTER COLUMN a SET STATISTICS 1000;
VACUUM ANALYZE gx_par;

-- EXPLAIN ANALYZE of q with the counters that depend on how the blocks
-- were shared out masked: chunks, and the per-loop rows of the parallel
-- scan when the leader takes part
CREATE FUNCTION gx_par_analyze(q text) RETURNS SETOF text LANGUAGE sql AS $$
    SELECT CASE WHEN current_setting('parallel_leader_participation')::bool
                THEN regexp_replace(l, '^(.*Parallel Custom Scan.*)\(actual rows=\d+ loops=\d+\)$',
                                    '\1(actual rows=N loops=N)')
                ELSE l END
    FROM (SELECT regexp_replace(l, 'Chunks: \d+$', 'Chunks: N') AS l
          FROM gx_explain(q, 'ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF') l) s
$$;

-- the GpuScan of q's plan: parallel or not
CREATE FUNCTION gx_par_plan(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        IF line LIKE '%Parallel Custom Scan (GpuScan)%' THEN
            RETURN 'parallel';
        ELSIF line LIKE '%Custom Scan (GpuScan)%' THEN
            RETURN 'serial';
        END IF;
    END LOOP;
    RETURN 'none';
END $$;

-- gpuext.force keeps real costs: with PostgreSQL's default parallel costs
-- the Gather's cost per row (parallel_tuple_cost) makes the serial GpuScan
-- win for a query that returns many rows
SET gpuext.force = on;
SELECT gx_explain('SELECT id FROM gx_par WHERE a > 0');

-- free parallelism: the Gather over the partial path wins
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SELECT gx_explain('SELECT id FROM gx_par WHERE a > 490');
SELECT gx_explain('SELECT count(*), sum(b) FROM gx_par WHERE a > 0 AND f < 50');
-- Gather Merge: each process sorts its rows, the leader merges them and
-- the Limit takes 10; with parallel_tuple_cost = 0 a Sort of all the rows
-- above a Gather costs about as much, so the default per-row cost of a
-- Gather makes the choice
SET parallel_tuple_cost = 0.1;
SELECT gx_explain('SELECT id, f FROM gx_par WHERE a > 490 ORDER BY f DESC NULLS LAST, id LIMIT 10');
SET parallel_tuple_cost = 0;
-- a host qual runs in each process, after its device filter
SELECT gx_explain('SELECT id FROM gx_par WHERE a > 490 AND t LIKE ''r1%''');

-- results, with and without leader participation
SET parallel_leader_participation = on;
SELECT q, gx_par_plan(q), gx_check(q) FROM (VALUES
    ('SELECT id FROM gx_par WHERE a > 490'),
    ('SELECT id, a, f FROM gx_par WHERE a IS NULL OR f IS NULL OR r > 49.5'),
    ('SELECT id FROM gx_par WHERE flag IS NOT TRUE AND b % 1000 < 3'),
    ('SELECT id FROM gx_par WHERE a > 490 AND t LIKE ''r1%'''),
    ('SELECT count(*), sum(b), min(f), max(r) FROM gx_par WHERE a > 0 AND f < 50'),
    ('SELECT count(*) FROM gx_par WHERE id > 0'),
    ('SELECT count(*) FROM gx_par WHERE id < 0'),
    ('SELECT id, f FROM gx_par WHERE a > 490 ORDER BY f DESC NULLS LAST, id LIMIT 10')) v(q);
SET parallel_leader_participation = off;
SELECT q, gx_par_plan(q), gx_check(q) FROM (VALUES
    ('SELECT id FROM gx_par WHERE a > 490'),
    ('SELECT id, a, f FROM gx_par WHERE a IS NULL OR f IS NULL OR r > 49.5'),
    ('SELECT count(*), sum(b), min(f), max(r) FROM gx_par WHERE a > 0 AND f < 50'),
    ('SELECT count(*) FROM gx_par WHERE id > 0'),
    ('SELECT id, f FROM gx_par WHERE a > 490 ORDER BY f DESC NULLS LAST, id LIMIT 10')) v(q);
-- the same with the backend deforming
SET gpuext.device_deform = off;
SELECT gx_check('SELECT id, a, f FROM gx_par WHERE a IS NULL OR f IS NULL OR r > 49.5');
SET parallel_leader_participation = on;
SELECT gx_check('SELECT count(*), sum(b), min(f), max(r) FROM gx_par WHERE a > 0 AND f < 50');
RESET gpuext.device_deform;

-- ORDER BY through Gather Merge: the rows themselves, in order
SELECT id, f FROM gx_par WHERE a > 490 ORDER BY f DESC NULLS LAST, id LIMIT 10;
SELECT count(*) AS n, bool_and(ok) AS in_order FROM (
    SELECT f <= lag(f) OVER () OR lag(f) OVER () IS NULL AS ok
    FROM (SELECT f FROM gx_par WHERE a > 480 AND f IS NOT NULL ORDER BY f DESC) s) o;

-- device errors in a worker reach the leader with their SQLSTATE and
-- message; with the leader out, the error can only come from a worker
SET parallel_leader_participation = off;
SELECT gx_error('SELECT id FROM gx_par WHERE a / (id - id) > 0');
-- overflow only on the last rows of the table
SELECT gx_error('SELECT id FROM gx_par WHERE 2147483647 + id / 299999 > 0');
SELECT gx_error('SELECT count(*) FROM gx_par WHERE b * 10000000000000 > 0');
DO $$
DECLARE
    st text;
    ctx text;
BEGIN
    PERFORM count(*) FROM gx_par WHERE 2147483647 + id / 299999 > 0;
    RAISE NOTICE 'no error';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, ctx = PG_EXCEPTION_CONTEXT;
    RAISE NOTICE 'error %, from a parallel worker: %', st, ctx LIKE '%parallel worker%';
END $$;
SET parallel_leader_participation = on;
SELECT gx_error('SELECT id FROM gx_par WHERE 2147483647 + id / 299999 > 0');
-- the session goes on
SELECT gx_par_plan('SELECT count(*) FROM gx_par WHERE a = 7'),
       gx_check('SELECT count(*) FROM gx_par WHERE a = 7');

-- Params reach the workers: a generic plan's parameters, an initplan's
-- output (evaluated by the leader)
SET plan_cache_mode = force_generic_plan;
PREPARE gx_par_p(int4) AS SELECT count(*) FROM gx_par WHERE a > $1;
SELECT gx_explain('EXECUTE gx_par_p(490)');
EXECUTE gx_par_p(490);
EXECUTE gx_par_p(-1000);
DEALLOCATE gx_par_p;
RESET plan_cache_mode;
SELECT gx_explain('SELECT id FROM gx_par WHERE a > (SELECT 490)');
SELECT gx_check('SELECT id FROM gx_par WHERE a > (SELECT 490)');

-- rescan: a Gather under a nested loop is run three times
SET enable_material = off;
SELECT gx_explain('SELECT * FROM (SELECT count(*) FROM gx_par WHERE a < 0) ss RIGHT JOIN (VALUES (1), (2), (3)) v(x) ON true');
SELECT gx_check('SELECT * FROM (SELECT count(*) FROM gx_par WHERE a < 0) ss RIGHT JOIN (VALUES (1), (2), (3)) v(x) ON true');
SELECT * FROM (SELECT count(*) FROM gx_par WHERE a < 0) ss RIGHT JOIN (VALUES (1), (2), (3)) v(x) ON true;
-- rescan: a Gather in a correlated subplan, run once per outer row
SELECT gx_explain('SELECT x, (SELECT count(*) FROM gx_par WHERE a < -400 HAVING count(*) > x * 10000) FROM generate_series(1, 4) x');
SELECT gx_check('SELECT x, (SELECT count(*) FROM gx_par WHERE a < -400 HAVING count(*) > x * 10000) FROM generate_series(1, 4) x');
SELECT x, (SELECT count(*) FROM gx_par WHERE a < -400 HAVING count(*) > x * 10000) FROM generate_series(1, 4) x;
SET parallel_leader_participation = off;
SELECT gx_check('SELECT x, (SELECT count(*) FROM gx_par WHERE a < -400 HAVING count(*) > x * 10000) FROM generate_series(1, 4) x');
RESET enable_material;

-- two parallel GpuScans in one plan (Parallel Hash Join; GpuJoin, which
-- gpuext.force would plan here, is not parallel: sql/gpujoin.sql)
SET parallel_leader_participation = on;
SET gpuext.enable_gpujoin = off;
SELECT gx_explain('SELECT count(*) FROM gx_par p1 JOIN gx_par p2 ON p1.id = p2.b WHERE p1.a > 400 AND p2.f < -90');
SELECT gx_check('SELECT count(*) FROM gx_par p1 JOIN gx_par p2 ON p1.id = p2.b WHERE p1.a > 400 AND p2.f < -90');
RESET gpuext.enable_gpujoin;

-- EXPLAIN ANALYZE: the device counters are totals over all the processes
-- (rows removed on the device: 300000 - 2455 rows kept), the same as
-- serially; with the leader out they come from the workers only
SELECT gx_par_analyze('SELECT count(*) FROM gx_par WHERE a > 490');
SET parallel_leader_participation = off;
SELECT gx_par_analyze('SELECT count(*) FROM gx_par WHERE a > 490');
-- and over the rescans: three times as many
SET enable_material = off;
SELECT gx_par_analyze('SELECT * FROM (SELECT count(*) FROM gx_par WHERE a > 490) ss RIGHT JOIN (VALUES (1), (2), (3)) v(x) ON true');
RESET enable_material;
SET parallel_leader_participation = on;
SET max_parallel_workers_per_gather = 0;
SELECT gx_par_analyze('SELECT count(*) FROM gx_par WHERE a > 490');
SET max_parallel_workers_per_gather = 2;

-- no worker to be had: the leader scans the whole table through the
-- parallel scan (even when it should not take part)
SET max_parallel_workers = 0;
SELECT gx_par_analyze('SELECT count(*) FROM gx_par WHERE a > 490');
SET parallel_leader_participation = off;
SELECT gx_par_plan('SELECT id FROM gx_par WHERE a > 490'),
       gx_check('SELECT id FROM gx_par WHERE a > 490');
RESET max_parallel_workers;
SET parallel_leader_participation = on;
-- a plan with a Gather run without parallel mode (a lazily evaluated SQL
-- function, not run to completion at once): a serial scan of the table
CREATE FUNCTION gx_par_lazy() RETURNS SETOF int4 LANGUAGE sql
    AS 'SELECT id FROM gx_par WHERE a > 490';
SELECT count(*) FROM (SELECT gx_par_lazy()) s;
-- a LIMIT stops the workers early; the next queries run normally
SELECT count(*) FROM (SELECT id FROM gx_par WHERE a > 0 LIMIT 5) s;
SET parallel_leader_participation = off;
SELECT count(*) FROM (SELECT id FROM gx_par WHERE a > 0 LIMIT 5) s;
SET parallel_leader_participation = on;
SELECT count(*) FROM gx_par WHERE a > 490;

-- partitions: Parallel Append over parallel GpuScans
CREATE TABLE gx_ppart (id int4, a int4) PARTITION BY RANGE (id);
-- (partitions of different sizes: Parallel Append runs the costlier first,
-- so its order is the same in every run)
CREATE TABLE gx_ppart1 PARTITION OF gx_ppart FOR VALUES FROM (0) TO (60000);
CREATE TABLE gx_ppart2 PARTITION OF gx_ppart FOR VALUES FROM (60000) TO (100000);
INSERT INTO gx_ppart SELECT g, g % 100 FROM generate_series(0, 99999) g;
VACUUM ANALYZE gx_ppart;
SELECT gx_explain('SELECT count(*) FROM gx_ppart WHERE a > 90');
SELECT gx_check('SELECT id FROM gx_ppart WHERE a > 90');

-- no partial path when a qual is not parallel-safe: a serial GpuScan
CREATE FUNCTION gx_par_unsafe(int4) RETURNS bool LANGUAGE plpgsql PARALLEL UNSAFE
    AS $$ BEGIN RETURN $1 % 2 = 0; END $$;
SELECT gx_explain('SELECT id FROM gx_par WHERE a > 490 AND gx_par_unsafe(id)');
SELECT gx_check('SELECT id FROM gx_par WHERE a > 490 AND gx_par_unsafe(id)');
-- nor for a restricted one (random() runs in the leader only)
SELECT gx_explain('SELECT id FROM gx_par WHERE a > 490 AND random() >= 0');

-- cost-based choice still works with free parallelism (no force): here
-- PostgreSQL's Parallel Seq Scan is cheaper than the device
RESET gpuext.force;
SELECT gx_explain('SELECT id FROM gx_par WHERE a > 490');
-- and a parallel GpuScan is chosen by cost when the device is cheap
SET gpuext.gpu_setup_cost = 0;
SET gpuext.gpu_operator_cost = 0;
SET cpu_operator_cost = 0.01;
SELECT gx_explain('SELECT id FROM gx_par WHERE a * 3 + 1 > 1470 AND f * 2 > 150');
RESET gpuext.gpu_setup_cost;
RESET gpuext.gpu_operator_cost;
RESET cpu_operator_cost;

-- visibility in the workers: the leader's own uncommitted changes (the
-- snapshot and command ids go to the workers), then dead tuples and pages
-- that are not all-visible, then after VACUUM
SET gpuext.force = on;
BEGIN;
UPDATE gx_par SET a = 495 WHERE id % 1000 = 1;
DELETE FROM gx_par WHERE id % 1000 = 2;
SELECT gx_par_analyze('SELECT count(*) FROM gx_par WHERE a > 490');
SELECT gx_par_plan('SELECT id, a FROM gx_par WHERE a > 490'),
       gx_check('SELECT id, a FROM gx_par WHERE a > 490');
ROLLBACK;
SELECT count(*) FROM gx_par WHERE a > 490;
UPDATE gx_par SET a = -a WHERE id % 100 = 1;
DELETE FROM gx_par WHERE id % 10 = 3;
SELECT gx_check('SELECT id, a FROM gx_par WHERE a > 490 OR a < -498');
SET parallel_leader_participation = off;
SELECT gx_check('SELECT id, a FROM gx_par WHERE a > 490 OR a < -498');
VACUUM gx_par;
SELECT gx_check('SELECT id, a FROM gx_par WHERE a > 490 OR a < -498');
RESET ALL;
