--
-- search_sets: = ANY / <> ALL / IN over sets larger than the program's
-- constant table, and over array Params of any size (big sets: sorted
-- int64 values in a session object, binary-searched per row, issue 16).
-- Every result against PostgreSQL's own (gx_check: gpuext off, then
-- GpuScan forced on each device): Const arrays of 300, 10K and 200K
-- elements, int4 / int8 / date / numeric / float8 columns, NULL elements,
-- NULL rows, NULL and empty arrays, <> ALL, IN lists, array Params of
-- growing sizes (generic plans), InitPlans, rescans, several sets in one
-- program, device aggregates and GpuPreAgg, a cached and a heap table,
-- parallel GpuScan, both searches (gpuext.search) and top key counts;
-- where the qual runs (EXPLAIN VERBOSE: Device Sets, and the search).
--

-- 100000 rows, NULLs in every column, special float and numeric values
CREATE TABLE gx_ss (id int4, i4 int4, i8 int8, d date, n numeric(12, 2), f8 float8, t text);
INSERT INTO gx_ss
SELECT g,
       CASE WHEN g % 11 = 0 THEN NULL ELSE g * 7 % 400000 - 100000 END,
       CASE WHEN g % 13 = 0 THEN NULL ELSE g::int8 * 7919 % 10000019 - 5000000 END,
       CASE WHEN g % 17 = 0 THEN NULL ELSE date '2000-01-01' + (g * 3 % 20000) END,
       CASE WHEN g % 19 = 0 THEN NULL ELSE (g * 37 % 200001 - 100000) / 100.0 END,
       CASE WHEN g % 23 = 0 THEN NULL ELSE (g * 41 % 20001 - 10000) / 8.0 END,
       'r' || g
FROM generate_series(1, 100000) g;
INSERT INTO gx_ss VALUES
    (100001, 0, 0, 'infinity', 'NaN', 'NaN', 'nan'),
    (100002, 1, 1, '-infinity', 0, 'Infinity', 'inf'),
    (100003, -1, -1, '2000-01-01', -0.01, '-Infinity', '-inf'),
    (100004, 2, 2, '2000-01-02', 0.01, '-0', 'minus zero'),
    (100005, NULL, NULL, NULL, NULL, NULL, 'nulls');
VACUUM ANALYZE gx_ss;
-- PostgreSQL searches an array Param's elements one by one for each row
-- (only a Const array is hashed): the Param tests read 2505 of the rows
CREATE TABLE gx_ssp AS SELECT * FROM gx_ss WHERE id % 40 = 0 OR id > 100000;
VACUUM ANALYZE gx_ssp;

-- rows, not device aggregates (tested below), unless a query aggregates
SET gpuext.enable_agg = off;
SET gpuext.enable_preagg = off;

-- where the quals of q run: the device filter's and host filter's
-- presence and the Device Sets line (EXPLAIN VERBOSE, gpuext forced;
-- analyze: with the sets' sizes once filled)
CREATE FUNCTION gx_ss_plan(q text, with_analyze bool DEFAULT false) RETURNS text LANGUAGE plpgsql
    SET gpuext.force = on AS $$
DECLARE
    line text;
    r text[] := '{}';
BEGIN
    FOR line IN EXECUTE format('EXPLAIN (VERBOSE, COSTS OFF%s) %s',
                               CASE WHEN with_analyze THEN ', ANALYZE, TIMING OFF, SUMMARY OFF' END, q) LOOP
        IF line ~ '^\s*Device Filter: ' THEN
            r := r || 'device filter'::text;
        ELSIF line ~ '^\s*Host Filter: ' THEN
            r := r || 'host filter'::text;
        ELSIF line ~ '^\s*Device Sets: ' THEN
            r := r || btrim(line);
        ELSIF line ~ '^\s*Filter: ' THEN
            r := r || 'PostgreSQL filter'::text;
        END IF;
    END LOOP;
    RETURN array_to_string(r, '; ');
END $$;

-- an array literal of the values of expr (over g) for g in 1 .. n, of type typ
CREATE FUNCTION gx_ss_array(expr text, n int, typ text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    a text;
BEGIN
    EXECUTE format('SELECT array_agg(%s ORDER BY g)::text FROM generate_series(1, %s) g', expr, n)
        INTO a;
    RETURN format('%L::%s[]', coalesce(a, '{}'), typ);
END $$;

-- differential check of two prepared statements <name>_off / <name>_on
CREATE FUNCTION gx_ss_exec(name text, args text) RETURNS text LANGUAGE sql AS $$
    SELECT gx_error(format('EXECUTE %s_off(%s)', name, args), format('EXECUTE %s_on(%s)', name, args))
$$;

-- Const arrays of 300, 10K and 200K elements: too long for the constant
-- table, so big sets (the smallest one's lookups as INSET's in the table
-- would not fit either: 256 entries)
SELECT n, gx_check(format('SELECT id FROM gx_ss WHERE i4 = ANY (%s)',
                          gx_ss_array('g * 13 - 100000', n, 'int4'))) AS i4,
       gx_check(format('SELECT id FROM gx_ss WHERE i8 = ANY (%s)',
                       gx_ss_array('g::int8 * 7919 % 10000019 - 5000000', n, 'int8'))) AS i8
FROM (VALUES (300), (10000), (200000)) v(n);
SELECT n, gx_check(format('SELECT id FROM gx_ss WHERE d = ANY (%s)',
                          gx_ss_array('date ''2000-01-01'' + g * 7 % 30000', n, 'date'))) AS d,
       gx_check(format('SELECT id FROM gx_ss WHERE n = ANY (%s)',
                       gx_ss_array('(g * 3 - 100000) / 100.0', n, 'numeric'))) AS n,
       gx_check(format('SELECT id FROM gx_ss WHERE f8 = ANY (%s)',
                       gx_ss_array('(g * 5 - 10000) / 8.0', n, 'float8'))) AS f8
FROM (VALUES (300), (10000), (200000)) v(n);
-- <> ALL, NULL elements (a miss is NULL), repeats, a NULL array
SELECT l, gx_check(q) FROM (VALUES
    ('<> ALL, 10K', 'SELECT id FROM gx_ss WHERE i4 <> ALL (' || gx_ss_array('g * 2 - 100000', 10000, 'int4') || ')'),
    ('NULL elements, 10K', 'SELECT id FROM gx_ss WHERE i4 = ANY (' || gx_ss_array('CASE WHEN g % 50 = 0 THEN NULL ELSE g * 9 - 100000 END', 10000, 'int4') || ')'),
    ('<> ALL, a NULL element', 'SELECT id FROM gx_ss WHERE i4 <> ALL (' || gx_ss_array('CASE WHEN g = 77 THEN NULL ELSE g END', 300, 'int4') || ')'),
    ('= ANY IS NULL', 'SELECT id FROM gx_ss WHERE (i8 = ANY (' || gx_ss_array('CASE WHEN g % 3 = 0 THEN NULL ELSE g % 1000 END', 1000, 'int8') || ')) IS NULL'),
    ('float8 <> ALL, NaN -0 -Infinity', 'SELECT id FROM gx_ss WHERE f8 <> ALL (' || gx_ss_array('CASE g WHEN 1 THEN ''NaN''::float8 WHEN 2 THEN ''-0''::float8 WHEN 3 THEN ''-Infinity'' ELSE g / 8.0 END', 5000, 'float8') || ')'),
    ('numeric <> ALL, NaN, 0.005', 'SELECT id FROM gx_ss WHERE n <> ALL (' || gx_ss_array('CASE g WHEN 1 THEN ''NaN''::numeric WHEN 2 THEN 0.005 ELSE g / 100.0 END', 5000, 'numeric') || ')'),
    ('20K elements, 97 distinct', 'SELECT id FROM gx_ss WHERE i4 = ANY (' || gx_ss_array('(g % 97) * 5', 20000, 'int4') || ')')
) v(l, q);
-- IN (300 literals): a Const array after the planner folds it
SELECT gx_check('SELECT id FROM gx_ss WHERE i4 IN (' ||
                (SELECT string_agg((g * 7 - 100000)::text, ', ') FROM generate_series(1, 300) g) || ')');
SELECT gx_check('SELECT id FROM gx_ss WHERE d NOT IN (' ||
                (SELECT string_agg(format('%L', date '2000-01-01' + g), ', ') FROM generate_series(1, 300) g) || ')');
-- where they run: on the device, the set's size in EXPLAIN VERBOSE
SELECT gx_ss_plan('SELECT id FROM gx_ss WHERE i4 = ANY (' || gx_ss_array('g', 300, 'int4') || ')');
SELECT gx_ss_plan('SELECT id FROM gx_ss WHERE i4 = ANY (' || gx_ss_array('g % 100', 300, 'int4') || ')', true);
SELECT gx_ss_plan('SELECT id FROM gx_ss WHERE i4 = ANY (' || gx_ss_array('g', 100, 'int4') || ')');

-- array Params (generic plans) of growing sizes, NULL and empty arrays
SET plan_cache_mode = force_generic_plan;
PREPARE s4_off(int4[]) AS SELECT id FROM gx_ssp WHERE i4 = ANY ($1);
PREPARE s4_on(int4[]) AS SELECT id FROM gx_ssp WHERE i4 = ANY ($1);
PREPARE s8_off(int8[], date[]) AS SELECT id FROM gx_ssp WHERE i8 <> ALL ($1) AND d = ANY ($2);
PREPARE s8_on(int8[], date[]) AS SELECT id FROM gx_ssp WHERE i8 <> ALL ($1) AND d = ANY ($2);
PREPARE sn_off(numeric[], float8[]) AS SELECT id FROM gx_ssp WHERE n = ANY ($1) OR f8 = ANY ($2);
PREPARE sn_on(numeric[], float8[]) AS SELECT id FROM gx_ssp WHERE n = ANY ($1) OR f8 = ANY ($2);
SELECT n, gx_ss_exec('s4', gx_ss_array('g * 140 - 100000', n, 'int4'))
FROM (VALUES (0), (1), (5), (300), (10000), (200000), (300), (3)) v(n);
SELECT gx_ss_exec('s4', 'NULL'), gx_ss_exec('s4', '''{NULL}'''),
       gx_ss_exec('s4', '''{NULL, 6, 13}'''), gx_ss_exec('s4', '''{}''');
SELECT n, gx_ss_exec('s8', gx_ss_array('g::int8 * 7919 % 10000019 - 5000000', n, 'int8') || ', ' ||
                           gx_ss_array('date ''2000-01-01'' + g * 3', n, 'date'))
FROM (VALUES (10), (300), (10000), (100000)) v(n);
SELECT gx_ss_exec('s8', 'NULL, ''{2000-01-04}'''), gx_ss_exec('s8', '''{}'', ''{infinity, -infinity}''');
SELECT n, gx_ss_exec('sn', gx_ss_array('(g * 37 - 100000) / 100.0', n, 'numeric') || ', ' ||
                           gx_ss_array('(g * 41 - 10000) / 8.0', n, 'float8'))
FROM (VALUES (10), (300), (10000), (30000)) v(n);
SELECT gx_ss_exec('sn', '''{NaN, 1.005, 0.01}'', ''{NaN, -0, Infinity}''');
SELECT gx_ss_plan('EXECUTE s8_on(''{1, 2}'', ''{2000-01-04}'')');
SELECT gx_ss_plan('EXECUTE s8_on(''{1, 2}'', ''{2000-01-04, 2000-01-07, 2000-01-07}'')', true);
-- more big sets than a program takes (4): the fifth stays on the host
PREPARE m_off(int4[], int8[], date[], numeric[], float8[]) AS SELECT id FROM gx_ssp
    WHERE i4 <> ALL ($1) AND i8 <> ALL ($2) AND d <> ALL ($3) AND n <> ALL ($4) AND f8 <> ALL ($5);
PREPARE m_on(int4[], int8[], date[], numeric[], float8[]) AS SELECT id FROM gx_ssp
    WHERE i4 <> ALL ($1) AND i8 <> ALL ($2) AND d <> ALL ($3) AND n <> ALL ($4) AND f8 <> ALL ($5);
SELECT gx_ss_exec('m', gx_ss_array('g * 7 - 100000', 5000, 'int4') || ', ' ||
                       gx_ss_array('g::int8 * 7919 % 10000019 - 5000000', 5000, 'int8') || ', ' ||
                       gx_ss_array('date ''2000-01-01'' + g * 3', 5000, 'date') || ', ' ||
                       gx_ss_array('(g * 37 - 100000) / 100.0', 5000, 'numeric') || ', ' ||
                       gx_ss_array('(g * 41 - 10000) / 8.0', 5000, 'float8'));
SELECT gx_ss_plan('EXECUTE m_on(''{1}'', ''{2}'', ''{2000-01-01}'', ''{1.5}'', ''{2.5}'')');
RESET plan_cache_mode;
DEALLOCATE ALL;

-- InitPlans (PARAM_EXEC) and rescans: a correlated subquery whose set
-- changes (and grows, and shrinks) with each outer row
SELECT q, gx_check(q) FROM (VALUES
    ('SELECT id FROM gx_ssp WHERE i4 = ANY (array(SELECT g * 3 - 50000 FROM generate_series(1, 30000) g))'),
    ('SELECT id FROM gx_ssp WHERE i8 <> ALL (array(SELECT g::int8 * 7919 % 10000019 - 5000000 FROM generate_series(1, 99000) g))'),
    ('SELECT k, (SELECT count(*) FROM gx_ssp WHERE i4 = ANY (array(SELECT g * k * 7 - 100000 FROM generate_series(1, 1000 * k) g))) FROM generate_series(1, 12, 3) k'),
    ('SELECT k, (SELECT count(*) FROM gx_ssp WHERE i4 = ANY (array(SELECT g * k * 7 - 100000 FROM generate_series(1, 40000 / k) g))) FROM generate_series(1, 12, 3) k')
) v(q);
-- rescans of a Const array's big set (built and written once) beside a
-- changing Param, and beside a changing big set
SELECT l, gx_check(q) FROM (VALUES
    ('Const set, Param', 'SELECT k, (SELECT count(*) FROM gx_ssp WHERE i4 = ANY (' || gx_ss_array('g * 140 - 100000', 2000, 'int4') || ') AND i8 > k * 1000000 - 5000000) FROM generate_series(1, 9) k'),
    ('Const set, Param set', 'SELECT k, (SELECT count(*) FROM gx_ssp WHERE i4 <> ALL (' || gx_ss_array('g * 280 - 100000', 700, 'int4') || ') AND d = ANY (array(SELECT date ''2000-01-01'' + g * k FROM generate_series(1, 3000 / k) g))) FROM generate_series(1, 9, 2) k')
) v(l, q);

-- x IN (SELECT ...) left as a filter and NOT IN (SELECT ...): the same
-- subquery as an ARRAY SubPlan run at scan start, its rows the big set;
-- NOT IN's NULL rules (a NULL in the set: no row; an empty set: every row,
-- NULL x too); int4 against int8, numeric, dates; a correlated NOT IN
-- stays PostgreSQL's
CREATE TABLE gx_ssk AS SELECT g * 7 - 3000 AS a, (g * 7 - 3000)::int8 AS a8,
    (g * 7 - 3000)::numeric(12, 2) / 4 AS an, date '2000-01-01' + g * 3 AS ad
    FROM generate_series(1, 4000) g;
CREATE TABLE gx_sskn AS SELECT * FROM gx_ssk UNION ALL SELECT NULL, NULL, NULL, NULL;
CREATE TABLE gx_sske (a int4);
ANALYZE gx_ssk, gx_sskn, gx_sske;
SELECT l, gx_check(q), gx_ss_plan(q) FROM (VALUES
    ('NOT IN', 'SELECT id FROM gx_ss WHERE i4 NOT IN (SELECT a FROM gx_ssk)'),
    ('NOT IN, a NULL in the set', 'SELECT id FROM gx_ss WHERE i4 NOT IN (SELECT a FROM gx_sskn)'),
    ('NOT IN, an empty set', 'SELECT id FROM gx_ss WHERE i4 NOT IN (SELECT a FROM gx_sske)'),
    ('NOT IN, int8 set', 'SELECT id FROM gx_ss WHERE i4 NOT IN (SELECT a8 FROM gx_ssk WHERE a8 % 3 = 0)'),
    ('NOT IN, numeric', 'SELECT id FROM gx_ss WHERE n NOT IN (SELECT an FROM gx_ssk)'),
    ('NOT IN, dates', 'SELECT id FROM gx_ss WHERE d NOT IN (SELECT ad FROM gx_sskn)'),
    ('IN under OR', 'SELECT id FROM gx_ss WHERE i8 IN (SELECT a8 FROM gx_ssk) OR id < 100'),
    ('correlated NOT IN', 'SELECT id FROM gx_ssp WHERE i4 NOT IN (SELECT a FROM gx_ssk WHERE a8 > gx_ssp.i8)')
) v(l, q);
SELECT l, gx_check(q) FROM (VALUES
    ('count, NOT IN', 'SELECT count(*), sum(i8) FROM gx_ss WHERE i4 NOT IN (SELECT a FROM gx_ssk)'),
    ('count, NOT IN with NULL', 'SELECT count(*) FROM gx_ss WHERE i4 NOT IN (SELECT a FROM gx_sskn)'),
    ('rescans', 'SELECT k, (SELECT count(*) FROM gx_ssp WHERE i4 NOT IN (SELECT a FROM gx_ssk) AND i8 > k * 1000000) FROM generate_series(1, 5) k')
) v(l, q);
DROP TABLE gx_ssk, gx_sskn, gx_sske;

-- device aggregates and GpuPreAgg over big sets (an array Param cannot
-- make the scan fall back to the host, so aggregates take it)
RESET gpuext.enable_agg;
RESET gpuext.enable_preagg;
SELECT l, gx_check(q) FROM (VALUES
    ('count, sum: 50K Const', 'SELECT count(*), sum(i4), count(f8) FROM gx_ss WHERE i8 = ANY (' || gx_ss_array('g::int8 * 7919 % 10000019 - 5000000', 50000, 'int8') || ')'),
    ('count: InitPlan', 'SELECT count(*) FROM gx_ssp WHERE i4 = ANY (array(SELECT g * 5 FROM generate_series(-20000, 20000) g))'),
    ('GROUP BY: 8K dates', 'SELECT i4 % 7, count(*), sum(i8) FROM gx_ss WHERE d <> ALL (' || gx_ss_array('date ''2000-01-01'' + g * 2', 8000, 'date') || ') GROUP BY 1')
) v(l, q);
SET gpuext.enable_agg = off;
SET gpuext.enable_preagg = off;

-- a cached table: the same checks over the device's column cache
CREATE TABLE gx_ssc AS SELECT * FROM gx_ss;
VACUUM (FREEZE, ANALYZE) gx_ssc;
-- (a block another session's snapshot keeps from being all-visible is read
-- from the heap: its NOTICE is not part of the output)
SET client_min_messages = warning;
SELECT gpuext_cache_load('gx_ssc') > 0;
RESET client_min_messages;
SELECT l, gx_cached(q), gx_check(q) FROM (VALUES
    ('int4, 200K', 'SELECT id FROM gx_ssc WHERE i4 = ANY (' || gx_ss_array('g * 13 - 100000', 200000, 'int4') || ')'),
    ('float8 <> ALL, 10K', 'SELECT id FROM gx_ssc WHERE f8 <> ALL (' || gx_ss_array('(g * 5 - 10000) / 8.0', 10000, 'float8') || ')'),
    ('numeric, 70K', 'SELECT id FROM gx_ssc WHERE n = ANY (' || gx_ss_array('(g * 3 - 100000) / 100.0', 70000, 'numeric') || ')'),
    ('int8 InitPlan, 2K', 'SELECT id FROM gx_ssc WHERE i8 = ANY (array(SELECT g::int8 * 7919 % 10000019 - 5000000 FROM generate_series(1, 2000) g))')
) v(l, q);

-- parallel GpuScan: each process fills its own set object in the leader's session
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET gpuext.force = on;
SELECT l, (SELECT bool_or(x LIKE '%Parallel Custom Scan (GpuScan)%') FROM gx_explain(q) x) AS parallel,
       gx_check(q) FROM (VALUES
    ('int4, 20K', 'SELECT id FROM gx_ss WHERE i4 = ANY (' || gx_ss_array('g * 13 - 100000', 20000, 'int4') || ')'),
    ('int8 InitPlan, 2K', 'SELECT id FROM gx_ss WHERE i8 <> ALL (array(SELECT g::int8 * 7919 % 10000019 - 5000000 FROM generate_series(1, 2000) g)) AND f8 > 0')
) v(l, q);
RESET gpuext.force;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;

-- the searches (gpuext.search): binary with the top keys a GPU block keeps
-- in shared memory (gpuext.search_top_keys: 8192, 16, none) and p-ary (a
-- warp's lanes a row; the CPU device runs the same steps); every one
-- gives PostgreSQL's rows: sets of 1, 2 and 200K values, one value
-- repeated, INT64_MIN / MAX, NULL elements, floats, numeric, dates, an
-- InitPlan rescanned with a changing set, a cached table
CREATE FUNCTION gx_ss_search(q text, mode text, top int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    PERFORM set_config('gpuext.search', mode, true);
    PERFORM set_config('gpuext.search_top_keys', top::text, true);
    RETURN gx_check(q);
END $$;
SELECT l, r AS binary_8192, gx_ss_search(q, 'binary', 16) = r AS binary_16,
       gx_ss_search(q, 'binary', 0) = r AS binary_none, gx_ss_search(q, 'pary', 4096) = r AS pary,
       gx_ss_search(q, 'pary', 0) = r AS pary_none
FROM (VALUES
    ('int8, 200K', 'SELECT id FROM gx_ss WHERE i8 = ANY (' || gx_ss_array('g::int8 * 7919 % 10000019 - 5000000', 200000, 'int8') || ')'),
    ('int4, 1 value', 'SELECT id FROM gx_ss WHERE i4 = ANY (array(SELECT -99993))'),
    ('int8, 2 values', 'SELECT id FROM gx_ss WHERE i8 = ANY (array(SELECT g::int8 * 7919 % 10000019 - 5000000 FROM generate_series(1, 2) g))'),
    ('int8, the ends', 'SELECT id FROM gx_ss WHERE i8 = ANY (array(SELECT x FROM (VALUES (-9223372036854775808), (7919 - 5000000), (9223372036854775807)) v(x)))'),
    ('int4, one value 20K times', 'SELECT id FROM gx_ss WHERE i4 = ANY (' || gx_ss_array('-99993', 20000, 'int4') || ')'),
    ('int4, NULL elements, 10K', 'SELECT id FROM gx_ss WHERE i4 = ANY (' || gx_ss_array('CASE WHEN g % 50 = 0 THEN NULL ELSE g * 9 - 100000 END', 10000, 'int4') || ')'),
    ('float8 <> ALL, NaN -0, 5K', 'SELECT id FROM gx_ss WHERE f8 <> ALL (' || gx_ss_array('CASE g WHEN 1 THEN ''NaN''::float8 WHEN 2 THEN ''-0''::float8 ELSE g / 8.0 END', 5000, 'float8') || ')'),
    ('numeric, 70K', 'SELECT id FROM gx_ss WHERE n = ANY (' || gx_ss_array('(g * 3 - 100000) / 100.0', 70000, 'numeric') || ')'),
    ('date, 30K', 'SELECT id FROM gx_ss WHERE d = ANY (' || gx_ss_array('date ''2000-01-01'' + g * 7 % 30000', 30000, 'date') || ')'),
    ('InitPlan rescans', 'SELECT k, (SELECT count(*) FROM gx_ssp WHERE i4 = ANY (array(SELECT g * k * 7 - 100000 FROM generate_series(1, 40000 / k) g))) FROM generate_series(1, 12, 3) k'),
    ('cached int4, 200K', 'SELECT id FROM gx_ssc WHERE i4 = ANY (' || gx_ss_array('g * 13 - 100000', 200000, 'int4') || ')')
) v(l, q), LATERAL (SELECT gx_ss_search(q, 'binary', 8192) AS r) x;
RESET gpuext.search;
RESET gpuext.search_top_keys;
-- EXPLAIN names the search; ANALYZE (with timing) the time the sets took
SET gpuext.search = pary;
SELECT gx_ss_plan('SELECT id FROM gx_ss WHERE i4 = ANY (' || gx_ss_array('g % 1000', 3000, 'int4') || ')', true);
RESET gpuext.search;
SET gpuext.force = on;
DO $$
DECLARE
    line text;
    found bool := false;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF) SELECT id FROM gx_ss WHERE i4 = ANY (array(SELECT g FROM generate_series(1, 5000) g))' LOOP
        found := found OR line ~ '^\s*Device Sets Time: [0-9.]+ ms$';
    END LOOP;
    RAISE NOTICE 'Device Sets Time shown: %', found;
END $$;
RESET gpuext.force;

RESET gpuext.enable_agg;
RESET gpuext.enable_preagg;
DROP FUNCTION gx_ss_search(text, text, int);
DROP FUNCTION gx_ss_exec(text, text);
DROP FUNCTION gx_ss_array(text, int, text);
DROP FUNCTION gx_ss_plan(text, bool);
DROP TABLE gx_ss, gx_ssp, gx_ssc;
