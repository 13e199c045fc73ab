--
-- ptree_lookup: gpuext_ptree_lookup(index, keys, parts, visible), batches
-- of keys looked up in a gpuext_ptree index's device image on the
-- cluster's device (gpuext.device), sequentially (parts 0) and by
-- speculative partitioned traversal (2, 4, 8, 16 partitions).  Every batch
-- against a sequential scan of the table (the reference): with visible =>
-- true the lookup gives exactly the (key, ctid) of the visible rows of the
-- keys, the same for every algorithm; the raw entries (the default) are
-- counted, the same for every algorithm, dead rows' TIDs among them before
-- VACUUM; HOT-updated rows show why a join of raw entries on ctid is not
-- enough.
-- After inserts, deletes and VACUUM the image is rebuilt when the index's
-- change counter moves, and reused while it does not (DEBUG1).
--

-- the (key, tid) pairs of keys in tab's column k: the visible lookup under
-- each algorithm against a sequential scan, and the index entries the raw
-- lookup returned (the same for every algorithm)
CREATE FUNCTION pl_check(idx regclass, tab regclass, keys int8[]) RETURNS text
LANGUAGE plpgsql SET enable_indexscan = off SET enable_bitmapscan = off AS $$
DECLARE
    ref text[];
    got text[];
    raw bigint;
    raw0 bigint;
    bad text := '';
    p int;
BEGIN
    EXECUTE format('SELECT coalesce(array_agg(x ORDER BY x), ''{}'') FROM
                    (SELECT t.k || '' '' || t.ctid AS x FROM %s t, unnest($1) u WHERE t.k = u) s', tab)
        INTO ref USING keys;
    FOREACH p IN ARRAY ARRAY[0, 2, 4, 8, 16] LOOP
        SELECT coalesce(array_agg(l.key || ' ' || l.tid ORDER BY l.key || ' ' || l.tid), '{}')
            INTO got FROM gpuext_ptree_lookup(idx, keys, p, true) l;
        SELECT count(*) INTO raw FROM gpuext_ptree_lookup(idx, keys, p);
        IF p = 0 THEN
            raw0 := raw;
        END IF;
        IF got IS DISTINCT FROM ref OR raw <> raw0 THEN
            bad := bad || format(' parts %s: %s rows, %s entries;', p, cardinality(got), raw);
        END IF;
    END LOOP;
    RETURN format('%s rows, %s entries, %s', cardinality(ref), raw0,
                  CASE WHEN bad = '' THEN 'same' ELSE 'DIFFERENT:' || bad END);
END $$;

-- whether the lookup of idx built its image or reused it (the DEBUG1 line)
CREATE FUNCTION pl_image(idx regclass) RETURNS void
LANGUAGE plpgsql SET client_min_messages = debug1 AS $$
BEGIN
    PERFORM count(*) FROM gpuext_ptree_lookup(idx, '{1}');
END $$;

-- int8 keys: spread values, both ends of int8, a key with 3000 rows (its
-- TIDs in continuation entries), duplicates, NULL rows
CREATE TABLE plk (k int8, v int);
INSERT INTO plk SELECT (g::int8 * 7919) % 100003 * 104729 - 5000000000, g FROM generate_series(1, 20000) g;
INSERT INTO plk SELECT 7, g FROM generate_series(1, 3000) g;
INSERT INTO plk SELECT g % 50, g FROM generate_series(1, 500) g;
INSERT INTO plk VALUES (-9223372036854775808, 1), (9223372036854775807, 2),
    (-9223372036854775807, 3), (9223372036854775806, 4), (-1, 5), (0, 6), (NULL, 7), (NULL, 8);
CREATE INDEX plk_pt ON plk USING gpuext_ptree (k);
SELECT keys, tids, null_tids FROM gpuext_ptree_check('plk_pt');
-- the image: built at the first lookup, reused while the index does not change
SELECT pl_image('plk_pt');
SELECT pl_image('plk_pt');

-- present, absent, extreme, duplicated and NULL keys
SELECT pl_check('plk_pt', 'plk', ARRAY[7, 0, -1, 1, 49, 50, 51]::int8[]);
SELECT pl_check('plk_pt', 'plk', ARRAY[-9223372036854775808, 9223372036854775807,
    -9223372036854775807, 9223372036854775806, -9223372036854775806, 9223372036854775805]::int8[]);
SELECT pl_check('plk_pt', 'plk', ARRAY[7, 7, NULL, 3, NULL, 7]::int8[]);
SELECT pl_check('plk_pt', 'plk', '{}');
SELECT pl_check('plk_pt', 'plk', ARRAY[NULL]::int8[]);
-- every key of the table, and as many absent neighbours
SELECT pl_check('plk_pt', 'plk', (SELECT array_agg(DISTINCT k) FROM plk));
SELECT pl_check('plk_pt', 'plk', (SELECT array_agg(DISTINCT k + 1) FROM plk WHERE k < 9223372036854775807));
-- the order: the array's, each key's TIDs in the index's order
SELECT key, count(*) FROM gpuext_ptree_lookup('plk_pt', ARRAY[3, 7, 3, 12345]) GROUP BY key ORDER BY key;
SELECT array_agg(key) FROM gpuext_ptree_lookup('plk_pt', ARRAY[9, 8, 9, -1, 8], 4);

-- deletes do not change the index: the image is reused, dead rows' TIDs
-- stay in it (the visible lookup drops them)
DELETE FROM plk WHERE k = 7 AND v % 3 = 0;
DELETE FROM plk WHERE k = 9223372036854775807;
SELECT pl_image('plk_pt');
SELECT pl_check('plk_pt', 'plk', ARRAY[7, 9223372036854775807, 8]::int8[]);
-- VACUUM removes them from the index (a change): rebuilt
VACUUM plk;
SELECT pl_image('plk_pt');
SELECT pl_check('plk_pt', 'plk', ARRAY[7, 9223372036854775807, 8]::int8[]);
-- inserts: new keys, new TIDs of known keys, keys that part nodes
INSERT INTO plk SELECT g::int8 * 1000003, g FROM generate_series(-3000, 3000) g;
INSERT INTO plk SELECT 7, g FROM generate_series(1, 100) g;
SELECT pl_image('plk_pt');
SELECT pl_image('plk_pt');
SELECT pl_check('plk_pt', 'plk', (SELECT array_agg(DISTINCT k) FROM plk));
SELECT pl_check('plk_pt', 'plk', (SELECT array_agg(g::int8 * 1000003 + 1) FROM generate_series(-3000, 3000) g));
-- an uncommitted insert's TIDs are entries another snapshot does not see;
-- in its own transaction they are visible
BEGIN;
INSERT INTO plk VALUES (424242, 1);
SELECT pl_check('plk_pt', 'plk', ARRAY[424242]::int8[]);
ROLLBACK;
SELECT pl_check('plk_pt', 'plk', ARRAY[424242]::int8[]);
-- REINDEX: a new relfilenode (its counter starts again): rebuilt
REINDEX INDEX plk_pt;
SELECT pl_image('plk_pt');
SELECT pl_check('plk_pt', 'plk', (SELECT array_agg(DISTINCT k) FROM plk));

-- HOT updates: the index entry stays the chain's root, the visible version
-- lies further in the chain (or the root becomes a redirect): a join of the
-- raw entries on ctid misses the updated rows, the visible lookup follows
-- the chain as an index scan does
CREATE TABLE plh (k int8, v int) WITH (fillfactor = 50);
INSERT INTO plh SELECT g % 100, g FROM generate_series(1, 1000) g;
CREATE INDEX plh_pt ON plh USING gpuext_ptree (k);
UPDATE plh SET v = v + 1 WHERE k < 50;
SELECT count(*) AS raw_joined FROM gpuext_ptree_lookup('plh_pt', ARRAY(SELECT generate_series(0, 99)::int8)) l
    JOIN plh ON plh.ctid = l.tid;
SELECT count(*) AS visible, count(*) FILTER (WHERE p.k = l.key) AS same_key
FROM gpuext_ptree_lookup('plh_pt', ARRAY(SELECT generate_series(0, 99)::int8), 4, true) l
    JOIN plh p ON p.ctid = l.tid;
SELECT pl_check('plh_pt', 'plh', ARRAY(SELECT generate_series(0, 99)::int8));

-- an int4 index: int8 keys beyond int4 match nothing
CREATE TABLE plk4 (k int4);
INSERT INTO plk4 SELECT g % 1000 - 500 FROM generate_series(1, 5000) g;
INSERT INTO plk4 VALUES (-2147483648), (2147483647);
CREATE INDEX plk4_pt ON plk4 USING gpuext_ptree (k);
SELECT pl_check('plk4_pt', 'plk4', ARRAY[-500, 499, 500, 0, -2147483648, 2147483647,
    2147483648, -2147483649, 4294967296]::int8[]);
SELECT pl_check('plk4_pt', 'plk4', (SELECT array_agg(g) FROM generate_series(-600::int8, 600) g));

-- an empty index, then one of NULLs only
CREATE TABLE plke (k int8);
CREATE INDEX plke_pt ON plke USING gpuext_ptree (k);
SELECT pl_check('plke_pt', 'plke', ARRAY[0, 1, -1, NULL]::int8[]);
INSERT INTO plke VALUES (NULL), (NULL);
SELECT pl_check('plke_pt', 'plke', ARRAY[0, 1, -1, NULL]::int8[]);
-- one key: the root holds its entry
INSERT INTO plke VALUES (5);
SELECT pl_check('plke_pt', 'plke', ARRAY[5, 4, 6, 5]::int8[]);

-- errors
SELECT * FROM gpuext_ptree_lookup('plk_pt', '{1}', 3);
CREATE INDEX plk_bt ON plk (k);
SELECT * FROM gpuext_ptree_lookup('plk_bt', '{1}');
SELECT * FROM gpuext_ptree_lookup('plk', '{1}');
CREATE TABLE plkt (s text);
CREATE INDEX plkt_pt ON plkt USING gpuext_ptree (s);
SELECT * FROM gpuext_ptree_lookup('plkt_pt', '{1}');
CREATE ROLE pl_nobody;
SET ROLE pl_nobody;
SELECT * FROM gpuext_ptree_lookup('plk_pt', '{1}');
RESET ROLE;
DROP ROLE pl_nobody;

DROP TABLE plk, plk4, plke, plkt, plh;
DROP FUNCTION pl_check(regclass, regclass, int8[]);
DROP FUNCTION pl_image(regclass);
