--
-- char8: bpchar(n) columns whose values take at most 8 bytes (n times the
-- encoding's longest character: n <= 2 in this UTF8 database) on the
-- device as GX_CHAR8 (the bytes without trailing spaces in an int64):
-- = <> IN lists, = ANY, column against column, Params, the backend's and
-- the device's deforming, a missing value, cached columns; longer
-- char(n), order comparisons and bpchar against text stay on the host;
-- each query differential (gpuext off vs GpuScan on every device)
--

SELECT getdatabaseencoding();

CREATE TABLE gx_c8 (
    id int4, f char(1), s char(1), c2 char(2), c3 char(3), c8 char(8), t text, i4 int4);
INSERT INTO gx_c8
SELECT g,
       CASE WHEN g % 17 = 0 THEN NULL ELSE (ARRAY['A', 'N', 'R', ' ', ''])[g % 5 + 1] END,
       CASE WHEN g % 19 = 0 THEN NULL ELSE (ARRAY['F', 'O'])[g % 2 + 1] END,
       CASE WHEN g % 23 = 0 THEN NULL
            ELSE (ARRAY['ab', 'a', 'a ', '', 'é', 'éé', '€€', '😀😀', 'zz', ' a'])[g % 10 + 1] END,
       CASE WHEN g % 29 = 0 THEN NULL ELSE (ARRAY['abc', 'ab', 'é€😀', '', 'x'])[g % 5 + 1] END,
       CASE WHEN g % 31 = 0 THEN NULL
            ELSE (ARRAY['abcdefgh', 'abc', 'a b', '', 'éééé', '12345678'])[g % 6 + 1] END,
       'r' || g,
       g % 7
FROM generate_series(1, 2000) g;
ANALYZE gx_c8;

-- char(1) and char(2): = <> against constants (trailing spaces ignored,
-- '' equals the space-only values), column against column, NULLs
SELECT q, gx_check('SELECT id FROM gx_c8 WHERE ' || q)
FROM (VALUES
    ('f = ''R'''), ('f <> ''R'''), ('''R'' = f'), ('f = ''R '''), ('f = '''''), ('f = '' '''),
    ('f <> '''''), ('f = ''x'''), ('f = s'), ('f <> s'), ('f = c2'), ('c2 = ''ab'''),
    ('c2 = ''a'''), ('c2 = ''a  '''), ('c2 = '' a'''), ('c2 = ''éé'''), ('c2 = ''é'''),
    ('c2 = ''€€'''), ('c2 = ''😀😀'''), ('c2 <> ''😀😀'''), ('c2 = ''abc'''), ('c2 = '''''),
    ('f IS NULL'), ('f IS NOT NULL AND f <> ''A'''), ('f = ''R'' OR s = ''F'''),
    ('f = ''R'' AND s = ''O'' AND i4 > 2'), ('NOT (f = ''N'')'), ('f = NULL::bpchar'),
    ('f = ''R'' COLLATE "C"'), ('c2 = ''ab'' COLLATE "POSIX"')
) v(q);

-- IN lists and = ANY / <> ALL over bpchar arrays (NULL elements, elements
-- no char(1) value equals)
SELECT q, gx_check('SELECT id FROM gx_c8 WHERE ' || q)
FROM (VALUES
    ('f IN (''A'', ''R'')'), ('f NOT IN (''A'', ''R'')'), ('f IN (''A'', NULL)'),
    ('f NOT IN (''A'', NULL)'), ('f = ANY (''{A,R}'')'), ('f = ANY (''{A,R}''::bpchar[])'),
    ('f <> ALL (''{A,R}''::bpchar[])'), ('f = ANY (''{}''::bpchar[])'),
    ('f = ANY (NULL::bpchar[])'), ('c2 IN (''ab'', ''a '', ''😀😀'', ''abcdefghijk'')'),
    ('f IN ('''', ''N'')'), ('s IN (''F'') AND f IN (''A'', ''N'', ''R'')')
) v(q);

-- host only: longer char(n) in UTF8, constants longer than 8 bytes, order
-- comparisons, bpchar against text, functions of bpchar
SELECT q, gx_check('SELECT id FROM gx_c8 WHERE ' || q)
FROM (VALUES
    ('c3 = ''ab'''), ('c3 IN (''abc'', ''x'')'), ('c8 = ''abcdefgh'''), ('c8 <> ''abc'''),
    ('c2 = ''abcdefghij'''), ('f < ''N'''), ('f >= s'), ('f = ''R''::text'), ('f::text = ''R'''),
    ('length(c2) = 2'), ('c2 LIKE ''a%'''), ('f = ''R'' AND c3 = ''abc''')
) v(q);

-- plans: char(1) and char(2) quals on the device, char(3) and char(8)
-- (up to 12 and 32 bytes in UTF8) on the host
SET gpuext.force = on;
SELECT gx_explain('SELECT id FROM gx_c8 WHERE f = ''R'' AND c2 <> ''ab''');
SELECT gx_explain('SELECT id FROM gx_c8 WHERE f IN (''A'', ''R'') OR f = s');
SELECT gx_explain('SELECT id FROM gx_c8 WHERE c3 = ''ab'' AND f = ''N''');
SELECT gx_explain('SELECT id FROM gx_c8 WHERE c8 = ''abc''');
SELECT gx_explain('SELECT id FROM gx_c8 WHERE f < ''N''');
SELECT gx_explain('SELECT id FROM gx_c8 WHERE c2 = ''abcdefghij''');
RESET gpuext.force;

-- the backend's deforming
SET gpuext.device_deform = off;
SELECT q, gx_check('SELECT id FROM gx_c8 WHERE ' || q)
FROM (VALUES ('f = ''R'''), ('c2 = ''😀😀'''), ('f IN (''A'', '''')'), ('f <> s')) v(q);
RESET gpuext.device_deform;

-- parallel scans
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET gpuext.enable_agg = off;
SET gpuext.enable_preagg = off;
SELECT gx_check('SELECT id FROM gx_c8 WHERE f IN (''A'', ''R'') AND c2 <> ''ab''');
SELECT gx_check('SELECT count(*) FROM gx_c8 WHERE f = ''N'' OR c2 = ''😀😀''');
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET gpuext.enable_agg;
RESET gpuext.enable_preagg;

-- a column added with a default: its missing value in the older tuples
ALTER TABLE gx_c8 ADD COLUMN m char(2) DEFAULT 'é';
INSERT INTO gx_c8 (id, f, m) VALUES (5000, 'R', 'x'), (5001, 'A', NULL);
SELECT q, gx_check('SELECT id FROM gx_c8 WHERE ' || q)
FROM (VALUES ('m = ''é'''), ('m <> ''é'''), ('m IS NULL'), ('m = ''x'' OR f = ''A''')) v(q);

-- Params: packed at scan start; a value longer than 8 bytes runs the
-- scan's device quals on the host
SET plan_cache_mode = force_generic_plan;
PREPARE p_off(bpchar) AS SELECT id FROM gx_c8 WHERE f = $1 OR c2 = $1;
PREPARE p_on(bpchar) AS SELECT id FROM gx_c8 WHERE f = $1 OR c2 = $1;
SELECT args, gx_check_exec('p', args)
FROM (VALUES ('(''R'')'), ('(''R  '')'), ('(''ab'')'), ('('''')'), ('(NULL)'),
             ('(''😀😀'')'), ('(''abcdefghij'')')) v(args);
PREPARE a_off(bpchar[]) AS SELECT id FROM gx_c8 WHERE f = ANY ($1) OR c2 <> ALL ($1);
PREPARE a_on(bpchar[]) AS SELECT id FROM gx_c8 WHERE f = ANY ($1) OR c2 <> ALL ($1);
SELECT args, gx_check_exec('a', args)
FROM (VALUES ('(''{A,R}'')'), ('(''{}'')'), ('(NULL)'), ('(''{NULL,ab}'')'),
             ('(''{abcdefghijkl,é}'')')) v(args);
SET gpuext.force = on;
SELECT gx_explain('EXECUTE p_on(''R'')');
RESET gpuext.force;
RESET plan_cache_mode;
DEALLOCATE ALL;

-- GROUP BY char(1) keys (TPC-H Q1's l_returnflag, l_linestatus)
SELECT q, gx_check(q)
FROM (VALUES
    ('SELECT f, s, count(*), sum(i4) FROM gx_c8 GROUP BY f, s'),
    ('SELECT f, count(*) FROM gx_c8 WHERE s = ''F'' GROUP BY f'),
    ('SELECT c2, count(*), min(i4) FROM gx_c8 WHERE f <> ''A'' GROUP BY c2'),
    ('SELECT f, s, count(*) FROM gx_c8 WHERE i4 > 1 GROUP BY f, s HAVING count(*) > 10')
) v(q);

-- cached columns: char(1) and char(2) are cached (packed)
SET max_parallel_workers_per_gather = 0;
SET gpuext.cache_refresh = off;
VACUUM (FREEZE, ANALYZE) gx_c8;
SELECT gpuext_cache_load('gx_c8');
SELECT columns FROM gpuext_cache WHERE "table" = 'gx_c8'::regclass AND state <> 'stale';
SELECT q, gx_cached('SELECT id FROM gx_c8 WHERE ' || q) AS cache,
       gx_check('SELECT id FROM gx_c8 WHERE ' || q)
FROM (VALUES
    ('f = ''R'''), ('f <> s'), ('c2 = ''😀😀'''), ('f IN (''A'', '''', ''R'')'),
    ('m = ''é'''), ('f = ''N'' AND i4 > 3')
) v(q);
SELECT gx_check('SELECT count(*) FROM gx_c8 WHERE f = ''R''');
SELECT gx_check('SELECT f, s, count(*) FROM gx_c8 GROUP BY f, s');
-- a stale block: its rows from the heap, the rest from the cache
UPDATE gx_c8 SET f = 'Z' WHERE id = 100;
SELECT gx_check('SELECT id FROM gx_c8 WHERE f = ''Z''');
SELECT gpuext_cache_evict('gx_c8') > 0 AS evicted;
RESET gpuext.cache_refresh;
RESET max_parallel_workers_per_gather;

DROP TABLE gx_c8;
