-- preagg_float: GpuPreAgg with float4/float8 aggregates: sum, avg, min,
-- max and the stddev / variance family.  min and max are exact; sums are
-- exact where every partial sum is an integer below 2^53 (checked with
-- gx_check, row for row), and otherwise equal PostgreSQL's within the
-- error bound of summing in any order (gx_fclose, which prints booleans),
-- which PostgreSQL's own parallel plan needs too.  Rows with NaN or
-- infinite inputs to a sum go to PostgreSQL; a finite sum that overflows
-- raises PostgreSQL's error.

SET max_parallel_workers_per_gather = 0;
-- integer-valued floats (exact sums), NULLs, a group of NULLs only,
-- special values in their own groups
CREATE TABLE gx_ff (id int4, k int4, f4 float4, f8 float8, c bool);
INSERT INTO gx_ff
SELECT g,
       CASE WHEN g % 97 = 0 THEN NULL ELSE g % 7 END,
       CASE WHEN g % 13 = 0 THEN NULL ELSE (g * 7 % 1000 - 500)::float4 END,
       CASE WHEN g % 17 = 0 THEN NULL ELSE (g::int8 * 7919 % 2000001 - 1000000)::float8 END,
       g % 3 = 0
FROM generate_series(1, 40000) g;
INSERT INTO gx_ff VALUES
    (40001, 100, NULL, NULL, true), (40002, 100, NULL, NULL, false),
    (40003, 101, 'NaN', 'NaN', true), (40004, 101, 1, 1, true),
    (40005, 102, 'Infinity', 'Infinity', true), (40006, 102, 5, 5, true),
    (40007, 103, '-Infinity', '-Infinity', true), (40008, 103, 'Infinity', 'Infinity', true),
    (40009, 104, '-0', '-0', true), (40010, 104, '0', '0', true),
    (40011, 105, '-0', '-0', true), (40012, 105, '-0', '-0', true),
    (40013, 106, 3, 3, true);
VACUUM (FREEZE, ANALYZE) gx_ff;
-- non-representable values (the tolerance checks), two magnitudes
CREATE TABLE gx_fr (id int4, k int4, x float8, y float4);
INSERT INTO gx_fr
SELECT g, g % 5,
       CASE WHEN g % 11 = 0 THEN NULL ELSE 1e6 + (g * 7919 % 1000) / 7.0 END,
       ((g * 37 % 2001 - 1000) / 3.0)::float4
FROM generate_series(1, 60000) g;
VACUUM (FREEZE, ANALYZE) gx_fr;

-- device result against PostgreSQL's (gpuext off): q returns (k, v float8[]);
-- every group present in both, every element equal, both NULL, both NaN,
-- or within tol relative to the larger magnitude.  'ok' or the first
-- difference, and whether the device ran it.
CREATE FUNCTION gx_fnear(a float8, b float8, tol float8) RETURNS bool LANGUAGE sql AS $$
    SELECT (a IS NULL AND b IS NULL) OR a = b OR abs(a - b) <= tol * greatest(abs(a), abs(b))
$$;
CREATE FUNCTION gx_fcompare(tol float8) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    RETURN (SELECT coalesce(min(format('group %s element %s: %s vs %s', coalesce(r.k::text, g.k::text),
                                e.i, e.a, e.b)), 'ok')
    FROM gx_fref r FULL JOIN gx_fgot g ON coalesce(r.k::text, 'NULL') = coalesce(g.k::text, 'NULL')
         LEFT JOIN LATERAL (SELECT i, r.v[i] AS a, g.v[i] AS b
                            FROM generate_series(1, greatest(cardinality(r.v), cardinality(g.v))) i) e
         ON true
    WHERE r.v IS NULL OR g.v IS NULL OR NOT coalesce(gx_fnear(e.a, e.b, tol), false));
END $$;
-- mode: 'device' (gpuext forced) or 'parallel' (PostgreSQL's own parallel plan)
CREATE FUNCTION gx_fclose(q text, tol float8, mode text DEFAULT 'device') RETURNS text
LANGUAGE plpgsql SET gpuext.enabled = off SET gpuext.force = off AS $$
DECLARE
    node text;
    res text;
BEGIN
    EXECUTE 'CREATE TEMP TABLE gx_fref AS ' || q;
    IF mode = 'device' THEN
        PERFORM set_config('gpuext.enabled', 'on', true);
        PERFORM set_config('gpuext.force', 'on', true);
        node := gx_device_node(q);
    ELSE
        PERFORM set_config('max_parallel_workers_per_gather', '2', true);
        PERFORM set_config('parallel_setup_cost', '0', true);
        PERFORM set_config('parallel_tuple_cost', '0', true);
        PERFORM set_config('min_parallel_table_scan_size', '0', true);
        node := CASE WHEN position('Gather' IN
                                   (SELECT string_agg(l, ' ') FROM gx_explain(q) l)) > 0
                     THEN 'Gather' ELSE 'serial' END;
    END IF;
    EXECUTE 'CREATE TEMP TABLE gx_fgot AS ' || q;
    res := gx_fcompare(tol);
    DROP TABLE gx_fref;
    DROP TABLE gx_fgot;
    RETURN format('%s (%s)', res, node);
END $$;

-- the plans: float aggregates are device aggregates
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT k, sum(f4), sum(f8), avg(f8), min(f4), max(f8) FROM gx_ff GROUP BY k', 'VERBOSE, COSTS OFF');
SELECT * FROM gx_explain('SELECT k, stddev(f8), stddev_samp(f4), stddev_pop(f8), variance(f4), var_pop(f8) FROM gx_ff GROUP BY k');
-- what stays with PostgreSQL: a float aggregate over a type it does not take
SET client_min_messages = debug1;
EXPLAIN (COSTS OFF) SELECT k, corr(f8, f8) FROM gx_ff GROUP BY k;
RESET client_min_messages;
RESET gpuext.force;

-- exact: integer-valued floats (every partial sum exact), min and max,
-- NULLs, a group without values, NaN and infinities (those rows are
-- PostgreSQL's), sums of -0 (-0, as PostgreSQL's).  min / max of a group
-- holding both -0 and 0 (104) may be either zero, as PostgreSQL's own
-- depend on the rows' order: equal as floats (gx_fclose, tolerance 0)
SELECT gx_check('SELECT k, sum(f4), sum(f8), min(f4), max(f4), min(f8), max(f8), count(f8) FROM gx_ff WHERE (k IS NULL OR k <> 104) GROUP BY k');
SELECT gx_check('SELECT k, sum(f4), sum(f8), count(f8) FROM gx_ff GROUP BY k');
SELECT gx_fclose('SELECT k, ARRAY[min(f4), max(f4), min(f8), max(f8), sum(f8)] AS v FROM gx_ff WHERE k IN (104, 105) GROUP BY k', 0);
SELECT gx_check('SELECT k, avg(f4), avg(f8), count(*) FROM gx_ff GROUP BY k');
SELECT gx_check('SELECT k, sum(f8) FILTER (WHERE c), min(f8) FILTER (WHERE c), avg(f4) FILTER (WHERE NOT c), max(f4) FILTER (WHERE f4 > 0) FROM gx_ff WHERE (k IS NULL OR k <> 104) GROUP BY k');
SELECT gx_check('SELECT k, var_pop(f8), variance(f8), stddev_pop(f8), stddev(f8) FROM gx_ff WHERE k >= 100 GROUP BY k');
SELECT gx_check('SELECT c, sum(f4 * 2), max(f8 - 1), min(f4 + f4) FROM gx_ff WHERE k >= 100 GROUP BY c');
-- every row a special value, and the special values alone without keys
SELECT gx_check('SELECT k, sum(f8), avg(f8), min(f8), max(f8), stddev(f8), var_pop(f4) FROM gx_ff WHERE k BETWEEN 101 AND 105 AND k <> 104 GROUP BY k');
SELECT gx_check('SELECT sum(f8), avg(f4), min(f8), max(f4), var_samp(f8) FROM gx_ff WHERE id > 40000 AND k <> 104');
-- empty input, and a group of one value (variance NULL, var_pop 0)
SELECT gx_check('SELECT k, sum(f8), avg(f8), min(f4), variance(f8) FROM gx_ff WHERE id < 0 GROUP BY k');
SELECT gx_check('SELECT sum(f8), avg(f8), max(f4), variance(f8), stddev_samp(f4) FROM gx_ff WHERE id < 0');
SELECT gx_check('SELECT k, variance(f8), var_pop(f8), stddev_samp(f4), stddev_pop(f4) FROM gx_ff WHERE k >= 106 GROUP BY k');
-- HAVING on float aggregates
SELECT gx_check('SELECT k, count(*) FROM gx_ff GROUP BY k HAVING max(f8) > 999990 OR min(f4) = -500');
-- rows for the host (a table too small)
SET gpuext.preagg_memory = '1MB';
SELECT gx_check('SELECT id, sum(f4), avg(f8), min(f8), max(f4), var_pop(f8) FROM gx_ff GROUP BY id');
SELECT gx_fclose('SELECT k, ARRAY[sum(x), avg(x), stddev(x), var_pop(y)] AS v FROM gx_fr GROUP BY k', 1e-9);
RESET gpuext.preagg_memory;

-- overflow: a finite sum past the largest float raises PostgreSQL's error
-- (22003), with and without keys; an infinite input is no overflow
CREATE TABLE gx_fo (k int4, f4 float4, f8 float8);
INSERT INTO gx_fo VALUES (1, 3e38, 1.5e308), (1, 3e38, 1.5e308), (2, 1, 1), (3, 'Infinity', 'Infinity'), (3, 3e38, 1.5e308);
VACUUM ANALYZE gx_fo;
SELECT gx_error('SELECT k, sum(f8) FROM gx_fo WHERE k < 2 GROUP BY k');
SELECT gx_error('SELECT sum(f4) FROM gx_fo WHERE k < 2');
SELECT gx_error('SELECT k, avg(f8) FROM gx_fo WHERE k < 2 GROUP BY k');
SELECT gx_error('SELECT k, var_pop(f8) FROM gx_fo WHERE k < 2 GROUP BY k');
SELECT gx_error('SELECT k, sum(f8), sum(f4), avg(f8), max(f8) FROM gx_fo WHERE k <> 1 GROUP BY k');

-- within a tolerance: non-representable values.  Any order of n additions
-- is within (n - 1) * 2^-53 * sum |x| of the exact sum (float4's sum: its
-- float4 rounding too), so for these positive values a relative 1e-9 is far
-- above what any plan can differ by; the device and PostgreSQL's own
-- parallel plan both differ from the serial plan within it
SELECT gx_fclose('SELECT k, ARRAY[sum(x), avg(x), avg(y), min(x), max(y)] AS v FROM gx_fr GROUP BY k', 1e-9);
SELECT gx_fclose('SELECT k, ARRAY[sum(x), avg(x), avg(y), min(x), max(y)] AS v FROM gx_fr GROUP BY k', 1e-9, 'parallel');
-- sum(float4) adds in float4 (u = 2^-24) in PostgreSQL, and these values
-- of both signs cancel: neither the device (double, rounded once) nor
-- PostgreSQL's parallel plan need be within 1e-9 of the serial plan; both are
-- within 1e-4 (the bound: 12000 * 2^-24 * sum |y| / |sum y|, about 1e-2)
SELECT gx_fclose('SELECT k, ARRAY[sum(y)] AS v FROM gx_fr GROUP BY k', 1e-9) LIKE 'ok%' AS device_1e9;
SELECT gx_fclose('SELECT k, ARRAY[sum(y)] AS v FROM gx_fr GROUP BY k', 1e-4);
SELECT gx_fclose('SELECT k, ARRAY[sum(y)] AS v FROM gx_fr GROUP BY k', 1e-4, 'parallel');
-- stddev / variance: data with a mean far above its spread (1e6 + [0, 143)),
-- where sum x^2 - (sum x)^2 / n would cancel; within 1e-9 too
SELECT gx_fclose('SELECT k, ARRAY[variance(x), var_pop(x), stddev(x), var_samp(y), stddev_samp(y)] AS v FROM gx_fr GROUP BY k', 1e-9);
SELECT gx_fclose('SELECT k, ARRAY[variance(x), var_pop(x), stddev(x), var_samp(y), stddev_samp(y)] AS v FROM gx_fr GROUP BY k', 1e-9, 'parallel');
SELECT gx_fclose('SELECT 1 AS k, ARRAY[sum(x), avg(x), stddev(x), var_pop(y)] AS v FROM gx_fr', 1e-9);
-- PostgreSQL's float sum depends on the order of the rows itself
SELECT sum(x ORDER BY x) = sum(x ORDER BY x DESC) AS same_sum_both_orders
FROM (VALUES (1e16::float8), (1), (1), (1)) v(x);

-- parallel: every process adds into the leader's table
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT k, sum(f8), stddev(f4) FROM gx_ff GROUP BY k');
RESET gpuext.force;
SELECT gx_check('SELECT k, sum(f4), sum(f8), min(f4), max(f8), avg(f8), count(f4) FROM gx_ff WHERE (k IS NULL OR k <> 104) GROUP BY k');
SELECT gx_fclose('SELECT k, ARRAY[sum(x), avg(x), variance(x), stddev_pop(y)] AS v FROM gx_fr GROUP BY k', 1e-9);
RESET min_parallel_table_scan_size;
RESET parallel_tuple_cost;
RESET parallel_setup_cost;
SET max_parallel_workers_per_gather = 0;

-- cached columns, and stale blocks read from the heap
SELECT gpuext_cache_load('gx_ff');
SELECT gx_check('SELECT k, sum(f4), sum(f8), min(f8), max(f4), avg(f4) FROM gx_ff WHERE (k IS NULL OR k <> 104) GROUP BY k');
UPDATE gx_ff SET f8 = 'NaN' WHERE id = 5;
UPDATE gx_ff SET f4 = f4 + 1 WHERE id % 1000 = 1;
SELECT gx_check('SELECT k, sum(f4), sum(f8), min(f8), max(f8), avg(f4) FROM gx_ff WHERE (k IS NULL OR k <> 104) GROUP BY k');
SELECT gx_fclose('SELECT k, ARRAY[var_pop(f4), stddev(f8)] AS v FROM gx_ff GROUP BY k', 1e-9);
SELECT gpuext_cache_evict('gx_ff');

DROP TABLE gx_ff, gx_fr, gx_fo;
DROP FUNCTION gx_fclose(text, float8, text);
DROP FUNCTION gx_fcompare(float8);
DROP FUNCTION gx_fnear(float8, float8, float8);
RESET max_parallel_workers_per_gather;
