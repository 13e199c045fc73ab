-- gpujoin_outer: GpuJoin's outer joins (LEFT, RIGHT, FULL).  Every query
-- is compared with gpuext off (gx_check: PostgreSQL's own plan, then
-- gpuext forced on each device); gx_jcheck adds whether the forced plan
-- joins on the device (GpuJoin), gx_jccheck whether the GpuJoin counts
-- (both, and gx_jexplain, from setup.sql).

SET max_parallel_workers_per_gather = 0;

-- two sides with NULLs in every key, keys that match and keys that do not
CREATE TABLE gx_ol (id int4, k4 int4, k2 int2, k8 int8, kd date, kn numeric(10,2), v int4, txt text);
INSERT INTO gx_ol
SELECT g,
       CASE WHEN g % 31 = 0 THEN NULL ELSE g % 700 END,
       CASE WHEN g % 29 = 0 THEN NULL ELSE (g % 300 - 150)::int2 END,
       CASE WHEN g % 23 = 0 THEN NULL ELSE (g % 500)::int8 * 10000000000 END,
       CASE WHEN g % 19 = 0 THEN NULL ELSE date '2024-01-01' + g % 400 END,
       CASE WHEN g % 7 = 0 THEN NULL ELSE (g % 800) / 4.0 END,
       g * 7 % 1000,
       'o' || g
FROM generate_series(1, 3000) g;
CREATE TABLE gx_or (id int4, k4 int4, k2 int2, k8 int8, kd date, kn numeric(12,3), v int4, txt text);
INSERT INTO gx_or
SELECT g,
       CASE WHEN g % 37 = 0 THEN NULL ELSE g * 3 % 1100 END,
       CASE WHEN g % 41 = 0 THEN NULL ELSE (g % 400 - 200)::int2 END,
       CASE WHEN g % 43 = 0 THEN NULL ELSE (g * 7 % 900)::int8 * 10000000000 END,
       CASE WHEN g % 47 = 0 THEN NULL ELSE date '2024-03-01' + g % 500 END,
       CASE WHEN g % 67 = 0 THEN NULL ELSE (g % 900) / 8.0 END,
       g % 1000,
       'r' || g
FROM generate_series(1, 1000) g;
-- 90% of the rows share one key
CREATE TABLE gx_oskew (id int4, k int4, v int4);
INSERT INTO gx_oskew SELECT g, CASE WHEN g % 10 = 0 THEN g ELSE 7 END, g FROM generate_series(1, 1900) g;
CREATE TABLE gx_oempty (id int4, k4 int4, k8 int8);
CREATE TABLE gx_onull (id int4, k4 int4);
INSERT INTO gx_onull SELECT g, NULL FROM generate_series(1, 50) g;
-- keys no other table has
CREATE TABLE gx_ofar (id int4, k4 int4);
INSERT INTO gx_ofar SELECT g, 100000 + g FROM generate_series(1, 300) g;
-- larger than a chunk of gpuext.chunk_rows = 1024 on both sides
CREATE TABLE gx_obig (id int4, k int4, v int4);
INSERT INTO gx_obig SELECT g, CASE WHEN g % 97 = 0 THEN NULL ELSE g % 7000 END, g FROM generate_series(1, 12000) g;
VACUUM ANALYZE gx_ol, gx_or, gx_oskew, gx_oempty, gx_onull, gx_ofar, gx_obig;

-- the plans: join type, keys, the children, the fallback
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT o.id, r.id FROM gx_ol o LEFT JOIN gx_or r ON o.k4 = r.k4');
SELECT * FROM gx_explain('SELECT o.id, r.id FROM gx_ol o RIGHT JOIN gx_or r ON o.k4 = r.k4');
SELECT * FROM gx_explain('SELECT o.id, r.id FROM gx_ol o FULL JOIN gx_or r ON o.k4 = r.k4 AND o.k2 = r.k2');
-- EXPLAIN ANALYZE: the unmatched inner rows read after the probes
SELECT * FROM gx_jexplain('SELECT o.id, r.id FROM gx_ol o FULL JOIN gx_or r ON o.k4 = r.k4');
RESET gpuext.force;

-- LEFT, RIGHT, FULL on every key type (NULL keys never match, their rows
-- come once with the other side NULL)
SELECT q, gx_jcheck(q) FROM (VALUES
    ('SELECT o.id, r.id FROM gx_ol o LEFT JOIN gx_or r ON o.k4 = r.k4'),
    ('SELECT o.id, r.id FROM gx_or r LEFT JOIN gx_ol o ON o.k4 = r.k4'),
    ('SELECT o.id, r.id FROM gx_ol o RIGHT JOIN gx_or r ON o.k4 = r.k4'),
    ('SELECT o.id, r.id FROM gx_or r RIGHT JOIN gx_ol o ON o.k4 = r.k4'),
    ('SELECT o.id, r.id FROM gx_ol o FULL JOIN gx_or r ON o.k4 = r.k4'),
    ('SELECT o.id, r.id, o.k2, r.k2 FROM gx_ol o LEFT JOIN gx_or r ON o.k2 = r.k2'),
    ('SELECT o.id, r.id, r.k8 FROM gx_ol o FULL JOIN gx_or r ON o.k8 = r.k8'),
    ('SELECT o.id, r.id, o.kd FROM gx_ol o RIGHT JOIN gx_or r ON o.kd = r.kd'),
    ('SELECT o.id, r.id, o.kd, r.kd FROM gx_ol o FULL JOIN gx_or r ON o.kd = r.kd'),
    ('SELECT o.id, r.id, o.kn, r.kn FROM gx_ol o LEFT JOIN gx_or r ON o.kn = r.kn'),
    ('SELECT o.id, r.id, o.kn, r.kn FROM gx_ol o FULL JOIN gx_or r ON o.kn = r.kn'),
    ('SELECT o.id, r.id FROM gx_ol o FULL JOIN gx_or r ON o.k2 = r.k4'),
    ('SELECT o.id, r.id FROM gx_ol o RIGHT JOIN gx_or r ON o.k8 = r.k2'),
    ('SELECT * FROM gx_ol o FULL JOIN gx_or r ON o.k4 = r.k4 AND o.k2 = r.k2'),
    ('SELECT o.txt, r.txt FROM gx_ol o LEFT JOIN gx_or r ON o.kd = r.kd AND o.k8 = r.k8'),
    ('SELECT k4, o.id, r.id FROM gx_ol o FULL JOIN gx_or r USING (k4)'),
    ('SELECT o.id, r.txt FROM gx_ol o LEFT JOIN gx_or r ON o.k4 = r.k4 AND r.v < 300 WHERE o.v < 500'),
    ('SELECT o.id, r.txt FROM gx_ol o FULL JOIN (SELECT * FROM gx_or WHERE v > 400) r ON o.k4 = r.k4'),
    ('SELECT count(*), count(o.id), count(r.id), sum(o.v), sum(r.v) FROM gx_ol o FULL JOIN gx_or r ON o.k4 = r.k4')) v(q);
-- NULL keys on both sides, empty sides, all match, none match
SELECT q, gx_jcheck(q) FROM (VALUES
    ('SELECT o.id, n.id FROM gx_ol o LEFT JOIN gx_onull n ON o.k4 = n.k4'),
    ('SELECT o.id, n.id FROM gx_ol o RIGHT JOIN gx_onull n ON o.k4 = n.k4'),
    ('SELECT o.id, n.id FROM gx_ol o FULL JOIN gx_onull n ON o.k4 = n.k4'),
    ('SELECT a.id, b.id FROM gx_onull a FULL JOIN gx_onull b ON a.k4 = b.k4'),
    ('SELECT o.id, e.id FROM gx_ol o LEFT JOIN gx_oempty e ON o.k4 = e.k4'),
    ('SELECT o.id, e.id FROM gx_ol o RIGHT JOIN gx_oempty e ON o.k4 = e.k4'),
    ('SELECT o.id, e.id FROM gx_ol o FULL JOIN gx_oempty e ON o.k8 = e.k8'),
    ('SELECT o.id, e.id FROM gx_oempty e LEFT JOIN gx_ol o ON o.k4 = e.k4'),
    ('SELECT o.id, e.id FROM gx_oempty e FULL JOIN gx_ol o ON o.k4 = e.k4'),
    ('SELECT a.id, b.id FROM gx_oempty a FULL JOIN gx_oempty b ON a.k4 = b.k4'),
    ('SELECT a.id, b.id FROM gx_ol a FULL JOIN gx_ol b ON a.id = b.id'),
    ('SELECT a.id, b.id FROM gx_or a LEFT JOIN gx_or b ON a.id = b.id'),
    ('SELECT o.id, f.id FROM gx_ol o LEFT JOIN gx_ofar f ON o.k4 = f.k4'),
    ('SELECT o.id, f.id FROM gx_ol o RIGHT JOIN gx_ofar f ON o.k4 = f.k4'),
    ('SELECT o.id, f.id FROM gx_ofar f FULL JOIN gx_ol o ON o.k4 = f.k4')) v(q);
-- skew: 90% of both sides hold one key (2.9M pairs: many probe passes)
SELECT q, gx_jcheck(q) FROM (VALUES
    ('SELECT count(*), count(a.id), count(b.id), sum(a.v::int8 * b.v) FROM gx_oskew a FULL JOIN gx_oskew b ON a.k = b.k'),
    ('SELECT count(*), count(a.id), count(b.id), sum(a.v::int8 * b.v) FROM gx_oskew a LEFT JOIN gx_oskew b ON a.k = b.k'),
    ('SELECT o.id, s.id FROM gx_ol o FULL JOIN gx_oskew s ON o.k4 = s.k'),
    ('SELECT o.id, s.id FROM gx_oskew s LEFT JOIN gx_ol o ON o.k4 = s.k'),
    ('SELECT o.id, s.id FROM gx_oskew s RIGHT JOIN gx_ol o ON o.k4 = s.k')) v(q);
SET gpuext.force = on;
SET gpuext.enable_agg = off;
SELECT * FROM gx_jexplain('SELECT count(*) FROM gx_oskew a FULL JOIN gx_oskew b ON a.k = b.k');
RESET gpuext.enable_agg;
RESET gpuext.force;

-- several chunks on both sides: build, probe and unmatched tasks
SET gpuext.chunk_rows = 1024;
SELECT q, gx_jcheck(q) FROM (VALUES
    ('SELECT a.id, b.id FROM gx_obig a FULL JOIN gx_obig b ON a.k = b.k'),
    ('SELECT a.id, o.id FROM gx_obig a LEFT JOIN gx_ol o ON o.k4 = a.k'),
    ('SELECT a.id, o.id FROM gx_ol o RIGHT JOIN gx_obig a ON o.k4 = a.k'),
    ('SELECT a.id, o.id FROM gx_ol o FULL JOIN gx_obig a ON o.k4 = a.k')) v(q);
SET gpuext.force = on;
SELECT * FROM gx_jexplain('SELECT a.id, o.id FROM gx_ol o FULL JOIN gx_obig a ON o.k4 = a.k');
RESET gpuext.force;
RESET gpuext.chunk_rows;

-- LIMIT: the node is ended before its last row (the unmatched inner rows
-- come last: a LIMIT past the probes' rows reads some of them)
SELECT gx_jcheck('SELECT count(*) FROM (SELECT o.id FROM gx_ol o FULL JOIN gx_or r ON o.k4 = r.k4 LIMIT 10) s');
SELECT gx_jcheck('SELECT count(*) FROM (SELECT o.id FROM gx_ol o FULL JOIN gx_or r ON o.k4 = r.k4 LIMIT 3200) s');
SELECT gx_jcheck('SELECT count(*) FROM (SELECT r.id FROM gx_ol o RIGHT JOIN gx_or r ON o.k4 = r.k4 LIMIT 100) s');

-- subqueries and rescans: a parameter on the outer or the inner side
-- (RIGHT / FULL build a fresh table on every rescan: Table Builds)
SELECT q, gx_jcheck(q) FROM (VALUES
    ('SELECT x, (SELECT count(*) FROM gx_ol o LEFT JOIN gx_or r ON o.k4 = r.k4 WHERE o.v < x) FROM generate_series(0, 1000, 250) x'),
    ('SELECT x, (SELECT count(r.id) FROM (SELECT * FROM gx_ol WHERE v < x) o FULL JOIN gx_or r ON o.k4 = r.k4) FROM generate_series(0, 1000, 250) x'),
    ('SELECT x, (SELECT count(o.id) FROM gx_ol o FULL JOIN (SELECT * FROM gx_or WHERE v < x) r ON o.k4 = r.k4) FROM generate_series(0, 1000, 250) x'),
    ('SELECT x, (SELECT sum(coalesce(r.v, -1)) FROM (SELECT * FROM gx_or WHERE v < x) r LEFT JOIN gx_ol o ON o.k4 = r.k4) FROM generate_series(0, 1000, 250) x'),
    ('SELECT o.id, o.k4 FROM gx_ol o WHERE o.k4 IN (SELECT coalesce(a.k4, f.k4) FROM gx_or a FULL JOIN gx_ofar f ON a.k4 = f.k4)'),
    ('SELECT f.id, (SELECT count(*) FROM gx_ol o LEFT JOIN gx_or r ON o.k4 = r.k4 WHERE o.id = f.id) FROM gx_ofar f WHERE f.id < 20')) v(q);
SET gpuext.force = on;
SELECT * FROM gx_jexplain('SELECT x, (SELECT count(r.id) FROM (SELECT * FROM gx_ol WHERE v < x) o FULL JOIN gx_or r ON o.k4 = r.k4) FROM generate_series(0, 1000, 250) x');
RESET gpuext.force;
-- under a nested loop without Materialize: rescanned without parameters
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SET enable_material = off;
SELECT gx_jcheck('SELECT n.id, count(*), count(o.id), count(r.id) FROM gx_onull n LEFT JOIN (gx_ol o FULL JOIN gx_or r ON o.k4 = r.k4) ON n.id * 500 < coalesce(o.id, r.id * 3) WHERE n.id <= 5 GROUP BY n.id');
SET gpuext.force = on;
SELECT * FROM gx_jexplain('SELECT count(*) FROM gx_onull n LEFT JOIN (gx_ol o FULL JOIN gx_or r ON o.k4 = r.k4) ON n.id * 500 < coalesce(o.id, r.id * 3) WHERE n.id <= 5');
RESET gpuext.force;
RESET enable_hashjoin;
RESET enable_mergejoin;
RESET enable_material;

-- count(*) over an outer join: the GpuJoin counts
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT count(*) FROM gx_ol o FULL JOIN gx_or r ON o.k4 = r.k4');
SELECT * FROM gx_jexplain('SELECT count(*) FROM gx_ol o FULL JOIN gx_or r ON o.k4 = r.k4');
SELECT count(*) FROM gx_ol o LEFT JOIN gx_or r ON o.k4 = r.k4;
SELECT count(*) FROM gx_ol o RIGHT JOIN gx_or r ON o.k4 = r.k4;
SELECT count(*) FROM gx_ol o FULL JOIN gx_or r ON o.k4 = r.k4;
RESET gpuext.force;
SELECT q, gx_jccheck(q) FROM (VALUES
    ('SELECT count(*) FROM gx_ol o LEFT JOIN gx_or r ON o.k4 = r.k4'),
    ('SELECT count(*) FROM gx_or r LEFT JOIN gx_ol o ON o.k4 = r.k4'),
    ('SELECT count(*) FROM gx_ol o RIGHT JOIN gx_or r ON o.k4 = r.k4'),
    ('SELECT count(*) FROM gx_ol o FULL JOIN gx_or r ON o.k4 = r.k4'),
    ('SELECT count(*) FROM gx_ol o FULL JOIN gx_or r ON o.kn = r.kn'),
    ('SELECT count(*) FROM gx_ol o FULL JOIN gx_or r ON o.kd = r.kd AND o.k8 = r.k8'),
    ('SELECT count(*) FROM gx_ol o FULL JOIN gx_onull n ON o.k4 = n.k4'),
    ('SELECT count(*) FROM gx_onull a FULL JOIN gx_onull b ON a.k4 = b.k4'),
    ('SELECT count(*) FROM gx_ol o LEFT JOIN gx_oempty e ON o.k4 = e.k4'),
    ('SELECT count(*) FROM gx_ol o RIGHT JOIN gx_oempty e ON o.k4 = e.k4'),
    ('SELECT count(*) FROM gx_ol o FULL JOIN gx_oempty e ON o.k4 = e.k4'),
    ('SELECT count(*) FROM gx_oempty e FULL JOIN gx_ol o ON o.k4 = e.k4'),
    ('SELECT count(*) FROM gx_ofar f FULL JOIN gx_ol o ON o.k4 = f.k4'),
    ('SELECT count(*) FROM gx_oskew a FULL JOIN gx_oskew b ON a.k = b.k'),
    ('SELECT count(*) FROM gx_ol o FULL JOIN gx_oskew s ON o.k4 = s.k')) v(q);
SET gpuext.chunk_rows = 1024;
SELECT gx_jccheck('SELECT count(*) FROM gx_obig a FULL JOIN gx_ol o ON o.k4 = a.k');
SELECT gx_jccheck('SELECT count(*) FROM gx_ol o RIGHT JOIN gx_obig a ON o.k4 = a.k');
RESET gpuext.chunk_rows;
SELECT gx_jccheck('SELECT x, (SELECT count(*) FROM (SELECT * FROM gx_ol WHERE v < x) o FULL JOIN gx_or r ON o.k4 = r.k4) FROM generate_series(0, 1000, 250) x');

-- prepared statements: custom plans, then the generic plan
PREPARE jo_off(int4, int4) AS
    SELECT o.id AS oid, r.id AS rid FROM (SELECT * FROM gx_ol WHERE v < $1) o FULL JOIN (SELECT * FROM gx_or WHERE v > $2) r ON o.k4 = r.k4;
PREPARE jo_on(int4, int4) AS
    SELECT o.id AS oid, r.id AS rid FROM (SELECT * FROM gx_ol WHERE v < $1) o FULL JOIN (SELECT * FROM gx_or WHERE v > $2) r ON o.k4 = r.k4;
SELECT args, gx_error(format('EXECUTE jo_off%s', args), format('EXECUTE jo_on%s', args))
FROM (VALUES ('(500, 100)'), ('(1000, 0)'), ('(0, 0)'), ('(NULL, 1)'), ('(300, 900)')) v(args);
SET plan_cache_mode = force_generic_plan;
SELECT args, gx_error(format('EXECUTE jo_off%s', args), format('EXECUTE jo_on%s', args))
FROM (VALUES ('(500, 100)'), ('(0, 0)'), ('(NULL, 1)')) v(args);
RESET plan_cache_mode;

-- a table that does not fit: the fallback, PostgreSQL's Hash Join of the
-- same join type (gpuext.session_memory = 64kB: every non-empty inner side)
SET gpuext.session_memory = '64kB';
SELECT q, gx_jcheck(q) FROM (VALUES
    ('SELECT o.id, r.id FROM gx_ol o LEFT JOIN gx_or r ON o.k4 = r.k4'),
    ('SELECT o.id, r.id FROM gx_ol o RIGHT JOIN gx_or r ON o.k4 = r.k4'),
    ('SELECT o.id, r.id FROM gx_ol o FULL JOIN gx_or r ON o.k4 = r.k4 AND o.k2 = r.k2'),
    ('SELECT a.id, b.id FROM gx_obig a FULL JOIN gx_obig b ON a.k = b.k'),
    ('SELECT o.id, e.id FROM gx_ol o FULL JOIN gx_oempty e ON o.k8 = e.k8'),
    ('SELECT count(*) FROM (SELECT o.id FROM gx_ol o FULL JOIN gx_or r ON o.k4 = r.k4 LIMIT 10) s')) v(q);
SELECT q, gx_jccheck(q) FROM (VALUES
    ('SELECT count(*) FROM gx_ol o FULL JOIN gx_or r ON o.k4 = r.k4'),
    ('SELECT count(*) FROM gx_ol o RIGHT JOIN gx_or r ON o.k4 = r.k4')) v(q);
SET gpuext.force = on;
SELECT * FROM gx_jexplain('SELECT o.id, r.id FROM gx_ol o FULL JOIN gx_or r ON o.k4 = r.k4');
RESET gpuext.force;
-- a rescan that changes the decision: the tables of r.v < 0 .. 250 fit
SET gpuext.session_memory = '120kB';
SELECT gx_jcheck('SELECT x, (SELECT count(o.id) FROM gx_ol o FULL JOIN (SELECT * FROM gx_or WHERE v < x) r ON o.k4 = r.k4) FROM generate_series(0, 1000, 250) x');
RESET gpuext.session_memory;

-- what stays with PostgreSQL: other clauses in an outer join's ON (of
-- either side, or between them), non-equi keys, a PlaceHolderVar, the switches
SELECT q, gx_jcheck(q) FROM (VALUES
    ('SELECT o.id, r.id FROM gx_ol o LEFT JOIN gx_or r ON o.k4 = r.k4 AND o.v < 300'),
    ('SELECT o.id, r.id FROM gx_ol o FULL JOIN gx_or r ON o.k4 = r.k4 AND o.v < r.v'),
    ('SELECT o.id, r.id FROM gx_ol o FULL JOIN gx_or r ON o.k4 = r.k4 AND r.v < 300'),
    ('SELECT o.id, r.id FROM gx_ol o LEFT JOIN gx_or r ON o.k4 + 1 = r.k4'),
    ('SELECT o.id, r.id FROM gx_ol o FULL JOIN gx_or r ON o.txt = r.txt'),
    ('SELECT o.id, s.one FROM gx_ol o LEFT JOIN (SELECT k4, 1 AS one FROM gx_or) s ON o.k4 = s.k4')) v(q);
SET gpuext.enable_gpujoin = off;
SELECT gx_jcheck('SELECT o.id, r.id FROM gx_ol o FULL JOIN gx_or r ON o.k4 = r.k4');
RESET gpuext.enable_gpujoin;

DROP TABLE gx_ol, gx_or, gx_oskew, gx_oempty, gx_onull, gx_ofar, gx_obig;
DEALLOCATE ALL;
