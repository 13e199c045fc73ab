--
-- stat: gpuext_stat, the cumulative GpuScan statistics per relation of
-- this database, and gpuext_stat_reset() (not executable by PUBLIC).
-- Figures that depend on the device or on timing are checked as
-- relations between counters, not printed.
--
CREATE TABLE gx_st (id int4, a int4);
INSERT INTO gx_st SELECT g, g % 10 FROM generate_series(1, 100000) g;
VACUUM ANALYZE gx_st;
CREATE TABLE gx_st2 (id int4);
INSERT INTO gx_st2 SELECT g FROM generate_series(1, 1000) g;

SELECT gpuext_stat_reset() >= 0 AS reset;
SELECT count(*) FROM gpuext_stat;

SET gpuext.force = on;
SELECT count(*) FROM gx_st WHERE a = 3;
SELECT count(*) FROM gx_st WHERE a = 3 AND id > 50000;
SELECT id FROM gx_st2 WHERE id % 250 = 0;
-- EXPLAIN alone runs nothing, and a GpuScan that never starts counts no scan
SELECT gx_explain('SELECT id FROM gx_st2 WHERE id = 7');
SELECT 1 WHERE false AND EXISTS (SELECT 1 FROM gx_st2 WHERE id = 7);
-- a parallel scan counts once, with its workers' chunks and rows
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SELECT count(*) FROM gx_st WHERE a = 4;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET gpuext.force;

SELECT relation, scans, rows_in, rows_selected,
       chunks > 0 AS chunks,
       chunks_jit + chunks_interpreted = chunks AS jit_split,
       chunks_gpu <= chunks AND chunks_mapped <= chunks_gpu AS device_split,
       wall_ms >= 0 AND device_ms >= 0 AND wait_ms >= 0 AS times
FROM gpuext_stat ORDER BY relation::text;

-- the view shows this database only; the function every database
SELECT count(*) = (SELECT count(*) FROM gpuext_stat) AS only_this_database
FROM gpuext_stat() WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database());

-- resetting is for those the administrator lets
CREATE ROLE gx_stat_user;
SET ROLE gx_stat_user;
SELECT count(*) >= 0 AS can_read FROM gpuext_stat;
SELECT gpuext_stat_reset();
RESET ROLE;
SELECT gpuext_stat_reset();
SELECT count(*) FROM gpuext_stat;
DROP ROLE gx_stat_user;
DROP TABLE gx_st, gx_st2;
