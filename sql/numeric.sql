--
-- numeric: numeric columns with a typmod of precision <= 18 on the device,
-- as int64 fixed-point values at the column's scale (NaN above every
-- number); comparisons across scales, + - * with rows beyond int64 left
-- to the host (which rechecks them), BETWEEN, IN lists, casts of
-- integers, Params, the backend's and the device's deforming, cached
-- columns; each query differential (gpuext off vs GpuScan on every
-- device)
--

CREATE TABLE gx_nm (
    id int4, q numeric(15,2), p numeric(15,2), s numeric(5,0), m numeric(18,6),
    big numeric(18,0), big2 numeric(18,0), u numeric, d date, i4 int4, i8 int8, t text);
INSERT INTO gx_nm
SELECT g,
       CASE WHEN g % 17 = 0 THEN NULL ELSE (g * 7 % 5001 - 2500) / 100.0 END,
       CASE WHEN g % 19 = 0 THEN NULL ELSE (g * 13 % 20001) / 100.0 + 0.01 END,
       CASE WHEN g % 23 = 0 THEN NULL ELSE g * 37 % 99999 - 49999 END,
       CASE WHEN g % 29 = 0 THEN NULL ELSE (g::int8 * 7919 % 2000001 - 1000000) / 1000000.0 END,
       CASE WHEN g % 31 = 0 THEN NULL
            WHEN g % 5 = 0 THEN (g::int8 * 104729 % 1000000) * 1000000000000
            ELSE g * 11 % 2001 - 1000 END,
       CASE WHEN g % 37 = 0 THEN NULL
            WHEN g % 3 = 0 THEN (g::int8 * 7919 % 1000000) * 1000000000000
            ELSE g * 3 % 101 - 50 END,
       (g * 7 % 5001 - 2500) / 100.0,
       date '1993-06-01' + g % 1000,
       CASE WHEN g % 13 = 0 THEN NULL ELSE g * 7 % 61 - 30 END,
       CASE WHEN g % 11 = 0 THEN NULL ELSE g::int8 * 7919 % 200001 - 100000 END,
       'r' || g
FROM generate_series(1, 3000) g;
-- NaN, the ends of the typmods, zero, negatives, NULLs
INSERT INTO gx_nm VALUES
    (3001, 'NaN', 'NaN', 'NaN', 'NaN', 'NaN', 'NaN', 'NaN', '1994-06-01', 1, 1, 'nan'),
    (3002, 9999999999999.99, -9999999999999.99, 99999, 999999999999.999999,
     999999999999999999, 999999999999999999, 1e30, '1994-06-01', 2, 9223372036854775807, 'max'),
    (3003, -9999999999999.99, 0.01, -99999, -999999999999.999999,
     -999999999999999999, 999999999999999999, -1e30, '1994-06-01', 3, -9223372036854775808, 'min'),
    (3004, 0, -0.00, 0, 0.000001, 0, -1, 0, '1994-06-01', 0, 0, 'zero'),
    (3005, 0.06, 0.07, 23, 0.05, 5, 5, 0.06, '1994-06-01', 24, 24, 'q6'),
    (3006, 23.99, 0.05, 24, 24, 3037000500, 3037000500, 0.05, '1994-12-31', 24, 24, 'edge'),
    (3007, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
ANALYZE gx_nm;
-- a numeric with a typmod cannot hold an infinity (PostgreSQL 14 and later)
INSERT INTO gx_nm (id, q) VALUES (4000, 'Infinity');
INSERT INTO gx_nm (id, big) VALUES (4000, '-Infinity');

-- numeric against numeric: every operator, constants of other scales,
-- columns of other scales, NaN (equal to itself, above every number)
SELECT q, gx_check('SELECT id FROM gx_nm WHERE ' || q)
FROM (VALUES
    ('q < 24'), ('q <= 23.99'), ('q = 17'), ('q <> 17'), ('q > -3.25'), ('q >= 24.5'),
    ('q > 1000.005'), ('q < -0.005'), ('q = 12.340'), ('q = 12.345'), ('24 > q'), ('-3.25 <= q'),
    ('q < p'), ('q >= p'), ('q = s'), ('s <> q'), ('m < q'), ('m >= s'), ('m = 0.000001'),
    ('m > 0.5'), ('s < 1000.25'), ('big > 500000000000000000'), ('big = big2'), ('big < m'),
    ('q = ''NaN'''), ('q <> ''NaN'''), ('q > 1e12'), ('q < ''NaN'''), ('m >= ''NaN'''),
    ('q = 0'), ('p = 0'), ('q = -0.00'), ('q IS NULL'), ('NOT (q < 0)'),
    ('q BETWEEN 0.05 AND 0.07'), ('q NOT BETWEEN -10 AND 10'),
    ('q BETWEEN SYMMETRIC 10 AND -10'), ('m BETWEEN -0.5 AND 0.25')
) v(q);

-- TPC-H Q6's filter shape
SELECT gx_check('SELECT id FROM gx_nm WHERE d >= date ''1994-01-01''
    AND d < date ''1994-01-01'' + interval ''1'' year
    AND p BETWEEN 0.06 - 0.01 AND 0.06 + 0.01 AND q < 24');
SELECT gx_check('SELECT sum(p * q) FROM gx_nm WHERE d >= date ''1994-01-01''
    AND d < date ''1994-01-01'' + interval ''1'' year
    AND p BETWEEN 0.06 - 0.01 AND 0.06 + 0.01 AND q < 24');

-- integers against numeric (the parser casts them), + - * and unary minus:
-- a result scale is the larger one (+ -) or the sum (*)
SELECT q, gx_check('SELECT id FROM gx_nm WHERE ' || q)
FROM (VALUES
    ('q > i4'), ('i4 = s'), ('i8 < m'), ('i8 = big'), ('i8 >= q'), ('q < i4 + 0.5'),
    ('q + p > 100'), ('q - p < 0'), ('q + m >= 1.000001'), ('m - s < -100'),
    ('q * s > 1000'), ('q * p < 0.0001'), ('q * m < 0'), ('-q > 5'), ('-(q * s) > 0'),
    ('q + 1 = p'), ('q * 2 = p'), ('q - q = 0'), ('q * 0 <> 0'), ('+q < 1'),
    ('q + p + m + s > 0 AND q < 10'), ('q > 0 OR m < 0'),
    ('q::numeric(15,2) < 24')
) v(q);

-- IN lists (elements of any scale: those no value of the column can
-- equal are left out), NOT IN, NULL elements
SELECT q, gx_check('SELECT id FROM gx_nm WHERE ' || q)
FROM (VALUES
    ('q IN (1.5, 2, 17.00, 3.333, -12.5)'), ('q NOT IN (1.5, 2, 17.00, 3.333)'),
    ('q IN (1.5, NULL)'), ('q NOT IN (1.5, NULL)'), ('s IN (1, 2, 3, 23, 24.5)'),
    ('q = ANY (''{NaN, 0}''::numeric[])'), ('q = ANY (''{}''::numeric[])'),
    ('q = ANY (NULL::numeric[])'), ('m IN (0.05, 0.000001, 24)'),
    ('q IN (1e30, 99999999999999999999.5)')
) v(q);

-- beyond int64: the device leaves those rows to the host, which rechecks
-- them (PostgreSQL computes them exactly); in a count too
SELECT q, gx_check('SELECT id FROM gx_nm WHERE ' || q)
FROM (VALUES
    ('big * big2 > 0'), ('big * big2 < 10'), ('big * big2 = 25'), ('big * big2 IS NULL'),
    ('big * big2 > 0 OR q < 0'), ('q < 0 AND big * big2 < 0'), ('big * m > 1'),
    ('big * 100 > big2'), ('m * 1000000 > 5'), ('big + big2 > 0'), ('i8 + 0.5 > 0'),
    ('-(i8::numeric) < 0'), ('i8::numeric = 9223372036854775807'), ('i8 < big')
) v(q);
SELECT gx_check('SELECT count(*) FROM gx_nm WHERE big * big2 > 0');
SELECT gx_check('SELECT count(*) FROM gx_nm WHERE q < 24');
SELECT gx_check('SELECT id, q, big * big2 FROM gx_nm WHERE big * big2 <> 0 AND id > 2990');

-- host only: division, casts from numeric, constants no int64 holds at
-- their scale (unconstrained numeric u: on the device, numeric_free.sql)
SELECT q, gx_check('SELECT id FROM gx_nm WHERE ' || q)
FROM (VALUES
    ('u > 1'), ('q / 2 > 1'), ('q::float8 > 1'), ('q < 0.1234567890123456789'),
    ('q < 12345678901234567890'), ('q % 2 = 1'), ('q < 24 AND u > 0')
) v(q);

-- plans: the quals on the device; a program that may leave rows to the
-- host is no keyless device aggregate
SET gpuext.force = on;
SELECT gx_explain('SELECT id FROM gx_nm WHERE p BETWEEN 0.05 AND 0.07 AND q < 24');
SELECT gx_explain('SELECT id FROM gx_nm WHERE q IN (1.5, 2) OR m > s');
SELECT gx_explain('SELECT id FROM gx_nm WHERE big * big2 > 0 AND u > 1');
SELECT gx_explain('SELECT count(*) FROM gx_nm WHERE q < 24');
SELECT gx_explain('SELECT count(*) FROM gx_nm WHERE big * big2 > 0');
SELECT gx_explain('SELECT i4, count(*) FROM gx_nm WHERE big * big2 > 0 GROUP BY i4');
RESET gpuext.force;
SELECT gx_check('SELECT i4, count(*) FROM gx_nm WHERE big * big2 > 0 GROUP BY i4');
SELECT gx_check('SELECT i4, count(*) FROM gx_nm WHERE q < 24 GROUP BY i4');

-- parallel scans recheck their rows for the host in every process
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET gpuext.enable_agg = off;
SET gpuext.enable_preagg = off;
SELECT gx_check('SELECT id FROM gx_nm WHERE big * big2 > 0 OR q < -20');
SELECT gx_check('SELECT count(*) FROM gx_nm WHERE big * m > 1');
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET gpuext.enable_agg;
RESET gpuext.enable_preagg;

-- the backend's deforming
SET gpuext.device_deform = off;
SELECT q, gx_check('SELECT id FROM gx_nm WHERE ' || q)
FROM (VALUES ('q < 24'), ('q = ''NaN'''), ('m > s'), ('big * big2 > 0'), ('p BETWEEN 0.05 AND 0.07')) v(q);
RESET gpuext.device_deform;

-- Params: at the other operand's scale, filled at scan start; a value not
-- exact at that scale runs the scan's device quals on the host
SET plan_cache_mode = force_generic_plan;
PREPARE n_off(numeric) AS SELECT id FROM gx_nm WHERE q < $1;
PREPARE n_on(numeric) AS SELECT id FROM gx_nm WHERE q < $1;
PREPARE b_off(numeric, numeric) AS SELECT id FROM gx_nm WHERE p BETWEEN $1 AND $2 AND m * $1 > 0;
PREPARE b_on(numeric, numeric) AS SELECT id FROM gx_nm WHERE p BETWEEN $1 AND $2 AND m * $1 > 0;
PREPARE i_off(int4) AS SELECT id FROM gx_nm WHERE s > $1;
PREPARE i_on(int4) AS SELECT id FROM gx_nm WHERE s > $1;
SELECT args, gx_check_exec('n', args)
FROM (VALUES ('(24)'), ('(0.05)'), ('(0.125)'), ('(NULL)'), ('(''NaN'')'), ('(1e20)'),
             ('(-9999999999999.99)')) v(args);
SELECT args, gx_check_exec('b', args)
FROM (VALUES ('(0.05, 0.07)'), ('(-1, 100.5)'), ('(0.0000001, 1)'), ('(NULL, 1)')) v(args);
SELECT args, gx_check_exec('i', args)
FROM (VALUES ('(24)'), ('(-100000)'), ('(NULL)')) v(args);
-- numeric array Params: a set at the column's scale, filled at scan start
PREPARE s_off(numeric[]) AS SELECT id FROM gx_nm WHERE q = ANY ($1) OR s <> ALL ($1);
PREPARE s_on(numeric[]) AS SELECT id FROM gx_nm WHERE q = ANY ($1) OR s <> ALL ($1);
SELECT left(args, 40) AS args, gx_check_exec('s', args)
FROM (VALUES ('(''{1.5, 2, 17.00, NaN, 23}'')'), ('(''{}'')'), ('(NULL)'), ('(''{NULL, 1.5}'')'),
             ('(''{0.125, 1e30, -1}'')'),
             -- 1000 distinct elements: more than the run holds
             ('(''' || (SELECT array_agg(g / 4.0)::text FROM generate_series(-2000, 2000, 4) g) || ''')')) v(args);
SELECT gx_check('SELECT id FROM gx_nm WHERE q = ANY ((SELECT array_agg(p) FROM gx_nm WHERE id < 50)::numeric[])');
SET gpuext.force = on;
SELECT gx_explain('EXECUTE b_on(0.05, 0.07)');
RESET gpuext.force;
RESET plan_cache_mode;
DEALLOCATE ALL;

-- cached columns: numeric columns are cached (int64 at their scale)
SET max_parallel_workers_per_gather = 0;
SET gpuext.cache_refresh = off;
VACUUM (FREEZE, ANALYZE) gx_nm;
SELECT gpuext_cache_load('gx_nm');
SELECT columns FROM gpuext_cache WHERE "table" = 'gx_nm'::regclass AND state <> 'stale';
SELECT q, gx_cached('SELECT id FROM gx_nm WHERE ' || q) AS cache,
       gx_check('SELECT id FROM gx_nm WHERE ' || q)
FROM (VALUES
    ('q < 24'), ('p BETWEEN 0.05 AND 0.07 AND q < 24'), ('q = ''NaN'''), ('m > s'),
    ('big * big2 > 0'), ('q IN (1.5, 2, 17.00)'), ('q + p > 100 OR i4 > 20')
) v(q);
SELECT gx_check('SELECT count(*) FROM gx_nm WHERE q < 24 AND m > 0');
SELECT gx_check('SELECT count(*) FROM gx_nm WHERE big * big2 > 0');
-- a stale block: its rows from the heap, the rest from the cache
UPDATE gx_nm SET q = 1000 WHERE id = 100;
SELECT gx_check('SELECT id FROM gx_nm WHERE q > 999');
SELECT gpuext_cache_evict('gx_nm') > 0 AS evicted;
RESET gpuext.cache_refresh;
RESET max_parallel_workers_per_gather;

DROP TABLE gx_nm;
