-- cache: the device-resident column cache (gpuext_cache_load, the
-- gpuext_cache view, stale blocks under every kind of change, refreshes,
-- eviction).  Each query is checked against gpuext off (gx_check) with the
-- cache in use, and the scan's EXPLAIN ANALYZE counters show whether cached
-- chunks were read and how many stale blocks came from the heap.  The test
-- cluster runs with gpuext.cache_size = 256MB: two 128 MB units, 256
-- granules of 1 MB, 64 directory entries.

-- cached / not-valid chunk and stale block counters of a query's GpuScan
CREATE FUNCTION gx_cache_use(q text) RETURNS text LANGUAGE plpgsql
    SET gpuext.force = on AS $$
DECLARE
    line text;
    hit text := '0';
    bad text := '0';
    stale text := '0';
    chunks text := '?';
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
        IF line ~ 'Cached Chunks: ' THEN hit := substring(line from 'Cached Chunks: (\d+)'); END IF;
        IF line ~ 'Cache Entries Not Valid: ' THEN bad := substring(line from 'Not Valid: (\d+)'); END IF;
        IF line ~ 'Cache Stale Blocks: ' THEN stale := substring(line from 'Stale Blocks: (\d+)'); END IF;
        IF line ~ ' Chunks: ' AND line !~ 'Cached' THEN chunks := substring(line from 'Chunks: (\d+)'); END IF;
    END LOOP;
    RETURN format('chunks %s, cached %s, not valid %s, stale blocks %s', chunks, hit, bad, stale);
END $$;

-- the view, without sizes that depend on the row layout
CREATE FUNCTION gx_cache_view() RETURNS TABLE(tab text, cols text, chunks int, rows bigint, state text)
LANGUAGE sql AS $$
    SELECT "table"::text, columns, chunks, rows, state FROM gpuext_cache
    WHERE state <> 'stale' ORDER BY 1
$$;

SET max_parallel_workers_per_gather = 0;
-- no background refresh but where this test asks for it (at the end)
SET gpuext.cache_refresh = off;
SELECT current_setting('gpuext.cache_size') AS cache_size;

CREATE TABLE gx_ct (
    id int4, i2 int2, i4 int4, i8 int8, f4 float4, f8 float8, b bool, d date,
    ts timestamp, t text, w text);
ALTER TABLE gx_ct ALTER COLUMN w SET STORAGE EXTERNAL;
INSERT INTO gx_ct
SELECT g,
       CASE WHEN g % 17 = 0 THEN NULL ELSE (g * 7 % 201 - 100) END,
       CASE WHEN g % 19 = 0 THEN NULL ELSE (g * 13 % 2001 - 1000) END,
       CASE WHEN g % 23 = 0 THEN NULL ELSE (g::int8 * 7919 % 200001 - 100000) END,
       CASE WHEN g % 29 = 0 THEN NULL ELSE ((g * 37 % 2001 - 1000) / 8.0)::float4 END,
       CASE WHEN g % 31 = 0 THEN NULL ELSE ((g * 41 % 2001 - 1000) / 16.0)::float8 END,
       CASE WHEN g % 7 = 0 THEN NULL ELSE g % 3 = 0 END,
       CASE WHEN g % 11 = 0 THEN NULL ELSE date '2020-01-01' + (g * 3 % 1500) END,
       CASE WHEN g % 13 = 0 THEN NULL
            ELSE timestamp '2020-01-01' + (g * 7919 % 100000) * interval '1 minute' END,
       CASE WHEN g % 5 = 0 THEN NULL ELSE repeat('t', g % 40) END,
       CASE WHEN g % 1000 = 1 THEN repeat('w', 3000) END
FROM generate_series(1, 20000) g;
VACUUM (FREEZE, ANALYZE) gx_ct;

-- loading: every fixed-width column, all blocks all-visible
SELECT gpuext_cache_load('gx_ct');
SELECT * FROM gx_cache_view();
SELECT gx_cache_use('SELECT count(*) FROM gx_ct WHERE i4 > 0');

-- results equal gpuext off, with the cache in use: count-only scans,
-- scans returning rows (fetched from the heap), NULLs, every type
SELECT gx_check('SELECT count(*) FROM gx_ct WHERE i4 > 0');
SELECT gx_check('SELECT id, t FROM gx_ct WHERE i2 < -50 AND f8 > 10');
SELECT gx_check('SELECT id FROM gx_ct WHERE i8 IS NULL OR b');
SELECT gx_check('SELECT id, length(w) FROM gx_ct WHERE d > date ''2023-01-01'' AND ts < timestamp ''2020-02-01''');
SELECT gx_check('SELECT count(*), sum(i8) FROM gx_ct WHERE f4 * 2 > 100 OR i2 IS NULL');
SELECT gx_check('SELECT * FROM gx_ct WHERE id % 1000 = 1 AND i4 <> 0');
SELECT gx_cache_use('SELECT id, t FROM gx_ct WHERE i2 < -50 AND f8 > 10');
-- a cached chunk returns more rows than a heap chunk holds
SET gpuext.chunk_rows = 1024;
SELECT gx_check('SELECT id, i2 FROM gx_ct WHERE i4 > -900');
SELECT gx_cache_use('SELECT id, i2 FROM gx_ct WHERE i4 > -900');
RESET gpuext.chunk_rows;
-- errors: rows before the erroring row, then the same ERROR
SELECT gx_error('SELECT id FROM gx_ct WHERE 100 / (i4 - 24) > 0');
SELECT gx_error('SELECT count(*) FROM gx_ct WHERE i2 * 1000 > 0 AND i2 * 1000 * 1000 * 1000 > 0');
-- a parameterized rescan (nested loop) reads the cache at every loop
SELECT gx_check('SELECT o.x, (SELECT count(*) FROM gx_ct WHERE i2 = o.x) FROM (VALUES (1), (5), (-7)) o(x)');
-- with the cache off, the same results from the heap
SET gpuext.use_cache = off;
SELECT gx_cache_use('SELECT count(*) FROM gx_ct WHERE i4 > 0');
SELECT gx_check('SELECT id, t FROM gx_ct WHERE i2 < -50 AND f8 > 10');
RESET gpuext.use_cache;
SELECT hits > 0 AS hit FROM gpuext_cache WHERE "table" = 'gx_ct'::regclass;

-- own uncommitted changes: the changed blocks are no longer all-visible,
-- so they are stale: read from the heap, the rest of the entry from the
-- device
BEGIN;
UPDATE gx_ct SET i4 = 5000 WHERE id = 100;
SELECT gx_cache_use('SELECT count(*) FROM gx_ct WHERE i4 > 0');
SELECT gx_check('SELECT id, i4 FROM gx_ct WHERE i4 >= 999');
DELETE FROM gx_ct WHERE id BETWEEN 200 AND 210;
INSERT INTO gx_ct (id, i4) VALUES (30000, 7777);
SELECT gx_check('SELECT id, i4 FROM gx_ct WHERE i4 >= 999 OR id BETWEEN 195 AND 215');
ROLLBACK;
-- the aborted changes are gone; the blocks stay stale (bits cleared)
SELECT gx_cache_use('SELECT count(*) FROM gx_ct WHERE i4 > 0');
SELECT * FROM gx_cache_view();
SELECT gx_check('SELECT id, i4 FROM gx_ct WHERE i4 >= 999 OR id BETWEEN 195 AND 215');
-- VACUUM sets the bits again, with a new VM page LSN: the blocks are
-- checked by their page LSN, and the changed ones stay stale
VACUUM gx_ct;
SELECT gx_cache_use('SELECT count(*) FROM gx_ct WHERE i4 > 0');
SELECT gx_check('SELECT count(*) FROM gx_ct WHERE i4 > 0');
-- a refresh reloads them in place (the DELETE left padding rows)
SELECT gpuext_cache_refresh('gx_ct');
SELECT gx_cache_use('SELECT count(*) FROM gx_ct WHERE i4 > 0');
SELECT gx_check('SELECT id, i4 FROM gx_ct WHERE i4 >= 999 OR id BETWEEN 195 AND 215');
SELECT gx_check('SELECT count(*), sum(i8) FROM gx_ct WHERE i2 < 0');
SELECT * FROM gx_cache_view();
-- reloading makes it whole again
SELECT gpuext_cache_load('gx_ct');
SELECT gx_cache_use('SELECT count(*) FROM gx_ct WHERE i4 > 0');

-- committed changes by this session
UPDATE gx_ct SET i2 = 42 WHERE id % 1000 = 7;
SELECT gx_cache_use('SELECT count(*) FROM gx_ct WHERE i2 = 42');
SELECT gx_check('SELECT id FROM gx_ct WHERE i2 = 42');
VACUUM (FREEZE) gx_ct;
SELECT gpuext_cache_load('gx_ct');

-- COPY into the table
COPY gx_ct (id, i2, i4) FROM stdin;
40001	42	1
40002	42	\N
\.
SELECT gx_cache_use('SELECT count(*) FROM gx_ct WHERE i2 = 42');
SELECT gx_check('SELECT id FROM gx_ct WHERE i2 = 42');

-- blocks that are not all-visible when loaded are stale blocks (with no
-- rows) of an entry: scans read them from the heap, and changes there
-- leave the rest of the entry in use
CREATE TABLE gx_cm (id int4, v int4);
INSERT INTO gx_cm SELECT g, g % 100 FROM generate_series(1, 30000) g;
VACUUM (FREEZE) gx_cm;
UPDATE gx_cm SET v = 1000 WHERE id = 15000;
SELECT gpuext_cache_load('gx_cm');
SELECT * FROM gx_cache_view();
SELECT gx_cache_use('SELECT count(*) FROM gx_cm WHERE v >= 99');
SELECT gx_check('SELECT id, v FROM gx_cm WHERE v >= 99');
SELECT gx_check('SELECT count(*), sum(id) FROM gx_cm WHERE v < 3');
UPDATE gx_cm SET v = 2000 WHERE id = 15000;
SELECT gx_cache_use('SELECT count(*) FROM gx_cm WHERE v >= 99');
SELECT gx_check('SELECT id, v FROM gx_cm WHERE v >= 99');
-- the planner charges no heap reading for cached blocks: GpuScan wins
-- without gpuext.force once the table is cached
SET gpuext.gpu_setup_cost = 200;
SELECT gx_uses_gpuscan('SELECT count(*) FROM gx_cm WHERE v >= 99') AS cached_plan;
SET gpuext.use_cache = off;
SELECT gx_uses_gpuscan('SELECT count(*) FROM gx_cm WHERE v >= 99') AS uncached_plan;
RESET gpuext.use_cache;
RESET gpuext.gpu_setup_cost;
-- a change in every other block: one entry whose changed blocks are
-- stale; a later change makes one more block stale
VACUUM (FREEZE) gx_cm;
UPDATE gx_cm SET v = v + 1 WHERE id % 452 = 5;
SELECT gpuext_cache_load('gx_cm');
SELECT * FROM gx_cache_view();
SELECT gx_cache_use('SELECT count(*) FROM gx_cm WHERE v >= 99');
SELECT gx_check('SELECT id, v FROM gx_cm WHERE v >= 98');
-- (on PostgreSQL 18 the VM page's LSN also moves when a bit is cleared:
-- there the scan checks the entry's blocks by their page LSNs, with the
-- same result)
DELETE FROM gx_cm WHERE id = 29700;
SELECT * FROM gx_cache_view();
SELECT gx_cache_use('SELECT count(*) FROM gx_cm WHERE v >= 99');
SELECT gx_check('SELECT id, v FROM gx_cm WHERE v >= 98');

-- small tables take the granules their rows need, not a 128 MB unit
-- each: gx_c3 (1000 rows) joins gx_ct and gx_cm with 1 MB reserved
CREATE TABLE gx_c3 (id int4, v int8);
INSERT INTO gx_c3 SELECT g, g FROM generate_series(1, 1000) g;
VACUUM (FREEZE) gx_c3;
SELECT gpuext_cache_load('gx_c3');
SELECT * FROM gx_cache_view();
SELECT reserved_bytes, bytes > 0 AND bytes <= reserved_bytes AS used_within_reserved
FROM gpuext_cache WHERE "table" = 'gx_c3'::regclass;
SELECT gx_check('SELECT count(*) FROM gx_c3 WHERE v > 500');
SELECT gx_cache_use('SELECT count(*) FROM gx_c3 WHERE v > 500');
-- ten more small tables, and every table stays cached
SELECT format('CREATE TABLE gx_small%s AS SELECT g AS id, g %% 7 AS v FROM generate_series(1, 1000) g', i)
FROM generate_series(1, 10) i \gexec
SELECT format('VACUUM (FREEZE) gx_small%s', i) FROM generate_series(1, 10) i \gexec
SELECT sum(gpuext_cache_load(format('gx_small%s', i)::regclass)) AS rows
FROM generate_series(1, 10) i;
SELECT count(*) AS tables, sum(reserved_bytes) / 1048576 AS reserved_mb
FROM gpuext_cache WHERE "table"::text LIKE 'gx_small%';
SELECT * FROM gx_cache_view() WHERE tab NOT LIKE 'gx_small%';
SELECT gx_check('SELECT count(*) FROM gx_small7 WHERE v = 3');
SELECT gx_cache_use('SELECT count(*) FROM gx_small7 WHERE v = 3');
SELECT sum(gpuext_cache_evict(format('gx_small%s', i)::regclass)) AS evicted
FROM generate_series(1, 10) i;
SELECT format('DROP TABLE gx_small%s', i) FROM generate_series(1, 10) i \gexec

-- eviction, least recently used first: with entries of at most 1000 rows
-- (gpuext.cache_entry_rows) gx_e1 and gx_e2 take 46 of the 64 directory
-- entries; gx_e1 is read after gx_e2 is loaded, so gx_e3's entries take
-- the places of gx_e2's oldest ones, and gx_e2's scans read those blocks
-- from the heap
SELECT gpuext_cache_evict('gx_ct') + gpuext_cache_evict('gx_cm') + gpuext_cache_evict('gx_c3') AS evicted;
CREATE TABLE gx_e1 (id int4, v int4);
INSERT INTO gx_e1 SELECT g, g % 100 FROM generate_series(1, 20000) g;
CREATE TABLE gx_e2 (LIKE gx_e1);
INSERT INTO gx_e2 SELECT * FROM gx_e1;
CREATE TABLE gx_e3 (LIKE gx_e1);
INSERT INTO gx_e3 SELECT * FROM gx_e1;
VACUUM (FREEZE) gx_e1, gx_e2, gx_e3;
SET gpuext.cache_entry_rows = 1000;
SELECT gpuext_cache_load('gx_e1'), gpuext_cache_load('gx_e2');
SELECT gx_cache_use('SELECT count(*) FROM gx_e1 WHERE v = 7');
SELECT gpuext_cache_load('gx_e3');
RESET gpuext.cache_entry_rows;
SELECT * FROM gx_cache_view();
SELECT gx_cache_use('SELECT count(*) FROM gx_e2 WHERE v = 7');
SELECT gx_check('SELECT count(*), sum(id) FROM gx_e2 WHERE v = 7');
SELECT gx_check('SELECT id FROM gx_e3 WHERE v = 7 AND id > 19000');
SELECT gpuext_cache_evict('gx_e1') + gpuext_cache_evict('gx_e2') + gpuext_cache_evict('gx_e3') AS evicted;
DROP TABLE gx_e1, gx_e2, gx_e3;
SELECT gpuext_cache_load('gx_cm') > 0 AS loaded, gpuext_cache_load('gx_c3') > 0 AS loaded;

-- TRUNCATE, VACUUM FULL, CLUSTER, rewriting ALTER TABLE: a new relfilenode
SELECT gpuext_cache_evict('gx_cm');
SELECT gpuext_cache_load('gx_ct');
TRUNCATE gx_c3;
INSERT INTO gx_c3 VALUES (1, 1000), (2, 2000);
SELECT gx_cache_use('SELECT count(*) FROM gx_c3 WHERE v > 500');
SELECT gx_check('SELECT id FROM gx_c3 WHERE v > 500');
SELECT "table", state FROM gpuext_cache WHERE "table" = 'gx_c3'::regclass;
VACUUM FULL gx_ct;
SELECT gx_cache_use('SELECT count(*) FROM gx_ct WHERE i4 > 0');
SELECT gx_check('SELECT count(*) FROM gx_ct WHERE i4 > 0');
SELECT gpuext_cache_load('gx_ct');
CREATE INDEX gx_ct_id ON gx_ct (id);
CLUSTER gx_ct USING gx_ct_id;
SELECT gx_cache_use('SELECT count(*) FROM gx_ct WHERE i4 > 0');
SELECT gx_check('SELECT id FROM gx_ct WHERE i4 > 990');
VACUUM (FREEZE) gx_ct;
SELECT gpuext_cache_load('gx_ct');
-- ADD COLUMN keeps the relfilenode: the cached columns stay valid,
-- the new one is not cached (the scan reads the heap)
ALTER TABLE gx_ct ADD COLUMN z int4 DEFAULT 3;
SELECT gx_cache_use('SELECT count(*) FROM gx_ct WHERE i4 > 0');
SELECT gx_cache_use('SELECT count(*) FROM gx_ct WHERE z = 3 AND i4 > 0');
SELECT gx_check('SELECT count(*) FROM gx_ct WHERE z = 3 AND i4 > 0');
ALTER TABLE gx_ct ALTER COLUMN i4 TYPE int8;
SELECT gx_cache_use('SELECT count(*) FROM gx_ct WHERE i4 > 0');
SELECT gx_check('SELECT id FROM gx_ct WHERE i4 > 990');
-- DROP: the entries are found by nobody; the view shows them as stale
-- (to superusers only: the table is gone)
VACUUM (FREEZE) gx_c3;
SELECT gpuext_cache_load('gx_c3');
DROP TABLE gx_c3;
SELECT * FROM gx_cache_view();
SELECT count(*) FROM gpuext_cache WHERE state = 'stale';

-- privileges: loading and evicting are not executable by PUBLIC (the
-- administrator grants them: the cache is shared by every user of the
-- server) and need the table's ownership; seeing a table in gpuext_cache
-- needs SELECT on it
CREATE ROLE gx_cache_user;
SET ROLE gx_cache_user;
SELECT gpuext_cache_load('gx_cm');
SELECT gpuext_cache_evict('gx_cm');
SELECT count(*) FROM gpuext_cache;
RESET ROLE;
GRANT EXECUTE ON FUNCTION gpuext_cache_load(regclass, text[]), gpuext_cache_evict(regclass)
    TO gx_cache_user;
GRANT SELECT ON gx_cm TO gx_cache_user;
SELECT gpuext_cache_evict('gx_ct');
SET ROLE gx_cache_user;
SELECT gpuext_cache_load('gx_cm');
SELECT gpuext_cache_evict('gx_cm');
RESET ROLE;
ALTER TABLE gx_cm OWNER TO gx_cache_user;
SET ROLE gx_cache_user;
SELECT gpuext_cache_load('gx_cm');
SELECT "table", state FROM gpuext_cache;
SELECT gpuext_cache_evict('gx_ct');
RESET ROLE;
ALTER TABLE gx_cm OWNER TO CURRENT_USER;
REVOKE EXECUTE ON FUNCTION gpuext_cache_load(regclass, text[]), gpuext_cache_evict(regclass)
    FROM gx_cache_user;

-- all or nothing: a load that fails in any of its tasks (the task after
-- gpuext.debug_fault_skip ones fails) leaves none of the table cached,
-- and the next load works.  gx_cf is loaded in entries of at most 5000
-- rows, so some failures come after a first entry.
SELECT gpuext_cache_evict('gx_cm') + gpuext_cache_evict('gx_ct') >= 0 AS evicted;
CREATE TABLE gx_cf (id int4, v int4);
INSERT INTO gx_cf SELECT g, g % 100 FROM generate_series(1, 40000) g;
VACUUM (FREEZE) gx_cf;
UPDATE gx_cf SET v = -1 WHERE id % 452 = 7;
-- load gx_cf with the task after 0, 1, 2, ... tasks failing, until a
-- load passes: how many failed, the most entries a failed one left, and
-- the entries of the load that passed
CREATE FUNCTION gx_fault_loads(OUT several_failed bool, OUT most_left_after_failure bigint,
                               OUT entries_when_loaded bigint) LANGUAGE plpgsql AS $$
DECLARE
    k int := 0;
    ok bool;
    n bigint;
BEGIN
    most_left_after_failure := 0;
    PERFORM set_config('gpuext.cache_entry_rows', '5000', true);
    LOOP
        PERFORM set_config('gpuext.debug_fault_skip', k::text, true);
        PERFORM set_config('gpuext.debug_fault', 'task_error', true);
        BEGIN
            PERFORM gpuext_cache_load('gx_cf');
            ok := true;
        EXCEPTION WHEN OTHERS THEN
            ok := false;
        END;
        PERFORM set_config('gpuext.debug_fault', 'none', true);
        SELECT coalesce(sum(chunks), 0) INTO n FROM gx_cache_view() WHERE tab = 'gx_cf';
        EXIT WHEN ok OR k >= 200;
        most_left_after_failure := greatest(most_left_after_failure, n);
        k := k + 1;
    END LOOP;
    several_failed := k >= 2;
    entries_when_loaded := CASE WHEN ok THEN n END;
END $$;
SET client_min_messages = warning;
SELECT * FROM gx_fault_loads();
RESET client_min_messages;
SELECT gpuext_cache_evict('gx_cf') AS evicted;
SELECT gpuext_cache_load('gx_cf') > 0 AS loaded;
SELECT * FROM gx_cache_view();
SELECT gx_check('SELECT count(*), sum(id) FROM gx_cf WHERE v < 0');
SELECT gpuext_cache_evict('gx_cf') AS evicted;
DROP FUNCTION gx_fault_loads();
DROP TABLE gx_cf;

-- refresh in place.  gx_rf's rows have a text column, so that small rows
-- can later fill a block past the rows its entry has for it.
CREATE TABLE gx_rf (id int4, v int4, pad text);
INSERT INTO gx_rf SELECT g, g % 100, repeat('x', 20) FROM generate_series(1, 20000) g;
VACUUM (FREEZE) gx_rf;
SELECT gpuext_cache_load('gx_rf');
-- an UPDATE (the new versions elsewhere) and every row of block 3 deleted
UPDATE gx_rf SET v = 1000 WHERE id IN (10, 5000);
DELETE FROM gx_rf WHERE (ctid::text::point)[0] = 3;
SELECT gx_cache_use('SELECT count(*) FROM gx_rf WHERE v >= 99');
SELECT gx_check('SELECT id, v FROM gx_rf WHERE v >= 99 OR id BETWEEN 400 AND 560');
-- VACUUM: the blocks are all-visible again but changed: still stale
VACUUM gx_rf;
SELECT gx_cache_use('SELECT count(*) FROM gx_rf WHERE v >= 99');
-- the refresh reloads them into their rows (fewer tuples: padding rows)
SELECT gpuext_cache_refresh('gx_rf') AS refreshed;
SELECT gx_cache_use('SELECT count(*) FROM gx_rf WHERE v >= 99');
SELECT gx_check('SELECT id, v FROM gx_rf WHERE v >= 99 OR id BETWEEN 400 AND 560');
SELECT gx_check('SELECT count(*), sum(id), sum(v) FROM gx_rf WHERE v > -1');
SELECT gx_check('SELECT count(*), sum(id) FROM gx_rf WHERE v IS NULL OR v = 0');
SELECT stale_blocks, refreshed_blocks, rows, state FROM gpuext_cache
WHERE "table" = 'gx_rf'::regclass;
-- small rows into the emptied block 3: more tuples than the entry has
-- rows for it, so it stays stale (read from the heap) until a reload
INSERT INTO gx_rf SELECT g, 7, NULL FROM generate_series(30001, 30200) g;
VACUUM gx_rf;
SELECT count(*) > 136 AS block3_fuller FROM gx_rf WHERE (ctid::text::point)[0] = 3;
SELECT gpuext_cache_refresh('gx_rf') >= 0 AS refreshed;
SELECT gx_cache_use('SELECT count(*) FROM gx_rf WHERE v = 7');
SELECT gx_check('SELECT count(*), sum(id) FROM gx_rf WHERE v = 7');
SELECT stale_blocks > 0 AS some_stale FROM gpuext_cache WHERE "table" = 'gx_rf'::regclass;
-- refreshing needs the table's ownership (and EXECUTE, not PUBLIC's)
SET ROLE gx_cache_user;
SELECT gpuext_cache_refresh('gx_rf');
RESET ROLE;

-- the background refresh: a scan that finds stale blocks all-visible
-- again starts the refresher, which reloads them while the session waits
CREATE FUNCTION gx_wait_refreshed(t regclass, n bigint) RETURNS bool LANGUAGE plpgsql AS $$
BEGIN
    FOR i IN 1..600 LOOP
        IF (SELECT refreshed_blocks FROM gpuext_cache WHERE "table" = t) >= n THEN
            RETURN true;
        END IF;
        PERFORM pg_sleep(0.1);
    END LOOP;
    RETURN false;
END $$;
SELECT refreshed_blocks AS before FROM gpuext_cache WHERE "table" = 'gx_rf'::regclass \gset
UPDATE gx_rf SET v = 2000 WHERE id = 15000;
VACUUM gx_rf;
SET gpuext.cache_refresh = on;
SELECT gx_check('SELECT count(*), sum(id) FROM gx_rf WHERE v >= 99');
SELECT gx_wait_refreshed('gx_rf', :before + 1) AS refreshed_in_background;
SET gpuext.cache_refresh = off;
SELECT gx_check('SELECT count(*), sum(id) FROM gx_rf WHERE v >= 99');
SELECT count(*) AS loads_running FROM gpuext_cache_progress;
SELECT gpuext_cache_evict('gx_rf');
DROP FUNCTION gx_wait_refreshed(regclass, bigint);
DROP TABLE gx_rf;

-- automatic admission (gpuext.cache_policy = auto, server-wide): a table
-- that GpuScans read without the cache gpuext.cache_admit_scans times is
-- loaded by the background worker, into free cache space only
CREATE TABLE gx_ad (id int4, v int4);
INSERT INTO gx_ad SELECT g, g % 50 FROM generate_series(1, 20000) g;
VACUUM (FREEZE) gx_ad;
CREATE FUNCTION gx_wait_cached(t regclass) RETURNS bool LANGUAGE plpgsql AS $$
BEGIN
    FOR i IN 1..600 LOOP
        IF EXISTS (SELECT FROM gpuext_cache WHERE "table" = t AND state = 'ready') THEN
            RETURN true;
        END IF;
        PERFORM pg_sleep(0.1);
    END LOOP;
    RETURN false;
END $$;
CREATE FUNCTION gx_scan_times(q text, n int) RETURNS void LANGUAGE plpgsql
    SET gpuext.force = on AS $$
BEGIN
    FOR i IN 1..n LOOP
        EXECUTE q;
    END LOOP;
END $$;
ALTER SYSTEM SET gpuext.cache_policy = auto;
ALTER SYSTEM SET gpuext.cache_admit_scans = 3;
ALTER SYSTEM SET gpuext.cache_admit_pages = 1;
SELECT pg_reload_conf();
SELECT pg_sleep(0.5);
SHOW gpuext.cache_policy;
SELECT count(*) FROM gpuext_cache WHERE "table" = 'gx_ad'::regclass;
SELECT gx_scan_times('SELECT count(*) FROM gx_ad WHERE v = 7', 3);
SELECT gx_wait_cached('gx_ad') AS admitted;
SELECT gx_cache_use('SELECT count(*) FROM gx_ad WHERE v = 7');
SELECT gx_check('SELECT id FROM gx_ad WHERE v = 7 AND id < 2000');
ALTER SYSTEM RESET gpuext.cache_policy;
ALTER SYSTEM RESET gpuext.cache_admit_scans;
ALTER SYSTEM RESET gpuext.cache_admit_pages;
SELECT pg_reload_conf();
SELECT pg_sleep(0.5);
SHOW gpuext.cache_policy;
SELECT gpuext_cache_evict('gx_ad');
DROP FUNCTION gx_wait_cached(regclass);
DROP FUNCTION gx_scan_times(text, int);
DROP TABLE gx_ad;

-- what cannot be cached
CREATE TEMP TABLE gx_ctemp (a int4);
SELECT gpuext_cache_load('gx_ctemp');
CREATE UNLOGGED TABLE gx_cunl (a int4);
SELECT gpuext_cache_load('gx_cunl');
CREATE VIEW gx_cview AS SELECT 1 AS a;
SELECT gpuext_cache_load('gx_cview');
CREATE TABLE gx_ctext (t text);
SELECT gpuext_cache_load('gx_ctext');

SELECT gpuext_cache_evict('gx_cm');
SELECT * FROM gx_cache_view();
DROP TABLE gx_ct, gx_cm, gx_cunl, gx_ctext;
DROP VIEW gx_cview;
DROP ROLE gx_cache_user;
