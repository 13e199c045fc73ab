--
-- datetime_expr: extract(field from x) / date_part('field', x) and
-- date_trunc('field', x) over date and timestamp columns on the device
-- (quals and GROUP BY keys): NULLs, infinities (the host evaluates those
-- rows), BC dates, leap days, month and year ends, the ends of the ranges;
-- each query differential (gpuext off vs GpuScan / GpuPreAgg on every
-- device)
--
SET max_parallel_workers_per_gather = 0;
CREATE TABLE gx_dx (id int4, d date, ts timestamp, tz timestamptz);
-- every day of 1999 .. 2001 and of 1 BC .. 1 AD, a stride over 4712 BC ..
-- 9999 AD, timestamps at odd microseconds
INSERT INTO gx_dx
SELECT g, date '1999-01-01' + g,
       timestamp '1999-01-01' + g * interval '1 day 1 hour 1 minute 1.000001 second',
       timestamptz '2024-01-01 00:00+00' + g * interval '1 hour'
FROM generate_series(0, 1100) g;
INSERT INTO gx_dx
SELECT 2000 + g, date '0002-01-01 BC' + g,
       timestamp '0002-01-01 00:00 BC' + g * interval '23 hours 59 minutes 59.999999 seconds',
       NULL
FROM generate_series(0, 1100) g;
INSERT INTO gx_dx
SELECT 4000 + g, date '4712-01-01 BC' + g * 2999,
       timestamp '4712-01-01 BC' + g * interval '2999 days 13 hours 7 minutes 3.5 seconds',
       NULL
FROM generate_series(0, 5200) g;
-- leap days, month and year ends, NULLs, infinities, the ends of the ranges
INSERT INTO gx_dx VALUES
    (10001, '2000-02-29', '2000-02-29 23:59:59.999999', NULL),
    (10002, '1900-02-28', '1900-03-01 00:00', NULL),
    (10003, '2024-02-29', '2024-02-29 12:00', NULL),
    (10004, '2023-12-31', '2023-12-31 23:59:59.999999', NULL),
    (10005, '2024-01-01', '2024-01-01 00:00', NULL),
    (10006, '0001-01-01', '0001-01-01 00:00', NULL),
    (10007, '0001-12-31 BC', '0001-12-31 23:59:59.999999 BC', NULL),
    (10008, '0005-02-29 BC', '0005-02-29 06:00 BC', NULL),
    (10009, NULL, NULL, NULL),
    (10010, 'infinity', 'infinity', NULL),
    (10011, '-infinity', '-infinity', NULL),
    (10012, '4713-11-24 BC', '4713-11-24 00:00 BC', NULL),
    (10013, '4713-11-30 BC', '4713-11-30 10:00 BC', NULL),
    (10014, '294276-12-31', '294276-12-31 23:59:59.999999', NULL),
    (10015, '294277-01-01', '294276-12-31 00:00', NULL),
    (10016, '5874897-12-31', '1970-01-01 00:00', NULL),
    (10017, '1969-12-31', '1969-12-31 23:59:59.5', NULL);
ANALYZE gx_dx;

-- extract (numeric) over a date: quals
SELECT q, gx_check('SELECT id FROM gx_dx WHERE ' || q)
FROM (VALUES
    ('extract(year from d) = 2000'), ('extract(year from d) = -1'), ('extract(year from d) < -4000'),
    ('extract(month from d) = 2'), ('extract(day from d) = 29'), ('extract(day from d) = 31'),
    ('extract(quarter from d) = 4'), ('extract(dow from d) = 0'), ('extract(isodow from d) = 7'),
    ('extract(doy from d) = 366'), ('extract(doy from d) = 60'), ('extract(epoch from d) < 0'),
    ('extract(epoch from d) = 951782400'), ('EXTRACT(YEARS FROM d) = 2001'),
    ('extract(month from d) = 2 AND extract(day from d) = 29'),
    ('extract(year from d) = 2000 OR extract(dow from d) IS NULL')
) v(q);

-- extract over a timestamp: quals, second and epoch at scale 6
SELECT q, gx_check('SELECT id FROM gx_dx WHERE ' || q)
FROM (VALUES
    ('extract(year from ts) = 2000'), ('extract(year from ts) = -1'), ('extract(month from ts) = 12'),
    ('extract(day from ts) = 31'), ('extract(quarter from ts) = 1'), ('extract(dow from ts) = 6'),
    ('extract(isodow from ts) = 1'), ('extract(doy from ts) = 366'), ('extract(hour from ts) = 23'),
    ('extract(minute from ts) = 59'), ('extract(second from ts) > 59.5'),
    ('extract(second from ts) = 3.5'), ('extract(epoch from ts) < 0'),
    ('extract(epoch from ts) = -0.5'), ('extract(epoch from ts) > 1e10'),
    ('extract(hour from ts) + extract(minute from ts) > 70')
) v(q);

-- date_part (float8) over a timestamp and a date (date_part(text, d::timestamp))
SELECT q, gx_check('SELECT id FROM gx_dx WHERE ' || q)
FROM (VALUES
    ('date_part(''year'', ts) = 2000'), ('date_part(''year'', ts) < 0'),
    ('date_part(''month'', ts) = 2'), ('date_part(''second'', ts) > 59.999'),
    ('date_part(''second'', ts) = 3.5'), ('date_part(''epoch'', ts) < -1e11'),
    ('date_part(''epoch'', ts) = -0.5'), ('date_part(''doy'', ts) = 60')
) v(q);
-- a date past the last timestamp raises (the host evaluates that row)
SELECT gx_check('SELECT id FROM gx_dx WHERE date_part(''year'', d) = 2000');
SELECT gx_check('SELECT id FROM gx_dx WHERE d::timestamp > timestamp ''2000-01-01''');
DELETE FROM gx_dx WHERE id IN (10015, 10016);
SELECT q, gx_check('SELECT id FROM gx_dx WHERE ' || q)
FROM (VALUES
    ('date_part(''year'', d) = 2000'), ('date_part(''dow'', d) = 3'),
    ('date_part(''epoch'', d) > 9e12'), ('date_part(''day'', d) = 29'),
    ('date_part(''year'', d) < -4000'), ('date_part(''doy'', d) = 366'),
    ('d::timestamp < timestamp ''0001-01-01'''), ('d::timestamp >= timestamp ''infinity''')
) v(q);

-- date_trunc over a timestamp
SELECT q, gx_check('SELECT id FROM gx_dx WHERE ' || q)
FROM (VALUES
    ('date_trunc(''year'', ts) = timestamp ''2000-01-01'''),
    ('date_trunc(''quarter'', ts) = timestamp ''2000-10-01'''),
    ('date_trunc(''month'', ts) = timestamp ''2000-02-01'''),
    ('date_trunc(''month'', ts) < timestamp ''4700-01-01 BC'''),
    ('date_trunc(''day'', ts) = timestamp ''2000-02-29'''),
    ('date_trunc(''hour'', ts) = ts'), ('date_trunc(''minute'', ts) = ts'),
    ('date_trunc(''second'', ts) <> ts'),
    ('date_trunc(''day'', ts) = d'),
    ('date_trunc(''month'', ts) >= timestamp ''infinity''')
) v(q);

-- GROUP BY keys (GpuPreAgg): numeric and timestamp keys
SET gpuext.force = on;
SELECT q, gx_device_node(q), gx_check(q)
FROM (VALUES
    ('SELECT extract(year from d) AS y, count(*) FROM gx_dx GROUP BY 1'),
    ('SELECT extract(month from d), extract(dow from d), count(*) FROM gx_dx GROUP BY 1, 2'),
    ('SELECT extract(doy from d), count(*), min(id) FROM gx_dx GROUP BY 1'),
    ('SELECT extract(quarter from ts), extract(hour from ts), count(*) FROM gx_dx GROUP BY 1, 2'),
    ('SELECT extract(second from ts), count(*) FROM gx_dx GROUP BY 1'),
    ('SELECT extract(epoch from d), count(*) FROM gx_dx GROUP BY 1'),
    ('SELECT extract(epoch from ts), count(*) FROM gx_dx WHERE id % 7 = 0 GROUP BY 1'),
    ('SELECT date_part(''year'', ts), count(*) FROM gx_dx GROUP BY 1'),
    ('SELECT date_trunc(''month'', ts), count(*) FROM gx_dx GROUP BY 1'),
    ('SELECT date_trunc(''year'', ts), sum(id) FROM gx_dx WHERE extract(isodow from ts) < 6 GROUP BY 1'),
    ('SELECT date_trunc(''hour'', ts), count(*) FROM gx_dx WHERE id < 3000 GROUP BY 1')
) v(q);

-- what stays on the host: timestamptz (the session's TimeZone), date_trunc
-- of a date (a cast to timestamptz), fields the device does not compute
SELECT q, gx_device_node(q), gx_check(q)
FROM (VALUES
    ('SELECT id FROM gx_dx WHERE extract(year from tz) = 2024'),
    ('SELECT id FROM gx_dx WHERE date_trunc(''month'', d) = timestamptz ''2000-02-01'''),
    ('SELECT id FROM gx_dx WHERE extract(week from d) = 1'),
    ('SELECT id FROM gx_dx WHERE extract(century from ts) = 20'),
    ('SELECT id FROM gx_dx WHERE date_trunc(''week'', ts) = timestamp ''2000-01-03''')
) v(q);
RESET gpuext.force;

-- plans
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT id FROM gx_dx WHERE extract(year from d) = 2000 AND date_trunc(''month'', ts) = timestamp ''2000-02-01''');
SELECT * FROM gx_explain('SELECT id FROM gx_dx WHERE date_part(''dow'', d) = 3');
SELECT * FROM gx_explain('SELECT extract(year from d), count(*) FROM gx_dx GROUP BY 1');
SELECT * FROM gx_explain('SELECT date_trunc(''month'', ts), count(*) FROM gx_dx WHERE extract(hour from ts) > 6 GROUP BY 1');
RESET gpuext.force;

DROP TABLE gx_dx;
RESET max_parallel_workers_per_gather;
