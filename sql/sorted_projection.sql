--
-- sorted_projection: sorted projections of cached columns (issue 16 part
-- 1, src/cache/projection.cpp): gpuext_cache_load(..., sorted => ...),
-- gpuext_cache_search against a plain query with gpuext off, the view
-- gpuext_cache_projections, and what makes a projection stale: UPDATE,
-- DELETE, INSERT (the cache's blocks no longer all-visible), a reload, an
-- eviction.  The search must return exactly the rows a plain query of the
-- same snapshot returns, whether the projection is valid (it is used) or
-- not (the heap answers).
--
SET max_parallel_workers_per_gather = 0;
SET gpuext.cache_refresh = off;

-- 30000 rows: repeated keys, NULLs, int64's extremes, a date and a float
CREATE TABLE gx_sp (id int4, i2 int2, i4 int4, i8 int8, d date, f8 float8, t text);
INSERT INTO gx_sp
SELECT g,
       CASE WHEN g % 17 = 0 THEN NULL ELSE (g * 7 % 201 - 100) END,
       CASE WHEN g % 19 = 0 THEN NULL ELSE g % 5000 END,
       CASE WHEN g % 23 = 0 THEN NULL ELSE g::int8 * 7919 % 200001 - 100000 END,
       CASE WHEN g % 11 = 0 THEN NULL ELSE date '2000-01-01' + (g * 3 % 1500) END,
       g / 8.0,
       'r' || g
FROM generate_series(1, 30000) g;
INSERT INTO gx_sp VALUES
    (30001, 32767, 2147483647, 9223372036854775807, 'infinity', 0, 'max'),
    (30002, -32768, -2147483648, -9223372036854775808, '-infinity', 0, 'min'),
    (30003, 0, 0, 9223372036854775807, NULL, 0, 'max again'),
    (30004, NULL, NULL, NULL, NULL, NULL, 'nulls');
VACUUM (FREEZE, ANALYZE) gx_sp;

-- for each key of keys, the rows whose column (as expression expr, an
-- int8) equals it: gpuext_cache_search against a join with gpuext off,
-- and its distinct rows against col = ANY(keys) with gpuext off
CREATE FUNCTION gx_sp_check(col text, expr text, keys int8[]) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    got text[];
    ref text[];
    got_rows bigint;
    any_rows bigint;
BEGIN
    SELECT coalesce(array_agg(s.key || ' ' || s.ctid ORDER BY s.key, s.ctid), '{}')
    INTO got FROM gpuext_cache_search('gx_sp', col, keys) s;
    SELECT count(DISTINCT s.ctid) INTO got_rows FROM gpuext_cache_search('gx_sp', col, keys) s;
    PERFORM set_config('gpuext.enabled', 'off', true);
    EXECUTE format('SELECT coalesce(array_agg(x.k || '' '' || t.ctid ORDER BY x.k, t.ctid), ''{}'') '
                   'FROM unnest($1) x(k) JOIN gx_sp t ON %s = x.k', expr) INTO ref USING keys;
    EXECUTE format('SELECT count(*) FROM gx_sp t WHERE %s = ANY($1)', expr) INTO any_rows USING keys;
    PERFORM set_config('gpuext.enabled', 'on', true);
    IF got IS DISTINCT FROM ref OR got_rows <> any_rows THEN
        RETURN format('MISMATCH: search gave %s rows (%s distinct), the join %s, = ANY %s',
                      cardinality(got), got_rows, cardinality(ref), any_rows);
    END IF;
    RETURN format('%s rows, %s distinct', cardinality(got), got_rows);
END $$;

-- the projections, and how often each was used (uses: calls that held it)
CREATE FUNCTION gx_sp_view() RETURNS TABLE(col text, rows bigint, state text, uses bigint)
LANGUAGE sql AS $$
    SELECT p."column", p.rows, p.state, p.uses
    FROM gpuext_cache_projections p WHERE p.relation = 'gx_sp'::regclass ORDER BY 1, 3, 2
$$;

-- errors: a column that does not exist, a type it does not take
SELECT gpuext_cache_load('gx_sp', sorted => ARRAY['nope']);
SELECT gpuext_cache_load('gx_sp', sorted => ARRAY['i8', 'f8']);
SELECT gpuext_cache_load('gx_sp', sorted => ARRAY['t']);
SELECT * FROM gpuext_cache_search('gx_sp', 'nope', ARRAY[1]);
SELECT * FROM gpuext_cache_search('gx_sp', 'f8', ARRAY[1]);
SELECT * FROM gx_sp_view();

-- load with the projections of three columns, in entries of at most 4000
-- rows (a position is a TID: each entry adds its first block); the view
-- shows them valid, built from every entry's rows
SET gpuext.cache_entry_rows = 4000;
SELECT gpuext_cache_load('gx_sp', sorted => ARRAY['i8', 'i4', 'd']);
SELECT chunks > 5 AS entries, rows FROM gpuext_cache WHERE "table" = 'gx_sp'::regclass;
SELECT * FROM gx_sp_view();
SELECT kind, state FROM gpuext_shared_objects WHERE relation = 'gx_sp'::regclass ORDER BY 1;

-- lookups: present, repeated, absent, NULL keys, int64's extremes
SELECT gx_sp_check('i8', 't.i8', ARRAY[-100000, 0, 7919, 15838, 100000, 42, 42, NULL, 5]
                                 || ARRAY(SELECT i8 FROM gx_sp WHERE id % 997 = 1));
SELECT gx_sp_check('i8', 't.i8', ARRAY(SELECT i8 FROM gx_sp WHERE id % 3 = 0));
SELECT gx_sp_check('i8', 't.i8', ARRAY[9223372036854775807, -9223372036854775808, NULL]);
SELECT gx_sp_check('i8', 't.i8', ARRAY(SELECT g::int8 * 13 - 50000 FROM generate_series(1, 10000) g));
SELECT gx_sp_check('i4', 't.i4', ARRAY[0, 1, 4999, 5000, 2147483647, -2147483648, 1, 1]);
SELECT gx_sp_check('i4', 't.i4', ARRAY(SELECT g FROM generate_series(-10, 6000, 3) g));
-- a date: its keys are days since 2000-01-01 (the value the projection holds)
SELECT gx_sp_check('d', 'CASE WHEN isfinite(t.d) THEN t.d - date ''2000-01-01'' END', ARRAY[0, 1, 3, 1499, 1500, -1]);
-- no key, only NULLs: nothing
SELECT gx_sp_check('i8', 't.i8', '{}');
SELECT gx_sp_check('i8', 't.i8', ARRAY[NULL, NULL]::int8[]);
-- the same projections served every call (built once, by the load)
SELECT * FROM gx_sp_view();
-- an int2 column's projection is built on demand, by its first search
SELECT gx_sp_check('i2', 't.i2', ARRAY[-100, 0, 100, 32767, -32768, 101]);
SELECT * FROM gx_sp_view();

-- without room for shared objects, each call builds a copy of its own
SET gpuext.shared_object_memory = 0;
SELECT session_copies AS copies0 FROM gpuext_shared_object_stats \gset
SELECT gx_sp_check('i4', 't.i4', ARRAY[7, 8, 9]);
SELECT session_copies - :copies0 AS copies FROM gpuext_shared_object_stats;
RESET gpuext.shared_object_memory;

-- writes: each makes the projections stale, and the answers stay right
-- (from the heap, in the query's snapshot)
UPDATE gx_sp SET i8 = 123456789 WHERE id = 1;
SELECT * FROM gx_sp_view();
SELECT gx_sp_check('i8', 't.i8', ARRAY[123456789, 7919, -100000]);
DELETE FROM gx_sp WHERE i8 = -100000 OR id = 2;
SELECT gx_sp_check('i8', 't.i8', ARRAY[123456789, 7919, -100000, 15838]);
INSERT INTO gx_sp (id, i4, i8) VALUES (40000, 77777, 7919), (40001, 77777, 88888);
SELECT gx_sp_check('i8', 't.i8', ARRAY[123456789, 7919, 88888]);
SELECT gx_sp_check('i4', 't.i4', ARRAY[77777, 1]);
-- (a date from the heap too: its keys are the days the projection would hold)
SELECT gx_sp_check('d', 'CASE WHEN isfinite(t.d) THEN t.d - date ''2000-01-01'' END', ARRAY[0, 1, 3, 1499, 1500, -1]);
-- in a transaction that wrote: its own rows, none it deleted
BEGIN;
DELETE FROM gx_sp WHERE i8 = 88888;
INSERT INTO gx_sp (id, i8) VALUES (40002, 4242);
SELECT gx_sp_check('i8', 't.i8', ARRAY[88888, 4242]);
ROLLBACK;
SELECT gx_sp_check('i8', 't.i8', ARRAY[88888, 4242]);
SELECT * FROM gx_sp_view();

-- vacuumed and loaded again: valid again; the next search builds a new one
VACUUM (FREEZE) gx_sp;
SELECT gpuext_cache_load('gx_sp', sorted => ARRAY['i8']) > 0 AS loaded;
RESET gpuext.cache_entry_rows;
SELECT * FROM gx_sp_view();
SELECT gx_sp_check('i8', 't.i8', ARRAY[123456789, 7919, -100000, 88888, 4242]);
SELECT gx_sp_check('i4', 't.i4', ARRAY[77777, 1, 2]);
SELECT * FROM gx_sp_view();

-- evicted: the projections are gone; the search answers from the heap
SELECT gpuext_cache_evict('gx_sp') > 0 AS evicted;
SELECT * FROM gx_sp_view();
SELECT count(*) FROM gpuext_shared_objects WHERE relation = 'gx_sp'::regclass AND state = 'ready';
SELECT gx_sp_check('i8', 't.i8', ARRAY[123456789, 7919, 88888]);
SELECT * FROM gx_sp_view();

-- a table the cache does not hold: the heap answers, no projection
CREATE TABLE gx_sp2 AS SELECT g AS k FROM generate_series(1, 100) g;
SELECT * FROM gpuext_cache_search('gx_sp2', 'k', ARRAY[5, 5, 101]) ORDER BY 1, 2;
SELECT count(*) FROM gpuext_cache_projections WHERE relation = 'gx_sp2'::regclass;
-- privileges: the table's SELECT
CREATE ROLE gx_sp_user;
SET ROLE gx_sp_user;
SELECT * FROM gpuext_cache_search('gx_sp2', 'k', ARRAY[5]);
RESET ROLE;
DROP ROLE gx_sp_user;

DROP TABLE gx_sp, gx_sp2;
DROP FUNCTION gx_sp_check(text, text, int8[]);
DROP FUNCTION gx_sp_view();
