--
-- ptree: the prefix-tree index access method gpuext_ptree.  Every query
-- runs four ways: its plan forced to a gpuext_ptree index scan, forced to a
-- bitmap scan, on a copy of the table with btree indexes, and as a
-- sequential scan (the reference); the output says how many rows, which
-- index each forced plan used, and whether all results are the same.
-- Queries with ORDER BY compare rows in order.
--
SET gpuext.enabled = off;

-- which index q's plan scans, and how
CREATE FUNCTION pt_plan(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    line text;
    r text := 'no index';
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        IF line ~ 'Index Scan Backward using \w+_pt ' THEN
            r := 'ptree backward';
        ELSIF line ~ 'Index Scan using \w+_pt ' THEN
            r := 'ptree';
        ELSIF line ~ 'Bitmap Index Scan on \w+_pt' THEN
            r := 'ptree bitmap';
        ELSIF line ~ 'Index (Only )?Scan( Backward)? using \w+_bt ' THEN
            r := 'btree';
        END IF;
    END LOOP;
    RETURN r;
END $$;

-- q's rows, in order or sorted
CREATE FUNCTION pt_rows(q text, ordered bool) RETURNS text[] LANGUAGE plpgsql AS $$
DECLARE
    r text[];
BEGIN
    IF ordered THEN
        EXECUTE format('SELECT coalesce(array_agg(t::text), ''{}'') FROM (%s) t', q) INTO r;
    ELSE
        r := gx_rows(q);
    END IF;
    RETURN r;
END $$;

-- the planner settings of a way to run: index, bitmap or seq
CREATE FUNCTION pt_mode(mode text) RETURNS void LANGUAGE sql AS $$
    SELECT set_config('enable_seqscan', CASE WHEN mode = 'seq' THEN 'on' ELSE 'off' END, true),
           set_config('enable_indexscan', CASE WHEN mode = 'index' THEN 'on' ELSE 'off' END, true),
           set_config('enable_indexonlyscan', CASE WHEN mode = 'index' THEN 'on' ELSE 'off' END, true),
           set_config('enable_bitmapscan', CASE WHEN mode = 'bitmap' THEN 'on' ELSE 'off' END, true),
           set_config('enable_sort', CASE WHEN mode = 'index' THEN 'off' ELSE 'on' END, true);
$$;

-- q (a format string: %1$s is the table) on tab (gpuext_ptree indexes) and
-- btab (a copy with btree indexes), four ways
CREATE FUNCTION pt_check(q text, ordered bool DEFAULT false, tab text DEFAULT 'pt', btab text DEFAULT 'bt')
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    ref text[];
    got text[];
    plans text[] := '{}';
    bad text := '';
    way text;
BEGIN
    PERFORM pt_mode('seq');
    ref := pt_rows(format(q, tab), ordered);
    FOREACH way IN ARRAY ARRAY['index ' || tab, 'bitmap ' || tab, 'index ' || btab] LOOP
        PERFORM pt_mode(split_part(way, ' ', 1));
        -- what the forced way ran (a plan it was not forced to: its kind only)
        plans := plans || CASE WHEN pt_plan(format(q, split_part(way, ' ', 2))) IN
                                    ('ptree', 'ptree backward', 'ptree bitmap', 'btree')
                                    AND (way = 'bitmap ' || tab) = (pt_plan(format(q, split_part(way, ' ', 2))) = 'ptree bitmap')
                               THEN pt_plan(format(q, split_part(way, ' ', 2)))
                               WHEN way = 'bitmap ' || tab THEN 'no bitmap scan' ELSE 'no index scan' END;
        got := pt_rows(format(q, split_part(way, ' ', 2)), ordered);
        IF got IS DISTINCT FROM ref THEN
            bad := bad || format(' %s: %s', way, gx_diff(ref, got));
        END IF;
    END LOOP;
    PERFORM set_config('enable_seqscan', 'on', true), set_config('enable_indexscan', 'on', true),
            set_config('enable_bitmapscan', 'on', true), set_config('enable_sort', 'on', true),
            set_config('enable_indexonlyscan', 'on', true);
    RETURN format('%s rows; %s', cardinality(ref), array_to_string(plans, ', '))
        || CASE WHEN bad = '' THEN '; same' ELSE ';' || bad END;
END $$;

-- the check function's counts against the table's
CREATE FUNCTION pt_counts(idx regclass, col text, tab text DEFAULT 'pt') RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    c record;
    keys bigint;
    tids bigint;
    nulls bigint;
BEGIN
    SELECT * INTO c FROM gpuext_ptree_check(idx);
    EXECUTE format('SELECT count(DISTINCT %1$I), count(%1$I), count(*) - count(%1$I) FROM %2$I', col, tab)
        INTO keys, tids, nulls;
    RETURN format('keys %s, tids %s, nulls %s',
                  CASE WHEN c.keys = keys THEN 'ok' ELSE format('%s <> %s', c.keys, keys) END,
                  CASE WHEN c.tids = tids THEN 'ok' ELSE format('%s <> %s', c.tids, tids) END,
                  CASE WHEN c.null_tids = nulls THEN 'ok' ELSE format('%s <> %s', c.null_tids, nulls) END);
END $$;

-- data: integers with duplicates, NULLs and the ends of their ranges;
-- texts with shared prefixes, the empty string, long keys (2500 to 6000
-- bytes, some sharing all but their last bytes)
CREATE TABLE pt (id int, i4 int4, i8 int8, t text);
INSERT INTO pt SELECT g,
    CASE WHEN g % 37 = 0 THEN NULL ELSE (g * 7919) % 1000 - 500 END,
    CASE WHEN g % 41 = 0 THEN NULL ELSE ((g::int8 * 1000003) % 200000 - 100000) * 100000007 END,
    CASE WHEN g % 43 = 0 THEN NULL
         WHEN g % 50 = 1 THEN repeat('long', 625) || (g % 7)
         WHEN g % 50 = 2 THEN repeat('y', 6000 - (g % 5))
         ELSE 'key-' || (g % 300) || '-' || (g % 3) END
FROM generate_series(1, 3000) g;
INSERT INTO pt VALUES (3001, 2147483647, 9223372036854775807, ''),
    (3002, -2147483648, -9223372036854775808, 'a'), (3003, 0, 0, 'ab'), (3004, -1, -1, 'abc'),
    (3005, 1, 1, 'key-');
-- many TIDs for one key: more than a page of them
INSERT INTO pt SELECT 4000 + g, 42, 42, 'dup' FROM generate_series(1, 3000) g;

CREATE INDEX pt_i4_pt ON pt USING gpuext_ptree (i4);
CREATE INDEX pt_i8_pt ON pt USING gpuext_ptree (i8);
CREATE INDEX pt_t_pt ON pt USING gpuext_ptree (t);
CREATE INDEX pt_tp_pt ON pt USING gpuext_ptree (t text_pattern_ops);
CREATE TABLE bt AS SELECT * FROM pt;
CREATE INDEX bt_i4_bt ON bt (i4);
CREATE INDEX bt_i8_bt ON bt (i8);
CREATE INDEX bt_t_bt ON bt (t);
CREATE INDEX bt_tp_bt ON bt (t text_pattern_ops);
ANALYZE pt;
ANALYZE bt;

SELECT pt_counts('pt_i4_pt', 'i4'), pt_counts('pt_i8_pt', 'i8'), pt_counts('pt_t_pt', 't');
SELECT pt_counts('pt_tp_pt', 't');
-- the planner takes the index by its cost for selective quals
SELECT pt_plan('SELECT id FROM pt WHERE i4 = 17') LIKE 'ptree%' AS equality,
       pt_plan('SELECT id FROM pt WHERE i8 BETWEEN 100000007 AND 5000000350') LIKE 'ptree%' AS range,
       pt_plan('SELECT id FROM pt WHERE t = ''key-5-2''') LIKE 'ptree%' AS text,
       pt_plan('SELECT id FROM pt WHERE i4 > -1000') AS unselective;

-- the whole battery of queries, run again after each change below
CREATE FUNCTION pt_battery() RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    q text;
    o bool;
BEGIN
    FOR q, o IN VALUES
        -- int4: equality, ranges, cross-type, both ends, contradictions
        ('SELECT id FROM %1$s WHERE i4 = 17', false),
        ('SELECT id FROM %1$s WHERE i4 = 42', false),
        ('SELECT id FROM %1$s WHERE i4 = 12345', false),
        ('SELECT id FROM %1$s WHERE i4 BETWEEN -20 AND 30', false),
        ('SELECT id FROM %1$s WHERE i4 < -480', false),
        ('SELECT id FROM %1$s WHERE i4 <= -480', false),
        ('SELECT id FROM %1$s WHERE i4 > 490', false),
        ('SELECT id FROM %1$s WHERE i4 >= 490 AND i4 < 2147483647', false),
        ('SELECT id FROM %1$s WHERE i4 = 5::int8', false),
        ('SELECT id FROM %1$s WHERE i4 > 4000000000::int8', false),
        ('SELECT id FROM %1$s WHERE i4 < -4000000000::int8', false),
        ('SELECT id FROM %1$s WHERE i4 > 10 AND i4 < 5', false),
        ('SELECT id FROM %1$s WHERE i4 >= 10 AND i4 <= 10', false),
        ('SELECT id FROM %1$s WHERE i4 > -1 AND i4 < 1', false),
        ('SELECT id FROM %1$s WHERE i4 IS NULL', false),
        ('SELECT id FROM %1$s WHERE i4 = ANY (ARRAY[-500, 17, 42, 7777])', false),
        ('SELECT id FROM %1$s WHERE i4 IS NOT NULL AND i4 < -495', false),
        -- int8
        ('SELECT id FROM %1$s WHERE i8 = 9223372036854775807', false),
        ('SELECT id FROM %1$s WHERE i8 = -9223372036854775808', false),
        ('SELECT id FROM %1$s WHERE i8 = 42', false),
        ('SELECT id FROM %1$s WHERE i8 > 5 AND i8 < 100000007000', false),
        ('SELECT id FROM %1$s WHERE i8 < -9000000000000', false),
        ('SELECT id FROM %1$s WHERE i8 >= 9000000000000', false),
        -- ordered scans, forward and backward, NULLs last (first backward)
        ('SELECT i4 FROM %1$s WHERE i4 > 400 ORDER BY i4', true),
        ('SELECT i4 FROM %1$s WHERE i4 < -400 ORDER BY i4 DESC', true),
        ('SELECT i4 FROM %1$s ORDER BY i4', true),
        ('SELECT i4 FROM %1$s ORDER BY i4 DESC', true),
        ('SELECT i8 FROM %1$s WHERE i8 > 0 ORDER BY i8 LIMIT 100', true),
        ('SELECT i8 FROM %1$s ORDER BY i8 DESC LIMIT 100', true),
        -- text: equality (long keys too), byte-order ranges and order
        ('SELECT id FROM %1$s WHERE t = ''key-17-2''', false),
        ('SELECT id FROM %1$s WHERE t = ''''', false),
        ('SELECT id FROM %1$s WHERE t = ''key-''', false),
        ('SELECT id FROM %1$s WHERE t = ''dup''', false),
        ('SELECT id FROM %1$s WHERE t = repeat(''long'', 625) || ''3''', false),
        ('SELECT id FROM %1$s WHERE t = repeat(''y'', 5998)', false),
        ('SELECT id FROM %1$s WHERE t = repeat(''y'', 5990)', false),
        ('SELECT id FROM %1$s WHERE t IS NULL', false),
        ('SELECT id FROM %1$s WHERE t ~>=~ ''key-1'' AND t ~<~ ''key-2''', false),
        ('SELECT id FROM %1$s WHERE t ~<=~ ''ab''', false),
        ('SELECT id FROM %1$s WHERE t ~>~ ''long''', false),
        ('SELECT id FROM %1$s WHERE t ~>~ ''key-99'' AND t ~<=~ ''key-99-1''', false),
        ('SELECT t FROM %1$s WHERE t ~>~ ''key-5'' ORDER BY t USING ~<~', true),
        ('SELECT t FROM %1$s WHERE t ~<~ ''key-1'' ORDER BY t USING ~>~', true),
        ('SELECT t FROM %1$s ORDER BY t USING ~<~', true)
    LOOP
        RETURN NEXT rpad(format(q, 'T'), 64) || pt_check(q, o);
    END LOOP;
END $$;

SELECT * FROM pt_battery();

-- inserts after the build: new keys, keys that split nodes' paths, more
-- duplicates (new continuation entries), NULLs, long keys sharing long
-- prefixes (nodes of full prefixes)
INSERT INTO pt SELECT 10000 + g,
    CASE WHEN g % 29 = 0 THEN NULL ELSE (g * 104729) % 3000 - 1500 END,
    CASE WHEN g % 31 = 0 THEN NULL ELSE (g::int8 * 7777777) * (CASE WHEN g % 2 = 0 THEN 1 ELSE -1 END) END,
    CASE WHEN g % 47 = 0 THEN NULL
         WHEN g % 20 = 1 THEN repeat('long', 625 + g % 3) || (g % 11)
         WHEN g % 20 = 2 THEN repeat('p', 3000) || repeat('q', g % 7)
         WHEN g % 20 = 3 THEN 'dup'
         ELSE 'key-' || (g % 500) || '-' || (g % 4) END
FROM generate_series(1, 3000) g;
INSERT INTO pt SELECT 20000 + g, 42, 42, 'dup' FROM generate_series(1, 2000) g;
TRUNCATE bt;
INSERT INTO bt SELECT * FROM pt;
ANALYZE pt;
ANALYZE bt;
SELECT pt_counts('pt_i4_pt', 'i4'), pt_counts('pt_i8_pt', 'i8'), pt_counts('pt_t_pt', 't');
SELECT pt_counts('pt_tp_pt', 't');
SELECT * FROM pt_battery();

-- VACUUM removes the TIDs of deleted rows (an emptied key stays)
DELETE FROM pt WHERE id % 3 = 0 OR i4 = 42 OR t LIKE 'long%';
DELETE FROM bt WHERE id % 3 = 0 OR i4 = 42 OR t LIKE 'long%';
VACUUM pt;
VACUUM bt;
SELECT (c).tids = (SELECT count(i4) FROM pt) AS tids_ok, (c).null_tids = (SELECT count(*) - count(i4) FROM pt) AS nulls_ok,
       (c).keys >= (SELECT count(DISTINCT i4) FROM pt) AS keys_ok
FROM (SELECT gpuext_ptree_check('pt_i4_pt') c) s;
SELECT (c).tids = (SELECT count(t) FROM pt) AS tids_ok FROM (SELECT gpuext_ptree_check('pt_t_pt') c) s;
-- the change counter moved with the inserts and the vacuum
SELECT (gpuext_ptree_check('pt_i4_pt')).change_count > 5000 AS counted;
SELECT * FROM pt_battery();
-- emptied keys take TIDs again
INSERT INTO pt SELECT 30000 + g, 42, 42, repeat('long', 625) || '3' FROM generate_series(1, 10) g;
INSERT INTO bt SELECT 30000 + g, 42, 42, repeat('long', 625) || '3' FROM generate_series(1, 10) g;
SELECT pt_check('SELECT id FROM %1$s WHERE i4 = 42');
SELECT pt_check('SELECT id FROM %1$s WHERE t = repeat(''long'', 625) || ''3''');

-- REINDEX, and REINDEX CONCURRENTLY: the tree built again from the table
REINDEX INDEX pt_i4_pt;
REINDEX INDEX CONCURRENTLY pt_t_pt;
SELECT pt_counts('pt_i4_pt', 'i4'), pt_counts('pt_t_pt', 't');
SELECT * FROM pt_battery();

-- a build whose sort spills to disk (4 MB of keys, maintenance_work_mem 1 MB)
CREATE TABLE pts (id int, t text);
INSERT INTO pts SELECT g, repeat(md5((g % 15000)::text), 6) FROM generate_series(1, 20000) g;
SET maintenance_work_mem = '1MB';
CREATE INDEX pts_t_pt ON pts USING gpuext_ptree (t text_pattern_ops);
RESET maintenance_work_mem;
CREATE TABLE bts AS SELECT * FROM pts;
CREATE INDEX bts_t_bt ON bts (t text_pattern_ops);
ANALYZE pts;
ANALYZE bts;
SELECT pt_counts('pts_t_pt', 't', 'pts');
SELECT pt_check('SELECT id FROM %1$s WHERE t ~>=~ ''a'' AND t ~<~ ''b''', false, 'pts', 'bts');
SELECT pt_check('SELECT id FROM %1$s WHERE t = repeat(md5(''42''), 6)', false, 'pts', 'bts');
SELECT pt_check('SELECT t FROM %1$s WHERE t ~>~ ''f'' ORDER BY t USING ~<~', true, 'pts', 'bts');
DROP TABLE bts;
DROP TABLE pts;

-- an empty index, and an index of NULLs only
CREATE TABLE pte (k int8, t text);
CREATE INDEX pte_k_pt ON pte USING gpuext_ptree (k);
SELECT * FROM gpuext_ptree_check('pte_k_pt');
SET enable_seqscan = off;
SELECT count(*) FROM pte WHERE k > 0;
SELECT count(*) FROM pte WHERE k IS NULL;
INSERT INTO pte SELECT NULL, NULL FROM generate_series(1, 5);
SELECT keys, tids, null_tids FROM gpuext_ptree_check('pte_k_pt');
SELECT count(*) FROM pte WHERE k IS NULL;
SELECT count(*) FROM pte WHERE k = 1;
-- a first key into the empty tree, then its neighbours
INSERT INTO pte VALUES (1, 'x'), (2, 'y'), (1, 'z'), (-1, NULL);
SELECT keys, tids, null_tids FROM gpuext_ptree_check('pte_k_pt');
SELECT k FROM pte WHERE k >= -1 ORDER BY k;
RESET enable_seqscan;

-- a domain over int4 is indexed as its base type
CREATE DOMAIN ptd AS int4 CHECK (VALUE > 0);
CREATE TABLE ptdt (k ptd);
INSERT INTO ptdt SELECT g FROM generate_series(1, 300) g;
CREATE INDEX ptdt_k_pt ON ptdt USING gpuext_ptree (k);
INSERT INTO ptdt SELECT g FROM generate_series(301, 400) g;
SET enable_seqscan = off;
SELECT count(*), sum(k) FROM ptdt WHERE k BETWEEN 250 AND 350;
RESET enable_seqscan;
SELECT count(*), sum(k) FROM ptdt WHERE k BETWEEN 250 AND 350;
DROP TABLE ptdt;
DROP DOMAIN ptd;

-- a merge join can take the index's order
SET enable_hashjoin = off;
SET enable_nestloop = off;
SET enable_sort = off;
SET enable_seqscan = off;
CREATE FUNCTION pt_merge_join(q text, OUT merge_joins int, OUT ptree_scans int) LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    merge_joins := 0;
    ptree_scans := 0;
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        merge_joins := merge_joins + (line ~ 'Merge Join')::int;
        ptree_scans := ptree_scans + (line ~ 'Index Scan using pt_i8_pt')::int;
    END LOOP;
END $$;
SELECT * FROM pt_merge_join('SELECT count(*) FROM pt a JOIN pt b ON a.i8 = b.i8');
SELECT count(*) FROM pt a JOIN pt b ON a.i8 = b.i8;
RESET enable_hashjoin;
RESET enable_nestloop;
RESET enable_sort;
RESET enable_seqscan;
SELECT count(*) FROM pt a JOIN pt b ON a.i8 = b.i8;

-- an exclusion constraint checks through the index (a dirty snapshot)
CREATE TABLE ptex (k int8, EXCLUDE USING gpuext_ptree (k WITH =));
INSERT INTO ptex SELECT g FROM generate_series(1, 1000) g;
INSERT INTO ptex VALUES (500);
INSERT INTO ptex VALUES (1001), (NULL), (NULL);
SELECT count(*) FROM ptex;
DROP TABLE ptex;

-- errors: a key longer than a page, storage parameters, a type it does
-- not index, text_ops has no ranges (no index path: a sequential scan)
CREATE TABLE ptx (t text);
CREATE INDEX ptx_t_pt ON ptx USING gpuext_ptree (t);
INSERT INTO ptx VALUES (repeat('z', 9000));
INSERT INTO ptx VALUES (repeat('z', 8000));
SELECT keys, tids FROM gpuext_ptree_check('ptx_t_pt');
CREATE INDEX ptx_bad ON ptx USING gpuext_ptree (t) WITH (fillfactor = 50);
CREATE INDEX ptx_bad ON ptx USING gpuext_ptree ((t::float8));
SELECT gpuext_ptree_check('bt_i4_bt');
SET enable_seqscan = off;
SELECT pt_plan('SELECT * FROM ptx WHERE t > ''a''') AS text_ops_range;
RESET enable_seqscan;
-- the operator classes are valid
SELECT opcname, amvalidate(c.oid) FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
WHERE a.amname = 'gpuext_ptree' ORDER BY opcname;

DROP TABLE pt, bt, pte, ptx;
DROP FUNCTION pt_battery(), pt_check(text, bool, text, text), pt_counts(regclass, text, text),
    pt_mode(text), pt_rows(text, bool), pt_plan(text), pt_merge_join(text);
RESET gpuext.enabled;
