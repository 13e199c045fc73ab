--
-- cursors: a GpuScan under a cursor scrolls as a seqscan does (FETCH
-- BACKWARD / PRIOR / ABSOLUTE / LAST / RELATIVE, MOVE BACKWARD), serves
-- UPDATE and DELETE ... WHERE CURRENT OF wherever the cursor stands, and
-- a NO SCROLL cursor refuses to go back as PostgreSQL's does.  Every
-- trace runs with gpuext off and then with the GpuScan forced on this
-- device, each in a subtransaction that is rolled back; the rows of both
-- must be the same.
--

CREATE TABLE gx_cur (id int4, a int4, f float8);
INSERT INTO gx_cur SELECT g, g % 10, g / 4.0 FROM generate_series(1, 50000) g;
VACUUM ANALYZE gx_cur;

-- run 'decl' (a DECLARE of cursor gx_c), then each command; one line per
-- row a command returns, or per command the rows it moved or changed
CREATE FUNCTION gx_cursor_trace(decl text, cmds text[]) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
    cmd text;
    r record;
    n int;
BEGIN
    EXECUTE decl;
    FOREACH cmd IN ARRAY cmds LOOP
        IF cmd ~* '^(MOVE|UPDATE|DELETE)' AND cmd !~* 'RETURNING' THEN
            EXECUTE cmd;
            GET DIAGNOSTICS n = ROW_COUNT;
            RETURN NEXT cmd || ': ' || n;
        ELSE
            FOR r IN EXECUTE cmd LOOP
                RETURN NEXT cmd || ': ' || r::text;
            END LOOP;
        END IF;
    END LOOP;
    EXECUTE 'CLOSE gx_c';
END $$;

-- the trace with gpuext off and with the GpuScan forced (each undone);
-- prints whether the cursor's plan has a GpuScan, the forced trace, and
-- whether it equals the trace without gpuext
CREATE FUNCTION gx_cursor_check(decl text, cmds text[]) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
    ref text[];
    got text[];
    line text;
BEGIN
    BEGIN
        PERFORM set_config('gpuext.enabled', 'off', true);
        ref := ARRAY(SELECT gx_cursor_trace(decl, cmds));
        RAISE EXCEPTION USING ERRCODE = 'GXUND';
    EXCEPTION WHEN SQLSTATE 'GXUND' THEN
        NULL;
    END;
    BEGIN
        PERFORM set_config('gpuext.enabled', 'on', true);
        PERFORM set_config('gpuext.force', 'on', true);
        RETURN NEXT 'GpuScan: ' ||
            gx_uses_gpuscan(regexp_replace(decl, '^.* FOR ', ''));
        got := ARRAY(SELECT gx_cursor_trace(decl, cmds));
        RAISE EXCEPTION USING ERRCODE = 'GXUND';
    EXCEPTION WHEN SQLSTATE 'GXUND' THEN
        NULL;
    END;
    FOREACH line IN ARRAY got LOOP
        RETURN NEXT line;
    END LOOP;
    RETURN NEXT 'same as gpuext off: ' || (got = ref);
END $$;

BEGIN;
-- a cursor without SCROLL / NO SCROLL: scrollable when its plan is
SELECT * FROM gx_cursor_check('DECLARE gx_c CURSOR FOR SELECT id FROM gx_cur WHERE a = 5',
    ARRAY['FETCH 2 FROM gx_c', 'FETCH BACKWARD 1 FROM gx_c', 'FETCH BACKWARD 5 FROM gx_c',
          'FETCH 3 FROM gx_c', 'MOVE BACKWARD ALL FROM gx_c', 'FETCH 1 FROM gx_c',
          'FETCH LAST FROM gx_c', 'FETCH PRIOR FROM gx_c', 'FETCH ABSOLUTE 4 FROM gx_c',
          'FETCH RELATIVE -2 FROM gx_c', 'FETCH FORWARD 2 FROM gx_c']);
-- WHERE CURRENT OF after moving back and forth; the cursor still sees
-- the rows as they were
SELECT * FROM gx_cursor_check('DECLARE gx_c CURSOR FOR SELECT id, a FROM gx_cur WHERE a = 3 AND id < 200',
    ARRAY['FETCH 3 FROM gx_c', 'FETCH BACKWARD 1 FROM gx_c',
          'UPDATE gx_cur SET a = -a WHERE CURRENT OF gx_c RETURNING id, a',
          'FETCH ABSOLUTE -1 FROM gx_c', 'FETCH BACKWARD 2 FROM gx_c',
          'DELETE FROM gx_cur WHERE CURRENT OF gx_c RETURNING id',
          'FETCH FORWARD ALL FROM gx_c', 'FETCH BACKWARD ALL FROM gx_c',
          'SELECT count(*) FROM gx_cur WHERE a = 3 AND id < 200',
          'SELECT id, a FROM gx_cur WHERE a = -3']);
-- SCROLL, with a projection and a host qual
SELECT * FROM gx_cursor_check('DECLARE gx_c SCROLL CURSOR FOR SELECT id, f * 2 FROM gx_cur WHERE a = 7 AND id < 100 AND random() >= 0',
    ARRAY['FETCH ALL FROM gx_c', 'FETCH BACKWARD ALL FROM gx_c', 'FETCH ABSOLUTE 3 FROM gx_c',
          'FETCH RELATIVE 0 FROM gx_c', 'MOVE LAST IN gx_c', 'FETCH NEXT FROM gx_c',
          'FETCH PRIOR FROM gx_c']);
-- no rows at all
SELECT * FROM gx_cursor_check('DECLARE gx_c CURSOR FOR SELECT id FROM gx_cur WHERE a = 11',
    ARRAY['FETCH 2 FROM gx_c', 'FETCH BACKWARD 1 FROM gx_c', 'FETCH LAST FROM gx_c']);
ROLLBACK;

-- the same from the column cache (VACUUM first: the rolled-back changes
-- above left pages that are not all-visible; before it, wait until no
-- other transaction holds back the horizon VACUUM cleans up to, such as
-- autovacuum's ANALYZE of an earlier test's table: its pages would stay
-- not all-visible and out of the cache)
DO $$
BEGIN
    FOR i IN 1..600 LOOP
        PERFORM pg_stat_clear_snapshot();	-- (a fresh look each time)
        EXIT WHEN NOT EXISTS (SELECT 1 FROM pg_stat_activity
                              WHERE backend_xmin IS NOT NULL AND pid <> pg_backend_pid());
        PERFORM pg_sleep(0.05);
    END LOOP;
END $$;
VACUUM gx_cur;
SELECT gpuext_cache_load('gx_cur') > 0 AS cached;
BEGIN;
SELECT * FROM gx_cursor_check('DECLARE gx_c CURSOR FOR SELECT id, a FROM gx_cur WHERE a = 9 AND id > 49900',
    ARRAY['FETCH 4 FROM gx_c', 'FETCH BACKWARD 2 FROM gx_c',
          'UPDATE gx_cur SET a = 90 WHERE CURRENT OF gx_c RETURNING id, a',
          'FETCH LAST FROM gx_c', 'FETCH ABSOLUTE 2 FROM gx_c']);
ROLLBACK;
SELECT gpuext_cache_evict('gx_cur');

-- NO SCROLL: going back is refused, with GpuScan as without
BEGIN;
SET LOCAL gpuext.force = on;
DECLARE gx_c NO SCROLL CURSOR FOR SELECT id FROM gx_cur WHERE a = 5;
FETCH 2 FROM gx_c;
FETCH BACKWARD 1 FROM gx_c;
ROLLBACK;

-- a query that is not a cursor keeps the forward-only GpuScan
SET gpuext.force = on;
SELECT gx_check('SELECT id FROM gx_cur WHERE a = 5 AND id < 100');
RESET gpuext.force;

DROP FUNCTION gx_cursor_check(text, text[]);
DROP FUNCTION gx_cursor_trace(text, text[]);
DROP TABLE gx_cur;
