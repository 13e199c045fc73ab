-- gpujoin_gather: a GpuJoin that returns rows has the device gather the
-- columns it returns (gathered output, gpuext.join_gather): the outer
-- ones from the outer table's program, the inner ones from the table's
-- inner column store.  Every query is compared with gpuext off on each
-- device, and again with gpuext.join_gather off (the rows read back from
-- the tables and the inner rows kept); the last column says whether the
-- forced plan gathers.

SET max_parallel_workers_per_gather = 0;

-- gx_check(q), the same with gathering off, and whether q's forced plan gathers
CREATE FUNCTION gx_gcheck(q text) RETURNS text LANGUAGE sql AS $$
    SELECT gx_setting_check(q, 'gpuext.join_gather', 'gather',
                            'Columns (Gathered On Device: \d+)', 'not gathered')
$$;

CREATE TABLE gx_ga (id int4, k int4, k8 int8, v int4, f4 float4, f8 float8, b bool,
                    d date, ts timestamp, tz timestamptz, s int2, t text);
INSERT INTO gx_ga
SELECT g, CASE WHEN g % 29 = 0 THEN NULL ELSE g % 5000 END,
       CASE WHEN g % 31 = 0 THEN NULL ELSE (g % 900)::int8 * 1000000007 END,
       g * 7 % 1000,
       CASE WHEN g % 13 = 0 THEN NULL ELSE (g % 77 - 38) / 4.0 END,
       CASE WHEN g % 17 = 0 THEN NULL ELSE (g % 91 - 45) / 8.0 END,
       CASE WHEN g % 11 = 0 THEN NULL ELSE g % 3 = 0 END,
       CASE WHEN g % 19 = 0 THEN NULL ELSE date '2020-01-01' + g % 1500 END,
       CASE WHEN g % 23 = 0 THEN NULL ELSE timestamp '2020-01-01' + g * interval '7 minutes' END,
       CASE WHEN g % 37 = 0 THEN NULL
            ELSE timestamptz '2020-01-01 00:00:00+00' + g * interval '13 seconds' END,
       CASE WHEN g % 41 = 0 THEN NULL ELSE (g % 601 - 300)::int2 END,
       'a' || g
FROM generate_series(1, 40000) g;
INSERT INTO gx_ga VALUES
    (40001, 1, 1, 1, 'NaN', 'NaN', true, 'infinity', 'infinity', 'infinity', 0, 'nan'),
    (40002, 2, 2, 2, 'Infinity', '-Infinity', false, '-infinity', '-infinity', '-infinity', 1, 'inf'),
    (40003, 3, 3, 3, '-0', '-0', NULL, '2021-06-15', '2021-06-15 12:00', '2021-06-15 12:00+00', -1, 'minus zero');
CREATE TABLE gx_gb (id int4, k int4, k8 int8, v int4, f4 float4, f8 float8, b bool,
                    d date, ts timestamp, s int2, t text);
INSERT INTO gx_gb
SELECT g, CASE WHEN g % 37 = 0 THEN NULL ELSE g * 3 % 7000 END,
       CASE WHEN g % 41 = 0 THEN NULL ELSE (g * 7 % 1300)::int8 * 1000000007 END,
       g * 11 % 1000,
       CASE WHEN g % 7 = 0 THEN NULL ELSE (g % 55 - 27) / 2.0 END,
       CASE WHEN g % 9 = 0 THEN NULL ELSE (g % 63 - 31) / 4.0 END,
       CASE WHEN g % 5 = 0 THEN NULL ELSE g % 2 = 0 END,
       CASE WHEN g % 43 = 0 THEN NULL ELSE date '2019-06-01' + g % 999 END,
       CASE WHEN g % 47 = 0 THEN NULL ELSE timestamp '2019-06-01' + g * interval '11 minutes' END,
       CASE WHEN g % 53 = 0 THEN NULL ELSE (g % 301 - 150)::int2 END,
       'b' || g
FROM generate_series(1, 30000) g;
INSERT INTO gx_gb VALUES
    (30001, 1, 1, 1, '-Infinity', 'NaN', true, 'infinity', '-infinity', 7, 'nan'),
    (30002, 3, 3, 3, '-0', '0', false, '-infinity', 'infinity', -7, 'zero');
CREATE TABLE gx_gempty (id int4, k int4, v int4);
VACUUM ANALYZE gx_ga, gx_gb, gx_gempty;

-- INNER: columns of every device type from both sides (NULLs, NaN,
-- infinities, -0), a key returned too, a column returned twice
SELECT gx_gcheck('SELECT a.id, b.id, a.k, a.f4, a.f8, b.f4, b.f8 FROM gx_ga a JOIN gx_gb b ON a.k = b.k');
SELECT gx_gcheck('SELECT a.b, a.d, a.ts, a.tz, a.s, b.b, b.d, b.ts, b.s, a.k8 FROM gx_ga a JOIN gx_gb b ON a.k8 = b.k8');
SELECT gx_gcheck('SELECT b.v, a.v, b.v, a.id FROM gx_ga a JOIN gx_gb b ON a.k = b.k AND a.k8 = b.k8');
SELECT gx_gcheck('SELECT a.id, b.id FROM gx_ga a JOIN gx_gb b ON a.f8 = b.f8 WHERE a.id < 3000');
-- quals on either table (the device's), and a host qual over the joined row
SELECT gx_gcheck('SELECT a.id, b.v FROM gx_ga a JOIN gx_gb b ON a.k = b.k WHERE a.v < 100 AND b.v > 500');
SELECT gx_gcheck('SELECT a.id, b.id FROM gx_ga a JOIN gx_gb b ON a.k = b.k WHERE a.v + b.v > 1500');
SELECT gx_gcheck('SELECT a.id, b.t FROM gx_ga a JOIN gx_gb b ON a.k = b.k WHERE a.v < 50');
-- LEFT: the unmatched outer rows with their inner columns NULL
SELECT gx_gcheck('SELECT a.id, a.f8, b.id, b.f4, b.d FROM gx_ga a LEFT JOIN gx_gb b ON a.k = b.k');
SELECT gx_gcheck('SELECT a.id, b.s FROM gx_ga a LEFT JOIN gx_gb b ON a.k = b.k AND b.v < 10');
-- SEMI and ANTI: the outer rows' columns alone
SELECT gx_gcheck('SELECT a.id, a.ts, a.f4 FROM gx_ga a WHERE EXISTS (SELECT 1 FROM gx_gb b WHERE b.k = a.k)');
SELECT gx_gcheck('SELECT a.id, a.b FROM gx_ga a WHERE NOT EXISTS (SELECT 1 FROM gx_gb b WHERE b.k8 = a.k8)');
SELECT gx_gcheck('SELECT a.k FROM gx_ga a WHERE a.k IN (SELECT b.k FROM gx_gb b WHERE b.v > 900)');
-- the sort-merge join
SET gpuext.enable_hashjoin = off;
SELECT gx_gcheck('SELECT a.id, b.id, a.f8, b.d FROM gx_ga a JOIN gx_gb b ON a.k = b.k WHERE a.v < 300');
SELECT gx_gcheck('SELECT a.id, b.ts FROM gx_ga a LEFT JOIN gx_gb b ON a.k8 = b.k8 WHERE a.id < 5000');
RESET gpuext.enable_hashjoin;
-- the range join (band)
SET gpuext.enable_hashjoin = off;
SET gpuext.enable_mergejoin = off;
SELECT gx_gcheck('SELECT a.id, b.id, b.f8 FROM gx_ga a JOIN gx_gb b ON b.k BETWEEN a.k AND a.k + 2 WHERE a.id <= 3000 AND b.id <= 3000');
SELECT gx_gcheck('SELECT a.id, a.d FROM gx_ga a WHERE a.id <= 2000 AND EXISTS (SELECT 1 FROM gx_gb b WHERE b.k > a.k AND b.k < a.k + 3)');
RESET gpuext.enable_hashjoin;
RESET gpuext.enable_mergejoin;
-- skew: most of both sides hold one key (many pairs: several probe passes)
CREATE TABLE gx_gskew AS SELECT g AS id, CASE WHEN g % 10 < 9 THEN 7 ELSE g END AS k,
    (g * 31 % 1000)::float8 AS f FROM generate_series(1, 2000) g;
VACUUM ANALYZE gx_gskew;
SELECT gx_gcheck('SELECT a.id, b.id, a.f, b.f FROM gx_gskew a JOIN gx_gskew b ON a.k = b.k');
-- ... cached: a cached batch's passes run at once, its entry held by its
-- slot, when their entries fit in hash_mem; else its blocks are read from
-- the heap (EXPLAIN ANALYZE: Outer Cached Chunks Read From Heap)
SELECT gpuext_cache_load('gx_gskew') > 0 AS skew_cached;
SET work_mem = '256MB';
SELECT gx_gcheck('SELECT a.id, b.id, a.f, b.f FROM gx_gskew a JOIN gx_gskew b ON a.k = b.k');
SET gpuext.force = on;
SELECT l FROM gx_jexplain('SELECT a.id, b.id, a.f, b.f FROM gx_gskew a JOIN gx_gskew b ON a.k = b.k') l
WHERE l ~ 'Outer Cached|Rows From Device';
RESET work_mem;
SELECT l FROM gx_jexplain('SELECT a.id, b.id, a.f, b.f FROM gx_gskew a JOIN gx_gskew b ON a.k = b.k') l
WHERE l ~ 'Outer Cached|Rows From Device';
RESET gpuext.force;
SELECT gpuext_cache_evict('gx_gskew') > 0 AS skew_evicted;
-- an empty inner side, an inner side of NULL keys only
SELECT gx_gcheck('SELECT a.id, e.v FROM gx_ga a LEFT JOIN gx_gempty e ON a.k = e.k WHERE a.id < 100');
SELECT gx_gcheck('SELECT a.id, b.id FROM gx_ga a JOIN gx_gb b ON a.k = b.k AND b.k IS NULL');
-- not gathered: a text column (returned from the tables), RIGHT and FULL
SELECT gx_gcheck('SELECT a.t, b.id FROM gx_ga a JOIN gx_gb b ON a.k = b.k WHERE a.v < 100');
SELECT gx_gcheck('SELECT a.id, b.id FROM gx_ga a RIGHT JOIN gx_gb b ON a.k = b.k WHERE b.v < 100');
SELECT gx_gcheck('SELECT a.id, b.id FROM gx_ga a FULL JOIN gx_gb b ON a.k = b.k');
-- the inner side is another join (its rows fill the column store)
SELECT gx_gcheck('SELECT a.id, x.bid FROM gx_ga a JOIN (SELECT b.id AS bid, b.k FROM gx_gb b JOIN gx_gb c ON b.k8 = c.k8 WHERE c.v < 20) x ON a.k = x.k');

-- cached outer and inner tables: the same rows, both read where they lie
SELECT gpuext_cache_load('gx_ga') > 0 AS a_cached, gpuext_cache_load('gx_gb') > 0 AS b_cached;
SELECT gx_gcheck('SELECT a.id, b.id, a.f4, b.f8, b.ts FROM gx_ga a JOIN gx_gb b ON a.k = b.k');
SELECT gx_gcheck('SELECT a.id, b.d FROM gx_ga a LEFT JOIN gx_gb b ON a.k8 = b.k8 WHERE a.v < 200');
-- after writes: changed blocks from the heap, in the query's snapshot
UPDATE gx_ga SET f8 = -f8 WHERE id % 97 = 0;
DELETE FROM gx_gb WHERE id % 89 = 0;
SELECT gx_gcheck('SELECT a.id, b.id, a.f8 FROM gx_ga a JOIN gx_gb b ON a.k = b.k');
SELECT gpuext_cache_evict('gx_ga') > 0 AS a_evicted, gpuext_cache_evict('gx_gb') > 0 AS b_evicted;

-- cursors: rows fetched in parts, and the scan started again
SET gpuext.force = on;
BEGIN;
DECLARE gc CURSOR FOR SELECT a.id, b.id, b.f4 FROM gx_ga a JOIN gx_gb b ON a.k = b.k WHERE a.id < 40 ORDER BY 1, 2;
FETCH 3 FROM gc;
FETCH 2 FROM gc;
CLOSE gc;
COMMIT;
-- a parameterized rescan: the join under a nested loop's inner side
PREPARE gq(int) AS SELECT count(*), sum(x.bid) FROM gx_gempty e RIGHT JOIN LATERAL
    (SELECT a.id AS aid, b.id AS bid FROM gx_ga a JOIN gx_gb b ON a.k = b.k WHERE a.v = $1) x ON true;
EXECUTE gq(3);
EXECUTE gq(5);
DEALLOCATE gq;
RESET gpuext.force;

-- parallel: the workers probe the leader's table and column store (no
-- inner rows shared); each process's share of the outer table gathered
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SELECT gx_gcheck('SELECT a.id, b.id, a.f8, b.ts FROM gx_ga a JOIN gx_gb b ON a.k = b.k WHERE a.v < 500');
SELECT gx_gcheck('SELECT a.id, b.d FROM gx_ga a LEFT JOIN gx_gb b ON a.k8 = b.k8 WHERE a.id % 3 = 0');
SELECT gx_gcheck('SELECT a.id, a.tz FROM gx_ga a WHERE NOT EXISTS (SELECT 1 FROM gx_gb b WHERE b.k = a.k)');
SET gpuext.force = on;
SELECT l FROM gx_explain('SELECT a.id, b.id FROM gx_ga a JOIN gx_gb b ON a.k = b.k WHERE a.v < 500') l
WHERE l ~ 'Gather|Parallel Custom Scan .GpuJoin|Read By';
RESET gpuext.force;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;

-- EXPLAIN: the columns gathered; ANALYZE: both tables read by the device
SET gpuext.force = on;
SELECT gx_jexplain('SELECT a.id, b.id, a.f8 FROM gx_ga a JOIN gx_gb b ON a.k = b.k WHERE a.v < 10 AND b.v < 10');
RESET gpuext.force;

DROP TABLE gx_ga, gx_gb, gx_gempty, gx_gskew;
DROP FUNCTION gx_gcheck(text);
