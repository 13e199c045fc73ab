--
-- numeric_free: unconstrained numeric (no typmod) on the device.  A
-- column's values are int64s at scale 6 with their dscale when
-- numeric(18,6) holds them (dscale <= 6, |v| < 10^12); NaN as for
-- numeric(p,s); every other value (more digits, larger, +-Infinity,
-- compressed) is a host row, evaluated by PostgreSQL.  sum/avg give
-- PostgreSQL's result scale (the largest dscale of the group's values);
-- GROUP BY keys, min and max of such a column stay on the host (equal
-- values print differently: 1.50 and 1.5).  Each query differential
-- (gpuext off vs on, on every device).
--

CREATE TABLE gx_nf (id int4, k int4, x numeric, y numeric, q numeric(15,2), t text);
INSERT INTO gx_nf
SELECT g, g % 7,
       CASE WHEN g % 17 = 0 THEN NULL
            WHEN g % 5 = 0 THEN ((g * 7 % 5001 - 2500) / 100.0)::numeric(10,3)   -- trailing zero: dscale 3
            ELSE (g * 7 % 5001 - 2500) / 100.0 END,
       CASE WHEN g % 19 = 0 THEN NULL
            WHEN g % 3 = 0 THEN g * 13 % 2001 - 1000                              -- dscale 0
            ELSE ((g * 13 % 2001 - 1000) / 1000.0)::numeric(12,4) END,
       CASE WHEN g % 23 = 0 THEN NULL ELSE (g * 11 % 4001 - 2000) / 100.0 END,
       'r' || g
FROM generate_series(1, 3000) g;
-- values the device cannot hold, NaN, trailing zeros, the limits of
-- numeric(18,6), many digits
INSERT INTO gx_nf VALUES
    (3001, 100, 'NaN', 'NaN', 'NaN', 'nan'),
    (3002, 100, 1.50, 1.5, 1.5, 'trailing'),
    (3003, 100, 1.5, 1.500, 1.50, 'trailing'),
    (3004, 101, 0.1234567, 1, 0.12, 'dscale 7'),
    (3005, 101, 1.50000000, 2, 1.50, 'dscale 8, zeros'),
    (3006, 101, 999999999999.999999, -999999999999.999999, 1, 'max fit'),
    (3007, 102, 1000000000000, 1e12, 2, '10^12'),
    (3008, 102, -1e30, 1e-30, 3, 'huge'),
    (3009, 102, 123456789012345678901234567890.123456789, -0.000001, 4, 'many digits'),
    (3010, 103, NULL, NULL, NULL, 'nulls'),
    (3011, 103, -0.000001, 0.000001, -0.01, 'small'),
    (3012, 103, -999999999999.999999, 0, 0, 'min fit');
-- PostgreSQL 14 and later: the infinities (a numeric with a typmod has none)
INSERT INTO gx_nf
SELECT 3013, 104, 'Infinity'::numeric, '-Infinity'::numeric, 5, 'inf'
WHERE current_setting('server_version_num')::int >= 140000;
INSERT INTO gx_nf
SELECT 3014, 104, '-Infinity'::numeric, 2.5, 6, '-inf'
WHERE current_setting('server_version_num')::int >= 140000;
INSERT INTO gx_nf VALUES (3015, 104, 2.5, 2.5, 7, 'finite');
-- a large value TOAST compresses: a host row
INSERT INTO gx_nf VALUES (3016, 105, ('1' || repeat('0', 3000))::numeric, 1, 8, 'compressed');
VACUUM (FREEZE, ANALYZE) gx_nf;

-- quals: comparisons with constants (any dscale), = ANY, BETWEEN, IN,
-- with numeric(p,s) and other unconstrained columns, + - * and minus
SELECT q, gx_check('SELECT id FROM gx_nf WHERE ' || q)
FROM (VALUES
    ('x > 1.5'), ('x = 1.5'), ('x = 1.50000000'), ('x < 0.1234567'), ('x >= 0.1234567'),
    ('x = ''NaN'''), ('x < ''NaN'''), ('x <> 1.5'), ('x > 999999999999.999998'),
    ('x = ANY (''{1.5, 2, -24.5, NaN, 1e30}'')'), ('x <> ALL (''{1.5, 0.1234567}'')'),
    ('x IN (1.50, 2.5, 17)'), ('x BETWEEN -1 AND 2.25'), ('x NOT BETWEEN -10 AND 10'),
    ('x = q'), ('x < q + 1'), ('x > y'), ('x + y > 0'), ('x - 1.25 < y'),
    ('x * 2 < 3'), ('x * y > 100'), ('-x > 0'), ('x * 1000000 > 1'), ('x IS NULL'),
    ('x > 0 AND t LIKE ''r1%'''), ('x > 0 OR k = 100'), ('x::int4 > 3'), ('x > 1e-30')
) v(q);
SELECT gx_check('SELECT count(*) FROM gx_nf WHERE x > 0');
SELECT gx_check('SELECT id, x, y FROM gx_nf WHERE x + y > 0 AND k >= 100');

-- the plans: on the device
SET gpuext.force = on;
SELECT gx_explain('SELECT id FROM gx_nf WHERE x > 1.5 AND y < q');
SELECT gx_explain('SELECT id FROM gx_nf WHERE x = ANY (''{1.5, 2}'') OR x BETWEEN 3 AND 4');
SELECT gx_explain('SELECT k, sum(x), avg(x), count(x) FROM gx_nf GROUP BY k');
SELECT gx_explain('SELECT sum(x), avg(y) FROM gx_nf WHERE x > 0');
-- keys, min and max of an unconstrained column: PostgreSQL's aggregation
-- (DEBUG1 says why)
SET client_min_messages = debug1;
SELECT gx_explain('SELECT x, count(*) FROM gx_nf GROUP BY x');
SELECT gx_explain('SELECT k, min(x), max(x) FROM gx_nf GROUP BY k');
SELECT gx_explain('SELECT k, sum(x + 1) FROM gx_nf GROUP BY k');
RESET client_min_messages;
RESET gpuext.force;

-- aggregates: sum and avg at PostgreSQL's result scale (the largest
-- dscale), NaN, groups of host rows only, FILTER, count
SELECT q, gx_check(q)
FROM (VALUES
    ('SELECT k, sum(x), avg(x), count(x), count(*) FROM gx_nf GROUP BY k'),
    ('SELECT k, sum(y), avg(y), sum(q), sum(x) FILTER (WHERE x < 10) FROM gx_nf GROUP BY k'),
    ('SELECT sum(x), avg(x), sum(y), avg(y) FROM gx_nf'),
    ('SELECT sum(x), avg(x) FROM gx_nf WHERE id > 3000 AND x <> ''NaN'''),
    ('SELECT k, sum(x) FROM gx_nf WHERE id IN (3002, 3003, 3011) GROUP BY k'),
    ('SELECT k, sum(y) FROM gx_nf WHERE id % 3 = 0 GROUP BY k'),
    ('SELECT k, sum(x), avg(y) FROM gx_nf WHERE id > 3000 GROUP BY k'),
    ('SELECT k, sum(x), avg(x) FROM gx_nf WHERE x > 0.1234567 GROUP BY k'),
    ('SELECT k, sum(x * 2), max(x), min(y) FROM gx_nf GROUP BY k'),
    -- (keys of equal values that print differently, 1.50 and 1.50000000,
    -- are PostgreSQL's first one met: order-dependent in PostgreSQL itself)
    ('SELECT x, count(*) FROM gx_nf WHERE id > 2990 AND id <> 3005 GROUP BY x'),
    ('SELECT t, sum(x), sum(y) FROM gx_nf WHERE k >= 100 GROUP BY t')
) v(q);

-- the backend's deforming
SET gpuext.device_deform = off;
SELECT q, gx_check(q)
FROM (VALUES ('SELECT id FROM gx_nf WHERE x > 1.5'), ('SELECT id FROM gx_nf WHERE x * y > 100'),
             ('SELECT k, sum(x), avg(y) FROM gx_nf GROUP BY k')) v(q);
RESET gpuext.device_deform;

-- Params: at the column's scale (6); a value not exact there runs the
-- device quals on the host
SET plan_cache_mode = force_generic_plan;
PREPARE f_off(numeric) AS SELECT id FROM gx_nf WHERE x < $1;
PREPARE f_on(numeric) AS SELECT id FROM gx_nf WHERE x < $1;
SELECT args, gx_check_exec('f', args)
FROM (VALUES ('(1.5)'), ('(0.1234567)'), ('(NULL)'), ('(''NaN'')'), ('(1e20)')) v(args);
PREPARE g_off(numeric[]) AS SELECT id FROM gx_nf WHERE x = ANY ($1);
PREPARE g_on(numeric[]) AS SELECT id FROM gx_nf WHERE x = ANY ($1);
SELECT args, gx_check_exec('g', args)
FROM (VALUES ('(''{1.5, 2, NaN, 0.1234567}'')'), ('(''{}'')'), ('(NULL)')) v(args);
RESET plan_cache_mode;
DEALLOCATE ALL;

-- parallel scans and GpuPreAgg
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SELECT gx_check('SELECT id FROM gx_nf WHERE x > 1.5 OR x * y < -1000');
SELECT gx_check('SELECT k, sum(x), avg(y), count(x) FROM gx_nf GROUP BY k');
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;

-- cached columns: the values the device cannot hold are the host's there too
SET max_parallel_workers_per_gather = 0;
SET gpuext.cache_refresh = off;
SELECT gpuext_cache_load('gx_nf');
SELECT columns FROM gpuext_cache WHERE "table" = 'gx_nf'::regclass AND state <> 'stale';
SELECT q, gx_cached(q) AS cache, gx_check(q)
FROM (VALUES
    ('SELECT id FROM gx_nf WHERE x > 1.5'), ('SELECT id FROM gx_nf WHERE x = ''NaN'''),
    ('SELECT id FROM gx_nf WHERE x * y > 100 OR x = 1.50000000'),
    ('SELECT k, sum(x), avg(y), count(x) FROM gx_nf GROUP BY k'),
    ('SELECT k, sum(x) FROM gx_nf WHERE id > 3000 GROUP BY k')
) v(q);
SELECT gpuext_cache_evict('gx_nf') > 0 AS evicted;
RESET gpuext.cache_refresh;
RESET max_parallel_workers_per_gather;
DROP TABLE gx_nf;
