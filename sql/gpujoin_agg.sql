-- gpujoin_agg: GROUP BY and aggregates over a join computed by the
-- GpuJoin itself (join_agg.cpp): group probes add each joined pair into a
-- group table on the device, the node returns a row of partial states per
-- group to PostgreSQL's Finalize Aggregate.  Every query is compared with
-- gpuext off on each device (gx_check); gx_jccheck (setup.sql) adds
-- whether the forced plan's GpuJoin aggregates its pairs ("GpuJoin
-- aggregates": Device Aggregates and a Group Strategy among its lines).

SET max_parallel_workers_per_gather = 0;

-- facts (outer) and dimensions (inner): NULL keys, group keys and
-- arguments on both sides, keys without a match, duplicate inner keys
CREATE TABLE gx_af (id int4, k int4, g int4, v int8, n numeric(10,2), d date, s int2,
                    f float8, b bool);
INSERT INTO gx_af
SELECT i, CASE WHEN i % 97 = 0 THEN NULL ELSE i % 1100 END,
       CASE WHEN i % 89 = 0 THEN NULL ELSE i % 7 END,
       CASE WHEN i % 83 = 0 THEN NULL ELSE i * 37 % 100000 END,
       CASE WHEN i % 79 = 0 THEN NULL ELSE (i % 1000) / 3.0 END,
       date '2024-01-01' + i % 50, (i % 300)::int2,
       CASE WHEN i % 71 = 0 THEN NULL ELSE (i % 640) / 8.0 END, i % 3 = 0
FROM generate_series(1, 60000) i;
CREATE TABLE gx_ad (k int4, h int4, w int4, m numeric(8,3), dd date, t text, fl float4);
INSERT INTO gx_ad
SELECT CASE WHEN i % 101 = 0 THEN NULL ELSE i % 1000 END,
       CASE WHEN i % 13 = 0 THEN NULL ELSE i % 5 END,
       CASE WHEN i % 11 = 0 THEN NULL ELSE i * 3 END,
       (i % 77) / 7.0, date '2023-06-01' + i % 9, 't' || (i % 4), (i % 16) / 4.0
FROM generate_series(1, 1200) i;
CREATE TABLE gx_ae (k int4, x int4);
VACUUM ANALYZE gx_af, gx_ad, gx_ae;

-- the plan: Finalize over the aggregating GpuJoin, its fallback a
-- Partial Aggregate over PostgreSQL's Hash Join
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT f.g, d.h, count(*), sum(f.v), sum(d.w), min(f.n), max(d.m) FROM gx_af f JOIN gx_ad d ON f.k = d.k GROUP BY f.g, d.h');
SELECT * FROM gx_jexplain('SELECT f.g, d.h, count(*), sum(f.v), sum(d.w) FROM gx_af f JOIN gx_ad d ON f.k = d.k GROUP BY f.g, d.h')
    WHERE gx_jexplain !~ 'Sort Method';
RESET gpuext.force;

-- keys and aggregates of the outer side, of the inner side, of both
SELECT gx_jccheck('SELECT f.g, count(*), sum(f.v), avg(f.v), min(f.n), max(f.n), sum(f.n), avg(f.n) FROM gx_af f JOIN gx_ad d ON f.k = d.k GROUP BY f.g');
SELECT gx_jccheck('SELECT d.h, count(*), count(d.w), sum(d.w), avg(d.w), min(d.m), max(d.m), sum(d.m) FROM gx_af f JOIN gx_ad d ON f.k = d.k GROUP BY d.h');
SELECT gx_jccheck('SELECT f.g, d.h, d.dd, count(*), sum(f.v + d.w) IS NULL, sum(f.v), max(d.w), min(f.d), max(d.dd) FROM gx_af f JOIN gx_ad d ON f.k = d.k GROUP BY f.g, d.h, d.dd');
SELECT gx_jccheck('SELECT f.s, f.b, d.h, count(f.v), sum(f.s), min(f.f), max(f.f), min(d.fl), max(d.fl) FROM gx_af f JOIN gx_ad d ON f.k = d.k GROUP BY f.s, f.b, d.h');
-- expressions of the outer columns: keys, arguments, FILTER
SELECT gx_jccheck('SELECT f.g % 3, f.d, sum(f.n * 2 - 1), sum(f.v) FILTER (WHERE f.v > 50000), count(*) FILTER (WHERE f.n < 100) FROM gx_af f JOIN gx_ad d ON f.k = d.k WHERE f.id < 50000 GROUP BY 1, 2');
-- no GROUP BY; HAVING; ORDER BY and LIMIT above
SELECT gx_jccheck('SELECT count(*), sum(f.v), sum(d.w), min(d.dd), avg(f.n) FROM gx_af f JOIN gx_ad d ON f.k = d.k');
SELECT gx_jccheck('SELECT d.h, sum(f.v) FROM gx_af f JOIN gx_ad d ON f.k = d.k GROUP BY d.h HAVING sum(f.v) > 100000000 OR count(*) < 10');
SELECT gx_jccheck('SELECT f.id % 500 AS grp, sum(d.w) AS s FROM gx_af f JOIN gx_ad d ON f.k = d.k GROUP BY 1 ORDER BY s DESC NULLS LAST, grp LIMIT 7');
-- finalizing on the device (GROUP BY): the node returns the final values,
-- HAVING is its qual, its fallback the Finalize plan; off, PostgreSQL's
-- Finalize Aggregate above it
SELECT gx_jccheck('SELECT d.h, f.g, count(*), avg(f.v), avg(f.n), stddev(f.v), var_pop(f.n), sum(f.n), min(d.dd) FROM gx_af f JOIN gx_ad d ON f.k = d.k GROUP BY 1, 2 HAVING avg(f.v) > 0');
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT d.h, sum(f.v), avg(f.n) FROM gx_af f JOIN gx_ad d ON f.k = d.k GROUP BY d.h HAVING count(*) > 10')
    WHERE gx_explain ~ 'Custom Scan|Finalize|Aggregate|Filter';
SET gpuext.enable_preagg_final = off;
SELECT gx_jccheck('SELECT d.h, sum(f.v) FROM gx_af f JOIN gx_ad d ON f.k = d.k GROUP BY d.h HAVING sum(f.v) > 100000000 OR count(*) < 10');
SELECT * FROM gx_explain('SELECT d.h, sum(f.v), avg(f.n) FROM gx_af f JOIN gx_ad d ON f.k = d.k GROUP BY d.h HAVING count(*) > 10')
    WHERE gx_explain ~ 'Custom Scan|Finalize|Aggregate|Filter';
RESET gpuext.enable_preagg_final;
RESET gpuext.force;
-- quals on both sides; no pair; an empty inner side (no group; one row without GROUP BY)
SELECT gx_jccheck('SELECT f.g, d.h, sum(f.v) FROM gx_af f JOIN gx_ad d ON f.k = d.k WHERE f.d > date ''2024-01-20'' AND d.w % 2 = 0 GROUP BY 1, 2');
SELECT gx_jccheck('SELECT f.g, sum(f.v) FROM gx_af f JOIN gx_ad d ON f.k = d.k WHERE d.w < 0 GROUP BY 1');
SELECT gx_jccheck('SELECT f.g, sum(e.x) FROM gx_af f JOIN gx_ae e ON f.k = e.k GROUP BY 1');
SELECT gx_jccheck('SELECT count(*), sum(f.v), max(e.x) FROM gx_af f JOIN gx_ae e ON f.k = e.k');
-- a chain: the inner side a join (its rows drained, the inner columns from them), TPC-H Q3's shape
SELECT gx_jccheck('SELECT f.k, d.dd, d.h, sum(f.n * (1 - f.s * 0.001)) FROM gx_af f JOIN (gx_ad d JOIN gx_ad d2 ON d2.k = d.w) ON f.k = d.k GROUP BY 1, 2, 3');
SELECT gx_jccheck('SELECT d.h, sum(f.n * (1 - f.s * 0.001)) AS rev FROM gx_af f JOIN gx_ad d ON f.k = d.k JOIN gx_ad d2 ON d2.k = d.h WHERE d2.w > 10 GROUP BY d.h ORDER BY rev DESC');
-- a chain whose top join's outer side is a join: its rows laid out in
-- batches of the columns the program reads (keys and arguments of both
-- lower tables, NULLs, numeric at its scale); then an expression of the
-- inner side's columns, which keeps PostgreSQL's aggregate (the
-- multi-level probe, which would take the first, off: gpujoin_levels)
SET gpuext.enable_join_levels = off;
SELECT gx_jccheck('SELECT d.h, d2.dd, count(*), sum(f.v), sum(d2.m), max(f.n) FROM gx_af f JOIN gx_ad d ON f.k = d.k JOIN gx_ad d2 ON d2.k = d.h WHERE d2.w > 10 GROUP BY 1, 2');
SELECT gx_jccheck('SELECT d.h % 2, count(*), sum(d.w + d2.w), min(d2.m * 2) FROM gx_ad d JOIN gx_ad d2 ON d2.k = d.w JOIN gx_af f ON f.k = d2.k GROUP BY 1');
SET gpuext.force = on;
SELECT * FROM gx_jexplain('SELECT d.h, d2.dd, count(*), sum(f.v) FROM gx_af f JOIN gx_ad d ON f.k = d.k JOIN gx_ad d2 ON d2.k = d.h WHERE d2.w > 10 GROUP BY 1, 2')
    WHERE gx_jexplain ~ 'Custom Scan|Group Keys|Joined|Probe Tasks|Device Groups';
RESET gpuext.force;
RESET gpuext.enable_join_levels;

-- LEFT (unmatched outer rows: NULL inner columns), SEMI and ANTI joins,
-- over an empty inner side too; the merge join; the range join
SELECT gx_jccheck('SELECT f.g, count(*), count(d.w), sum(d.w), max(d.dd), sum(f.v) FROM gx_af f LEFT JOIN gx_ad d ON f.k = d.k GROUP BY 1');
SELECT gx_jccheck('SELECT d.h, count(*), sum(f.v) FROM gx_af f LEFT JOIN gx_ad d ON f.k = d.k WHERE f.id < 30000 GROUP BY 1');
SELECT gx_jccheck('SELECT f.g, count(*), sum(f.v) FROM gx_af f WHERE EXISTS (SELECT 1 FROM gx_ad d WHERE d.k = f.k AND d.h = 1) GROUP BY 1');
SELECT gx_jccheck('SELECT f.g, count(*), min(f.n) FROM gx_af f WHERE NOT EXISTS (SELECT 1 FROM gx_ad d WHERE d.k = f.k) GROUP BY 1');
SELECT gx_jccheck('SELECT f.g, count(*), sum(e.x) FROM gx_af f LEFT JOIN gx_ae e ON f.k = e.k GROUP BY 1');
SELECT gx_jccheck('SELECT f.g, count(*) FROM gx_af f WHERE NOT EXISTS (SELECT 1 FROM gx_ae e WHERE e.k = f.k) GROUP BY 1');
SET gpuext.enable_hashjoin = off;
SELECT gx_jccheck('SELECT f.g, d.h, count(*), sum(f.v), sum(d.m) FROM gx_af f JOIN gx_ad d ON f.k = d.k GROUP BY 1, 2');
SELECT gx_jccheck('SELECT f.g, count(d.k), sum(d.w) FROM gx_af f LEFT JOIN gx_ad d ON f.k = d.k GROUP BY 1');
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT f.g, sum(d.w) FROM gx_af f JOIN gx_ad d ON f.k = d.k GROUP BY 1')
    WHERE gx_explain ~ 'Algorithm|Custom Scan|Group Keys';
RESET gpuext.force;
RESET gpuext.enable_hashjoin;
SELECT gx_jccheck('SELECT f.g, count(*), sum(d.w), min(d.k) FROM gx_af f JOIN gx_ad d ON d.k BETWEEN f.k AND f.k + 2 WHERE f.id < 20000 GROUP BY 1');
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT f.g, count(*) FROM gx_af f JOIN gx_ad d ON d.k BETWEEN f.k AND f.k + 2 GROUP BY 1')
    WHERE gx_explain ~ 'Algorithm|Custom Scan|Group Keys';
RESET gpuext.force;

-- string keys (text, varchar, bpchar) of rows the node lays out itself,
-- grouped by dictionary ids: the inner side's; the outer side's, read
-- through its child (a string key of a table the device reads), of a
-- chain; NULLs, bpchar's trailing blanks; an expression of a string
-- column keeps PostgreSQL's aggregate
CREATE TABLE gx_as (k int4, t text, vc varchar(12), bp char(12), n int4);
INSERT INTO gx_as
SELECT i % 1000, CASE WHEN i % 17 = 0 THEN NULL ELSE 'name ' || (i % 23) END,
       'v' || (i % 5), CASE WHEN i % 3 = 0 THEN 'ab' ELSE 'ab c' || (i % 2) END, i
FROM generate_series(1, 3000) i;
ANALYZE gx_as;
SELECT gx_jccheck('SELECT s.t, count(*), sum(f.v), min(f.n) FROM gx_af f JOIN gx_as s ON f.k = s.k GROUP BY s.t');
SELECT gx_jccheck('SELECT s.vc, s.bp, f.g, count(*), sum(s.n) FROM gx_af f JOIN gx_as s ON f.k = s.k GROUP BY 1, 2, 3');
SELECT gx_jccheck('SELECT s.t, s.bp, count(*), sum(d.w) FROM gx_as s JOIN gx_ad d ON s.k = d.k GROUP BY 1, 2');
SELECT gx_jccheck('SELECT s.t, d.h, count(*), sum(f.v) FROM gx_af f JOIN gx_ad d ON f.k = d.k JOIN gx_as s ON s.k = d.w GROUP BY 1, 2');
SELECT gx_jccheck('SELECT s.t COLLATE "C", count(*) FROM gx_af f JOIN gx_as s ON f.k = s.k GROUP BY 1');
SET gpuext.force = on;
SELECT * FROM gx_jexplain('SELECT s.t, count(*), sum(f.v) FROM gx_af f JOIN gx_as s ON f.k = s.k GROUP BY s.t')
    WHERE gx_jexplain ~ 'Custom Scan|Group Keys|Joined|Device Groups';
RESET gpuext.force;
DROP TABLE gx_as;

-- exactness: a pair the device leaves to the host (a product beyond
-- int64), a group table without room: the fallback plan's rows
SELECT gx_jccheck('SELECT f.g, sum(f.n * 100000000000000000) FROM gx_af f JOIN gx_ad d ON f.k = d.k GROUP BY 1');
SET gpuext.force = on;
SELECT * FROM gx_jexplain('SELECT f.g, sum(f.n * 100000000000000000) FROM gx_af f JOIN gx_ad d ON f.k = d.k GROUP BY 1')
    WHERE gx_jexplain ~ 'Joined|Custom Scan|Partial';
SET gpuext.preagg_memory = 1;
SELECT gx_jccheck('SELECT f.id, d.h, sum(f.v) FROM gx_af f JOIN gx_ad d ON f.k = d.k GROUP BY 1, 2');
SELECT * FROM gx_jexplain('SELECT f.id, d.h, sum(f.v) FROM gx_af f JOIN gx_ad d ON f.k = d.k GROUP BY 1, 2')
    WHERE gx_jexplain ~ 'Joined|Custom Scan';
RESET gpuext.preagg_memory;
RESET gpuext.force;

-- what keeps PostgreSQL's aggregate (the GpuJoin returns rows): an
-- expression of both sides, a stddev of an inner column, a
-- FULL join, host quals, gpuext.enable_preagg off
SELECT gx_jccheck('SELECT f.g, sum(f.v * d.w) FROM gx_af f JOIN gx_ad d ON f.k = d.k GROUP BY 1');
SELECT gx_jccheck('SELECT f.g, stddev(d.w)::numeric(20,6) FROM gx_af f JOIN gx_ad d ON f.k = d.k GROUP BY 1');
SELECT gx_jccheck('SELECT f.g, sum(d.w) FROM gx_af f FULL JOIN gx_ad d ON f.k = d.k GROUP BY 1');
SELECT gx_jccheck('SELECT f.g, sum(d.w) FROM gx_af f JOIN gx_ad d ON f.k = d.k AND f.v > d.w GROUP BY 1');
SET gpuext.enable_preagg = off;
SELECT gx_jccheck('SELECT f.g, sum(d.w) FROM gx_af f JOIN gx_ad d ON f.k = d.k GROUP BY 1');
RESET gpuext.enable_preagg;

-- the outer table cached on the device: its entries probed where they lie
VACUUM (FREEZE) gx_af;
SELECT gpuext_cache_load('gx_af') > 0;
SELECT gx_jccheck('SELECT f.g, d.h, count(*), sum(f.v), sum(d.w) FROM gx_af f JOIN gx_ad d ON f.k = d.k GROUP BY 1, 2');
SET gpuext.force = on;
SELECT * FROM gx_jexplain('SELECT f.g, count(*) FROM gx_af f JOIN gx_ad d ON f.k = d.k GROUP BY 1')
    WHERE gx_jexplain ~ 'Cached|Device Groups|Joined';
RESET gpuext.force;
-- concurrent writes to the cached table are seen (stale blocks from the heap)
UPDATE gx_af SET v = v + 1 WHERE id % 1000 = 1;
DELETE FROM gx_af WHERE id % 1000 = 2;
SELECT gx_jccheck('SELECT f.g, count(*), sum(f.v) FROM gx_af f JOIN gx_ad d ON f.k = d.k GROUP BY 1');
SELECT gpuext_cache_evict('gx_af') > 0;

-- rescans: under a parameterized subquery (the inner side's parameter
-- changes), and a prepared statement run again
SELECT gx_jccheck('SELECT x, (SELECT sum(f.v) FROM gx_af f JOIN gx_ad d ON f.k = d.k WHERE d.h = x) FROM generate_series(0, 3) x');
SET gpuext.force = on;
PREPARE gx_pa(int) AS SELECT d.h, sum(f.v) FROM gx_af f JOIN gx_ad d ON f.k = d.k WHERE d.w > $1 GROUP BY 1 ORDER BY 1;
EXECUTE gx_pa(100);
EXECUTE gx_pa(3000);
DEALLOCATE gx_pa;
RESET gpuext.force;
SET gpuext.enabled = off;
SELECT d.h, sum(f.v) FROM gx_af f JOIN gx_ad d ON f.k = d.k WHERE d.w > 100 GROUP BY 1 ORDER BY 1;
SELECT d.h, sum(f.v) FROM gx_af f JOIN gx_ad d ON f.k = d.k WHERE d.w > 3000 GROUP BY 1 ORDER BY 1;
RESET gpuext.enabled;

DROP TABLE gx_af, gx_ad, gx_ae;
