-- gpujoin_inputs: GpuJoin reading a side's table itself (device inputs):
-- the inner side of counting, SEMI and ANTI joins, the outer side of
-- counting joins, from heap pages or from cached columns where they lie
-- on the device.  Every query is compared with gpuext off and with
-- gpuext.join_device_inputs off (the children's rows handed to the
-- device), on each device.

SET max_parallel_workers_per_gather = 0;

-- gx_check(q), the same with the children's rows handed to the device,
-- and whether q's forced plan reads a table by the device
CREATE FUNCTION gx_icheck(q text) RETURNS text LANGUAGE sql AS $$
    SELECT gx_setting_check(q, 'gpuext.join_device_inputs', 'inputs',
                            'Read By The Device: (.*)$', 'children')
$$;
-- EXPLAIN ANALYZE without timing
CREATE FUNCTION gx_iexplain(q text) RETURNS SETOF text LANGUAGE sql AS $$
    SELECT l FROM gx_explain(q, 'ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF') l
    WHERE l !~ '^\s*Buckets: '
$$;

CREATE TABLE gx_ia (id int4, k int4, k8 int8, kb bool, v int4);
INSERT INTO gx_ia
SELECT g, CASE WHEN g % 29 = 0 THEN NULL ELSE g % 5000 END,
       CASE WHEN g % 31 = 0 THEN NULL ELSE (g % 900)::int8 * 1000000007 END,
       CASE WHEN g % 13 = 0 THEN NULL ELSE g % 3 = 0 END,
       g * 7 % 1000
FROM generate_series(1, 40000) g;
CREATE TABLE gx_ib (id int4, k int4, k8 int8, kb bool, v int4);
INSERT INTO gx_ib
SELECT g, CASE WHEN g % 37 = 0 THEN NULL ELSE g * 3 % 7000 END,
       CASE WHEN g % 41 = 0 THEN NULL ELSE (g * 7 % 1300)::int8 * 1000000007 END,
       CASE WHEN g % 11 = 0 THEN NULL ELSE g % 5 = 0 END,
       g * 11 % 1000
FROM generate_series(1, 30000) g;
CREATE TABLE gx_iempty (id int4, k int4);
VACUUM ANALYZE gx_ia, gx_ib, gx_iempty;

-- float keys (gx_num: -0, NaN, infinities, NULLs) read by the device
SELECT gx_icheck('SELECT count(*) FROM gx_num a JOIN gx_num b ON a.f8 = b.f4');
SELECT gx_icheck('SELECT a.id FROM gx_num a WHERE EXISTS (SELECT 1 FROM gx_num b WHERE b.f8 = a.f8 AND b.id > 2900)');
SELECT gx_icheck('SELECT a.id FROM gx_num a WHERE NOT EXISTS (SELECT 1 FROM gx_num b WHERE b.f4 = a.f8 AND b.i2 = a.i2)');
SELECT gx_icheck('SELECT a.id, b.id FROM gx_num a JOIN gx_num b ON a.f4 = b.f4 WHERE b.id > 2990');

-- from heap pages: counts (both sides), SEMI and ANTI (the inner side)
SELECT gx_icheck('SELECT count(*) FROM gx_ia a JOIN gx_ib b ON a.k = b.k');
SELECT gx_icheck('SELECT count(*) FROM gx_ia a JOIN gx_ib b ON a.k = b.k AND a.k8 = b.k8');
SELECT gx_icheck('SELECT count(*) FROM gx_ia a JOIN gx_ib b ON a.kb = b.kb WHERE a.v < 10 AND b.v < 20');
SELECT gx_icheck('SELECT count(*) FROM gx_ia a WHERE EXISTS (SELECT 1 FROM gx_ib b WHERE b.k = a.k AND b.v > 500)');
SELECT gx_icheck('SELECT count(*) FROM gx_ia a WHERE NOT EXISTS (SELECT 1 FROM gx_ib b WHERE b.k = a.k)');
SELECT gx_icheck('SELECT a.id FROM gx_ia a WHERE EXISTS (SELECT 1 FROM gx_ib b WHERE b.k8 = a.k8 AND b.v % 3 = 0)');
SELECT gx_icheck('SELECT a.id, a.v FROM gx_ia a WHERE NOT EXISTS (SELECT 1 FROM gx_ib b WHERE b.k = a.k) AND a.v < 300');
-- range joins: the inner key and the outer side's bounds (computed by
-- the device's program) read from the tables; a bound that overflows
-- raises PostgreSQL's error
SELECT gx_icheck('SELECT count(*) FROM gx_ia a JOIN gx_ib b ON b.k BETWEEN a.k AND a.k + 2 WHERE a.id <= 4000 AND b.id <= 3000');
SELECT gx_icheck('SELECT count(*) FROM gx_ia a WHERE a.id <= 4000 AND EXISTS (SELECT 1 FROM gx_ib b WHERE b.k > a.k * 2 AND b.k < a.k * 2 + 3 AND b.v > 100 AND b.id <= 3000)');
SELECT gx_icheck('SELECT a.id FROM gx_ia a WHERE a.id <= 3000 AND NOT EXISTS (SELECT 1 FROM gx_ib b WHERE b.k8 >= a.k8 - 5 AND b.k8 <= a.k8 AND b.id <= 3000)');
SELECT gx_icheck('SELECT a.id, b.id FROM gx_ia a JOIN gx_ib b ON b.k >= a.k AND b.k < a.k + 1 WHERE a.v < 20 AND b.id <= 5000');
SELECT gx_icheck('SELECT count(*) FROM gx_ia a JOIN gx_ib b ON b.k8 <= a.k8 * 1000000000000');
-- an inner side whose keys are all NULL, or that is empty
SELECT gx_icheck('SELECT count(*) FROM gx_ia a WHERE NOT EXISTS (SELECT 1 FROM gx_ib b WHERE b.k = a.k AND b.k IS NULL)');
SELECT gx_icheck('SELECT a.id FROM gx_ia a WHERE EXISTS (SELECT 1 FROM gx_ib b WHERE b.k = a.k AND b.id < 0)');
SELECT gx_icheck('SELECT count(*) FROM gx_ia a JOIN gx_iempty e ON a.k = e.k');
SELECT gx_icheck('SELECT count(*) FROM gx_ia a WHERE NOT EXISTS (SELECT 1 FROM gx_iempty e WHERE e.k = a.k)');
-- a qual that raises an error on the device raises PostgreSQL's
SELECT gx_icheck('SELECT count(*) FROM gx_ia a JOIN gx_ib b ON a.k = b.k WHERE 100 / (b.v - 11) > 0');
-- the plan: the tables read by the device
SET gpuext.force = on;
SELECT * FROM gx_iexplain('SELECT count(*) FROM gx_ia a JOIN gx_ib b ON a.k = b.k');
SELECT * FROM gx_explain('SELECT a.id FROM gx_ia a WHERE EXISTS (SELECT 1 FROM gx_ib b WHERE b.k = a.k)');
-- a side with a Param in its quals is read by its child
SELECT * FROM gx_explain('SELECT x, (SELECT count(*) FROM gx_ia a JOIN gx_ib b ON a.k = b.k WHERE a.v < x) FROM generate_series(0, 1000, 500) x');
RESET gpuext.force;
SELECT gx_icheck('SELECT x, (SELECT count(*) FROM gx_ia a JOIN gx_ib b ON a.k = b.k WHERE a.v < x) FROM generate_series(0, 1000, 250) x');

-- the outer side's rows from its table, under a LIMIT and rescanned
-- (each subquery run starts the outer side again, and ends early)
SELECT gx_icheck('SELECT n.x, (SELECT count(*) FROM (SELECT a.id FROM gx_ia a WHERE EXISTS (SELECT 1 FROM gx_ib b WHERE b.k = a.k) LIMIT 1000 * n.x) s) FROM generate_series(1, 3) n(x)');
SELECT gx_icheck('SELECT a.id, b.id FROM gx_ia a JOIN gx_ib b ON a.k = b.k WHERE a.v < 50');

-- the planner's estimate far below the inner side: the table is made
-- again, larger, and the side read again (no ANALYZE after the insert)
CREATE TABLE gx_igrow (id int4, k int4);
INSERT INTO gx_igrow SELECT g, g FROM generate_series(1, 10) g;
ANALYZE gx_igrow;
INSERT INTO gx_igrow SELECT g, g % 6000 FROM generate_series(11, 50000) g;
SELECT gx_icheck('SELECT count(*) FROM gx_ia a WHERE EXISTS (SELECT 1 FROM gx_igrow g WHERE g.k = a.k)');
SET gpuext.force = on;
SELECT * FROM gx_iexplain('SELECT count(*) FROM gx_ia a WHERE EXISTS (SELECT 1 FROM gx_igrow g WHERE g.k = a.k)');
-- no room for the table: PostgreSQL's Hash Join, the same count
SET gpuext.session_memory = '64kB';
SELECT * FROM gx_iexplain('SELECT count(*) FROM gx_ia a JOIN gx_ib b ON a.k = b.k');
RESET gpuext.session_memory;
RESET gpuext.force;

-- from cached columns, with stale blocks read from the heap
-- (VACUUM again right before loading: a snapshot held elsewhere while the
-- first VACUUM ran, an autovacuum's ANALYZE, leaves blocks not all-visible)
VACUUM gx_ia, gx_ib;
SELECT gpuext_cache_load('gx_ia') > 0 AS loaded, gpuext_cache_load('gx_ib') > 0 AS loaded;
SELECT gx_icheck('SELECT count(*) FROM gx_ia a JOIN gx_ib b ON a.k = b.k');
SELECT gx_icheck('SELECT count(*) FROM gx_ia a JOIN gx_ib b ON a.k8 = b.k8 WHERE a.v < 500');
SELECT gx_icheck('SELECT a.id FROM gx_ia a WHERE NOT EXISTS (SELECT 1 FROM gx_ib b WHERE b.k = a.k)');
SELECT gx_icheck('SELECT count(*) FROM gx_ia a JOIN gx_ib b ON b.k BETWEEN a.k - 1 AND a.k + 1 WHERE a.id <= 4000 AND b.id <= 3000');
SET gpuext.force = on;
SELECT l ~ 'Outer Cached Chunks: [1-9]' AS outer_cached, l2 ~ 'Inner Cached Chunks: [1-9]' AS inner_cached
FROM (SELECT string_agg(l, ' ') FILTER (WHERE l ~ 'Outer Cached') AS l,
             string_agg(l, ' ') FILTER (WHERE l ~ 'Inner Cached') AS l2
      FROM gx_iexplain('SELECT count(*) FROM gx_ia a JOIN gx_ib b ON a.k = b.k') l) s;
RESET gpuext.force;
UPDATE gx_ib SET k = k + 1 WHERE id % 97 = 0;
DELETE FROM gx_ia WHERE id % 101 = 0;
INSERT INTO gx_ia SELECT g, g % 5000, NULL, NULL, 1 FROM generate_series(40001, 40500) g;
SELECT gx_icheck('SELECT count(*) FROM gx_ia a JOIN gx_ib b ON a.k = b.k');
SELECT gx_icheck('SELECT count(*) FROM gx_ia a WHERE EXISTS (SELECT 1 FROM gx_ib b WHERE b.k = a.k)');
SELECT gx_icheck('SELECT a.id FROM gx_ia a WHERE NOT EXISTS (SELECT 1 FROM gx_ib b WHERE b.k = a.k)');
SELECT gx_icheck('SELECT count(*) FROM gx_ia a JOIN gx_ib b ON b.k BETWEEN a.k - 1 AND a.k + 1 WHERE a.id <= 4000 AND b.id <= 3000');
-- in a transaction that changed the inner side: its own rows are seen
BEGIN;
UPDATE gx_ib SET k = -1 WHERE id <= 100;
SELECT gx_icheck('SELECT count(*) FROM gx_ia a WHERE NOT EXISTS (SELECT 1 FROM gx_ib b WHERE b.k = a.k)');
ROLLBACK;
SELECT gpuext_cache_evict('gx_ia') >= 0 AS evicted, gpuext_cache_evict('gx_ib') >= 0 AS evicted;

DROP FUNCTION gx_icheck(text);
DROP FUNCTION gx_iexplain(text);
DROP TABLE gx_ia, gx_ib, gx_iempty, gx_igrow;
