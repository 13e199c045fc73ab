--
-- chunks: empty tables, tables of many chunks, row order, tuple layouts
-- (NULLs, variable-width columns before fixed ones, dropped and added
-- columns, TOASTed values in other columns), backend deforming, mapped
-- transfer, cancel between chunks
--

-- empty tables, and a table whose every row is deleted
CREATE TABLE gx_empty (a int4, b float8);
SELECT gx_check('SELECT * FROM gx_empty WHERE a > 0');
INSERT INTO gx_empty SELECT g, g FROM generate_series(1, 1000) g;
DELETE FROM gx_empty;
SELECT gx_check('SELECT * FROM gx_empty WHERE a > 0 OR a IS NULL');
VACUUM gx_empty;
SELECT gx_check('SELECT * FROM gx_empty WHERE b < 0');

-- many chunks: 200000 rows, at the smallest and at the default chunk size
CREATE TABLE gx_big (id int4, k int8, u float8, v float4, flag bool);
INSERT INTO gx_big
SELECT g, g::int8 * 7919 % 1000003, (g * 37 % 20001) / 100.0 - 100, (g % 1001) / 10.0 - 50,
       CASE WHEN g % 5 = 0 THEN NULL ELSE g % 2 = 0 END
FROM generate_series(1, 200000) g;
ANALYZE gx_big;
SET gpuext.chunk_rows = 1024;
SELECT q, gx_check('SELECT id FROM gx_big WHERE ' || q)
FROM (VALUES ('u > 99.5'), ('k % 1000 = 7'), ('v BETWEEN -0.5 AND 0.5 AND flag'),
             ('flag IS NULL AND u < -99'), ('id % 1024 = 0'), ('id > 0')) v(q);
SET gpuext.force = on;
SELECT gx_explain('SELECT id FROM gx_big WHERE id % 1024 = 0', 'ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF');
RESET gpuext.force;
RESET gpuext.chunk_rows;
SELECT q, gx_check('SELECT id FROM gx_big WHERE ' || q)
FROM (VALUES ('u > 99.5'), ('id % 65536 = 0'), ('id > 0')) v(q);
SET gpuext.force = on;
SELECT gx_explain('SELECT id FROM gx_big WHERE id % 1024 = 0', 'ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF');
RESET gpuext.force;

-- rows come back in heap order, like a sequential scan (no ORDER BY)
SET gpuext.force = on;
SET gpuext.chunk_rows = 1024;
SELECT array_agg(id) = array_agg(id ORDER BY id) AS in_heap_order, count(*)
FROM (SELECT id FROM gx_big WHERE id % 997 = 0) s;
SELECT id FROM gx_big WHERE k < 40 LIMIT 5;
RESET gpuext.chunk_rows;
RESET gpuext.force;
SELECT id FROM gx_big WHERE k < 40 LIMIT 5;

-- a LIMIT stops the scan early
SELECT gx_check('SELECT id FROM gx_big WHERE u > 0 LIMIT 10');

-- layouts: variable-width columns before the filtered ones, NULLs spread
-- over the row, wide TOASTed text in a column the device does not read
CREATE TABLE gx_layout (t1 text, a int2, t2 varchar(20), b int8, c float4, big text, d date, e float8);
INSERT INTO gx_layout
SELECT CASE WHEN g % 3 = 0 THEN NULL ELSE repeat('x', g % 50) END,
       CASE WHEN g % 4 = 0 THEN NULL ELSE g % 300 END,
       'v' || g,
       CASE WHEN g % 6 = 0 THEN NULL ELSE g * 1000 END,
       g / 3.0,
       CASE WHEN g % 100 = 0 THEN repeat(md5(g::text), 400) END,
       date '2000-01-01' + g,
       CASE WHEN g % 7 = 0 THEN NULL ELSE g * 0.25 END
FROM generate_series(1, 5000) g;
SELECT q, gx_check('SELECT a, b, d, length(big) FROM gx_layout WHERE ' || q)
FROM (VALUES ('a > 250'), ('b % 7000 = 0'), ('c < 10'), ('e > 1200 AND a IS NULL'),
             ('d > ''2013-01-01'''), ('big IS NOT NULL AND b > 0'), ('a < 5 OR e IS NULL')) v(q);

-- dropped columns, and columns added later (missing in old tuples)
ALTER TABLE gx_layout DROP COLUMN t2;
ALTER TABLE gx_layout ADD COLUMN f int4 DEFAULT 42;
ALTER TABLE gx_layout ADD COLUMN g float8;
INSERT INTO gx_layout (a, b, c, d, e, f, g) VALUES (1, 2, 3, '2001-01-01', 5, 6, 7), (1, 2, 3, NULL, NULL, NULL, 8);
SELECT q, gx_check('SELECT a, f, g FROM gx_layout WHERE ' || q)
FROM (VALUES ('f = 42'), ('f <> 42'), ('f IS NULL'), ('g IS NOT NULL'), ('g > 7'),
             ('a > 290 AND f > 0'), ('b > 4000000 AND g IS NULL')) v(q);

-- every varlena form before the filtered columns: NULL, short (1-byte
-- header), long (4-byte header), compressed inline, external TOAST pointer;
-- and a fixed-width name column
CREATE TABLE gx_varlena (id int4, t text, a int8, n name, u text, b float8);
INSERT INTO gx_varlena
SELECT g,
       CASE g % 5 WHEN 0 THEN NULL WHEN 1 THEN 'x' || g
            WHEN 2 THEN (SELECT string_agg(md5(g::text || i), '') FROM generate_series(1, 5) i)
            WHEN 3 THEN (SELECT string_agg(md5(g::text || i), '') FROM generate_series(1, 100) i)
            ELSE repeat('ab', 3000) END,
       CASE WHEN g % 11 = 0 THEN NULL ELSE g * 3 END,
       'n' || g,
       CASE g % 3 WHEN 0 THEN (SELECT string_agg(md5(i::text || g), '') FROM generate_series(1, 80) i)
            WHEN 1 THEN NULL ELSE 'short' END,
       g / 7.0
FROM generate_series(1, 3000) g;
SELECT count(*) FILTER (WHERE pg_column_compression(t) IS NOT NULL) AS compressed_t,
       count(*) FILTER (WHERE octet_length(t) BETWEEN 127 AND 2000) AS long_t
FROM gx_varlena;
CREATE FUNCTION gx_external_values(rel regclass) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    n bigint;
BEGIN
    EXECUTE format('SELECT count(DISTINCT chunk_id) FROM %s',
                   (SELECT reltoastrelid::regclass FROM pg_class WHERE oid = rel)) INTO n;
    RETURN n;
END $$;
SELECT gx_external_values('gx_varlena');
SELECT q, gx_check('SELECT id, a, b, length(t), length(u) FROM gx_varlena WHERE ' || q)
FROM (VALUES ('a % 7 = 1'), ('b > 300 AND a IS NOT NULL'), ('a IS NULL OR b < 1'),
             ('id % 5 = 3 AND a > 6000'), ('id % 5 = 4 AND b > 200')) v(q);

-- the same checks with the backend deforming (gpuext.device_deform = off)
SET gpuext.device_deform = off;
SELECT q, gx_check('SELECT id, a, b FROM gx_varlena WHERE ' || q)
FROM (VALUES ('a % 7 = 1'), ('b > 300 AND a IS NOT NULL')) v(q);
SELECT q, gx_check('SELECT a, b, d FROM gx_layout WHERE ' || q)
FROM (VALUES ('a > 250'), ('e > 1200 AND a IS NULL'), ('f = 42'), ('g > 7')) v(q);
SELECT q, gx_check('SELECT id FROM gx_big WHERE ' || q)
FROM (VALUES ('u > 99.5'), ('flag IS NULL AND u < -99')) v(q);
SET gpuext.force = on;
SELECT gx_explain('SELECT id FROM gx_varlena WHERE a % 7 = 1', 'ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF');
RESET gpuext.force;
RESET gpuext.device_deform;

-- the same checks with mapped transfer (gpuext.transfer = mapped: the GPU
-- reads the chunks and writes the results in the staging area, no copy;
-- the CPU device ignores it): many chunks, an error in a middle chunk and
-- the rows before it, both deform modes
SET gpuext.transfer = mapped;
SET gpuext.chunk_rows = 1024;
SELECT q, gx_check('SELECT id FROM gx_big WHERE ' || q)
FROM (VALUES ('u > 99.5'), ('k % 1000 = 7'), ('v BETWEEN -0.5 AND 0.5 AND flag'),
             ('flag IS NULL AND u < -99'), ('id > 0')) v(q);
SELECT gx_error('SELECT id FROM gx_big WHERE id * 100000 > 0');
SELECT gx_check('SELECT id FROM gx_big WHERE id * 100000 > 0 LIMIT 20000');
RESET gpuext.chunk_rows;
SELECT gx_check('SELECT id FROM gx_big WHERE u > 0 LIMIT 10');
SELECT q, gx_check('SELECT id, a, b, length(t), length(u) FROM gx_varlena WHERE ' || q)
FROM (VALUES ('a % 7 = 1'), ('b > 300 AND a IS NOT NULL'), ('a IS NULL OR b < 1')) v(q);
SELECT q, gx_check('SELECT a, f, g FROM gx_layout WHERE ' || q)
FROM (VALUES ('f = 42'), ('g IS NOT NULL'), ('a > 290 AND f > 0')) v(q);
SET gpuext.device_deform = off;
SELECT q, gx_check('SELECT id FROM gx_big WHERE ' || q)
FROM (VALUES ('u > 99.5'), ('flag IS NULL AND u < -99')) v(q);
SELECT gx_error('SELECT id FROM gx_big WHERE id * 100000 > 0');
SELECT q, gx_check('SELECT a, b, d FROM gx_layout WHERE ' || q)
FROM (VALUES ('e > 1200 AND a IS NULL'), ('g > 7')) v(q);
RESET gpuext.device_deform;
SET gpuext.force = on;
SELECT gx_explain('SELECT id FROM gx_big WHERE id % 1024 = 0', 'ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF');
RESET gpuext.force;
RESET gpuext.transfer;

-- a table of many columns, filtering on the last ones
SELECT format('CREATE TABLE gx_wide (%s)',
              string_agg(format('c%s int4', i), ', ' ORDER BY i)) FROM generate_series(1, 100) i \gexec
INSERT INTO gx_wide (c1, c50, c99, c100) SELECT g, g % 10, g % 13, g FROM generate_series(1, 3000) g;
SELECT gx_check('SELECT c1 FROM gx_wide WHERE c99 = 3 AND c100 > 1500 AND c50 IS NOT NULL AND c2 IS NULL');

-- updated rows (HOT and not), after VACUUM
UPDATE gx_big SET u = -u WHERE id % 100 = 0;
UPDATE gx_big SET k = k + 1 WHERE id % 333 = 0;
DELETE FROM gx_big WHERE id % 7 = 0;
SELECT gx_check('SELECT id, u FROM gx_big WHERE u > 99 OR k % 1000 = 8');
VACUUM gx_big;
SELECT gx_check('SELECT id, u FROM gx_big WHERE u > 99 OR k % 1000 = 8');

-- cancel: statement_timeout interrupts a long GpuScan between chunks, and
-- the session goes on
SET gpuext.force = on;
SET gpuext.chunk_rows = 1024;
SET statement_timeout = '100ms';
SELECT count(*) FROM generate_series(1, 1000000) s WHERE (SELECT count(*) FROM gx_big WHERE u > 1000 + s) > 0;
RESET statement_timeout;
SELECT count(*) FROM gx_big WHERE u > 0;
RESET ALL;
