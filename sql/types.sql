--
-- types: every device type and operator, NULLs and three-valued logic,
-- each query differential (gpuext off vs GpuScan on every device)
--

-- integer comparisons, same type and cross type, against constants and columns
SELECT q, gx_check('SELECT id, ' || c || ' AS c FROM gx_num WHERE ' || q)
FROM (VALUES
    ('i2 = 5', 'i2'), ('i2 <> 5', 'i2'), ('i2 < 10', 'i2'), ('i2 <= -3', 'i2'),
    ('i2 > 50', 'i2'), ('i2 >= 99', 'i2'),
    ('i4 = 17', 'i4'), ('i4 <> 0', 'i4'), ('i4 < -500', 'i4'), ('i4 <= 3', 'i4'),
    ('i4 > 999', 'i4'), ('i4 >= 0', 'i4'),
    ('i8 = -92081', 'i8'), ('i8 <> -92081', 'i8'), ('i8 < -99000', 'i8'), ('i8 <= 0', 'i8'),
    ('i8 > 50000', 'i8'), ('i8 >= 99000', 'i8'),
    ('i2 = 5::int4', 'i2'), ('i2 < 7::int8', 'i2'), ('i4 > 30::int2', 'i4'),
    ('i4 <= 12::int8', 'i4'), ('i8 = 3::int2', 'i8'), ('i8 >= 900::int4', 'i8'),
    ('i2 = i4', 'i2'), ('i4 < i2', 'i4'), ('i8 > i4', 'i8'), ('i2 <> i8', 'i2'),
    ('i8 <= i2', 'i8'), ('i4 >= i8', 'i4'),
    ('i4 > 3000000000', 'i4'), ('i2 < -40000', 'i2')
) v(q, c);

-- float comparisons, NaN (equal to itself, above everything), infinities, -0
SELECT q, gx_check('SELECT id, f4, f8 FROM gx_num WHERE ' || q)
FROM (VALUES
    ('f4 = 12.5'), ('f4 <> 12.5'), ('f4 < -100'), ('f4 <= 0'), ('f4 > 120'), ('f4 >= 124.875'),
    ('f8 = 0.0625'), ('f8 <> 0'), ('f8 < -60'), ('f8 <= -62.4375'), ('f8 > 62'), ('f8 >= 0'),
    ('f4 = ''NaN'''), ('f8 = ''NaN'''), ('f8 > ''Infinity'''), ('f8 >= ''NaN'''),
    ('f4 < ''-Infinity'''), ('f4 <= ''-Infinity'''), ('f8 = ''Infinity'''),
    ('f8 = 0'), ('f4 = ''-0'''), ('f8 < 0'),
    ('f4 = 0.1'), ('f4 = 0.1::float4'), ('f4 > 0.1'), ('f8 < 0.1::float4'),
    ('f4 < f8'), ('f8 = f4'), ('f4 >= f8'), ('f8 <> f4'),
    ('f8 > i4'), ('i2 < f4'), ('f8 = i8'), ('f4 > 2.5::float8')
) v(q);

-- arithmetic on every numeric type, mixed types and unary minus
SELECT q, gx_check('SELECT id FROM gx_num WHERE ' || q)
FROM (VALUES
    ('i2 + i2 > 50'), ('i2 - 3 < 0'), ('i2 * 3 = 21'), ('i2 / 7 = 2'), ('i2 % 7 = 3'),
    ('i2 % -7 = -3'), ('-i2 > 90'),
    ('i4 + 1000 > 1990'), ('i4 - i2 = 0'), ('i4 * i4 < 100'), ('i4 / 3 = -100'),
    ('i4 % 10 = -4'), ('-i4 = 333'), ('i4 / -7 > 100'),
    ('i8 + i4 > 0'), ('i8 - 1 = -92082'), ('i8 * 2 > 150000'), ('i8 / 1000 = 7'),
    ('i8 % 1000 = 0'), ('-i8 < -99990'), ('i8 * i2 < 0'),
    ('i2 + i8 > 99000'), ('i4 * i8 > 1000000'), ('i8 / (i2 + 200) = 500'), ('i2 - i4 = 0'),
    ('f4 + 0.5 > 10'), ('f4 - f4 = 0'), ('f4 * 2 > 200'), ('f4 / 4 < -20'), ('-f4 > 100'),
    ('f8 + f4 > 150'), ('f8 - 1 = 0'), ('f8 * f8 < 1'), ('f8 / 3 > 20'), ('-f8 = 0.0625'),
    ('f8 / 0.1 > 600'), ('f8 * 0.1 < -6'), ('f4 + f8 * 2 > 0'),
    ('i4 * 2 + i2 * 3 - i8 / 1000 > 17'), ('(i4 + i2) * (i4 - i2) > 1000'),
    ('i4 + 0.5 > 100'), ('i8 * 1.5 < -140000'), ('f8 + i2 > 120'), ('i2 / 2.0 > 40')
) v(q);

-- casts among int2, int4, int8, float4 and float8
SELECT q, gx_check('SELECT id FROM gx_num WHERE ' || q)
FROM (VALUES
    ('i4::int2 = 12'), ('i8::int4 > 99000'), ('(i8 / 10)::int2 = 0'), ('i2::int8 = 5'),
    ('i4::int8 * 100000 > 99000000'), ('i2::float4 = 3'), ('i4::float8 / 3 > 300'),
    ('i8::float4 < -99000'), ('i8::float8 = -92081'),
    ('f8 BETWEEN -1e6 AND 1e6 AND f8::int4 = 3'), ('f8 BETWEEN -1e6 AND 1e6 AND f8::int2 = -60'), ('f8 BETWEEN -1e6 AND 1e6 AND f8::int8 > 62'), ('f4 BETWEEN -1e6 AND 1e6 AND f4::int4 = 12'),
    ('f4 BETWEEN -1e6 AND 1e6 AND f4::int2 < -124'), ('f4 BETWEEN -1e6 AND 1e6 AND f4::int8 = 0'), ('f4::float8 = 12.5'), ('f8::float4 = 0.0625'),
    ('f8::float4 > f4'), ('f8 BETWEEN -1e6 AND 1e6 AND (f8 * 10)::int4 % 10 = 5'), ('f4 BETWEEN -1e6 AND 1e6 AND (f4 * 4)::int2 = 2'),
    ('i4::float4::int4 <> i4')
) v(q);

-- bool: as a qual, NOT, comparisons and boolean tests
SELECT q, gx_check('SELECT id, b FROM gx_num WHERE ' || q)
FROM (VALUES
    ('b'), ('NOT b'), ('b = true'), ('b = false'), ('b <> true'), ('b < true'), ('b >= false'),
    ('b IS TRUE'), ('b IS NOT TRUE'), ('b IS FALSE'), ('b IS NOT FALSE'),
    ('b IS UNKNOWN'), ('b IS NOT UNKNOWN'), ('b = (i4 > 0)'), ('(i2 > 0) IS TRUE'),
    ('(i2 > 0) IS NOT FALSE'), ('(f8 > 0) IS UNKNOWN')
) v(q);

-- date, timestamp and timestamptz comparisons, including infinities
SELECT q, gx_check('SELECT id, d, ts, tz FROM gx_num WHERE ' || q)
FROM (VALUES
    ('d = ''2021-06-15'''), ('d <> ''2021-06-15'''), ('d < ''2020-03-01'''),
    ('d <= ''2020-01-01'''), ('d > ''2024-01-01'''), ('d >= ''infinity'''),
    ('d < ''-infinity'''), ('d <= ''-infinity'''), ('d BETWEEN ''2021-01-01'' AND ''2021-01-31'''),
    ('d IN (''2020-01-04'', ''2021-06-15'', ''2023-02-02'')'),
    ('ts = ''2021-06-15 12:00'''), ('ts < ''2020-01-02'''), ('ts >= ''2020-02-15 06:30'''),
    ('ts > ''infinity'''), ('ts <= ''-infinity'''), ('ts <> ''2020-01-05 00:00''::timestamp'),
    ('tz = ''2021-06-15 12:00+00'''), ('tz < ''2020-01-01 06:00+00'''),
    ('tz >= ''2020-01-12 00:00:00-08'''), ('tz > ''infinity'''), ('tz = ''-infinity'''),
    ('d > ''2021-01-01'' AND ts < ''2020-02-01'''), ('tz <> ''2020-01-03 00:00+00'' OR d IS NULL')
) v(q);

-- NULL tests on every type
SELECT q, gx_check('SELECT id FROM gx_num WHERE ' || q)
FROM (VALUES
    ('i2 IS NULL'), ('i4 IS NULL'), ('i8 IS NOT NULL'), ('f4 IS NULL'), ('f8 IS NOT NULL'),
    ('b IS NULL'), ('d IS NULL'), ('ts IS NOT NULL'), ('tz IS NULL'),
    ('(i4 + i2) IS NULL'), ('(f8 * 2) IS NOT NULL'), ('NOT (i4 IS NULL)'),
    ('i4 IS NULL AND i8 IS NULL'), ('i4 IS NULL OR f4 IS NULL OR d IS NULL')
) v(q);

-- AND, OR, NOT with NULLs: PostgreSQL's three-valued logic
SELECT q, gx_check('SELECT id FROM gx_num WHERE ' || q)
FROM (VALUES
    ('i4 > 0 AND f8 < 0'), ('i4 > 0 OR f8 < 0'), ('NOT (i4 > 0 AND f8 < 0)'),
    ('NOT (i4 > 0 OR f8 < 0)'), ('(i4 > 0 OR i8 IS NULL) AND NOT b'),
    ('NOT (NOT (i2 > 0))'), ('(i2 > 0 AND i4 > 0) OR (i8 < 0 AND f4 < 0)'),
    ('(i2 > 0 OR i4 > 0) AND (i8 < 0 OR f4 < 0) AND (b OR d > ''2021-01-01'')'),
    ('NOT ((i2 > 0) = (i4 > 0))'), ('(i4 > 0 AND f8 < 0) IS NOT TRUE'),
    ('(i4 > 0 OR f8 < 0) IS UNKNOWN'), ('NOT (b AND i2 IS NULL)'),
    ('i4 > 0 AND i4 > 10 AND i4 > 100 AND i4 > 900'), ('i4 < -990 OR i4 > 990 OR i2 = 0 OR b IS NULL')
) v(q);

-- BETWEEN, IN, = ANY, <> ALL with constant lists, with NULL elements too
SELECT q, gx_check('SELECT id FROM gx_num WHERE ' || q)
FROM (VALUES
    ('i4 BETWEEN -10 AND 10'), ('i4 NOT BETWEEN -990 AND 990'), ('f8 BETWEEN -1 AND 1'),
    ('i2 BETWEEN SYMMETRIC 10 AND -10'), ('i8 BETWEEN i4 AND 1000'),
    ('i4 IN (1, 2, 3, 5, 8, 13, 21, 34, 55, 89)'), ('i4 NOT IN (1, 2, 3)'),
    ('i4 NOT IN (1, 2, NULL)'), ('i4 IN (1, NULL)'), ('i2 IN (5::int8, 7::int8)'),
    ('i8 = ANY (''{-92081, -100000, 99999}'')'), ('f8 = ANY (ARRAY[0.0625, NULL, ''NaN''])'),
    ('f4 IN (12.5, -0.125, ''Infinity'')'), ('i4 <> ALL (ARRAY[1, 2, 3])'),
    ('i4 > ANY (ARRAY[990, 995])'), ('i4 < ALL (ARRAY[-990, -995])'),
    ('i2 = ANY (ARRAY[]::int2[])'), ('i2 <> ALL (ARRAY[]::int2[])'),
    ('d = ANY (ARRAY[date ''2020-01-04'', date ''2021-06-15''])'),
    ('b IN (true)'), ('i4 + 1 IN (2, 3, 4)')
) v(q);

-- quals the device cannot run stay on the host, on the same node
SELECT q, gx_check('SELECT id FROM gx_num WHERE ' || q)
FROM (VALUES
    ('i4 > 0 AND t LIKE ''r1%'''), ('t LIKE ''r2%'' AND f8 < 0'),
    ('i4 > 0 OR t = ''r5'''), ('abs(i4) < 10 AND i2 > 0'), ('i4 > 0 AND random() >= 0'),
    ('i4::numeric / 2 > 250.25 AND i2 < 0'), ('d > now() - interval ''100 years'' AND i4 = 1')
) v(q);
