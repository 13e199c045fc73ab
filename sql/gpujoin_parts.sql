-- gpujoin_parts: a GpuJoin whose table does not fit (gpuext.session_memory)
-- splits its inner side into partitions by the keys' hash and runs a pass
-- per partition (join_parts.cpp): every join type, rows and counts, NULL
-- keys on both sides, empty partitions, duplicate keys, two keys, float
-- and numeric keys, the merge join, rescans, and the fallback when no
-- partition count fits (one key holding most rows).  Every query is
-- compared with gpuext off (gx_jcheck / gx_jccheck, setup.sql).

SET max_parallel_workers_per_gather = 0;

-- 4000 inner rows: keys 0..999 four times each, NULL keys; 20000 outer
-- rows, keys -100..1199 (some without a match), NULL keys
CREATE TABLE gx_qo (id int4, k int4, k2 int8, f float8, n numeric(10,2), a int4);
INSERT INTO gx_qo
SELECT g, CASE WHEN g % 53 = 0 THEN NULL ELSE g % 1300 - 100 END, g % 3,
       CASE WHEN g % 41 = 0 THEN NULL ELSE (g % 700) / 2.0 END,
       CASE WHEN g % 37 = 0 THEN NULL ELSE (g % 900) / 4.0 END, g % 10
FROM generate_series(1, 20000) g;
CREATE TABLE gx_qi (id int4, k int4, k2 int8, f float8, n numeric(10,2), v int4);
INSERT INTO gx_qi
SELECT g, CASE WHEN g % 97 = 0 THEN NULL ELSE g % 1000 END, g % 3,
       CASE WHEN g % 43 = 0 THEN NULL ELSE (g % 500) / 2.0 END,
       CASE WHEN g % 31 = 0 THEN NULL ELSE (g % 600) / 4.0 END, g % 7
FROM generate_series(1, 4000) g;
-- 3 distinct keys: most partitions empty
CREATE TABLE gx_qfew (id int4, k int4);
INSERT INTO gx_qfew SELECT g, g % 3 * 100 FROM generate_series(1, 3000) g;
-- one key holds 90% of the rows: no partition count fits
CREATE TABLE gx_qskew (id int4, k int4);
INSERT INTO gx_qskew SELECT g, CASE WHEN g % 10 = 0 THEN g ELSE 7 END FROM generate_series(1, 4000) g;
VACUUM ANALYZE gx_qo, gx_qi, gx_qfew, gx_qskew;

-- a table for every inner row needs more than this; one for a share, less
SET gpuext.session_memory = 96;

-- the plans: partitions and passes under EXPLAIN ANALYZE
SET gpuext.force = on;
SELECT * FROM gx_jexplain('SELECT o.id, i.id FROM gx_qo o JOIN gx_qi i ON o.k = i.k');
SELECT * FROM gx_jexplain('SELECT count(*) FROM gx_qo o FULL JOIN gx_qi i ON o.k = i.k');
RESET gpuext.force;

-- every join type, rows and counts
SELECT gx_jcheck('SELECT o.id, i.id, i.v FROM gx_qo o JOIN gx_qi i ON o.k = i.k');
SELECT gx_jcheck('SELECT o.id, i.id FROM gx_qo o LEFT JOIN gx_qi i ON o.k = i.k');
SELECT gx_jcheck('SELECT o.id, i.id FROM gx_qo o RIGHT JOIN gx_qi i ON o.k = i.k');
SELECT gx_jcheck('SELECT o.id, i.id FROM gx_qo o FULL JOIN gx_qi i ON o.k = i.k');
SELECT gx_jcheck('SELECT o.id FROM gx_qo o WHERE EXISTS (SELECT 1 FROM gx_qi i WHERE i.k = o.k AND i.v < 3)');
SELECT gx_jcheck('SELECT o.id FROM gx_qo o WHERE NOT EXISTS (SELECT 1 FROM gx_qi i WHERE i.k = o.k)');
SELECT gx_jccheck('SELECT count(*) FROM gx_qo o JOIN gx_qi i ON o.k = i.k');
SELECT gx_jccheck('SELECT count(*) FROM gx_qo o LEFT JOIN gx_qi i ON o.k = i.k');
SELECT gx_jccheck('SELECT count(*) FROM gx_qo o RIGHT JOIN gx_qi i ON o.k = i.k');
SELECT gx_jccheck('SELECT count(*) FROM gx_qo o FULL JOIN gx_qi i ON o.k = i.k');
SELECT gx_jccheck('SELECT count(*) FROM gx_qo o WHERE EXISTS (SELECT 1 FROM gx_qi i WHERE i.k = o.k)');
SELECT gx_jccheck('SELECT count(*) FROM gx_qo o WHERE NOT EXISTS (SELECT 1 FROM gx_qi i WHERE i.k = o.k)');
-- two keys, float keys (-0, NULL), numeric keys, host quals
SELECT gx_jcheck('SELECT o.id, i.id FROM gx_qo o JOIN gx_qi i ON o.k = i.k AND o.k2 = i.k2');
SELECT gx_jcheck('SELECT o.id, i.id FROM gx_qo o JOIN gx_qi i ON o.f = i.f WHERE o.a < 3');
SELECT gx_jcheck('SELECT o.id, i.id FROM gx_qo o LEFT JOIN gx_qi i ON o.n = i.n WHERE o.a = 1');
SELECT gx_jcheck('SELECT o.id, i.id FROM gx_qo o JOIN gx_qi i ON o.k = i.k AND o.a > i.v');
-- empty partitions: three keys on the inner side
SELECT gx_jcheck('SELECT o.id, q.id FROM gx_qo o JOIN gx_qfew q ON o.k = q.k WHERE o.a < 2');
SELECT gx_jcheck('SELECT o.id, q.id FROM gx_qo o LEFT JOIN gx_qfew q ON o.k = q.k WHERE o.a = 4');
SELECT gx_jccheck('SELECT count(*) FROM gx_qo o FULL JOIN gx_qfew q ON o.k = q.k');
SELECT gx_jccheck('SELECT count(*) FROM gx_qo o WHERE NOT EXISTS (SELECT 1 FROM gx_qfew q WHERE q.k = o.k)');
-- the merge join in passes
SET gpuext.enable_hashjoin = off;
SELECT gx_jcheck('SELECT o.id, i.id FROM gx_qo o JOIN gx_qi i ON o.k = i.k');
SELECT gx_jcheck('SELECT o.id, i.id FROM gx_qo o FULL JOIN gx_qi i ON o.k = i.k');
SELECT gx_jccheck('SELECT count(*) FROM gx_qo o WHERE EXISTS (SELECT 1 FROM gx_qi i WHERE i.k = o.k)');
RESET gpuext.enable_hashjoin;
-- rescans: a correlated subplan (the inner side read and split again), a
-- nested loop over the join
SELECT gx_jcheck('SELECT x, (SELECT count(*) FROM gx_qo o JOIN gx_qi i ON o.k = i.k WHERE i.v <> x) FROM generate_series(1, 3) x');
SELECT gx_jcheck('SELECT x, (SELECT sum(o.id) FROM gx_qo o LEFT JOIN gx_qi i ON o.k = i.k WHERE o.a = x) FROM generate_series(1, 3) x');
-- one key holds most rows: no partitions fit, the fallback Hash Join
SELECT gx_jcheck('SELECT o.id, s.id FROM gx_qo o JOIN gx_qskew s ON o.k = s.k');
SET gpuext.force = on;
SELECT * FROM gx_jexplain('SELECT count(*) FROM gx_qo o JOIN gx_qskew s ON o.k = s.k');
-- gpuext.join_partitions off: the fallback Hash Join
SET gpuext.join_partitions = off;
SELECT * FROM gx_jexplain('SELECT count(*) FROM gx_qo o JOIN gx_qi i ON o.k = i.k');
RESET gpuext.join_partitions;
RESET gpuext.force;
SELECT gx_jcheck('SELECT o.id, i.id FROM gx_qo o JOIN gx_qi i ON o.k = i.k WHERE o.a = 2');
RESET gpuext.session_memory;

DROP TABLE gx_qo, gx_qi, gx_qfew, gx_qskew;
