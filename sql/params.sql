--
-- params: prepared statements (custom and generic plans), Params of
-- subqueries and nested loops, re-evaluated on every rescan
--

-- gx_check_exec(name, args): EXECUTE name_off args with gpuext off against
-- EXECUTE name_on args with GpuScan forced, on every device (same rows or
-- the same error)
CREATE FUNCTION gx_check_exec(name text, args text) RETURNS text LANGUAGE sql AS $$
    SELECT gx_error(format('EXECUTE %s_off%s', name, args), format('EXECUTE %s_on%s', name, args))
$$;

-- default plan cache mode: five custom plans, then the generic plan
PREPARE p_off(int4, float8) AS SELECT id FROM gx_num WHERE i4 > $1 AND f8 < $2;
PREPARE p_on(int4, float8) AS SELECT id FROM gx_num WHERE i4 > $1 AND f8 < $2;
SELECT args, gx_check_exec('p', args)
FROM (VALUES ('(0, 0.5)'), ('(500, 100)'), ('(-1000, -600)'), ('(990, 1e9)'), ('(NULL, 1)'),
             ('(2000, 0)'), ('(-5, ''NaN'')'), ('(100, ''Infinity'')')) v(args);

-- generic plans: the Params are evaluated at executor start
SET plan_cache_mode = force_generic_plan;
PREPARE g_off(int8, int2, date, bool) AS
    SELECT id FROM gx_num WHERE (i8 < $1 OR i2 = $2) AND d >= $3 AND b = $4;
PREPARE g_on(int8, int2, date, bool) AS
    SELECT id FROM gx_num WHERE (i8 < $1 OR i2 = $2) AND d >= $3 AND b = $4;
SELECT gx_check_exec('g', args)
FROM (VALUES ('(0, 5, ''2021-01-01'', true)'), ('(-90000, -1, ''2020-01-01'', false)'),
             ('(NULL, 7, ''2020-06-01'', true)'), ('(100000, NULL, ''infinity'', false)'),
             ('(0, 0, NULL, true)'), ('(1, 1, ''-infinity'', NULL)'),
             ('(50000, 50, ''2022-02-02'', false)')) v(args);
SET gpuext.force = on;
SELECT gx_explain('EXECUTE g_on(0, 5, ''2021-01-01'', true)');
RESET gpuext.force;

-- Params in arithmetic, IN lists and errors raised through them
PREPARE e_off(int4, int4) AS SELECT id FROM gx_num WHERE i4 / $1 = $2 OR i2 IN ($1, $2);
PREPARE e_on(int4, int4) AS SELECT id FROM gx_num WHERE i4 / $1 = $2 OR i2 IN ($1, $2);
SELECT gx_check_exec('e', '(7, 3)');
SELECT gx_check_exec('e', '(-1, 100)');
SELECT gx_check_exec('e', '(0, 1)');
PREPARE o_off(int4) AS SELECT id FROM gx_num WHERE i4 * $1 > 0;
PREPARE o_on(int4) AS SELECT id FROM gx_num WHERE i4 * $1 > 0;
SELECT gx_check_exec('o', '(2147483647)');
SELECT gx_check_exec('o', '(1)');
SELECT gx_check_exec('o', '(NULL)');
RESET plan_cache_mode;
DEALLOCATE ALL;

-- correlated subqueries: the GpuScan is rescanned with each outer value
CREATE TABLE gx_outer (x int4, y float8);
INSERT INTO gx_outer VALUES (-1000, 0), (0, -600), (500, 600), (999, 1e9), (NULL, 0), (3, 'NaN');
SELECT gx_check('SELECT x, (SELECT count(*) FROM gx_num n WHERE n.i4 > o.x AND n.f8 < o.y) FROM gx_outer o');
SELECT gx_check('SELECT x FROM gx_outer o WHERE EXISTS (SELECT 1 FROM gx_num n WHERE n.i4 = o.x + 1 AND n.f8 > 0)');
SELECT gx_check('SELECT x, (SELECT max(id) FROM gx_num n WHERE n.i2 = o.x % 100) FROM gx_outer o');
SET gpuext.force = on;
SELECT gx_explain('SELECT x, (SELECT count(*) FROM gx_num n WHERE n.i4 > o.x) FROM gx_outer o');
RESET gpuext.force;

-- LATERAL: a Param per outer row
SELECT gx_check('SELECT o.x, s.id FROM gx_outer o, LATERAL (SELECT id FROM gx_num n WHERE n.i4 < o.x AND n.f4 > 0 ORDER BY id LIMIT 3) s');
SELECT gx_check('SELECT o.x, s.id, s.v FROM gx_outer o, LATERAL (SELECT id, n.i4 + o.x AS v FROM gx_num n WHERE n.i2 = 17) s');

-- a nested loop that rescans the GpuScan inner side for each outer row: a
-- LEFT JOIN keeps gx_num inside, and without Materialize the GpuScan is
-- rescanned
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SET enable_material = off;
-- (PostgreSQL's nested loop, not GpuJoin's range join: gpujoin_band)
SET gpuext.enable_nestloop = off;
SET gpuext.force = on;
SELECT gx_explain('SELECT o.x, n.id FROM gx_outer o LEFT JOIN gx_num n ON n.i4 BETWEEN o.x AND o.x + 2 AND n.f8 > 0');
-- gpuext.force keeps the GpuScan's real costs, rescans included (each one
-- is a device scan): in an inner join the GpuScan goes outside and is
-- scanned once (at a cost of 0 it was the inner side, rescanned per row)
SELECT gx_explain('SELECT o.x, n.id FROM gx_outer o JOIN gx_num n ON n.i4 BETWEEN o.x AND o.x + 2 WHERE n.f8 > 0');
-- and with Materialize allowed, the LEFT JOIN rescans a Materialize of the
-- GpuScan's rows, not the GpuScan
RESET enable_material;
SELECT gx_explain('SELECT o.x, n.id FROM gx_outer o LEFT JOIN gx_num n ON n.i4 BETWEEN o.x AND o.x + 2 AND n.f8 > 0');
RESET gpuext.force;
SELECT gx_check('SELECT o.x, n.id FROM gx_outer o LEFT JOIN gx_num n ON n.i4 BETWEEN o.x AND o.x + 2 AND n.f8 > 0');
SET enable_material = off;
SELECT gx_check('SELECT o.x, n.id FROM gx_outer o LEFT JOIN gx_num n ON n.i4 BETWEEN o.x AND o.x + 2 AND n.f8 > 0');
SELECT gx_check('SELECT o.x, n.id FROM gx_outer o JOIN gx_num n ON n.i4 BETWEEN o.x AND o.x + 2 WHERE n.f8 > 0');
SELECT gx_check('SELECT o.x, n.id FROM gx_outer o LEFT JOIN gx_num n ON n.i2 = o.x AND n.i8 > 0');
RESET ALL;

-- parameters of SQL and PL/pgSQL functions
CREATE FUNCTION gx_count_above(lim int4) RETURNS bigint LANGUAGE sql STABLE AS
    $$ SELECT count(*) FROM gx_num WHERE i4 > lim $$;
CREATE FUNCTION gx_count_below(lim float8) RETURNS bigint LANGUAGE plpgsql STABLE AS
    $$ BEGIN RETURN (SELECT count(*) FROM gx_num WHERE f8 < lim); END $$;
SELECT gx_check('SELECT v, gx_count_above(v), gx_count_below(v) FROM generate_series(-1000, 1000, 250) v');
