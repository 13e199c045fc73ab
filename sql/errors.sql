--
-- errors: overflow, division by zero and float range errors are raised by
-- the device path exactly where PostgreSQL raises them (same SQLSTATE and
-- message, only for rows PostgreSQL reaches), and not otherwise
--

CREATE TABLE gx_edge (id int4, i2 int2, i4 int4, i8 int8, f4 float4, f8 float8, z int4);
INSERT INTO gx_edge VALUES
    (1, 1, 1, 1, 1, 1, 1),
    (2, 2, 2, 2, 2, 2, 2),
    (3, 32767, 2147483647, 9223372036854775807, 3e38, 1e308, 0),
    (4, -32768, -2147483648, -9223372036854775808, -3e38, -1e308, 4),
    (5, NULL, NULL, NULL, NULL, NULL, NULL),
    (6, 0, 0, 0, 'NaN', 'NaN', 0),
    (7, 3, 3, 3, 1e-38, 1e-300, 7);
ANALYZE gx_edge;

-- integer overflow (22003) in every width and operator
SELECT q, gx_error('SELECT id FROM gx_edge WHERE ' || q)
FROM (VALUES
    ('i2 + i2 > 0'), ('i2 - 1 < 0'), ('i2 * 2 > 0'), ('-i2 > 0'), ('i2 / -1 > 0'),
    ('i4 + 1 > 0'), ('i4 - 1 < 0'), ('i4 * 2 > 0'), ('-i4 > 0'), ('i4 / -1 > 0'),
    ('i8 + 1 > 0'), ('i8 - 1 < 0'), ('i8 * 2 > 0'), ('-i8 > 0'), ('i8 / -1 > 0'),
    ('i4 + i2 > 0'), ('i8 * i4 > 0'), ('i2 % -1 = 0'), ('i4 % -1 = 0'), ('i8 % -1 = 0'),
    ('i8 * i8 > 0'), ('i4 * 65536 > 0'), ('i2 + 32767::int2 > 0')
) v(q);

-- casts out of range (22003) and NaN to integer
SELECT q, gx_error('SELECT id FROM gx_edge WHERE ' || q)
FROM (VALUES
    ('i4::int2 > 0'), ('i8::int4 > 0'), ('i8::int2 > 0'), ('f8::int4 > 0'), ('f8::int8 > 0'),
    ('f4::int2 > 0'), ('f4::int4 > 0'), ('f4::int8 > 0'), ('f8::float4 > 0'),
    ('(f8 / 1e300)::int2 > 0'), ('f4::float8 > 0'), ('i8::float4 > 0'),
    ('(i2 * 0.5)::int2 = 0')
) v(q);

-- division by zero (22012), integer and float, / and %
SELECT q, gx_error('SELECT id FROM gx_edge WHERE ' || q)
FROM (VALUES
    ('i4 / z > 0'), ('i4 % z = 0'), ('i2 / (i2 - i2) > 0'), ('i8 % (i8 - i8) = 0'),
    ('f8 / (z - z) > 0'), ('f4 / 0 > 0'), ('i8 / 0::int2 = 0'), ('f8 / 0.0 > 0'),
    ('1 / (id - 5) > 0'), ('10 % (id - 3) = 1')
) v(q);

-- float overflow and underflow (22003) where PostgreSQL raises them
SELECT q, gx_error('SELECT id FROM gx_edge WHERE ' || q)
FROM (VALUES
    ('f8 * 10 > 0'), ('f8 + f8 > 0'), ('f8 - (-f8) > 0'), ('f8 / 1e-10 > 0'),
    ('f4 * 10 > 0'), ('f4 + f4 > 0'), ('f4 * f4 > 0'), ('f8 * 1e-300 > 0'),
    ('f4 * 1e-38::float4 >= 0'), ('f8 * f8 > 0'), ('f8 / 1e300 > 0'),
    ('f8 * ''Infinity'' > 0'), ('f4 + ''Infinity''::float4 > 0'), ('f8 - f8 = 0')
) v(q);

-- no error where PostgreSQL evaluates nothing that fails
SELECT q, gx_error('SELECT id FROM gx_edge WHERE ' || q)
FROM (VALUES
    ('z <> 0 AND 100 / z > 1'), ('id < 3 AND i4 * 2 > 0'), ('i4 < 100 AND i4 + 1 > 0'),
    ('i4 IS NULL OR i4 / z > 0'), ('id <> 3 AND i2 * 2 > 0'),
    ('id IN (1, 2, 7) AND i8 * 1000 > 0')
) v(q);

-- LIMIT: an error on a row after the limit is never raised,
-- one on a row before it is; rows before the error row come out first
SELECT q, gx_error(q)
FROM (VALUES
    ('SELECT id FROM gx_edge WHERE 100 / z > 0 LIMIT 2'),
    ('SELECT id FROM gx_edge WHERE 100 / z > 0 LIMIT 3'),
    ('SELECT id FROM gx_edge WHERE i4 + 1 > 0 LIMIT 2'),
    ('SELECT id FROM gx_edge WHERE i4 + 1 > 0 LIMIT 3'),
    ('SELECT id FROM gx_edge WHERE -i8 < 100 LIMIT 3'),
    ('SELECT id FROM gx_edge WHERE -i8 < 100 LIMIT 4'),
    ('SELECT id FROM gx_edge WHERE f8 * 10 > 0 LIMIT 2'),
    ('SELECT id FROM gx_edge WHERE f8 * 10 > 0 LIMIT 3'),
    ('SELECT id FROM gx_edge WHERE 100 / z > 0 OFFSET 1 LIMIT 1'),
    ('SELECT EXISTS (SELECT 1 FROM gx_edge WHERE i8 / z > 0)'),
    ('SELECT EXISTS (SELECT 1 FROM gx_edge WHERE i8 / z < 0)')
) v(q);

-- rows before the error row are returned first, then the error
BEGIN;
SET LOCAL gpuext.force = on;
DECLARE c CURSOR FOR SELECT id FROM gx_edge WHERE 100 / z > 0;
FETCH 1 FROM c;
FETCH 1 FROM c;
FETCH 1 FROM c;
ROLLBACK;

-- a host qual ordered before an erroring device-capable qual keeps the
-- erroring qual on the host too, so no error is raised for rows the host
-- qual rejects (z = 0 only where id is 3 or 6)
CREATE FUNCTION gx_not_3_6(int4) RETURNS bool LANGUAGE plpgsql IMMUTABLE COST 0.01
    AS $$ BEGIN RETURN $1 NOT IN (3, 6); END $$;
SET gpuext.force = on;
SELECT gx_explain('SELECT id FROM gx_edge WHERE gx_not_3_6(id) AND 100 / z > 0 AND i2 < 5');
RESET gpuext.force;
SELECT gx_error('SELECT id FROM gx_edge WHERE gx_not_3_6(id) AND 100 / z > 0 AND i2 < 5');
SELECT gx_error('SELECT id FROM gx_edge WHERE gx_not_3_6(id) AND i4 * 2 > 0');
SELECT gx_error('SELECT id FROM gx_edge WHERE gx_not_3_6(id + 1) AND 100 / z > 0');

-- the backend stays usable after device errors, and inside subtransactions
BEGIN;
SET LOCAL gpuext.force = on;
SAVEPOINT s1;
SELECT count(*) FROM gx_edge WHERE i4 * 2 > 0;
ROLLBACK TO SAVEPOINT s1;
SELECT count(*) FROM gx_edge WHERE id < 3 AND i4 * 2 > 0;
COMMIT;
SELECT gx_check('SELECT id FROM gx_edge WHERE z > 0');
