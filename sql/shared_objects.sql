--
-- shared_objects: engine objects the service owns, named read-only by every
-- session's tasks (docs/engine.md section 2).  The first kind is a
-- gpuext_ptree index's device image: gpuext_ptree_lookup names the shared
-- image of (index, relfilenode, change counter) and writes it only when
-- absent.  Checked here: lookups give a btree index scan's answers before
-- and after inserts, deletes, VACUUM, REINDEX and TRUNCATE; a second call
-- with the index unchanged writes nothing (gpuext_shared_object_stats); a
-- change gives a new version and the old one goes; a failed writer leaves
-- nothing, a failed reader leaves the image ready; gpuext_memory accounts
-- them; gpuext.shared_object_memory bounds them (eviction least recently
-- used first, and calls that do not fit write a session copy, with the
-- same answers).
--

-- the visible lookup of keys in idx (each algorithm) against a btree index
-- scan of tab's column k: the rows of each, and whether they are the same
CREATE FUNCTION so_check(idx regclass, tab regclass, keys int8[]) RETURNS text
LANGUAGE plpgsql SET enable_seqscan = off SET enable_bitmapscan = off AS $$
DECLARE
    ref text[];
    got text[];
    bad text := '';
    p int;
BEGIN
    EXECUTE format('SELECT coalesce(array_agg(x ORDER BY x), ''{}'') FROM
                    (SELECT t.k || '' '' || t.ctid AS x FROM %s t WHERE t.k = ANY ($1)) s', tab)
        INTO ref USING keys;
    FOREACH p IN ARRAY ARRAY[0, 4, 16] LOOP
        SELECT coalesce(array_agg(DISTINCT l.key || ' ' || l.tid), '{}')
            INTO got FROM gpuext_ptree_lookup(idx, keys, p, true) l;
        SELECT coalesce(array_agg(x ORDER BY x), '{}') INTO got FROM unnest(got) x;
        IF got IS DISTINCT FROM ref THEN
            bad := bad || format(' parts %s: %s rows;', p, cardinality(got));
        END IF;
    END LOOP;
    RETURN format('%s rows, %s', cardinality(ref),
                  CASE WHEN bad = '' THEN 'same' ELSE 'DIFFERENT:' || bad END);
END $$;

-- the shared objects of idx, once the service has freed the unpinned dead
-- ones: state, and whether the version and relfilenode are the index's now
CREATE FUNCTION so_objects(idx regclass) RETURNS TABLE(state text, current boolean, pins int)
LANGUAGE plpgsql AS $$
BEGIN
    FOR i IN 1 .. 500 LOOP
        EXIT WHEN NOT EXISTS (SELECT FROM gpuext_shared_objects o
                              WHERE o.relation = idx AND o.state = 'dead' AND o.pins = 0);
        PERFORM pg_sleep(0.01);
    END LOOP;
    RETURN QUERY
    SELECT o.state, o.version = (SELECT c.change_count FROM gpuext_ptree_check(idx) c)
                    AND o.relfilenode = pg_relation_filenode(idx), o.pins
    FROM gpuext_shared_objects o
    WHERE o.relation = idx AND o.database = (SELECT oid FROM pg_database
                                              WHERE datname = current_database())
    ORDER BY o.state, o.version;
END $$;

-- the counters of gpuext_shared_object_stats since the last call (kept in
-- so_last)
CREATE TABLE so_last AS SELECT * FROM gpuext_shared_object_stats;
CREATE FUNCTION so_delta(OUT written bigint, OUT bytes_written bigint, OUT session_copies bigint,
                         OUT copy_bytes bigint, OUT evictions bigint)
LANGUAGE plpgsql AS $$
DECLARE
    n gpuext_shared_object_stats;
    o so_last;
BEGIN
    SELECT * INTO n FROM gpuext_shared_object_stats;
    SELECT * INTO o FROM so_last;
    written := n.objects_written - o.objects_written;
    bytes_written := n.bytes_written - o.bytes_written;
    session_copies := n.session_copies - o.session_copies;
    copy_bytes := n.session_copy_bytes - o.session_copy_bytes;
    evictions := n.evictions - o.evictions;
    DELETE FROM so_last;
    INSERT INTO so_last SELECT * FROM gpuext_shared_object_stats;
END $$;

-- the bytes of idx's ready shared object
CREATE FUNCTION so_bytes(idx regclass) RETURNS bigint LANGUAGE sql AS $$
    SELECT bytes FROM gpuext_shared_objects WHERE relation = idx AND state = 'ready'
$$;

SELECT name, setting, unit, context FROM pg_settings WHERE name = 'gpuext.shared_object_memory';

CREATE TABLE so (k int8, v int);
INSERT INTO so SELECT (g * 7919) % 20011, g FROM generate_series(1, 20000) g;
INSERT INTO so SELECT 77, g FROM generate_series(1, 500) g;
CREATE INDEX so_pt ON so USING gpuext_ptree (k);
CREATE INDEX so_bt ON so (k);
SELECT * FROM so_objects('so_pt');
SELECT written, session_copies FROM so_delta();

-- the first call writes the shared image, the second names it and writes nothing
SELECT count(*) FROM gpuext_ptree_lookup('so_pt', ARRAY[77, 1, 2, 3]);
SELECT written, bytes_written = so_bytes('so_pt') AS all_bytes, session_copies FROM so_delta();
SELECT count(*) FROM gpuext_ptree_lookup('so_pt', ARRAY[77, 1, 2, 3], 8);
SELECT written, bytes_written, session_copies FROM so_delta();
SELECT * FROM so_objects('so_pt');
SELECT uses FROM gpuext_shared_objects WHERE relation = 'so_pt'::regclass;
SELECT so_check('so_pt', 'so', ARRAY[77, 0, 1, 20010, 20011, -1, NULL]::int8[]);
SELECT so_check('so_pt', 'so', (SELECT array_agg(g) FROM generate_series(-10::int8, 20020) g));
SELECT written, session_copies FROM so_delta();
-- accounted in gpuext_memory (owner "shared"), ours among them
SELECT (SELECT sum(bytes) FROM gpuext_memory WHERE owner = 'shared') >= so_bytes('so_pt') AS accounted;

-- an insert moves the change counter: a new version, the old one freed
INSERT INTO so SELECT 100000 + g, g FROM generate_series(1, 300) g;
SELECT so_check('so_pt', 'so', ARRAY[77, 100001, 100300, 100301, 5]::int8[]);
SELECT written, session_copies FROM so_delta();
SELECT * FROM so_objects('so_pt');

-- deletes (the index unchanged until VACUUM: the same version) and VACUUM
DELETE FROM so WHERE k % 3 = 0;
SELECT so_check('so_pt', 'so', ARRAY[77, 3, 4, 100002, 100003]::int8[]);
SELECT written FROM so_delta();
VACUUM so;
SELECT so_check('so_pt', 'so', (SELECT array_agg(g) FROM generate_series(0::int8, 300) g));
SELECT written FROM so_delta();
SELECT * FROM so_objects('so_pt');

-- a writer that fails (an injected fault in its first OBJ_WRITE task)
-- leaves nothing: the older version died at the reservation, its own at
-- the error; the next call writes the image again
INSERT INTO so VALUES (424242, 1);
SET gpuext.debug_fault = task_error;
SELECT count(*) FROM gpuext_ptree_lookup('so_pt', ARRAY[424242]);
RESET gpuext.debug_fault;
SELECT * FROM so_objects('so_pt');
SELECT so_check('so_pt', 'so', ARRAY[424242, 77]::int8[]);
SELECT written, session_copies FROM so_delta();
SELECT * FROM so_objects('so_pt');
-- a lookup task that fails while it names the ready image (the call's
-- first task now) leaves the image ready, unpinned, and the next call names it
SET gpuext.debug_fault = task_error;
SELECT count(*) FROM gpuext_ptree_lookup('so_pt', ARRAY[424242]);
RESET gpuext.debug_fault;
SELECT * FROM so_objects('so_pt');
SELECT count(*) FROM gpuext_ptree_lookup('so_pt', ARRAY[424242]);
SELECT written, session_copies FROM so_delta();

-- REINDEX: a new relfilenode (its counter starts again)
REINDEX INDEX so_pt;
SELECT so_check('so_pt', 'so', ARRAY[77, 1, 2, 100001]::int8[]);
SELECT written FROM so_delta();
SELECT * FROM so_objects('so_pt');
-- inside a transaction that inserts: its own rows are found, the image of
-- the change it made is written once
BEGIN;
INSERT INTO so VALUES (555555, 1), (555555, 2);
SELECT so_check('so_pt', 'so', ARRAY[555555, 77]::int8[]);
SELECT count(*) FROM gpuext_ptree_lookup('so_pt', ARRAY[555555]);
SELECT written FROM so_delta();
ROLLBACK;
SELECT so_check('so_pt', 'so', ARRAY[555555, 77]::int8[]);
SELECT * FROM so_objects('so_pt');
-- TRUNCATE: a new relfilenode again, an empty index
TRUNCATE so;
SELECT so_check('so_pt', 'so', ARRAY[77, 1]::int8[]);
SELECT * FROM so_objects('so_pt');
INSERT INTO so SELECT g % 1000, g FROM generate_series(1, 5000) g;
SELECT so_check('so_pt', 'so', ARRAY[77, 1, 999, 1000]::int8[]);
SELECT * FROM so_objects('so_pt');
SELECT written, session_copies FROM so_delta();

-- gpuext.shared_object_memory: two indexes of about 3 MB images
CREATE TABLE so_a (k int8);
INSERT INTO so_a SELECT g * 3 FROM generate_series(1, 150000) g;
CREATE INDEX so_a_pt ON so_a USING gpuext_ptree (k);
CREATE INDEX so_a_bt ON so_a (k);
CREATE TABLE so_b (k int8);
INSERT INTO so_b SELECT g * 5 FROM generate_series(1, 150000) g;
CREATE INDEX so_b_pt ON so_b USING gpuext_ptree (k);
CREATE INDEX so_b_bt ON so_b (k);
-- 0: no shared objects, every call writes a copy of its own
SET gpuext.shared_object_memory = 0;
SELECT so_check('so_a_pt', 'so_a', ARRAY[3, 4, 450000, 450003]::int8[]);
SELECT written, session_copies, copy_bytes > 0 AS copied FROM so_delta();
SELECT * FROM so_objects('so_a_pt');
-- 1 MB: the image does not fit, nothing is evicted for it, the answers stay right
SET gpuext.shared_object_memory = 1;
SELECT so_check('so_a_pt', 'so_a', ARRAY[3, 4, 450000, 450003]::int8[]);
SELECT written, session_copies FROM so_delta();
SELECT * FROM so_objects('so_a_pt');
SELECT * FROM so_objects('so_pt');
-- room for one of them: both written under the default bound, then a bound
-- that holds the larger and not both; so_b's next version evicts so_a (and
-- older objects before it, least recently used first)
RESET gpuext.shared_object_memory;
SELECT so_check('so_a_pt', 'so_a', ARRAY[3, 4, 450000, 450003]::int8[]);
SELECT so_check('so_b_pt', 'so_b', ARRAY[5, 6, 750000, 750005]::int8[]);
SELECT written, session_copies FROM so_delta();
SELECT (SELECT state FROM so_objects('so_a_pt')) AS a, (SELECT state FROM so_objects('so_b_pt')) AS b;
SELECT set_config('gpuext.shared_object_memory',
                  (greatest(so_bytes('so_a_pt'), so_bytes('so_b_pt')) / (1024 * 1024) + 2)::text, false)
       IS NOT NULL AS bound_set;
SELECT so_bytes('so_a_pt') + so_bytes('so_b_pt') >
       (SELECT setting::bigint * 1024 * 1024 FROM pg_settings WHERE name = 'gpuext.shared_object_memory') AS both_do_not_fit;
SELECT so_check('so_a_pt', 'so_a', ARRAY[3, 6]::int8[]);
SELECT written, session_copies, evictions FROM so_delta();
INSERT INTO so_b VALUES (7);
SELECT so_check('so_b_pt', 'so_b', ARRAY[5, 6, 7, 750000]::int8[]);
SELECT written, session_copies, evictions >= 1 AS evicted FROM so_delta();
SELECT * FROM so_objects('so_a_pt');
SELECT * FROM so_objects('so_b_pt');
SELECT (SELECT sum(bytes) FROM gpuext_shared_objects WHERE state <> 'dead') <=
       (SELECT setting::bigint * 1024 * 1024 FROM pg_settings WHERE name = 'gpuext.shared_object_memory') AS within;
SELECT (SELECT bytes FROM gpuext_memory WHERE owner = 'shared' AND bytes > 0) =
       (SELECT sum(bytes) FROM gpuext_shared_objects WHERE state <> 'dead' OR pins > 0) AS accounted;
-- so_a again: written again, evicting so_b
SELECT so_check('so_a_pt', 'so_a', ARRAY[3, 6]::int8[]);
SELECT written, session_copies, evictions >= 1 AS evicted FROM so_delta();
SELECT (SELECT state FROM so_objects('so_a_pt')) AS a, (SELECT state FROM so_objects('so_b_pt')) AS b;
-- a shared image in use: the next call writes nothing
SELECT so_check('so_a_pt', 'so_a', ARRAY[3, 9]::int8[]);
SELECT written, session_copies FROM so_delta();
RESET gpuext.shared_object_memory;
-- a dropped index's object is never named again; it stays until evicted
CREATE TEMP TABLE so_gone AS SELECT 'so_a_pt'::regclass::oid AS relation;
DROP TABLE so_a;
SELECT o.state, o.pins FROM gpuext_shared_objects o JOIN so_gone g USING (relation);
-- only a superuser sets the bound
CREATE ROLE so_nobody;
SET ROLE so_nobody;
SET gpuext.shared_object_memory = 10;
SELECT count(*) >= 0 AS view_for_all FROM gpuext_shared_objects;
RESET ROLE;
DROP ROLE so_nobody;

DROP TABLE so, so_b, so_last, so_gone;
DROP FUNCTION so_check(regclass, regclass, int8[]);
DROP FUNCTION so_objects(regclass);
DROP FUNCTION so_delta();
DROP FUNCTION so_bytes(regclass);
