--
-- crosstype: comparisons among date, timestamp and timestamptz on the
-- device (PostgreSQL's rules: infinities, dates past the timestamp range,
-- the session's TimeZone), and = ANY / <> ALL over long constant arrays
-- and array Params; each query differential (gpuext off vs GpuScan on
-- every device)
--

CREATE TABLE gx_dt (id int4, d date, ts timestamp, tz timestamptz);
-- around the 2021 DST changes of New York (and of Europe), minute by minute
INSERT INTO gx_dt
SELECT g, date '2021-03-01' + g % 30,
       timestamp '2021-03-13 20:00' + g * interval '97 seconds',
       timestamptz '2021-03-14 05:00+00' + g * interval '61 seconds'
FROM generate_series(1, 1500) g;
INSERT INTO gx_dt
SELECT 2000 + g, date '2021-10-25' + g % 20,
       timestamp '2021-11-06 22:00' + g * interval '89 seconds',
       timestamptz '2021-11-07 04:00+00' + g * interval '53 seconds'
FROM generate_series(1, 1500) g;
-- around the day Samoa skipped (2011-12-30), and a 30-minute DST change
INSERT INTO gx_dt
SELECT 4000 + g, date '2011-12-25' + g % 12,
       timestamp '2011-12-29 00:00' + g * interval '40 minutes',
       timestamptz '2011-12-29 00:00+00' + g * interval '37 minutes'
FROM generate_series(1, 300) g;
-- infinities, NULLs, dates past the last timestamp, the ends of the ranges
INSERT INTO gx_dt VALUES
    (9001, 'infinity', 'infinity', 'infinity'),
    (9002, '-infinity', '-infinity', '-infinity'),
    (9003, NULL, NULL, NULL),
    (9004, '294276-12-31', '294276-12-31 23:59:59.999999', '294276-12-31 23:59:59.999999+00'),
    (9005, '294277-01-01', '294276-12-31 00:00', '294276-12-30 00:00+00'),
    (9006, '5874897-12-31', '2021-03-14 02:30', '2021-03-14 07:30+00'),
    (9007, '4713-11-24 BC', '4713-11-24 00:00 BC', '4713-11-25 00:00+00 BC'),
    (9008, '2021-03-14', '2021-03-14 00:00', '2021-03-14 05:00+00'),
    (9009, '2021-11-07', '2021-11-07 01:30', '2021-11-07 06:30+00'),
    (9010, '2011-12-30', '2011-12-30 00:00', '2011-12-30 10:00+00');
ANALYZE gx_dt;

-- date vs timestamp, per row (no time zone): every operator, both orders,
-- constants, infinities, dates past the timestamp range, columns
SELECT q, gx_check('SELECT id FROM gx_dt WHERE ' || q)
FROM (VALUES
    ('d = timestamp ''2021-03-14'''), ('d <> timestamp ''2021-03-14'''),
    ('d < timestamp ''2021-03-14 00:00:01'''), ('d <= timestamp ''2021-03-14'''),
    ('d > timestamp ''2021-03-13 23:59:59'''), ('d >= timestamp ''2021-03-14'''),
    ('timestamp ''2021-03-14'' = d'), ('timestamp ''2021-03-14'' <> d'),
    ('timestamp ''2021-03-14 12:00'' < d'), ('timestamp ''2021-03-14'' <= d'),
    ('timestamp ''2021-03-14'' > d'), ('timestamp ''2021-03-14 00:00:00.000001'' >= d'),
    ('d < timestamp ''infinity'''), ('d <= timestamp ''infinity'''), ('d = timestamp ''infinity'''),
    ('d > timestamp ''-infinity'''), ('d = timestamp ''-infinity'''), ('d >= timestamp ''-infinity'''),
    ('d > timestamp ''294276-12-31 23:59:59.999999'''), ('d >= timestamp ''294276-12-31'''),
    ('d < timestamp ''294276-12-31 23:59:59.999999'''),
    ('d = ts'), ('d < ts'), ('d <= ts'), ('d > ts'), ('d >= ts'), ('d <> ts'),
    ('ts = d'), ('ts < d'), ('ts >= d'),
    ('d <= date ''1998-12-01'' - interval ''90'' day'), ('d > date ''2021-03-20'' - interval ''1 hour'''),
    ('d = timestamp ''2021-03-14'' OR d IS NULL'), ('NOT (d < timestamp ''2021-03-10'')')
) v(q);

-- TPC-H Q1's qual is on the device, and so is its aggregate
SET gpuext.force = on;
SELECT gx_explain('SELECT count(*) FROM gx_dt WHERE d <= date ''1998-12-01'' - interval ''90'' day');
SELECT gx_explain('SELECT id FROM gx_dt WHERE ts > d');
RESET gpuext.force;

-- comparisons with timestamptz: a Const side becomes bounds at scan start,
-- in every time zone (gaps and overlaps of DST, a skipped day, 30 minutes)
CREATE FUNCTION gx_tz_checks() RETURNS TABLE (q text, r text) LANGUAGE sql AS $$
SELECT q, gx_check('SELECT id FROM gx_dt WHERE ' || q)
FROM (VALUES
    ('d = timestamptz ''2021-03-14 05:00+00'''), ('d <> timestamptz ''2021-03-14 05:00+00'''),
    ('d < timestamptz ''2021-03-14 05:00+00'''), ('d <= timestamptz ''2021-03-14 04:59:59+00'''),
    ('d > timestamptz ''2021-03-14 05:00+00'''), ('d >= timestamptz ''2021-03-14 05:00:01+00'''),
    ('timestamptz ''2021-11-07 04:00+00'' < d'), ('timestamptz ''2021-11-07 04:00+00'' >= d'),
    ('d < timestamptz ''infinity'''), ('d = timestamptz ''infinity'''), ('d > timestamptz ''-infinity'''),
    ('d >= timestamptz ''294276-12-31 12:00+00'''), ('d < timestamptz ''294276-12-31 12:00+00'''),
    ('d = timestamptz ''2011-12-30 10:00+00'''), ('d = timestamptz ''2011-12-31 10:00+00'''),
    ('d < timestamptz ''2011-12-30 10:00+00'''), ('d > timestamptz ''2011-12-30 10:00+00'''),
    ('ts = timestamptz ''2021-03-14 07:30+00'''), ('ts <> timestamptz ''2021-03-14 07:30+00'''),
    ('ts < timestamptz ''2021-03-14 07:30+00'''), ('ts <= timestamptz ''2021-03-14 07:30+00'''),
    ('ts > timestamptz ''2021-03-14 07:10+00'''), ('ts >= timestamptz ''2021-03-14 07:10+00'''),
    ('ts < timestamptz ''2021-11-07 06:30+00'''), ('ts >= timestamptz ''2021-11-07 05:30+00'''),
    ('ts = timestamptz ''2021-11-07 06:30+00'''), ('ts > timestamptz ''2021-11-07 05:59:59+00'''),
    ('timestamptz ''2021-03-14 07:30+00'' > ts'), ('timestamptz ''2021-11-07 06:00+00'' <= ts'),
    ('ts < timestamptz ''2011-12-30 09:00+00'''), ('ts >= timestamptz ''2011-12-30 11:00+00'''),
    ('ts < timestamptz ''infinity'''), ('ts = timestamptz ''-infinity'''),
    ('ts >= timestamptz ''294276-12-31 12:00+00'''),
    ('tz < date ''2021-03-14'''), ('tz = date ''2021-03-14'''), ('tz >= date ''2021-11-07'''),
    ('date ''2021-03-14'' > tz'), ('tz < date ''infinity'''), ('tz > date ''5874897-12-31'''),
    ('tz < date ''294277-01-01'''), ('tz >= date ''4713-11-25 BC'''),
    ('tz < timestamp ''2021-03-14 02:30'''), ('tz = timestamp ''2021-03-14 02:30'''),
    ('tz >= timestamp ''2021-11-07 01:30'''), ('timestamp ''2021-11-07 01:30'' <> tz'),
    ('tz < timestamp ''infinity'''), ('tz > timestamp ''294276-12-31 23:00''')
) v(q)
$$;
SET TimeZone = 'UTC';
SELECT * FROM gx_tz_checks();
SET TimeZone = 'America/New_York';
SELECT * FROM gx_tz_checks();
SET TimeZone = 'Pacific/Apia';
SELECT * FROM gx_tz_checks();
SET TimeZone = 'Australia/Lord_Howe';
SELECT * FROM gx_tz_checks();
SET TimeZone = 'Asia/Kathmandu';
SELECT * FROM gx_tz_checks();
SET TimeZone = 'Europe/Berlin';
SELECT * FROM gx_tz_checks();

-- a column against a timestamptz column depends on the zone per row: host
SELECT q, gx_check('SELECT id FROM gx_dt WHERE ' || q)
FROM (VALUES ('d < tz'), ('ts >= tz'), ('tz = d'), ('d < tz AND id > 4000')) v(q);
SET gpuext.force = on;
SELECT gx_explain('SELECT id FROM gx_dt WHERE d < tz AND id > 4000');
SELECT gx_explain('SELECT id FROM gx_dt WHERE ts >= timestamptz ''2021-03-14 07:30+00''');
SELECT gx_explain('SELECT id FROM gx_dt WHERE tz < date ''2021-03-14''');
RESET gpuext.force;

-- prepared statements: the TimeZone changes between executions of the
-- same (generic) plan; bounds are computed again at every scan start
SET plan_cache_mode = force_generic_plan;
SET TimeZone = 'UTC';
PREPARE z_off(timestamptz) AS SELECT id FROM gx_dt WHERE d <= $1 OR ts = $1;
PREPARE z_on(timestamptz) AS SELECT id FROM gx_dt WHERE d <= $1 OR ts = $1;
PREPARE c_off AS SELECT id FROM gx_dt WHERE ts < timestamptz '2021-03-14 07:30+00';
PREPARE c_on AS SELECT id FROM gx_dt WHERE ts < timestamptz '2021-03-14 07:30+00';
PREPARE t_off(date) AS SELECT id FROM gx_dt WHERE tz < $1;
PREPARE t_on(date) AS SELECT id FROM gx_dt WHERE tz < $1;
SELECT gx_error('EXECUTE z_off(''2021-03-14 07:30+00'')', 'EXECUTE z_on(''2021-03-14 07:30+00'')');
SELECT gx_error('EXECUTE c_off', 'EXECUTE c_on');
SELECT gx_error('EXECUTE t_off(''2021-03-14'')', 'EXECUTE t_on(''2021-03-14'')');
SET TimeZone = 'America/New_York';
SELECT gx_error('EXECUTE z_off(''2021-03-14 07:30+00'')', 'EXECUTE z_on(''2021-03-14 07:30+00'')');
SELECT gx_error('EXECUTE z_off(''2021-11-07 06:30+00'')', 'EXECUTE z_on(''2021-11-07 06:30+00'')');
SELECT gx_error('EXECUTE z_off(NULL)', 'EXECUTE z_on(NULL)');
SELECT gx_error('EXECUTE z_off(''infinity'')', 'EXECUTE z_on(''infinity'')');
SELECT gx_error('EXECUTE c_off', 'EXECUTE c_on');
SELECT gx_error('EXECUTE t_off(''2021-03-14'')', 'EXECUTE t_on(''2021-03-14'')');
SET TimeZone = 'Pacific/Apia';
SELECT gx_error('EXECUTE z_off(''2011-12-30 10:00+00'')', 'EXECUTE z_on(''2011-12-30 10:00+00'')');
SELECT gx_error('EXECUTE c_off', 'EXECUTE c_on');
SELECT gx_error('EXECUTE t_off(''2011-12-31'')', 'EXECUTE t_on(''2011-12-31'')');
SET gpuext.force = on;
SELECT gx_explain('EXECUTE z_on(''2021-03-14 07:30+00'')');
RESET gpuext.force;
RESET plan_cache_mode;
RESET TimeZone;
DEALLOCATE ALL;

-- = ANY / <> ALL over constant arrays of any length, every device type
SELECT q, gx_check('SELECT id FROM gx_num WHERE ' || q)
FROM (VALUES
    ('i4 = ANY (ARRAY(SELECT g FROM generate_series(-1000, 1000, 7) g))'),
    ('i4 <> ALL (ARRAY(SELECT g FROM generate_series(-1000, 1000, 7) g))'),
    ('i4 = ANY (''{1, 2, 3, NULL}'')'), ('i4 <> ALL (''{1, 2, 3, NULL}'')'),
    ('i4 = ANY (''{NULL}'')'), ('i4 <> ALL (''{NULL}'')'),
    ('i4 = ANY (NULL::int4[])'), ('i4 <> ALL (NULL::int4[])'),
    ('i4 = ANY (''{}'')'), ('i4 <> ALL (''{}'')'),
    ('i4 = ANY (''{{1, 2}, {-1000, 999}}'')'), ('i4 = ANY (''{5, 5, 5, 17, 17}'')'),
    ('i2 = ANY (''{-100, -3, 0, 5, 99, 100}''::int2[])'), ('i2 = ANY (''{5, 70000}''::int4[])'),
    ('i8 = ANY (''{-92081, -100000, 99999, 0}''::int8[])'), ('i4 = ANY (''{-1000, 1000}''::int8[])'),
    ('f4 = ANY (''{12.5, -0.125, Infinity, NaN, -0}''::float4[])'),
    ('f8 = ANY (''{0.0625, NaN, -Infinity, 0}''::float8[])'), ('f4 = ANY (''{12.5, 0.1}''::float8[])'),
    ('f8 <> ALL (''{0.0625, NaN, NULL}''::float8[])'),
    ('b = ANY (''{true}''::bool[])'), ('b <> ALL (''{true, false}''::bool[])'),
    ('d = ANY (''{2020-01-04, 2021-06-15, infinity}''::date[])'),
    ('ts = ANY (''{2021-06-15 12:00, -infinity}''::timestamp[])'),
    ('i4 = ANY (ARRAY(SELECT g FROM generate_series(1, 1000) g))'),
    ('i4 = ANY (ARRAY(SELECT g FROM generate_series(1, 240) g))'),
    ('i4 + 1 = ANY (''{2, 3, 4}'')'), ('(i4 = ANY (''{1, 2, NULL}'')) IS NULL')
) v(q);
SET gpuext.force = on;
SELECT gx_explain('SELECT id FROM gx_num WHERE i4 = ANY (''{1, 2, 3, NULL}'') AND f8 <> ALL (''{0.5}'')');
RESET gpuext.force;

-- array Params: prepared statements (generic plans), short and long arrays
-- (big sets in device memory, of any size: sql/search_sets.sql), NULL
-- arrays and elements
SET plan_cache_mode = force_generic_plan;
PREPARE a_off(int4[]) AS SELECT id FROM gx_num WHERE i4 = ANY ($1);
PREPARE a_on(int4[]) AS SELECT id FROM gx_num WHERE i4 = ANY ($1);
PREPARE n_off(float8[], date[]) AS SELECT id FROM gx_num WHERE f8 <> ALL ($1) AND d = ANY ($2);
PREPARE n_on(float8[], date[]) AS SELECT id FROM gx_num WHERE f8 <> ALL ($1) AND d = ANY ($2);
SELECT left(args, 40) AS args, gx_check_exec('a', args)
FROM (VALUES ('(''{1, 2, 3, -1000, 999}'')'), ('(''{}'')'), ('(NULL)'), ('(''{NULL, 17}'')'),
             ('(''{NULL}'')'),
             -- 667 distinct elements: more than the constant table holds
             ('(''' || (SELECT array_agg(g)::text FROM generate_series(-1000, 1000, 3) g) || ''')'),
             -- 5000 elements, 100 distinct
             ('(''' || (SELECT array_agg(g % 100)::text FROM generate_series(1, 5000) g) || ''')')) v(args);
-- an InitPlan's array (PARAM_EXEC), short and long
SELECT q, gx_check('SELECT id FROM gx_num WHERE ' || q)
FROM (VALUES
    ('i4 = ANY ((SELECT array_agg(g) FROM generate_series(1, 100, 3) g)::int4[])'),
    ('i4 = ANY ((SELECT array_agg(g) FROM generate_series(-1000, 1000, 3) g)::int4[])'),
    ('i4 <> ALL ((SELECT array_agg(g) FROM generate_series(-1000, 1000, 3) g)::int4[])')
) v(q);
SELECT args, gx_check_exec('n', args)
FROM (VALUES ('(''{0.0625, NaN}'', ''{2020-01-04, 2021-06-15}'')'),
             ('(''{NULL}'', ''{2020-01-04}'')'), ('(''{}'', ''{}'')'),
             ('(NULL, ''{infinity, -infinity}'')')) v(args);
SET gpuext.force = on;
SELECT gx_explain('EXECUTE a_on(''{1, 2}'')');
-- a device aggregate never takes a program that may run on the host
SELECT gx_explain('SELECT count(*) FROM gx_num WHERE i4 = ANY (''{1, 2, 3}'')');
-- an array Param is a big set, filled at scan start, never on the host:
-- a device aggregate takes it
PREPARE g_on(int4[]) AS SELECT count(*) FROM gx_num WHERE i4 = ANY ($1);
SELECT gx_explain('EXECUTE g_on(''{1, 2}'')');
RESET gpuext.force;
RESET plan_cache_mode;
DEALLOCATE ALL;

DROP FUNCTION gx_tz_checks();
DROP TABLE gx_dt;
