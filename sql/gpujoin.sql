-- gpujoin: GpuJoin, the hash join on the device (INNER, SEMI, ANTI).
-- Every query is compared with gpuext off (gx_check: PostgreSQL's own
-- plan, then gpuext forced on each device); gx_jcheck adds whether the
-- forced plan joins on the device (GpuJoin) or keeps PostgreSQL's join.

SET max_parallel_workers_per_gather = 0;

-- both sides with every key type and NULLs in every key
CREATE TABLE gx_jo (id int4, k4 int4, k2 int2, k8 int8, kd date, kts timestamp,
                    ktz timestamptz, kb bool, kn numeric(10,2), v int4, txt text);
INSERT INTO gx_jo
SELECT g,
       CASE WHEN g % 31 = 0 THEN NULL ELSE g % 700 END,
       CASE WHEN g % 29 = 0 THEN NULL ELSE (g % 300 - 150)::int2 END,
       CASE WHEN g % 23 = 0 THEN NULL ELSE (g % 500)::int8 * 10000000000 END,
       CASE WHEN g % 19 = 0 THEN NULL ELSE date '2024-01-01' + g % 400 END,
       CASE WHEN g % 17 = 0 THEN NULL ELSE timestamp '2024-01-01' + (g % 600) * interval '1 hour' END,
       CASE WHEN g % 13 = 0 THEN NULL ELSE timestamptz '2024-01-01 00:00+00' + (g % 450) * interval '1 minute' END,
       CASE WHEN g % 11 = 0 THEN NULL ELSE g % 3 = 0 END,
       CASE WHEN g % 7 = 0 THEN NULL ELSE (g % 800) / 4.0 END,
       g * 7 % 1000,
       'o' || g
FROM generate_series(1, 3000) g;
CREATE TABLE gx_ji (id int4, k4 int4, k2 int2, k8 int8, kd date, kts timestamp,
                    ktz timestamptz, kb bool, kn numeric(12,3), v int4, txt text);
INSERT INTO gx_ji
SELECT g,
       CASE WHEN g % 37 = 0 THEN NULL ELSE g * 3 % 400 END,
       CASE WHEN g % 41 = 0 THEN NULL ELSE (g % 400 - 200)::int2 END,
       CASE WHEN g % 43 = 0 THEN NULL ELSE (g * 7 % 900)::int8 * 10000000000 END,
       CASE WHEN g % 47 = 0 THEN NULL ELSE date '2024-03-01' + g % 500 END,
       CASE WHEN g % 53 = 0 THEN NULL ELSE timestamp '2024-01-10' + (g % 700) * interval '1 hour' END,
       CASE WHEN g % 59 = 0 THEN NULL ELSE timestamptz '2024-01-01 01:00+00' + (g % 500) * interval '1 minute' END,
       CASE WHEN g % 61 = 0 THEN NULL ELSE g % 5 = 0 END,
       CASE WHEN g % 67 = 0 THEN NULL ELSE (g % 900) / 8.0 END,
       g % 1000,
       'i' || g
FROM generate_series(1, 1000) g;
-- 90% of the rows share one key
CREATE TABLE gx_jskew (id int4, k int4, v int4);
INSERT INTO gx_jskew SELECT g, CASE WHEN g % 10 = 0 THEN g ELSE 7 END, g FROM generate_series(1, 1900) g;
CREATE TABLE gx_jempty (id int4, k4 int4, k8 int8);
-- numeric NaN equals NaN
CREATE TABLE gx_jnan (id int4, n numeric(6,2));
INSERT INTO gx_jnan VALUES (1, 'NaN'), (2, 1.5), (3, NULL), (4, 'NaN'), (5, 0.25), (6, 199.75);
CREATE TABLE gx_jnull (id int4, k4 int4);
INSERT INTO gx_jnull SELECT g, NULL FROM generate_series(1, 50) g;
-- larger than a chunk of gpuext.chunk_rows = 1024 on both sides
CREATE TABLE gx_jbig (id int4, k int4, v int4);
INSERT INTO gx_jbig SELECT g, g % 5000, g FROM generate_series(1, 12000) g;
VACUUM ANALYZE gx_jo, gx_ji, gx_jskew, gx_jempty, gx_jnan, gx_jnull, gx_jbig;

-- the plans: algorithm, join type, keys, the two children
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT o.id, i.id FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4');
SELECT * FROM gx_explain('SELECT o.id FROM gx_jo o WHERE EXISTS (SELECT 1 FROM gx_ji i WHERE i.k8 = o.k8)');
SELECT * FROM gx_explain('SELECT o.id FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_ji i WHERE i.kd = o.kd)');
SELECT * FROM gx_explain('SELECT o.id, i.v FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4 AND o.k2 = i.k2 WHERE o.v < 500',
                         'COSTS OFF, VERBOSE');
-- EXPLAIN ANALYZE: rows per side, tasks
SELECT * FROM gx_jexplain('SELECT o.id, i.id FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4');
SELECT * FROM gx_jexplain('SELECT o.id FROM gx_jo o WHERE o.k4 IN (SELECT k4 FROM gx_ji)');
RESET gpuext.force;

-- INNER joins on every key type (NULL keys never match)
SELECT gx_jcheck('SELECT o.id, i.id FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4');
SELECT gx_jcheck('SELECT o.id, i.id FROM gx_jo o JOIN gx_ji i ON o.k2 = i.k2');
SELECT gx_jcheck('SELECT o.id, i.id FROM gx_jo o JOIN gx_ji i ON o.k8 = i.k8');
SELECT gx_jcheck('SELECT o.id, i.id FROM gx_jo o JOIN gx_ji i ON o.kd = i.kd');
SELECT gx_jcheck('SELECT o.id, i.id FROM gx_jo o JOIN gx_ji i ON o.kts = i.kts');
SELECT gx_jcheck('SELECT o.id, i.id FROM gx_jo o JOIN gx_ji i ON o.ktz = i.ktz');
SELECT gx_jcheck('SELECT o.kb, count(*), sum(o.v + i.v) FROM gx_jo o JOIN gx_ji i ON o.kb = i.kb GROUP BY o.kb');
SELECT gx_jcheck('SELECT o.id, i.id, o.kn, i.kn FROM gx_jo o JOIN gx_ji i ON o.kn = i.kn');
SELECT gx_jcheck('SELECT a.id, b.id, a.n FROM gx_jnan a JOIN gx_jnan b ON a.n = b.n');
SELECT gx_jcheck('SELECT a.id, o.id FROM gx_jnan a JOIN gx_jo o ON a.n = o.kn');
SELECT gx_jcheck('SELECT a.id FROM gx_jnan a WHERE NOT EXISTS (SELECT 1 FROM gx_jnan b WHERE a.n = b.n AND b.id > 3)');
-- mixed integer widths: int2 = int4, int4 = int8, int8 = int2
SELECT gx_jcheck('SELECT o.id, i.id FROM gx_jo o JOIN gx_ji i ON o.k2 = i.k4');
SELECT gx_jcheck('SELECT o.id, i.id FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k8');
SELECT gx_jcheck('SELECT o.id, i.id FROM gx_jo o JOIN gx_ji i ON o.k8 = i.k2');
-- two keys; every column of both sides returned; quals on either side
SELECT gx_jcheck('SELECT * FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4 AND o.k2 = i.k2');
SELECT gx_jcheck('SELECT o.txt, i.txt, o.kn FROM gx_jo o JOIN gx_ji i ON o.kd = i.kd AND o.k8 = i.k8');
SELECT gx_jcheck('SELECT o.id, i.txt FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4 WHERE o.v < 300 AND i.txt LIKE ''i1%''');
SELECT gx_jcheck('SELECT count(*), sum(o.v), min(i.txt) FROM gx_jo o JOIN gx_ji i ON i.k4 = o.k4');

-- SEMI (EXISTS, IN) and ANTI (NOT EXISTS; LEFT JOIN ... IS NULL)
SELECT gx_jcheck('SELECT o.id FROM gx_jo o WHERE EXISTS (SELECT 1 FROM gx_ji i WHERE i.k4 = o.k4)');
SELECT gx_jcheck('SELECT o.* FROM gx_jo o WHERE o.k2 IN (SELECT k2 FROM gx_ji)');
SELECT gx_jcheck('SELECT o.id FROM gx_jo o WHERE o.kd IN (SELECT kd FROM gx_ji WHERE v > 500)');
SELECT gx_jcheck('SELECT o.id FROM gx_jo o WHERE EXISTS (SELECT 1 FROM gx_ji i WHERE i.kn = o.kn AND i.ktz = o.ktz)');
SELECT gx_jcheck('SELECT o.id, o.txt FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_ji i WHERE i.k4 = o.k4)');
SELECT gx_jcheck('SELECT o.id FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_ji i WHERE i.kts = o.kts)');
SELECT gx_jcheck('SELECT o.id FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_ji i WHERE i.kb = o.kb)');
SELECT gx_jcheck('SELECT o.id FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_ji i WHERE i.k8 = o.k8 AND i.k2 = o.k2)');
SELECT gx_jcheck('SELECT o.id FROM gx_jo o LEFT JOIN gx_ji i ON i.k4 = o.k4 WHERE i.k4 IS NULL');
-- NOT IN is no anti join in PostgreSQL (NULL semantics): a filter, whose
-- uncorrelated subquery's rows the GpuScan searches as a big set
SELECT gx_jcheck('SELECT o.id FROM gx_jo o WHERE o.k4 NOT IN (SELECT k4 FROM gx_ji)');

-- skew: 90% of both sides hold one key (3.2M pairs: many probe passes)
SELECT gx_jcheck('SELECT count(*), sum(a.v::int8 * b.v) FROM gx_jskew a JOIN gx_jskew b ON a.k = b.k');
SELECT gx_jcheck('SELECT a.id FROM gx_jskew a WHERE EXISTS (SELECT 1 FROM gx_jskew b WHERE b.k = a.k)');
SELECT gx_jcheck('SELECT o.id, s.id FROM gx_jo o JOIN gx_jskew s ON o.k4 = s.k');
SET gpuext.force = on;
-- (the pairs handed back in passes: enable_agg off keeps the count off
-- the device; counted, below, it takes one pass)
SET gpuext.enable_agg = off;
SELECT * FROM gx_jexplain('SELECT count(*) FROM gx_jskew a JOIN gx_jskew b ON a.k = b.k');
RESET gpuext.enable_agg;
SELECT * FROM gx_jexplain('SELECT count(*) FROM gx_jskew a JOIN gx_jskew b ON a.k = b.k');
RESET gpuext.force;
-- a join in another's outer side, its many pairs in passes: it reads its
-- outer table itself and gives its batch's staging slot back between
-- passes (the join above takes one of its own meanwhile)
SET join_collapse_limit = 1;
SELECT gx_jcheck('SELECT count(*), sum(o.id::int8 + a.id) FROM (gx_jskew a JOIN gx_jskew b ON a.k = b.k) JOIN gx_jo o ON o.k4 = b.id');
SELECT gx_jcheck('SELECT a.id, b.id, o.id FROM (gx_jskew a JOIN gx_jskew b ON a.k = b.k) JOIN gx_jo o ON o.k4 = b.id WHERE o.id % 50 = 0');
SET gpuext.force = on;
SELECT * FROM gx_jexplain('SELECT count(*), sum(o.id::int8 + a.id) FROM (gx_jskew a JOIN gx_jskew b ON a.k = b.k) JOIN gx_jo o ON o.k4 = b.id');
RESET gpuext.force;
-- the same over cached tables: a cached batch of rows returned takes one
-- pass, else it is given up before any of its rows is returned and its
-- blocks are read from the heap (passes submit heap pages again, never an
-- entry, which may be refreshed between them)
SELECT gpuext_cache_load('gx_jskew') > 0 AS loaded, gpuext_cache_load('gx_jo') > 0 AS loaded;
SELECT gx_jcheck('SELECT count(*), sum(o.id::int8 + a.id) FROM (gx_jskew a JOIN gx_jskew b ON a.k = b.k) JOIN gx_jo o ON o.k4 = b.id');
SELECT gx_jcheck('SELECT a.id, b.id FROM gx_jskew a JOIN gx_jskew b ON a.k = b.k WHERE (a.id + b.id) % 997 = 0');
SELECT gx_jcheck('SELECT o.id, s.id FROM gx_jo o JOIN gx_jskew s ON o.k4 = s.k');
SET gpuext.force = on;
SELECT * FROM gx_jexplain('SELECT a.id, b.id FROM gx_jskew a JOIN gx_jskew b ON a.k = b.k WHERE (a.id + b.id) % 997 = 0');
SELECT * FROM gx_jexplain('SELECT o.id, s.id FROM gx_jo o JOIN gx_jskew s ON o.k4 = s.k');
RESET gpuext.force;
SELECT gpuext_cache_evict('gx_jskew') >= 0 AS evicted, gpuext_cache_evict('gx_jo') >= 0 AS evicted;
RESET join_collapse_limit;

-- empty sides, only NULL keys, all match, none match
SELECT gx_jcheck('SELECT o.id FROM gx_jo o JOIN gx_jempty e ON o.k4 = e.k4');
SELECT gx_jcheck('SELECT e.id FROM gx_jempty e JOIN gx_jo o ON o.k8 = e.k8');
SELECT gx_jcheck('SELECT o.id FROM gx_jo o WHERE EXISTS (SELECT 1 FROM gx_jempty e WHERE e.k4 = o.k4)');
SELECT gx_jcheck('SELECT o.id FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_jempty e WHERE e.k4 = o.k4)');
SELECT gx_jcheck('SELECT e.id FROM gx_jempty e WHERE NOT EXISTS (SELECT 1 FROM gx_jo o WHERE e.k4 = o.k4)');
SELECT gx_jcheck('SELECT o.id FROM gx_jo o JOIN gx_jnull n ON o.k4 = n.k4');
SELECT gx_jcheck('SELECT o.id FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_jnull n WHERE n.k4 = o.k4)');
SELECT gx_jcheck('SELECT n.id FROM gx_jnull n WHERE NOT EXISTS (SELECT 1 FROM gx_jo o WHERE n.k4 = o.k4)');
SELECT gx_jcheck('SELECT a.id, b.id FROM gx_jo a JOIN gx_jo b ON a.id = b.id');
SELECT gx_jcheck('SELECT a.id FROM gx_jo a WHERE NOT EXISTS (SELECT 1 FROM gx_jo b WHERE a.id = b.id)');
SELECT gx_jcheck('SELECT o.id, s.id FROM gx_jo o JOIN gx_jskew s ON o.k8 = s.k');
SELECT gx_jcheck('SELECT o.id FROM gx_jo o WHERE EXISTS (SELECT 1 FROM gx_jskew s WHERE s.k = o.k8)');
SELECT gx_jcheck('SELECT o.id FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_jskew s WHERE s.k = o.k8)');

-- results larger than a chunk: several build and probe tasks
SET gpuext.chunk_rows = 1024;
SELECT gx_jcheck('SELECT a.id, b.id FROM gx_jbig a JOIN gx_jbig b ON a.k = b.k');
SELECT gx_jcheck('SELECT a.id FROM gx_jbig a WHERE NOT EXISTS (SELECT 1 FROM gx_jo o WHERE o.k4 = a.k)');
SET gpuext.force = on;
SELECT * FROM gx_jexplain('SELECT count(*) FROM gx_jbig a JOIN gx_jbig b ON a.k = b.k');
RESET gpuext.force;
RESET gpuext.chunk_rows;

-- prepared statements: custom plans, then the generic plan
PREPARE jp_off(int4, int4) AS
    SELECT o.id AS oid, i.id AS iid FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4 WHERE o.v < $1 AND i.v > $2;
PREPARE jp_on(int4, int4) AS
    SELECT o.id AS oid, i.id AS iid FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4 WHERE o.v < $1 AND i.v > $2;
SELECT args, gx_error(format('EXECUTE jp_off%s', args), format('EXECUTE jp_on%s', args))
FROM (VALUES ('(500, 100)'), ('(1000, 0)'), ('(0, 0)'), ('(NULL, 1)'), ('(300, 900)'),
             ('(700, 500)'), ('(900, 10)')) v(args);
SET plan_cache_mode = force_generic_plan;
PREPARE jg_off(int4) AS SELECT o.id FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_ji i WHERE i.k4 = o.k4 AND i.v < $1);
PREPARE jg_on(int4) AS SELECT o.id FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_ji i WHERE i.k4 = o.k4 AND i.v < $1);
SELECT args, gx_error(format('EXECUTE jg_off%s', args), format('EXECUTE jg_on%s', args))
FROM (VALUES ('(500)'), ('(0)'), ('(NULL)'), ('(2000)')) v(args);
SET gpuext.force = on;
SELECT * FROM gx_explain('EXECUTE jg_on(500)');
RESET gpuext.force;
RESET plan_cache_mode;

-- rescans: a correlated subquery whose join reads a parameter on the
-- outer side (the table is built once: Table Builds) or on the inner side
-- (built again for each row)
SELECT gx_jcheck('SELECT x, (SELECT count(*) FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4 WHERE o.v < x) FROM generate_series(0, 1000, 250) x');
SELECT gx_jcheck('SELECT x, (SELECT count(*) FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_ji i WHERE i.k4 = o.k4 AND i.v < x)) FROM generate_series(0, 1000, 250) x');
SET gpuext.force = on;
SELECT * FROM gx_jexplain('SELECT x, (SELECT count(*) FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4 WHERE o.v < x) FROM generate_series(0, 1000, 250) x');
SELECT * FROM gx_jexplain('SELECT x, (SELECT count(*) FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_ji i WHERE i.k4 = o.k4 AND i.v < x)) FROM generate_series(0, 1000, 250) x');
RESET gpuext.force;
-- under a nested loop without Materialize: rescanned without parameters
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SET enable_material = off;
SELECT gx_jcheck('SELECT n.id, count(*), sum(o.v) FROM gx_jnull n LEFT JOIN (gx_jo o JOIN gx_ji i ON o.k4 = i.k4) ON n.id * 500 < o.id WHERE n.id <= 5 GROUP BY n.id');
SET gpuext.force = on;
SELECT * FROM gx_jexplain('SELECT count(*) FROM gx_jnull n LEFT JOIN (gx_jo o JOIN gx_ji i ON o.k4 = i.k4) ON n.id * 500 < o.id WHERE n.id <= 5');
RESET gpuext.force;
-- ... and with a table that does not fit: the fallback plan is rescanned
-- (enable_hashjoin off does not stop it)
SET gpuext.session_memory = '64kB';
SELECT gx_jcheck('SELECT n.id, count(*), sum(o.v) FROM gx_jnull n LEFT JOIN (gx_jo o JOIN gx_ji i ON o.k4 = i.k4) ON n.id * 500 < o.id WHERE n.id <= 5 GROUP BY n.id');
SET gpuext.force = on;
SELECT * FROM gx_jexplain('SELECT count(*) FROM gx_jnull n LEFT JOIN (gx_jo o JOIN gx_ji i ON o.k4 = i.k4) ON n.id * 500 < o.id WHERE n.id <= 5');
RESET gpuext.force;
RESET gpuext.session_memory;
RESET enable_hashjoin;
RESET enable_mergejoin;
RESET enable_material;
-- LIMIT: the node is ended before its last row
SELECT gx_jcheck('SELECT count(*) FROM (SELECT o.id FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4 LIMIT 10) s');

-- a table that does not fit: the node runs its fallback, PostgreSQL's Hash
-- Join of the same sides, before it returns a row.  A table takes 64kB at
-- least, so with gpuext.session_memory = 64kB every non-empty inner side
-- falls back: gx_ji (1000 rows) once read (gx_session_try_alloc has no
-- room), gx_jbig (12000 rows) while it is read (after 1024 rows)
SET gpuext.session_memory = '64kB';
SELECT gx_jcheck('SELECT o.id, i.id FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4');
SELECT gx_jcheck('SELECT * FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4 AND o.k2 = i.k2');
SELECT gx_jcheck('SELECT o.id, i.id, o.kn, i.kn FROM gx_jo o JOIN gx_ji i ON o.kn = i.kn');
SELECT gx_jcheck('SELECT a.id, b.id FROM gx_jbig a JOIN gx_jbig b ON a.k = b.k');
SELECT gx_jcheck('SELECT count(*), sum(a.v::int8 * b.v) FROM gx_jskew a JOIN gx_jskew b ON a.k = b.k');
SELECT gx_jcheck('SELECT o.id FROM gx_jo o WHERE EXISTS (SELECT 1 FROM gx_ji i WHERE i.k4 = o.k4)');
SELECT gx_jcheck('SELECT o.* FROM gx_jo o WHERE o.k2 IN (SELECT k2 FROM gx_ji)');
SELECT gx_jcheck('SELECT o.id FROM gx_jo o WHERE o.k4 IN (SELECT k FROM gx_jbig)');
SELECT gx_jcheck('SELECT o.id, o.txt FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_ji i WHERE i.k4 = o.k4)');
SELECT gx_jcheck('SELECT o.id FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_ji i WHERE i.k8 = o.k8 AND i.k2 = o.k2)');
SELECT gx_jcheck('SELECT o.id FROM gx_jo o LEFT JOIN gx_ji i ON i.k4 = o.k4 WHERE i.k4 IS NULL');
SELECT gx_jcheck('SELECT a.id FROM gx_jbig a WHERE NOT EXISTS (SELECT 1 FROM gx_jbig b WHERE b.k = a.id)');
-- an empty inner side needs no table: on the device
SELECT gx_jcheck('SELECT o.id FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_jempty e WHERE e.k4 = o.k4)');
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT o.id FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_ji i WHERE i.k4 = o.k4)');
SELECT * FROM gx_jexplain('SELECT o.id, i.id FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4');
SELECT * FROM gx_jexplain('SELECT count(*) FROM gx_jo o WHERE o.k4 IN (SELECT k FROM gx_jbig)');
SELECT * FROM gx_jexplain('SELECT count(*) FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_jempty e WHERE e.k4 = o.k4)');
RESET gpuext.force;
-- prepared: custom plans, then the generic plan
SELECT args, gx_error(format('EXECUTE jp_off%s', args), format('EXECUTE jp_on%s', args))
FROM (VALUES ('(500, 100)'), ('(1000, 0)'), ('(0, 0)'), ('(300, 900)')) v(args);
SET plan_cache_mode = force_generic_plan;
SELECT args, gx_error(format('EXECUTE jg_off%s', args), format('EXECUTE jg_on%s', args))
FROM (VALUES ('(500)'), ('(0)'), ('(NULL)'), ('(2000)')) v(args);
RESET plan_cache_mode;
-- rescans: a parameter on the outer side keeps the decision (the
-- fallback plan is rescanned); on the inner side it is taken again for
-- each row: with 120kB, the tables of i.v < 0, 250 and 500 fit (0, about
-- 250 and 500 rows), those of 750 and 1000 do not (and run the fallback
-- plan: no partitions, gpujoin_parts.sql has those)
SELECT gx_jcheck('SELECT x, (SELECT count(*) FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4 WHERE o.v < x) FROM generate_series(0, 1000, 250) x');
SET gpuext.join_partitions = off;
SET gpuext.session_memory = '120kB';
SELECT gx_jcheck('SELECT x, (SELECT count(*) FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_ji i WHERE i.k4 = o.k4 AND i.v < x)) FROM generate_series(0, 1000, 250) x');
SELECT gx_jcheck('SELECT x, (SELECT count(*) FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4 WHERE i.v < x) FROM generate_series(1000, 0, -250) x');
SELECT gx_jcheck('SELECT x, (SELECT count(*) FROM gx_jo o WHERE EXISTS (SELECT 1 FROM gx_ji i WHERE i.k4 = o.k4 AND i.v < x)) FROM generate_series(0, 1000, 250) x');
SET gpuext.force = on;
SELECT * FROM gx_jexplain('SELECT x, (SELECT count(*) FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_ji i WHERE i.k4 = o.k4 AND i.v < x)) FROM generate_series(0, 1000, 250) x');
RESET gpuext.force;
-- (under a nested loop without Materialize: with the rescans above)
SET gpuext.session_memory = '64kB';
-- LIMIT: the fallback ended before its last row
SELECT gx_jcheck('SELECT count(*) FROM (SELECT o.id FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4 LIMIT 10) s');
RESET gpuext.session_memory;
RESET gpuext.join_partitions;

-- count(*) over a join: the GpuJoin counts (count-only probes) and
-- returns one row, count(*)'s partial state, to a Finalize Aggregate
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT count(*) FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4');
SELECT * FROM gx_explain('SELECT count(*) FROM gx_jo o WHERE EXISTS (SELECT 1 FROM gx_ji i WHERE i.k8 = o.k8)');
SELECT * FROM gx_explain('SELECT count(*) AS n, count(*) + 1 FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_ji i WHERE i.kd = o.kd) AND o.v < 500',
                         'COSTS OFF, VERBOSE');
SELECT * FROM gx_jexplain('SELECT count(*) FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4');
SELECT * FROM gx_jexplain('SELECT count(*) FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_ji i WHERE i.k4 = o.k4)');
-- the counts themselves (gx_jccheck below compares them with gpuext off)
SELECT count(*) FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4;
SELECT count(*) FROM gx_jo o WHERE EXISTS (SELECT 1 FROM gx_ji i WHERE i.k4 = o.k4);
SELECT count(*) FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_ji i WHERE i.k4 = o.k4);
-- skew: 1710 of the 1900 rows share a key, 2924290 pairs of them
SELECT count(*) FROM gx_jskew a JOIN gx_jskew b ON a.k = b.k;
RESET gpuext.force;
-- INNER on every key type (NULL keys never match), mixed widths, two keys
SELECT q, gx_jccheck(q) FROM (VALUES
    ('SELECT count(*) FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4'),
    ('SELECT count(*) FROM gx_jo o JOIN gx_ji i ON o.k2 = i.k2'),
    ('SELECT count(*) FROM gx_jo o JOIN gx_ji i ON o.k8 = i.k8'),
    ('SELECT count(*) FROM gx_jo o JOIN gx_ji i ON o.kd = i.kd'),
    ('SELECT count(*) FROM gx_jo o JOIN gx_ji i ON o.kts = i.kts'),
    ('SELECT count(*) FROM gx_jo o JOIN gx_ji i ON o.ktz = i.ktz'),
    ('SELECT count(*) FROM gx_jo o JOIN gx_ji i ON o.kb = i.kb'),
    ('SELECT count(*) FROM gx_jo o JOIN gx_ji i ON o.kn = i.kn'),
    ('SELECT count(*) FROM gx_jnan a JOIN gx_jnan b ON a.n = b.n'),
    ('SELECT count(*) FROM gx_jo o JOIN gx_ji i ON o.k2 = i.k4'),
    ('SELECT count(*) FROM gx_jo o JOIN gx_ji i ON o.k8 = i.k2'),
    ('SELECT count(*) FROM gx_jo o JOIN gx_ji i ON o.kd = i.kd AND o.k8 = i.k8'),
    ('SELECT count(*) FROM gx_jo o, gx_ji i WHERE o.k4 = i.k4 AND o.v < 300 AND i.txt LIKE ''i1%''')) v(q);
-- SEMI (EXISTS, IN) and ANTI (NOT EXISTS) on every key type
SELECT q, gx_jccheck(q) FROM (VALUES
    ('SELECT count(*) FROM gx_jo o WHERE EXISTS (SELECT 1 FROM gx_ji i WHERE i.k4 = o.k4)'),
    ('SELECT count(*) FROM gx_jo o WHERE o.k2 IN (SELECT k2 FROM gx_ji)'),
    ('SELECT count(*) FROM gx_jo o WHERE EXISTS (SELECT 1 FROM gx_ji i WHERE i.k8 = o.k8)'),
    ('SELECT count(*) FROM gx_jo o WHERE o.kd IN (SELECT kd FROM gx_ji WHERE v > 500)'),
    ('SELECT count(*) FROM gx_jo o WHERE EXISTS (SELECT 1 FROM gx_ji i WHERE i.kts = o.kts)'),
    ('SELECT count(*) FROM gx_jo o WHERE EXISTS (SELECT 1 FROM gx_ji i WHERE i.kn = o.kn AND i.ktz = o.ktz)'),
    ('SELECT count(*) FROM gx_jo o WHERE EXISTS (SELECT 1 FROM gx_ji i WHERE i.kb = o.kb)'),
    ('SELECT count(*) FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_ji i WHERE i.k4 = o.k4)'),
    ('SELECT count(*) FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_ji i WHERE i.k2 = o.k2)'),
    ('SELECT count(*) FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_ji i WHERE i.k8 = o.k8)'),
    ('SELECT count(*) FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_ji i WHERE i.kd = o.kd)'),
    ('SELECT count(*) FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_ji i WHERE i.kts = o.kts)'),
    ('SELECT count(*) FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_ji i WHERE i.ktz = o.ktz)'),
    ('SELECT count(*) FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_ji i WHERE i.kb = o.kb)'),
    ('SELECT count(*) FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_ji i WHERE i.kn = o.kn)'),
    ('SELECT count(*) FROM gx_jnan a WHERE NOT EXISTS (SELECT 1 FROM gx_jnan b WHERE a.n = b.n AND b.id > 3)'),
    ('SELECT count(*) FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_ji i WHERE i.k8 = o.k8 AND i.k2 = o.k2)')) v(q);
-- NULL keys, skew (90% one key), empty sides, self joins
SELECT q, gx_jccheck(q) FROM (VALUES
    ('SELECT count(*) FROM gx_jo o JOIN gx_jnull n ON o.k4 = n.k4'),
    ('SELECT count(*) FROM gx_jo o WHERE EXISTS (SELECT 1 FROM gx_jnull n WHERE n.k4 = o.k4)'),
    ('SELECT count(*) FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_jnull n WHERE n.k4 = o.k4)'),
    ('SELECT count(*) FROM gx_jnull n WHERE NOT EXISTS (SELECT 1 FROM gx_jo o WHERE n.k4 = o.k4)'),
    ('SELECT count(*) FROM gx_jskew a JOIN gx_jskew b ON a.k = b.k'),
    ('SELECT count(*) FROM gx_jskew a WHERE EXISTS (SELECT 1 FROM gx_jskew b WHERE b.k = a.k)'),
    ('SELECT count(*) FROM gx_jo o JOIN gx_jskew s ON o.k4 = s.k'),
    ('SELECT count(*) FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_jskew s WHERE s.k = o.k8)'),
    ('SELECT count(*) FROM gx_jo o JOIN gx_jempty e ON o.k4 = e.k4'),
    ('SELECT count(*) FROM gx_jempty e JOIN gx_jo o ON o.k8 = e.k8'),
    ('SELECT count(*) FROM gx_jo o WHERE EXISTS (SELECT 1 FROM gx_jempty e WHERE e.k4 = o.k4)'),
    ('SELECT count(*) FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_jempty e WHERE e.k4 = o.k4)'),
    ('SELECT count(*) FROM gx_jempty e WHERE NOT EXISTS (SELECT 1 FROM gx_jo o WHERE e.k4 = o.k4)'),
    ('SELECT count(*) FROM gx_jo a WHERE NOT EXISTS (SELECT 1 FROM gx_jo b WHERE a.id = b.id)')) v(q);
-- several chunks on both sides
SET gpuext.chunk_rows = 1024;
SELECT gx_jccheck('SELECT count(*) FROM gx_jbig a JOIN gx_jbig b ON a.k = b.k');
SELECT gx_jccheck('SELECT count(*) FROM gx_jbig a WHERE NOT EXISTS (SELECT 1 FROM gx_jo o WHERE o.k4 = a.k)');
RESET gpuext.chunk_rows;
-- prepared statements: custom plans, then the generic plan
PREPARE jc_off(int4, int4) AS
    SELECT count(*) FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4 WHERE o.v < $1 AND i.v > $2;
PREPARE jc_on(int4, int4) AS
    SELECT count(*) FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4 WHERE o.v < $1 AND i.v > $2;
SELECT args, gx_error(format('EXECUTE jc_off%s', args), format('EXECUTE jc_on%s', args))
FROM (VALUES ('(500, 100)'), ('(1000, 0)'), ('(0, 0)'), ('(NULL, 1)'), ('(300, 900)'),
             ('(700, 500)'), ('(900, 10)')) v(args);
SET plan_cache_mode = force_generic_plan;
PREPARE jcg_off(int4) AS SELECT count(*) FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_ji i WHERE i.k4 = o.k4 AND i.v < $1);
PREPARE jcg_on(int4) AS SELECT count(*) FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_ji i WHERE i.k4 = o.k4 AND i.v < $1);
SELECT args, gx_error(format('EXECUTE jcg_off%s', args), format('EXECUTE jcg_on%s', args))
FROM (VALUES ('(500)'), ('(0)'), ('(NULL)'), ('(2000)')) v(args);
SET gpuext.force = on;
SELECT * FROM gx_explain('EXECUTE jcg_on(500)');
RESET gpuext.force;
RESET plan_cache_mode;
-- rescans: a count under a nested loop with a parameter, on the outer
-- side (the table is built once) or the inner side (built for each row)
SELECT q, gx_jccheck(q) FROM (VALUES
    ('SELECT n.id, c.n FROM gx_jnull n, LATERAL (SELECT count(*) AS n FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4 WHERE o.v < n.id * 40) c WHERE n.id <= 8'),
    ('SELECT n.id, c.n FROM gx_jnull n, LATERAL (SELECT count(*) AS n FROM gx_jo o WHERE EXISTS (SELECT 1 FROM gx_ji i WHERE i.k4 = o.k4 AND i.v < n.id * 100)) c WHERE n.id <= 8'),
    ('SELECT x, (SELECT count(*) FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_ji i WHERE i.k4 = o.k4 AND i.v < x)) FROM generate_series(0, 1000, 250) x')) v(q);
SET gpuext.force = on;
SELECT * FROM gx_jexplain('SELECT n.id, c.n FROM gx_jnull n, LATERAL (SELECT count(*) AS n FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4 WHERE o.v < n.id * 40) c WHERE n.id <= 8');
RESET gpuext.force;
-- the fallback (a table that does not fit): the node counts the Hash
-- Join's rows; with 120kB, the inner sides of i.v < 0 .. 500 fit, of 750
-- and 1000 do not, so a rescan changes the decision
SET gpuext.session_memory = '64kB';
SELECT q, gx_jccheck(q) FROM (VALUES
    ('SELECT count(*) FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4'),
    ('SELECT count(*) FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4 AND o.k2 = i.k2'),
    ('SELECT count(*) FROM gx_jbig a JOIN gx_jbig b ON a.k = b.k'),
    ('SELECT count(*) FROM gx_jskew a JOIN gx_jskew b ON a.k = b.k'),
    ('SELECT count(*) FROM gx_jo o WHERE o.k4 IN (SELECT k FROM gx_jbig)'),
    ('SELECT count(*) FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_ji i WHERE i.k8 = o.k8 AND i.k2 = o.k2)'),
    ('SELECT count(*) FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_jempty e WHERE e.k4 = o.k4)')) v(q);
SET gpuext.force = on;
SELECT * FROM gx_jexplain('SELECT count(*) FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4');
SELECT count(*) FROM gx_jskew a JOIN gx_jskew b ON a.k = b.k;
RESET gpuext.force;
SET gpuext.session_memory = '120kB';
SET gpuext.join_partitions = off;
SELECT gx_jccheck('SELECT n.id, c.n FROM gx_jnull n, LATERAL (SELECT count(*) AS n FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_ji i WHERE i.k4 = o.k4 AND i.v < n.id * 125)) c WHERE n.id <= 8');
SET gpuext.force = on;
SELECT * FROM gx_jexplain('SELECT n.id, c.n FROM gx_jnull n, LATERAL (SELECT count(*) AS n FROM gx_jo o WHERE NOT EXISTS (SELECT 1 FROM gx_ji i WHERE i.k4 = o.k4 AND i.v < n.id * 125)) c WHERE n.id <= 8');
RESET gpuext.force;
RESET gpuext.join_partitions;
RESET gpuext.session_memory;
-- what the counting GpuJoin does not take: GROUP BY, HAVING, other
-- aggregates, count of a column, FILTER (the GpuJoin aggregates its pairs:
-- gpujoin_agg), DISTINCT, grouping sets (it returns rows);
-- gpuext.enable_agg off
SELECT q, gx_jccheck(q) FROM (VALUES
    ('SELECT o.kb, count(*) FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4 GROUP BY o.kb'),
    ('SELECT count(*) FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4 HAVING count(*) > 5'),
    ('SELECT count(*), sum(o.v) FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4'),
    ('SELECT count(i.kn) FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4'),
    ('SELECT count(DISTINCT o.id) FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4'),
    ('SELECT count(*) FILTER (WHERE o.v < 500) FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4'),
    ('SELECT count(*) FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4 GROUP BY ()')) v(q);
SET gpuext.enable_agg = off;
SELECT gx_jccheck('SELECT count(*) FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4');
RESET gpuext.enable_agg;
SET gpuext.enable_gpujoin = off;
SELECT gx_jccheck('SELECT count(*) FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4');
RESET gpuext.enable_gpujoin;

-- float keys compare as float8eq: -0 = 0, every NaN equals every NaN (a
-- negated one too), infinities, float4 = float8 exact as doubles (0.1
-- differs), NULL never matches
CREATE TABLE gx_jflt (id int4, f4 float4, f8 float8);
INSERT INTO gx_jflt VALUES (1, '-0', '-0'), (2, '0', '0'), (3, 'NaN', 'NaN'),
    (4, 'NaN', -('NaN'::float8)), (5, 0.1, 0.1), (6, 'Infinity', 'Infinity'),
    (7, '-Infinity', '-Infinity'), (8, NULL, NULL), (9, 0.5, 0.5), (10, 1e-45, 1e-300),
    (11, 0.1, 0.1::float4);
ANALYZE gx_jflt;
SELECT gx_jcheck('SELECT a.id, b.id FROM gx_jflt a JOIN gx_jflt b ON a.f8 = b.f8');
SELECT gx_jcheck('SELECT a.id, b.id FROM gx_jflt a JOIN gx_jflt b ON a.f4 = b.f4');
SELECT gx_jcheck('SELECT a.id, b.id FROM gx_jflt a JOIN gx_jflt b ON a.f4 = b.f8');
SELECT gx_jcheck('SELECT a.id, b.id FROM gx_jflt a JOIN gx_jflt b ON a.f8 = b.f4 AND a.id % 2 = b.id % 2');
SELECT gx_jcheck('SELECT a.id, b.id FROM gx_jflt a JOIN gx_jflt b ON a.f8 = b.f8 AND a.f4 = b.f4');
SELECT gx_jcheck('SELECT a.id FROM gx_jflt a WHERE a.f4 IN (SELECT f8 FROM gx_jflt WHERE id > 2)');
SELECT gx_jcheck('SELECT a.id FROM gx_jflt a WHERE NOT EXISTS (SELECT 1 FROM gx_jflt b WHERE b.f8 = a.f4 AND b.id > 5)');
SELECT gx_jcheck('SELECT a.id, b.id FROM gx_jflt a LEFT JOIN gx_jflt b ON a.f8 = b.f4');
SELECT gx_jcheck('SELECT a.id, b.id FROM gx_jflt a FULL JOIN (SELECT * FROM gx_jflt WHERE id > 4) b ON a.f4 = b.f8');
SELECT gx_jccheck('SELECT count(*) FROM gx_jflt a JOIN gx_jflt b ON a.f8 = b.f8');
SELECT gx_jcheck('SELECT a.id, b.id FROM gx_num a JOIN gx_num b ON a.f8 = b.f8');
SELECT gx_jcheck('SELECT a.id, b.id FROM gx_num a JOIN gx_num b ON a.f4 = b.f8 AND a.i2 = b.i2');
SELECT gx_jccheck('SELECT count(*) FROM gx_num a JOIN gx_num b ON a.f4 = b.f4');
-- (a float inequality is not the range join's)
SELECT gx_jcheck('SELECT count(*) FROM gx_jflt a JOIN gx_jflt b ON a.f8 < b.f8');
DROP TABLE gx_jflt;

-- what stays with PostgreSQL: non-equi joins (but one the range join
-- takes: gpujoin_band), OR, types the device does not compare, row marks,
-- the switches; an INNER join's other join quals and a third key run on
-- the host over the GpuJoin's rows (Join Filter; gpujoin_chain)
SELECT gx_jcheck('SELECT o.id, i.id FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4 AND o.v < i.v');
SELECT gx_jcheck('SELECT o.id, i.id FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4 OR o.k2 = i.k2');
SELECT gx_jcheck('SELECT count(*) FROM gx_jo o JOIN gx_ji i ON o.k4 < i.k4 - 990');
SELECT gx_jcheck('SELECT o.id, i.id FROM gx_jo o JOIN gx_ji i ON o.txt = i.txt');
SELECT gx_jcheck('SELECT o.id, i.id FROM gx_jo o JOIN gx_ji i ON o.kd = i.kts');
SELECT gx_jcheck('SELECT o.id, i.id FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4 AND o.k2 = i.k2 AND o.kd = i.kd');
SELECT gx_jcheck('SELECT o.id, i.id FROM gx_jo o JOIN gx_ji i ON o.k4 + 1 = i.k4');
SELECT gx_jcheck('SELECT o.id FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4 FOR UPDATE OF o');
SET gpuext.enable_gpujoin = off;
SELECT gx_jcheck('SELECT o.id, i.id FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4');
RESET gpuext.enable_gpujoin;
-- (the equi-join algorithms: the hash join and the merge join)
SET gpuext.enable_hashjoin = off;
SET gpuext.enable_mergejoin = off;
SELECT gx_jcheck('SELECT o.id, i.id FROM gx_jo o JOIN gx_ji i ON o.k4 = i.k4');
RESET gpuext.enable_hashjoin;
RESET gpuext.enable_mergejoin;

DROP TABLE gx_jo, gx_ji, gx_jskew, gx_jempty, gx_jnan, gx_jnull, gx_jbig;
DEALLOCATE ALL;
