-- preagg_var: GpuPreAgg with stddev, stddev_samp, stddev_pop, variance,
-- var_samp and var_pop of int2, int4, int8 and numeric(p,s), p <= 18,
-- s <= 9 (exact in PostgreSQL).  The device sums N, x and x * x exactly
-- (128 bits; x * x a numeric program output at twice x's scale, a row
-- whose square is past int64 a host row) and returns PostgreSQL's own
-- partial states (PolyNumAggState / NumericAggState, serialised), so
-- every result, display scale included, equals PostgreSQL's: gx_check.

SET max_parallel_workers_per_gather = 0;
CREATE TABLE gx_vi (id int4, k int4, i2 int2, i4 int4, i8 int8,
                    n2 numeric(12,2), n4 numeric(18,4), c bool, nf numeric);
INSERT INTO gx_vi
SELECT g,
       CASE WHEN g % 97 = 0 THEN NULL ELSE g % 7 END,
       CASE WHEN g % 11 = 0 THEN NULL ELSE (g * 7 % 201 - 100) END,
       CASE WHEN g % 13 = 0 THEN NULL ELSE (g * 7919 % 2000001 - 1000000) END,
       CASE WHEN g % 17 = 0 THEN NULL ELSE g::int8 * 1000003 - 5000000000 END,
       CASE WHEN g % 19 = 0 THEN NULL ELSE (g * 7919 % 100000) / 100.0 - 300 END,
       CASE WHEN g % 23 = 0 THEN NULL ELSE (g::int8 * 104729 % 100000000) / 10000.0 - 4000 END,
       CASE WHEN g % 5 = 0 THEN NULL ELSE g % 3 = 0 END,
       g / 8.0
FROM generate_series(1, 40000) g;
VACUUM (FREEZE, ANALYZE) gx_vi;
-- large and special values, small groups: 100 all NULL, 101 one row,
-- 102 numbers and a NaN, 103 NaN only, 104 extremes of every type,
-- 105 int8 near 2^62 and 18-digit numerics (squares past int64: host
-- rows, with device rows in the same group), 106 equal values (variance 0)
CREATE TABLE gx_vb (id int4, k int4, i2 int2, i4 int4, i8 int8,
                    n2 numeric(12,2), n0 numeric(18,0));
INSERT INTO gx_vb VALUES
    (1, 100, NULL, NULL, NULL, NULL, NULL),
    (2, 100, NULL, NULL, NULL, NULL, NULL),
    (3, 101, 7, -7, 7000000000, 7.25, 123456789012345678),
    (4, 102, 1, 1, 1, 1.50, 1), (5, 102, 2, 2, 2, 'NaN', 2), (6, 102, 4, 4, 4, 2.75, 4),
    (7, 103, NULL, NULL, NULL, 'NaN', NULL), (8, 103, NULL, NULL, NULL, 'NaN', NULL),
    (9, 104, 32767, 2147483647, 9223372036854775807, 9999999999.99, 999999999999999999),
    (10, 104, -32768, -2147483648, -9223372036854775808, -9999999999.99, -999999999999999999),
    (11, 104, 32767, 2147483647, 9223372036854775806, 9999999999.99, 999999999999999998),
    (12, 104, 0, 0, 0, 0, 0),
    (13, 106, 5, 5, 5, 5.00, 5), (14, 106, 5, 5, 5, 5.00, 5), (15, 106, 5, 5, 5, 5.00, 5);
INSERT INTO gx_vb
SELECT 100 + g, 105, (g % 300 - 150)::int2, g * 1000 - 2000000000,
       CASE WHEN g % 3 = 0 THEN 4611686018427387904 - g WHEN g % 3 = 1 THEN -4611686018427387000 + g
            ELSE g * 100 END,
       CASE WHEN g % 4 = 0 THEN 3000000.01 * (g % 7) ELSE g / 100.0 END,
       CASE WHEN g % 2 = 0 THEN 987654321098765432 - g ELSE g - 500 END
FROM generate_series(1, 3000) g;
VACUUM (FREEZE, ANALYZE) gx_vb;

-- the plans: every function of every type is a device aggregate; one
-- argument's functions share its two 128-bit sums (four device
-- aggregates of GX_MAX_AGGS)
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT k, stddev(i2), stddev_samp(i4), variance(n2), var_samp(n4), var_pop(i4), stddev_pop(i2) FROM gx_vi GROUP BY k', 'VERBOSE, COSTS OFF');
SELECT * FROM gx_explain('SELECT var_pop(i8), stddev(n2), variance(i8::numeric) FROM gx_vi');
-- what stays with PostgreSQL: an unconstrained numeric column, a scale
-- above 9 (its square has no device scale), more than 16 device
-- aggregates (five arguments)
-- (DEBUG1 says why)
SET client_min_messages = debug1;
EXPLAIN (COSTS OFF) SELECT k, variance(nf) FROM gx_vi GROUP BY k;
EXPLAIN (COSTS OFF) SELECT k, variance(n4 * 0.000001) FROM gx_vi GROUP BY k;
EXPLAIN (COSTS OFF) SELECT k, variance(i2), variance(i4), variance(i8), variance(n2), variance(n4) FROM gx_vi GROUP BY k;
RESET client_min_messages;
-- squares past int64 are rows for the host: int8 near 2^62 and 18-digit
-- numerics (group 105), the extremes (104), and one 18-digit value (101)
SELECT l FROM gx_explain('SELECT k, var_pop(i8) FROM gx_vb GROUP BY k', 'ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF') l WHERE l ~ 'Host';
SELECT l FROM gx_explain('SELECT k, stddev(n0) FROM gx_vb GROUP BY k', 'ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF') l WHERE l ~ 'Host';
RESET gpuext.force;

-- every function of every type, NULLs, negative values
SELECT gx_check('SELECT k, stddev(i2), stddev_samp(i2), stddev_pop(i2), variance(i2), var_samp(i2), var_pop(i2), count(*), count(i2) FROM gx_vi GROUP BY k');
SELECT gx_check('SELECT k, stddev(i4), stddev_samp(i4), stddev_pop(i4), variance(i4), var_samp(i4), var_pop(i4), sum(i4) FROM gx_vi GROUP BY k');
SELECT gx_check('SELECT k, stddev(i8), stddev_samp(i8), stddev_pop(i8), variance(i8), var_samp(i8), var_pop(i8), sum(i8) FROM gx_vi GROUP BY k');
SELECT gx_check('SELECT k, stddev(n2), stddev_samp(n2), stddev_pop(n2), variance(n2), var_samp(n2), var_pop(n2), sum(n2), avg(n2) FROM gx_vi GROUP BY k');
SELECT gx_check('SELECT k, stddev(n4), stddev_samp(n4), stddev_pop(n4), variance(n4), var_samp(n4), var_pop(n4) FROM gx_vi GROUP BY k');
SELECT gx_check('SELECT stddev(i2), var_pop(i4), var_samp(i8), stddev_pop(n2) FROM gx_vi');
SELECT gx_check('SELECT var_samp(n4), stddev(n4), var_pop(i2) FROM gx_vi');
-- expressions: a numeric expression's scale, an integer expression
SELECT gx_check('SELECT k, variance(n2 * 3 + 1.5), stddev(i4 + i2), var_pop(n2 - n4) FROM gx_vi GROUP BY k');
-- empty input; groups without a value; one row (the sample ones NULL);
-- NaN; the extremes of every type; squares past int64 (host rows)
SELECT gx_check('SELECT var_samp(i4), stddev(n2), var_pop(i8), stddev_pop(i2) FROM gx_vi WHERE id < 0');
SELECT gx_check('SELECT k, var_samp(i4), stddev(n2) FROM gx_vi WHERE id < 0 GROUP BY k');
SELECT gx_check('SELECT k, stddev(i2), var_samp(i4), var_pop(i8), count(*) FROM gx_vb GROUP BY k');
SELECT gx_check('SELECT k, stddev_samp(i2), var_pop(i4), stddev(i8), var_samp(n2) FROM gx_vb GROUP BY k');
SELECT gx_check('SELECT k, variance(n2), stddev_pop(n0), var_samp(n0), stddev(n2) FILTER (WHERE i2 > 0), sum(n2) FROM gx_vb GROUP BY k');
SELECT gx_check('SELECT stddev(i8), variance(n0), var_pop(n2), var_samp(i4) FROM gx_vb');
SELECT gx_check('SELECT k, variance(n2), var_pop(n2), stddev(n2) FROM gx_vb WHERE k IN (102, 103) GROUP BY k');
-- the results themselves (gx_check compared them): display scales
-- follow the inputs' (numeric(12,2): sums at scale 2, squares at 4)
SET gpuext.force = on;
SELECT gx_device_node('SELECT k, var_samp(n2), stddev_pop(i2), variance(i8) FROM gx_vb GROUP BY k');
SELECT k, var_samp(n2), stddev_pop(i2), variance(i8) FROM gx_vb GROUP BY k ORDER BY k;
RESET gpuext.force;
-- FILTER and HAVING
SELECT gx_check('SELECT k, variance(i4) FILTER (WHERE c), stddev(n2) FILTER (WHERE NOT c), var_pop(i8) FILTER (WHERE i2 > 0), variance(i4) FROM gx_vi GROUP BY k');
SELECT gx_check('SELECT k, var_samp(n4) FILTER (WHERE id < 0), stddev(n4) FILTER (WHERE c IS NULL), var_pop(i2) FILTER (WHERE i4 > 0) FROM gx_vi GROUP BY k');
SELECT gx_check('SELECT k, stddev(i4) FROM gx_vi GROUP BY k HAVING variance(n2) > 33000 OR var_pop(i8) FILTER (WHERE c) < 0');
SELECT gx_check('SELECT k, var_samp(i8) FILTER (WHERE i4 > 0), stddev(n0) FILTER (WHERE id % 2 = 0) FROM gx_vb GROUP BY k HAVING count(*) > 1');
-- many groups, and a table too small for them (host rows)
SELECT gx_check('SELECT id % 5000, var_samp(i4), stddev(n2), var_pop(i8), variance(i2) FROM gx_vi GROUP BY id % 5000');
SET gpuext.preagg_memory = '1MB';
SELECT gx_check('SELECT id, var_pop(i4), stddev_pop(n4), var_samp(i8) FROM gx_vi GROUP BY id');
RESET gpuext.preagg_memory;

-- parallel: every process adds into the leader's table
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT k, variance(i4), stddev(n2) FROM gx_vi GROUP BY k');
RESET gpuext.force;
SELECT gx_check('SELECT k, stddev(i2), var_samp(i4), var_pop(i8), variance(n2) FROM gx_vi GROUP BY k');
SELECT gx_check('SELECT k, stddev_pop(n4), var_samp(n4) FROM gx_vi GROUP BY k');
SELECT gx_check('SELECT k, stddev(i8), variance(n0), var_pop(n2) FROM gx_vb GROUP BY k');
SELECT gx_check('SELECT stddev(i8), variance(n0), var_pop(n2), var_samp(i4) FROM gx_vb');
SELECT gx_check('SELECT id % 5000, variance(i4) FILTER (WHERE c), stddev(n2) FROM gx_vi GROUP BY id % 5000');
RESET min_parallel_table_scan_size;
RESET parallel_tuple_cost;
RESET parallel_setup_cost;
SET max_parallel_workers_per_gather = 0;

-- cached columns
SELECT gpuext_cache_load('gx_vi');
SELECT gx_cached('SELECT k, variance(i4) FROM gx_vi GROUP BY k');
SELECT gx_check('SELECT k, stddev(i2), var_samp(i4), var_pop(i8), variance(n2) FROM gx_vi GROUP BY k');
SELECT gx_check('SELECT k, variance(i4) FILTER (WHERE c), stddev(n2), stddev_pop(n4) FROM gx_vi GROUP BY k');
SELECT gpuext_cache_evict('gx_vi');
SELECT gpuext_cache_load('gx_vb');
SELECT gx_check('SELECT k, stddev(i2), var_samp(i4), var_pop(i8), variance(n2) FROM gx_vb GROUP BY k');
SELECT gx_check('SELECT k, stddev_pop(n0), variance(n0) FROM gx_vb GROUP BY k');
SELECT gpuext_cache_evict('gx_vb');

DROP TABLE gx_vi, gx_vb;
