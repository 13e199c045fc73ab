-- gpujoin_merge: GpuJoin's sort-merge join (gpuext.enable_mergejoin):
-- both sides sorted on the device, each outer batch merged with the
-- sorted inner side.  Every query is compared with gpuext off (gx_check:
-- PostgreSQL's own plan, then gpuext forced on each device); gx_mcheck
-- adds the algorithm of the forced plan's GpuJoin ("Merge"), gx_mccheck
-- also whether it counts.  The hash join is off in this file, so that
-- gpuext.force plans the merge join wherever it can run.

SET max_parallel_workers_per_gather = 0;
SET gpuext.enable_hashjoin = off;

-- gx_check(q), and the algorithm of the forced plan's GpuJoin (and
-- whether it counts)
CREATE FUNCTION gx_join_alg(q text) RETURNS text LANGUAGE plpgsql
    SET gpuext.enabled = on SET gpuext.force = on AS $$
DECLARE
    line text;
    alg text := 'no GpuJoin';
    counts bool := false;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        IF line ~ '^\s*Algorithm: ' AND alg = 'no GpuJoin' THEN
            alg := substring(line from 'Algorithm: (\w+)');
        ELSIF line LIKE '%Device Aggregates: count(*)%' THEN
            counts := true;
        END IF;
    END LOOP;
    RETURN alg || CASE WHEN counts THEN ', counts' ELSE '' END;
END $$;
CREATE FUNCTION gx_mcheck(q text) RETURNS text LANGUAGE sql AS $$
    SELECT gx_check(q) || ', ' || gx_join_alg(q)
$$;

-- both sides with every key type and NULLs in every key
CREATE TABLE gx_mo (id int4, k4 int4, k2 int2, k8 int8, kd date, kts timestamp,
                    ktz timestamptz, kb bool, kn numeric(10,2), v int4, txt text);
INSERT INTO gx_mo
SELECT g,
       CASE WHEN g % 31 = 0 THEN NULL ELSE g % 700 END,
       CASE WHEN g % 29 = 0 THEN NULL ELSE (g % 300 - 150)::int2 END,
       CASE WHEN g % 23 = 0 THEN NULL ELSE (g % 500 - 250)::int8 * 10000000000 END,
       CASE WHEN g % 19 = 0 THEN NULL ELSE date '2024-01-01' + g % 400 END,
       CASE WHEN g % 17 = 0 THEN NULL ELSE timestamp '2024-01-01' + (g % 600) * interval '1 hour' END,
       CASE WHEN g % 13 = 0 THEN NULL ELSE timestamptz '2024-01-01 00:00+00' + (g % 450) * interval '1 minute' END,
       CASE WHEN g % 11 = 0 THEN NULL ELSE g % 3 = 0 END,
       CASE WHEN g % 7 = 0 THEN NULL ELSE (g % 800 - 400) / 4.0 END,
       g * 7 % 1000,
       'o' || g
FROM generate_series(1, 3000) g;
CREATE TABLE gx_mi (id int4, k4 int4, k2 int2, k8 int8, kd date, kts timestamp,
                    ktz timestamptz, kb bool, kn numeric(12,3), v int4, txt text);
INSERT INTO gx_mi
SELECT g,
       CASE WHEN g % 37 = 0 THEN NULL ELSE g * 3 % 1100 END,
       CASE WHEN g % 41 = 0 THEN NULL ELSE (g % 400 - 200)::int2 END,
       CASE WHEN g % 43 = 0 THEN NULL ELSE (g * 7 % 900 - 450)::int8 * 10000000000 END,
       CASE WHEN g % 47 = 0 THEN NULL ELSE date '2024-03-01' + g % 500 END,
       CASE WHEN g % 53 = 0 THEN NULL ELSE timestamp '2024-01-10' + (g % 700) * interval '1 hour' END,
       CASE WHEN g % 59 = 0 THEN NULL ELSE timestamptz '2024-01-01 01:00+00' + (g % 500) * interval '1 minute' END,
       CASE WHEN g % 61 = 0 THEN NULL ELSE g % 5 = 0 END,
       CASE WHEN g % 67 = 0 THEN NULL ELSE (g % 900 - 450) / 8.0 END,
       g % 1000,
       'i' || g
FROM generate_series(1, 1000) g;
-- 90% of the rows share one key
CREATE TABLE gx_mskew (id int4, k int4, v int4);
INSERT INTO gx_mskew SELECT g, CASE WHEN g % 10 = 0 THEN g ELSE 7 END, g FROM generate_series(1, 1900) g;
CREATE TABLE gx_mempty (id int4, k4 int4, k8 int8);
CREATE TABLE gx_mnull (id int4, k4 int4);
INSERT INTO gx_mnull SELECT g, NULL FROM generate_series(1, 50) g;
-- keys no other table has; the int8 ends (the largest is what a row
-- without a key sorts as on the device)
CREATE TABLE gx_mfar (id int4, k4 int4, k8 int8);
INSERT INTO gx_mfar SELECT g, 100000 + g, 100000 + g FROM generate_series(1, 300) g;
INSERT INTO gx_mfar VALUES (301, 1, 9223372036854775807), (302, 2, -9223372036854775808),
    (303, 3, 9223372036854775807), (304, NULL, NULL);
-- numeric NaN equals NaN
CREATE TABLE gx_mnan (id int4, n numeric(6,2));
INSERT INTO gx_mnan VALUES (1, 'NaN'), (2, 1.5), (3, NULL), (4, 'NaN'), (5, 0.25), (6, 199.75);
-- larger than a chunk of gpuext.chunk_rows = 1024 on both sides
CREATE TABLE gx_mbig (id int4, k int4, v int4);
INSERT INTO gx_mbig SELECT g, CASE WHEN g % 97 = 0 THEN NULL ELSE g % 5000 END, g
FROM generate_series(1, 12000) g;
VACUUM ANALYZE gx_mo, gx_mi, gx_mskew, gx_mempty, gx_mnull, gx_mfar, gx_mnan, gx_mbig;

-- the plans: the merge join wherever the hash join would run
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT o.id, i.id FROM gx_mo o JOIN gx_mi i ON o.k4 = i.k4');
SELECT * FROM gx_explain('SELECT o.id FROM gx_mo o WHERE EXISTS (SELECT 1 FROM gx_mi i WHERE i.k8 = o.k8)');
SELECT * FROM gx_explain('SELECT o.id, i.v FROM gx_mo o FULL JOIN gx_mi i ON o.k4 = i.k4 AND o.k2 = i.k2',
                         'COSTS OFF, VERBOSE');
SELECT * FROM gx_explain('SELECT count(*) FROM gx_mo o WHERE NOT EXISTS (SELECT 1 FROM gx_mi i WHERE i.kd = o.kd)');
-- EXPLAIN ANALYZE: rows per side, tasks, the sorted table
SELECT * FROM gx_jexplain('SELECT o.id, i.id FROM gx_mo o JOIN gx_mi i ON o.k4 = i.k4');
SELECT * FROM gx_jexplain('SELECT o.id, i.id FROM gx_mo o RIGHT JOIN gx_mi i ON o.k4 = i.k4');
-- both algorithms on: the cheaper, the hash join; the merge join off: no
-- equi-join on the device but the hash join's
RESET gpuext.enable_hashjoin;
SELECT gx_join_alg('SELECT o.id, i.id FROM gx_mo o JOIN gx_mi i ON o.k4 = i.k4');
SET gpuext.enable_mergejoin = off;
SELECT gx_join_alg('SELECT o.id, i.id FROM gx_mo o JOIN gx_mi i ON o.k4 = i.k4');
SET gpuext.enable_hashjoin = off;
SELECT gx_join_alg('SELECT o.id, i.id FROM gx_mo o JOIN gx_mi i ON o.k4 = i.k4');
RESET gpuext.enable_mergejoin;
RESET gpuext.force;

-- INNER on every key type (NULL keys never match), mixed widths, two keys
SELECT q, gx_mcheck(q) FROM (VALUES
    ('SELECT o.id, i.id FROM gx_mo o JOIN gx_mi i ON o.k4 = i.k4'),
    ('SELECT o.id, i.id FROM gx_mo o JOIN gx_mi i ON o.k2 = i.k2'),
    ('SELECT o.id, i.id FROM gx_mo o JOIN gx_mi i ON o.k8 = i.k8'),
    ('SELECT o.id, i.id FROM gx_mo o JOIN gx_mi i ON o.kd = i.kd'),
    ('SELECT o.id, i.id FROM gx_mo o JOIN gx_mi i ON o.kts = i.kts'),
    ('SELECT o.id, i.id FROM gx_mo o JOIN gx_mi i ON o.ktz = i.ktz'),
    ('SELECT o.kb, count(*), sum(o.v + i.v) FROM gx_mo o JOIN gx_mi i ON o.kb = i.kb GROUP BY o.kb'),
    ('SELECT o.id, i.id, o.kn, i.kn FROM gx_mo o JOIN gx_mi i ON o.kn = i.kn'),
    ('SELECT a.id, b.id, a.n FROM gx_mnan a JOIN gx_mnan b ON a.n = b.n'),
    ('SELECT o.id, i.id FROM gx_mo o JOIN gx_mi i ON o.k2 = i.k4'),
    ('SELECT o.id, i.id FROM gx_mo o JOIN gx_mi i ON o.k4 = i.k8'),
    ('SELECT * FROM gx_mo o JOIN gx_mi i ON o.k4 = i.k4 AND o.k2 = i.k2'),
    ('SELECT o.txt, i.txt, o.kn FROM gx_mo o JOIN gx_mi i ON o.kd = i.kd AND o.k8 = i.k8'),
    ('SELECT o.id, i.txt FROM gx_mo o JOIN gx_mi i ON o.k4 = i.k4 WHERE o.v < 300 AND i.txt LIKE ''i1%'''),
    ('SELECT f.id, g.id FROM gx_mfar f JOIN gx_mfar g ON f.k8 = g.k8'),
    ('SELECT f.id, g.id FROM gx_mfar f JOIN gx_mfar g ON f.k8 = g.k8 AND f.k4 = g.k4')) v(q);

-- SEMI (EXISTS, IN) and ANTI (NOT EXISTS)
SELECT q, gx_mcheck(q) FROM (VALUES
    ('SELECT o.id FROM gx_mo o WHERE EXISTS (SELECT 1 FROM gx_mi i WHERE i.k4 = o.k4)'),
    ('SELECT o.* FROM gx_mo o WHERE o.k2 IN (SELECT k2 FROM gx_mi)'),
    ('SELECT o.id FROM gx_mo o WHERE EXISTS (SELECT 1 FROM gx_mi i WHERE i.kn = o.kn AND i.ktz = o.ktz)'),
    ('SELECT o.id, o.txt FROM gx_mo o WHERE NOT EXISTS (SELECT 1 FROM gx_mi i WHERE i.k4 = o.k4)'),
    ('SELECT o.id FROM gx_mo o WHERE NOT EXISTS (SELECT 1 FROM gx_mi i WHERE i.kb = o.kb)'),
    ('SELECT o.id FROM gx_mo o WHERE NOT EXISTS (SELECT 1 FROM gx_mi i WHERE i.k8 = o.k8 AND i.k2 = o.k2)'),
    ('SELECT a.id FROM gx_mnan a WHERE NOT EXISTS (SELECT 1 FROM gx_mnan b WHERE a.n = b.n AND b.id > 3)')) v(q);

-- LEFT, RIGHT, FULL (the unmatched rows of either side come once with
-- the other side NULL; NULL keys never match)
SELECT q, gx_mcheck(q) FROM (VALUES
    ('SELECT o.id, i.id FROM gx_mo o LEFT JOIN gx_mi i ON o.k4 = i.k4'),
    ('SELECT o.id, i.id FROM gx_mo o RIGHT JOIN gx_mi i ON o.k4 = i.k4'),
    ('SELECT o.id, i.id FROM gx_mo o FULL JOIN gx_mi i ON o.k4 = i.k4'),
    ('SELECT o.id, i.id FROM gx_mo o FULL JOIN gx_mi i ON o.k8 = i.k8 AND o.k2 = i.k2'),
    ('SELECT o.id, i.id FROM gx_mi i LEFT JOIN gx_mo o ON o.kd = i.kd'),
    ('SELECT o.id, i.kn FROM gx_mo o FULL JOIN gx_mi i ON o.kn = i.kn'),
    ('SELECT f.id, g.id FROM gx_mfar f FULL JOIN gx_mfar g ON f.k8 = g.k8'),
    ('SELECT o.id, n.id FROM gx_mo o FULL JOIN gx_mnull n ON o.k4 = n.k4')) v(q);

-- skew: 90% of both sides hold one key (3.2M pairs: many probe passes);
-- empty sides, only NULL keys, all match, none match
SELECT q, gx_mcheck(q) FROM (VALUES
    ('SELECT count(*), sum(a.v::int8 * b.v) FROM gx_mskew a JOIN gx_mskew b ON a.k = b.k'),
    ('SELECT a.id FROM gx_mskew a WHERE EXISTS (SELECT 1 FROM gx_mskew b WHERE b.k = a.k)'),
    ('SELECT o.id, s.id FROM gx_mo o JOIN gx_mskew s ON o.k4 = s.k'),
    ('SELECT o.id, s.id FROM gx_mo o FULL JOIN gx_mskew s ON o.k4 = s.k'),
    ('SELECT o.id FROM gx_mo o JOIN gx_mempty e ON o.k4 = e.k4'),
    ('SELECT e.id FROM gx_mempty e JOIN gx_mo o ON o.k8 = e.k8'),
    ('SELECT o.id FROM gx_mo o WHERE NOT EXISTS (SELECT 1 FROM gx_mempty e WHERE e.k4 = o.k4)'),
    ('SELECT o.id, e.id FROM gx_mo o FULL JOIN gx_mempty e ON e.k4 = o.k4'),
    ('SELECT o.id FROM gx_mo o JOIN gx_mnull n ON o.k4 = n.k4'),
    ('SELECT n.id FROM gx_mnull n WHERE NOT EXISTS (SELECT 1 FROM gx_mo o WHERE n.k4 = o.k4)'),
    ('SELECT a.id, b.id FROM gx_mo a JOIN gx_mo b ON a.id = b.id'),
    ('SELECT a.id FROM gx_mo a WHERE NOT EXISTS (SELECT 1 FROM gx_mo b WHERE a.id = b.id)'),
    ('SELECT o.id, f.id FROM gx_mo o JOIN gx_mfar f ON o.k4 = f.k4'),
    ('SELECT o.id FROM gx_mo o WHERE NOT EXISTS (SELECT 1 FROM gx_mfar f WHERE f.k4 = o.k4)')) v(q);

-- results larger than a chunk: several build and probe tasks, passes
SET gpuext.chunk_rows = 1024;
SELECT q, gx_mcheck(q) FROM (VALUES
    ('SELECT a.id, b.id FROM gx_mbig a JOIN gx_mbig b ON a.k = b.k'),
    ('SELECT a.id, b.id FROM gx_mbig a FULL JOIN gx_mo b ON a.k = b.k4'),
    ('SELECT a.id FROM gx_mbig a WHERE NOT EXISTS (SELECT 1 FROM gx_mo o WHERE o.k4 = a.k)'),
    ('SELECT count(*), sum(a.v::int8 * b.v) FROM gx_mskew a JOIN gx_mbig b ON a.k = b.k')) v(q);
SET gpuext.force = on;
SELECT * FROM gx_jexplain('SELECT count(*) FROM gx_mbig a JOIN gx_mbig b ON a.k = b.k');
RESET gpuext.force;
RESET gpuext.chunk_rows;

-- count(*) over the join: the GpuJoin counts (count-only probes)
SELECT q, gx_mcheck(q) FROM (VALUES
    ('SELECT count(*) FROM gx_mo o JOIN gx_mi i ON o.k4 = i.k4'),
    ('SELECT count(*) FROM gx_mo o JOIN gx_mi i ON o.kd = i.kd AND o.k8 = i.k8'),
    ('SELECT count(*) FROM gx_mo o WHERE EXISTS (SELECT 1 FROM gx_mi i WHERE i.kts = o.kts)'),
    ('SELECT count(*) FROM gx_mo o WHERE NOT EXISTS (SELECT 1 FROM gx_mi i WHERE i.kn = o.kn)'),
    ('SELECT count(*) FROM gx_mo o LEFT JOIN gx_mi i ON o.k2 = i.k2'),
    ('SELECT count(*) FROM gx_mo o RIGHT JOIN gx_mi i ON o.k4 = i.k4'),
    ('SELECT count(*) FROM gx_mo o FULL JOIN gx_mi i ON o.k4 = i.k4'),
    ('SELECT count(*) FROM gx_mskew a JOIN gx_mskew b ON a.k = b.k'),
    ('SELECT count(*) FROM gx_mo o JOIN gx_mempty e ON o.k4 = e.k4'),
    ('SELECT count(*) FROM gx_mo o WHERE NOT EXISTS (SELECT 1 FROM gx_mnull n WHERE n.k4 = o.k4)')) v(q);
-- skew: 1710 of the 1900 rows share a key, 2924290 pairs of them
SET gpuext.force = on;
SELECT count(*) FROM gx_mskew a JOIN gx_mskew b ON a.k = b.k;
RESET gpuext.force;

-- LIMIT (the node ended before its last row) and rescans: a parameter on
-- the outer side (the sorted table is kept) or on the inner side (sorted
-- again for each row); a RIGHT join's table is made again (its marks)
SELECT q, gx_mcheck(q) FROM (VALUES
    ('SELECT count(*) FROM (SELECT o.id FROM gx_mo o JOIN gx_mi i ON o.k4 = i.k4 LIMIT 10) s'),
    ('SELECT count(*) FROM (SELECT o.id FROM gx_mo o FULL JOIN gx_mi i ON o.k4 = i.k4 LIMIT 2900) s'),
    ('SELECT x, (SELECT count(*) FROM gx_mo o JOIN gx_mi i ON o.k4 = i.k4 WHERE o.v < x) FROM generate_series(0, 1000, 250) x'),
    ('SELECT x, (SELECT count(*) FROM gx_mo o WHERE NOT EXISTS (SELECT 1 FROM gx_mi i WHERE i.k4 = o.k4 AND i.v < x)) FROM generate_series(0, 1000, 250) x'),
    ('SELECT x, (SELECT count(*) FROM (SELECT o.id FROM gx_mo o RIGHT JOIN gx_mi i ON o.k4 = i.k4 WHERE i.v < x) s) FROM generate_series(0, 1000, 500) x'),
    ('SELECT n.id, c.n FROM gx_mnull n, LATERAL (SELECT count(*) AS n FROM gx_mo o JOIN gx_mi i ON o.k4 = i.k4 WHERE o.v < n.id * 40) c WHERE n.id <= 8')) v(q);
SET gpuext.force = on;
SELECT * FROM gx_jexplain('SELECT x, (SELECT count(*) FROM gx_mo o JOIN gx_mi i ON o.k4 = i.k4 WHERE o.v < x) FROM generate_series(0, 1000, 250) x');
RESET gpuext.force;

-- prepared statements: custom plans, then the generic plan
PREPARE jm_off(int4, int4) AS
    SELECT o.id AS oid, i.id AS iid FROM gx_mo o JOIN gx_mi i ON o.k4 = i.k4 WHERE o.v < $1 AND i.v > $2;
PREPARE jm_on(int4, int4) AS
    SELECT o.id AS oid, i.id AS iid FROM gx_mo o JOIN gx_mi i ON o.k4 = i.k4 WHERE o.v < $1 AND i.v > $2;
SELECT args, gx_error(format('EXECUTE jm_off%s', args), format('EXECUTE jm_on%s', args))
FROM (VALUES ('(500, 100)'), ('(1000, 0)'), ('(0, 0)'), ('(NULL, 1)'), ('(300, 900)'),
             ('(700, 500)'), ('(900, 10)')) v(args);
SET plan_cache_mode = force_generic_plan;
PREPARE jmg_off(int4) AS SELECT o.id FROM gx_mo o WHERE NOT EXISTS (SELECT 1 FROM gx_mi i WHERE i.k4 = o.k4 AND i.v < $1);
PREPARE jmg_on(int4) AS SELECT o.id FROM gx_mo o WHERE NOT EXISTS (SELECT 1 FROM gx_mi i WHERE i.k4 = o.k4 AND i.v < $1);
SELECT args, gx_error(format('EXECUTE jmg_off%s', args), format('EXECUTE jmg_on%s', args))
FROM (VALUES ('(500)'), ('(0)'), ('(NULL)'), ('(2000)')) v(args);
SET gpuext.force = on;
SELECT * FROM gx_explain('EXECUTE jmg_on(500)');
RESET gpuext.force;
RESET plan_cache_mode;

-- a table that does not fit: PostgreSQL's Hash Join of the same sides
SET gpuext.session_memory = '64kB';
SELECT q, gx_mcheck(q) FROM (VALUES
    ('SELECT o.id, i.id FROM gx_mo o JOIN gx_mi i ON o.k4 = i.k4'),
    ('SELECT count(*) FROM gx_mo o FULL JOIN gx_mi i ON o.k4 = i.k4')) v(q);
SET gpuext.force = on;
SELECT * FROM gx_jexplain('SELECT count(*) FROM gx_mo o JOIN gx_mi i ON o.k4 = i.k4');
RESET gpuext.force;
RESET gpuext.session_memory;

-- the sides the device reads itself (device inputs), from heap pages and
-- from cached columns (the inner side's; an outer side's batches are heap
-- pages: a merge probe's scratch lies in its result area), with stale
-- blocks; each compared with gpuext.join_device_inputs off too
CREATE FUNCTION gx_micheck(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    res text;
BEGIN
    res := gx_mcheck(q);
    PERFORM set_config('gpuext.join_device_inputs', 'off', true);
    res := res || ' / inputs off: ' || gx_check(q);
    PERFORM set_config('gpuext.join_device_inputs', 'on', true);
    RETURN res;
END $$;
CREATE TABLE gx_ma (id int4, k int4, k8 int8, v int4);
INSERT INTO gx_ma
SELECT g, CASE WHEN g % 29 = 0 THEN NULL ELSE g % 5000 END,
       CASE WHEN g % 31 = 0 THEN NULL ELSE (g % 900)::int8 * 1000000007 END, g * 7 % 1000
FROM generate_series(1, 40000) g;
CREATE TABLE gx_mb (id int4, k int4, k8 int8, v int4);
INSERT INTO gx_mb
SELECT g, CASE WHEN g % 37 = 0 THEN NULL ELSE g * 3 % 7000 END,
       CASE WHEN g % 41 = 0 THEN NULL ELSE (g * 7 % 1300)::int8 * 1000000007 END, g * 11 % 1000
FROM generate_series(1, 30000) g;
VACUUM ANALYZE gx_ma, gx_mb;
SELECT q, gx_micheck(q) FROM (VALUES
    ('SELECT count(*) FROM gx_ma a JOIN gx_mb b ON a.k = b.k'),
    ('SELECT count(*) FROM gx_ma a JOIN gx_mb b ON a.k = b.k AND a.k8 = b.k8'),
    ('SELECT count(*) FROM gx_ma a WHERE NOT EXISTS (SELECT 1 FROM gx_mb b WHERE b.k = a.k)'),
    ('SELECT a.id FROM gx_ma a WHERE EXISTS (SELECT 1 FROM gx_mb b WHERE b.k8 = a.k8 AND b.v % 3 = 0)'),
    ('SELECT a.id, b.id FROM gx_ma a JOIN gx_mb b ON a.k = b.k WHERE a.v < 50')) v(q);
SELECT gpuext_cache_load('gx_ma') > 0 AS loaded, gpuext_cache_load('gx_mb') > 0 AS loaded;
-- (an outer side that is counted or aggregated reads cache entries, its
-- probes' sort scratch in a session object; one whose rows are returned
-- reads heap pages)
SELECT q, gx_micheck(q) FROM (VALUES
    ('SELECT count(*) FROM gx_ma a JOIN gx_mb b ON a.k = b.k'),
    ('SELECT count(*) FROM gx_ma a JOIN gx_mb b ON a.k = b.k AND a.k8 = b.k8'),
    ('SELECT a.v % 7, count(*), sum(b.v) FROM gx_ma a JOIN gx_mb b ON a.k = b.k GROUP BY 1'),
    ('SELECT count(*) FROM gx_ma a WHERE EXISTS (SELECT 1 FROM gx_mb b WHERE b.k = a.k)'),
    ('SELECT a.id FROM gx_ma a WHERE NOT EXISTS (SELECT 1 FROM gx_mb b WHERE b.k = a.k)')) v(q);
SET gpuext.force = on;
SELECT l ~ 'Outer Cached Chunks: [1-9]' AS outer_cached, l2 ~ 'Inner Cached Chunks: [1-9]' AS inner_cached
FROM (SELECT string_agg(l, ' ') FILTER (WHERE l ~ 'Outer Cached') AS l,
             string_agg(l, ' ') FILTER (WHERE l ~ 'Inner Cached') AS l2
      FROM gx_jexplain('SELECT count(*) FROM gx_ma a JOIN gx_mb b ON a.k = b.k') l) s;
RESET gpuext.force;
UPDATE gx_mb SET k = k + 1 WHERE id % 97 = 0;
DELETE FROM gx_ma WHERE id % 101 = 0;
SELECT q, gx_micheck(q) FROM (VALUES
    ('SELECT count(*) FROM gx_ma a JOIN gx_mb b ON a.k = b.k'),
    ('SELECT a.v % 7, count(*), sum(b.v) FROM gx_ma a JOIN gx_mb b ON a.k = b.k GROUP BY 1'),
    ('SELECT count(*) FROM gx_ma a WHERE EXISTS (SELECT 1 FROM gx_mb b WHERE b.k = a.k)')) v(q);
SELECT gpuext_cache_evict('gx_ma') >= 0 AS evicted, gpuext_cache_evict('gx_mb') >= 0 AS evicted;

-- float keys (gx_num: -0, NaN, infinities, NULLs) sorted and merged as
-- float8eq compares them
SELECT gx_mcheck('SELECT a.id, b.id FROM gx_num a JOIN gx_num b ON a.f8 = b.f8');
SELECT gx_mcheck('SELECT a.id, b.id FROM gx_num a JOIN gx_num b ON a.f4 = b.f8 AND a.i2 = b.i2');
SELECT gx_mcheck('SELECT count(*) FROM gx_num a JOIN gx_num b ON a.f4 = b.f4');
SELECT gx_mcheck('SELECT a.id FROM gx_num a WHERE NOT EXISTS (SELECT 1 FROM gx_num b WHERE b.f8 = a.f4 AND b.id > 3000)');
SELECT gx_mcheck('SELECT a.id, b.id FROM gx_num a FULL JOIN (SELECT * FROM gx_num WHERE id > 2980) b ON a.f8 = b.f4');

DROP FUNCTION gx_micheck(text);
DROP FUNCTION gx_mcheck(text);
DROP FUNCTION gx_join_alg(text);
DROP TABLE gx_mo, gx_mi, gx_mskew, gx_mempty, gx_mnull, gx_mfar, gx_mnan, gx_mbig, gx_ma, gx_mb;
RESET gpuext.enable_hashjoin;
