--
-- plans: plan shape of GpuScan (EXPLAIN COSTS OFF), the split of quals
-- between device and host, when the path is offered and when it is not
--

CREATE TABLE gx_plan (a int4, b int8, c float8, d date, t text, n numeric);
INSERT INTO gx_plan SELECT g, g * 10, g / 4.0, date '2022-01-01' + g % 400, 'v' || g, g
FROM generate_series(1, 20000) g;
ANALYZE gx_plan;

SET gpuext.force = on;

-- device quals only, device and host quals, host quals only (not offered)
SELECT gx_explain('SELECT * FROM gx_plan WHERE a > 10 AND c < 100');
SELECT gx_explain('SELECT a FROM gx_plan WHERE a > 10 AND t LIKE ''v1%''');
SELECT gx_explain('SELECT a FROM gx_plan WHERE t LIKE ''v1%''');
SELECT gx_explain('SELECT a FROM gx_plan WHERE n / 2 > 5');
SELECT gx_explain('SELECT a FROM gx_plan');
SELECT gx_explain('SELECT a FROM gx_plan WHERE a IN (1, 2, 3) OR b BETWEEN 5 AND 50');
SELECT gx_explain('SELECT a FROM gx_plan WHERE d >= ''2022-06-01'' AND a % 7 = 0');
-- an OR with one host-only arm stays on the host as a whole
SELECT gx_explain('SELECT a FROM gx_plan WHERE a < 5 OR t = ''v9''');
-- a qual that may fail goes to the host when a host qual runs before it
SELECT gx_explain('SELECT a FROM gx_plan WHERE t <> ''v3'' AND a * 2 > 10');
SELECT gx_explain('SELECT a FROM gx_plan WHERE a * 2 > 10 AND b < 100');
-- stable functions and Params are evaluated once per scan, on the host
SELECT gx_explain('SELECT a FROM gx_plan WHERE d < current_date AND a < 3');

-- EXPLAIN VERBOSE shows the output list; ANALYZE the device counters
SELECT gx_explain('SELECT a, c FROM gx_plan WHERE a < 3', 'VERBOSE, COSTS OFF');
SELECT gx_explain('SELECT a FROM gx_plan WHERE a % 100 = 0 AND t LIKE ''v1%''',
                  'ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF');
SELECT regexp_replace(l, '[0-9.]+', 'N', 'g') AS line
FROM gx_explain('SELECT a FROM gx_plan WHERE a % 100 = 0', 'ANALYZE, COSTS OFF, SUMMARY OFF') l
WHERE l ~ 'Bytes|Time';

-- joins, aggregates, sorts and subqueries sit on top of GpuScan
SELECT gx_explain('SELECT count(*) FROM gx_plan WHERE c > 10');
SELECT gx_explain('SELECT p.a, q.a FROM gx_plan p JOIN gx_plan q ON p.a = q.b WHERE p.c < 5 AND q.a < 100');
SELECT gx_explain('SELECT a FROM gx_plan WHERE a < 100 ORDER BY c DESC LIMIT 5');
SELECT gx_check('SELECT p.a, q.a FROM gx_plan p JOIN gx_plan q ON p.a = q.b WHERE p.c < 5 AND q.a < 100');
SELECT gx_check('SELECT a, count(*) OVER () FROM gx_plan WHERE a < 100 ORDER BY c DESC LIMIT 5');
SELECT gx_check('SELECT d, count(*), sum(a) FROM gx_plan WHERE a % 3 = 0 GROUP BY d');

-- system columns and whole-row references come out of the scanned tuple
SELECT gx_check('SELECT ctid, a FROM gx_plan WHERE a BETWEEN 100 AND 120');
SELECT gx_check('SELECT p FROM gx_plan p WHERE a BETWEEN 100 AND 120');
SELECT gx_check('SELECT tableoid::regclass, a FROM gx_plan WHERE a < 3');

-- a scroll cursor: the GpuScan scans backward itself (no Materialize;
-- cursors.sql checks the rows)
SELECT gx_explain('DECLARE c SCROLL CURSOR FOR SELECT a FROM gx_plan WHERE a < 4');
BEGIN;
DECLARE c SCROLL CURSOR FOR SELECT a FROM gx_plan WHERE a < 4;
FETCH 3 FROM c;
FETCH BACKWARD 2 FROM c;
COMMIT;

-- not offered: catalogs, inheritance parents (children are), tablesample,
-- row-level security, non-heap relations; temp and unlogged tables are
SELECT gx_explain('SELECT relname FROM pg_class WHERE relpages > 1000000');
CREATE TABLE gx_parent (a int4, b float8);
CREATE TABLE gx_child () INHERITS (gx_parent);
INSERT INTO gx_parent VALUES (1, 1), (2, 2);
INSERT INTO gx_child VALUES (3, 3), (4, 4);
SELECT gx_explain('SELECT a FROM gx_parent WHERE b > 1');
SELECT gx_check('SELECT a FROM gx_parent WHERE b > 1');
CREATE TABLE gx_part (a int4, b float8) PARTITION BY RANGE (a);
CREATE TABLE gx_part1 PARTITION OF gx_part FOR VALUES FROM (0) TO (100);
CREATE TABLE gx_part2 PARTITION OF gx_part FOR VALUES FROM (100) TO (200);
INSERT INTO gx_part SELECT g, g / 2.0 FROM generate_series(0, 199) g;
SELECT gx_explain('SELECT a FROM gx_part WHERE b > 90');
SELECT gx_check('SELECT a FROM gx_part WHERE b > 90');
SELECT gx_explain('SELECT a FROM gx_plan TABLESAMPLE SYSTEM (50) REPEATABLE (1) WHERE a < 10');
CREATE TEMP TABLE gx_temp AS SELECT g AS a, g * 1.5::float8 AS b FROM generate_series(1, 5000) g;
SELECT gx_explain('SELECT a FROM gx_temp WHERE b > 7000');
SELECT gx_check('SELECT a FROM gx_temp WHERE b > 7000');
CREATE UNLOGGED TABLE gx_unlogged AS SELECT g AS a FROM generate_series(1, 1000) g;
SELECT gx_check('SELECT a FROM gx_unlogged WHERE a % 250 = 0');
CREATE MATERIALIZED VIEW gx_mv AS SELECT a, c FROM gx_plan WHERE a < 1000;
SELECT gx_check('SELECT a FROM gx_mv WHERE c > 240');
CREATE VIEW gx_view AS SELECT a, c FROM gx_plan WHERE a < 1000;
SELECT gx_explain('SELECT a FROM gx_view WHERE c > 240');
CREATE TABLE gx_rls (a int4, owner name);
INSERT INTO gx_rls VALUES (1, 'regress_gx_rls'), (2, 'nobody'), (3, 'regress_gx_rls');
ALTER TABLE gx_rls ENABLE ROW LEVEL SECURITY;
CREATE POLICY gx_rls_owner ON gx_rls USING (owner = current_user);
CREATE ROLE regress_gx_rls;
GRANT SELECT ON gx_rls TO regress_gx_rls;
SET ROLE regress_gx_rls;
SELECT gx_explain('SELECT a FROM gx_rls WHERE a > 0');
SELECT gx_check('SELECT a FROM gx_rls WHERE a > 0');
RESET ROLE;
DROP TABLE gx_rls;
DROP ROLE regress_gx_rls;

-- DML: UPDATE and DELETE find their rows through GpuScan
BEGIN;
SELECT gx_explain('DELETE FROM gx_plan WHERE a % 1000 = 1');
DELETE FROM gx_plan WHERE a % 1000 = 1;
UPDATE gx_plan SET c = -c WHERE a % 1000 = 2 RETURNING a, c;
SET LOCAL gpuext.enabled = off;
SELECT count(*), sum(c) FROM gx_plan WHERE a % 1000 IN (1, 2);
ROLLBACK;
SELECT gx_check('SELECT a FROM gx_plan WHERE a % 1000 IN (1, 2) FOR UPDATE');

-- cost based (gpuext.force off): a tiny table stays on a sequential scan,
-- and the switches turn the path off
RESET gpuext.force;
CREATE TABLE gx_tiny (a int4);
INSERT INTO gx_tiny VALUES (1), (2);
ANALYZE gx_tiny;
SELECT gx_explain('SELECT a FROM gx_tiny WHERE a > 1');
SET gpuext.gpu_setup_cost = 0;
SET gpuext.gpu_operator_cost = 0;
SET gpuext.gpu_tuple_cost = 0;
SET cpu_operator_cost = 1;
SELECT gx_explain('SELECT a FROM gx_tiny WHERE a > 1');
SET gpuext.enable_scan = off;
SELECT gx_explain('SELECT a FROM gx_tiny WHERE a > 1');
RESET gpuext.enable_scan;
SET gpuext.enabled = off;
SELECT gx_explain('SELECT a FROM gx_tiny WHERE a > 1');
RESET ALL;
