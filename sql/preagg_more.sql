-- preagg_more: GpuPreAgg with FILTER (WHERE cond) on device aggregates
-- (the condition is one more program output, a bool; a row adds into an
-- aggregate only where it is true), and sum/avg(int8) (an exact 128-bit
-- sum, returned as PostgreSQL's serialised PolyNumAggState).  Every result
-- is compared with gpuext off (gx_check).

SET max_parallel_workers_per_gather = 0;
CREATE TABLE gx_pf (id int4, k int4, k2 int2, v4 int4, v8 int8, n numeric(12,2),
                    d date, c bool, t text);
INSERT INTO gx_pf
SELECT g,
       CASE WHEN g % 97 = 0 THEN NULL ELSE g % 7 END,
       (g % 3)::int2,
       CASE WHEN g % 13 = 0 THEN NULL ELSE g * 7 % 1000 - 500 END,
       CASE WHEN g % 17 = 0 THEN NULL ELSE g::int8 * 1000003 - 5000000000 END,
       CASE WHEN g % 19 = 0 THEN NULL ELSE (g * 7919 % 100000) / 100.0 - 300 END,
       date '2024-01-01' + g % 30,
       CASE WHEN g % 5 = 0 THEN NULL ELSE g % 3 = 0 END,
       'x' || g % 10
FROM generate_series(1, 40000) g;
VACUUM (FREEZE, ANALYZE) gx_pf;
-- sums of int8 past 2^63: values near 9e18, both signs, NULLs, and a group
-- whose values are all NULL
CREATE TABLE gx_p8 (id int4, k int4, v int8, w int8);
INSERT INTO gx_p8
SELECT g, g % 5,
       CASE WHEN g % 11 = 0 THEN NULL
            WHEN g % 5 = 1 THEN -9000000000000000000 + g
            WHEN g % 5 = 4 THEN (g % 3 - 1) * 9000000000000000000 + g
            ELSE 9000000000000000000 - g END,
       CASE WHEN g % 2 = 0 THEN 9223372036854775807 ELSE -9223372036854775808 END
FROM generate_series(1, 20000) g;
INSERT INTO gx_p8 VALUES (20001, 100, NULL, NULL), (20002, 100, NULL, 9223372036854775807),
    (20003, 101, 9223372036854775807, 1), (20004, 101, 9223372036854775807, 1),
    (20005, 102, -9223372036854775808, -9223372036854775808),
    (20006, 102, -9223372036854775808, -9223372036854775808);
VACUUM (FREEZE, ANALYZE) gx_p8;

-- the plans: FILTER and sum/avg(int8) are device aggregates
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT k, count(*) FILTER (WHERE v4 > 0), sum(v4) FILTER (WHERE c) FROM gx_pf GROUP BY k', 'VERBOSE, COSTS OFF');
SELECT * FROM gx_explain('SELECT k, sum(v), avg(v) FROM gx_p8 GROUP BY k');
-- a filtered aggregate whose argument can raise an error stays with
-- PostgreSQL (it computes the argument only where the filter passes);
-- a filter the device cannot compute too
SELECT * FROM gx_explain('SELECT k, sum(100 / v4) FILTER (WHERE v4 <> 0) FROM gx_pf GROUP BY k');
SELECT * FROM gx_explain('SELECT k, count(*) FILTER (WHERE t LIKE ''x1%'') FROM gx_pf GROUP BY k');
RESET gpuext.force;

-- FILTER: true, false and NULL conditions, on every device aggregate
SELECT gx_check('SELECT k, count(*) FILTER (WHERE c), count(*) FILTER (WHERE NOT c), count(*) FILTER (WHERE c IS NULL), count(*) FROM gx_pf GROUP BY k');
SELECT gx_check('SELECT k, count(v4) FILTER (WHERE c), sum(v4) FILTER (WHERE c), min(v4) FILTER (WHERE c), max(v4) FILTER (WHERE c), avg(v4) FILTER (WHERE c), sum(v4) FROM gx_pf GROUP BY k');
SELECT gx_check('SELECT k2, sum(n) FILTER (WHERE v4 > 0), avg(n) FILTER (WHERE v4 > 0), min(n) FILTER (WHERE v4 < 0), max(d) FILTER (WHERE v4 IS NULL), sum(n) FROM gx_pf GROUP BY k2');
SELECT gx_check('SELECT k, sum(v8) FILTER (WHERE c), avg(v8) FILTER (WHERE NOT c), sum(v8), bool_or(c) FILTER (WHERE v4 > 400), bool_and(c) FILTER (WHERE id % 2 = 0) FROM gx_pf GROUP BY k');
-- the same aggregate with and without a filter, and two filters: apart
SELECT gx_check('SELECT k, sum(v4), sum(v4) FILTER (WHERE v4 > 0), sum(v4) FILTER (WHERE v4 < 0), count(v4) FILTER (WHERE v4 > 0), count(*) FILTER (WHERE v4 > 0) FROM gx_pf GROUP BY k');
-- filters that are never true, always true, constant NULL
SELECT gx_check('SELECT k, count(*) FILTER (WHERE id < 0), sum(v4) FILTER (WHERE id < 0), min(v4) FILTER (WHERE id < 0), avg(n) FILTER (WHERE id < 0), count(*) FILTER (WHERE id > 0) FROM gx_pf GROUP BY k');
SELECT gx_check('SELECT k, count(*) FILTER (WHERE NULL::bool), sum(v4) FILTER (WHERE c AND v4 > 0) FROM gx_pf GROUP BY k');
-- filters with keys of several columns and expressions, with quals, and without keys
SELECT gx_check('SELECT k, k2, count(*) FILTER (WHERE d > date ''2024-01-15''), max(v8) FILTER (WHERE d > date ''2024-01-15'') FROM gx_pf WHERE id > 100 GROUP BY k, k2');
SELECT gx_check('SELECT k % 3, sum(v4) FILTER (WHERE k2 = 1 OR c) FROM gx_pf GROUP BY k % 3');
SELECT gx_check('SELECT count(*) FILTER (WHERE c), sum(v4) FILTER (WHERE v4 > 0), max(n) FILTER (WHERE c) FROM gx_pf WHERE id % 2 = 0');
-- HAVING on filtered aggregates
SELECT gx_check('SELECT k, count(*) FROM gx_pf GROUP BY k HAVING count(*) FILTER (WHERE c) > 1508');
SELECT gx_check('SELECT k2, sum(v4) FILTER (WHERE c) FROM gx_pf GROUP BY k2 HAVING sum(v4) FILTER (WHERE NOT c) > 0 OR max(v4) FILTER (WHERE c) < 0');
-- what stays with PostgreSQL is still right
SELECT gx_check('SELECT k, sum(100 / v4) FILTER (WHERE v4 <> 0) FROM gx_pf GROUP BY k');
SELECT gx_check('SELECT k, count(*) FILTER (WHERE t LIKE ''x1%'') FROM gx_pf GROUP BY k');
-- rows for the host (a table too small): the filter is the executor's
SET gpuext.preagg_memory = '1MB';
SELECT gx_check('SELECT id, count(*) FILTER (WHERE c), sum(v4) FILTER (WHERE v4 > 0), avg(n) FILTER (WHERE c), sum(v8) FILTER (WHERE NOT c) FROM gx_pf GROUP BY id');
RESET gpuext.preagg_memory;
-- values past 64 bits (the device leaves those rows to the host) in a
-- filtered argument and in a filter
SELECT gx_check('SELECT k, sum(n * 100000000000000000) FILTER (WHERE c), count(*) FILTER (WHERE n * 100000000000000000 > 0), sum(v4) FILTER (WHERE n * 100000000000000000 < 0) FROM gx_pf GROUP BY k');

-- sum/avg(int8): sums past 2^63 both ways, INT64_MAX and INT64_MIN values,
-- NULLs, groups without a value
SELECT gx_check('SELECT k, sum(v), avg(v), count(v), sum(w), avg(w) FROM gx_p8 GROUP BY k');
SELECT gx_check('SELECT sum(v), avg(v), sum(w), avg(w) FROM gx_p8');
SELECT gx_check('SELECT k, sum(v), avg(w) FROM gx_p8 WHERE k >= 100 GROUP BY k');
SELECT gx_check('SELECT k, sum(v) FROM gx_p8 WHERE id > 30000 GROUP BY k');
SELECT gx_check('SELECT sum(v), avg(v) FROM gx_p8 WHERE id > 30000');
SELECT gx_check('SELECT k, sum(v8), avg(v8), sum(v8 * 2) FROM gx_pf GROUP BY k');
SELECT gx_check('SELECT k, sum(v) FILTER (WHERE v > 0), avg(v) FILTER (WHERE w < 0) FROM gx_p8 GROUP BY k HAVING sum(v) > 0');
SET gpuext.preagg_memory = '1MB';
SELECT gx_check('SELECT id % 10000, sum(v), avg(v), sum(w) FROM gx_p8 GROUP BY id % 10000');
RESET gpuext.preagg_memory;

-- parallel: every process adds into the leader's table
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SELECT gx_check('SELECT k, count(*) FILTER (WHERE c), sum(v4) FILTER (WHERE v4 > 0), sum(n) FILTER (WHERE NOT c), sum(v8), avg(v8) FILTER (WHERE c) FROM gx_pf GROUP BY k');
SELECT gx_check('SELECT k, sum(v), avg(v), sum(w) FROM gx_p8 GROUP BY k');
SET gpuext.preagg_memory = '1MB';
SELECT gx_check('SELECT id, count(*) FILTER (WHERE c), sum(v8) FILTER (WHERE v4 > 0) FROM gx_pf GROUP BY id');
RESET gpuext.preagg_memory;
RESET min_parallel_table_scan_size;
RESET parallel_tuple_cost;
RESET parallel_setup_cost;
SET max_parallel_workers_per_gather = 0;

-- cached columns
SELECT gpuext_cache_load('gx_pf');
SELECT gx_check('SELECT k, count(*) FILTER (WHERE c), sum(v4) FILTER (WHERE v4 > 0), avg(n) FILTER (WHERE c IS NULL), sum(v8), avg(v8) FROM gx_pf GROUP BY k');
SELECT gpuext_cache_evict('gx_pf');
SELECT gpuext_cache_load('gx_p8');
SELECT gx_check('SELECT k, sum(v), avg(v), sum(w) FILTER (WHERE v > 0) FROM gx_p8 GROUP BY k');
SELECT gpuext_cache_evict('gx_p8');

DROP TABLE gx_pf, gx_p8;
