--
-- multidevice_join: GpuJoin over several devices (issue 17).  A join
-- builds its table once, on its home device (the inner side's cache
-- entries of the other devices read by peer access), then copies it to
-- the other devices of its set (OBJ_COPY: the table's replicas); each
-- probe runs where its rows lie (a cached batch on the device holding its
-- entry, heap batches and the chunks the node lays out on the least
-- loaded device) and names its device's copy.  RIGHT and FULL joins
-- (their probes mark the table), joins that aggregate their pairs and
-- multi-level group probes stay on the home device; a copy that does not
-- fit leaves its device out.  Every query runs with gpuext off and on
-- every device selection (each device alone, the CPU devices, all of
-- them, the GPUs): the same rows.  The same expected output holds with
-- one device of a kind or several (the runner's gpuext.cpu_devices = 2:
-- two CPU devices, as two GPUs).  gpuext.join_replicas = on: the copies
-- are made whether or not they pay (auto: the end of this file).
--
SET max_parallel_workers_per_gather = 0;
SET gpuext.join_replicas = on;

-- 120000 outer rows, 30000 inner rows: int4, int8 and a second key,
-- NULL keys on both sides, keys without a match on both sides, one inner
-- key holding a tenth of the rows (many pairs: probes in passes)
CREATE TABLE mj_o (id int4, k int4, k8 int8, k2 int4, v int4);
INSERT INTO mj_o
SELECT g, CASE WHEN g % 101 = 0 THEN NULL ELSE g % 40000 END, g % 15000, g % 7, g % 1000
FROM generate_series(1, 120000) g;
CREATE TABLE mj_i (id int4, k int4, k8 int8, k2 int4, w int4);
INSERT INTO mj_i
SELECT g, CASE WHEN g % 97 = 0 THEN NULL WHEN g % 10 = 0 THEN 1 ELSE (g * 3) % 45000 END,
       CASE WHEN g % 89 = 0 THEN NULL ELSE g % 12000 END, g % 5, g % 100
FROM generate_series(1, 30000) g;
CREATE TABLE mj_e (id int4, k int4, k8 int8);
VACUUM ANALYZE mj_o, mj_i, mj_e;

-- q with gpuext off, then forced on each device selection (md_check:
-- each device alone, the CPU devices, all, the GPUs): the same rows; then
-- whether the forced plan holds a GpuJoin (instead of md_check's scan node)
CREATE FUNCTION mj_check(q text) RETURNS text LANGUAGE sql AS $$
    SELECT regexp_replace(md_check(q), ', (no GpuScan|GpuScan|GpuPreAgg)$', '') ||
           CASE WHEN gx_join_node(q) THEN ', GpuJoin' ELSE ', no GpuJoin' END
$$;

-- q's GpuJoins under EXPLAIN ANALYZE (gpuext forced, every device): per
-- node its devices ('' for one), its probes per device and its table's
-- copies (the lines GpuJoin prints with several devices)
CREATE FUNCTION mj_nodes(q text, OUT devs text, OUT probes text, OUT copies int)
RETURNS SETOF record LANGUAGE plpgsql SET gpuext.force = on SET gpuext.devices = '' AS $$
DECLARE
    line text;
    injoin bool := false;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
        IF line LIKE '%Custom Scan (GpuJoin)%' THEN
            IF injoin THEN
                RETURN NEXT;
            END IF;
            injoin := true;
            devs := '';
            probes := '';
            copies := 0;
        ELSIF injoin AND line ~ '^\s*Devices: ' THEN
            devs := substring(line from 'Devices: (.*)$');
        ELSIF injoin AND line ~ '^\s*Device Probe Tasks: ' THEN
            probes := substring(line from 'Device Probe Tasks: (.*)$');
        ELSIF injoin AND line ~ '^\s*Table Replicas: ' THEN
            copies := substring(line from 'Table Replicas: (\d+)')::int;
        END IF;
    END LOOP;
    IF injoin THEN
        RETURN NEXT;
    END IF;
END $$;

-- did every GpuJoin of q that runs on several devices copy its table to
-- each of the others and probe on at least two of them?  (true with one
-- device; not every device: with four, a small table's batches may all
-- land on some of them)
CREATE FUNCTION mj_spread(q text) RETURNS bool LANGUAGE sql AS $$
    SELECT coalesce(bool_and(devs = '' OR
                             (copies >= cardinality(string_to_array(devs, ', ')) - 1 AND
                              (SELECT count(*) FROM regexp_matches(probes, '=[1-9]', 'g')) >= 2)), true)
    FROM mj_nodes(q)
$$;
-- did every GpuJoin of q that runs on several devices copy its table to each
-- of the others?  (the probes may all run on some of them: one batch)
CREATE FUNCTION mj_copied(q text) RETURNS bool LANGUAGE sql AS $$
    SELECT coalesce(bool_and(devs = '' OR copies >= cardinality(string_to_array(devs, ', ')) - 1),
                    true)
    FROM mj_nodes(q)
$$;
-- does q's plan (gpuext forced) hold a parallel GpuJoin?
CREATE FUNCTION mj_parallel(q text) RETURNS bool LANGUAGE sql SET gpuext.force = on AS $$
    SELECT bool_or(l ~ 'Parallel Custom Scan \(GpuJoin\)') FROM gx_explain(q) l
$$;
-- the rows of q (gpuext forced) read through a cursor, step rows at a time
CREATE FUNCTION mj_cursor(q text, step int) RETURNS bigint LANGUAGE plpgsql
    SET gpuext.force = on AS $$
DECLARE
    c refcursor;
    n bigint := 0;
    k bigint;
BEGIN
    OPEN c FOR EXECUTE q;
    LOOP
        MOVE FORWARD step FROM c;
        GET DIAGNOSTICS k = ROW_COUNT;
        n := n + k;
        EXIT WHEN k < step;
    END LOOP;
    CLOSE c;
    RETURN n;
END $$;
-- does every GpuJoin of q run on its home device alone (no device list)?
CREATE FUNCTION mj_home(q text) RETURNS bool LANGUAGE sql AS $$
    SELECT coalesce(bool_and(devs = '' AND copies = 0), true) FROM mj_nodes(q)
$$;
-- did every GpuJoin of q on several devices copy nothing and probe on its
-- home device alone (the others' replicas had no room)?
CREATE FUNCTION mj_no_copy(q text) RETURNS bool LANGUAGE sql AS $$
    SELECT coalesce(bool_and(devs = '' OR
                             (copies = 0 AND probes ~ '^[a-z0-9]+=[1-9]\d*(, [a-z0-9]+=0)*$')),
                    true)
    FROM mj_nodes(q)
$$;

-- hash joins of every type the devices probe, on int4, int8 and two keys
SELECT mj_check('SELECT o.id, i.id FROM mj_o o JOIN mj_i i ON o.k = i.k');
SELECT mj_check('SELECT o.id, i.w FROM mj_o o JOIN mj_i i ON o.k8 = i.k8 WHERE o.v < 300');
SELECT mj_check('SELECT o.id, i.id FROM mj_o o JOIN mj_i i ON o.k = i.k AND o.k2 = i.k2');
SELECT mj_check('SELECT o.id, i.id FROM mj_o o LEFT JOIN mj_i i ON o.k8 = i.k8');
SELECT mj_check('SELECT o.id FROM mj_o o WHERE EXISTS (SELECT 1 FROM mj_i i WHERE i.k = o.k)');
SELECT mj_check('SELECT o.id FROM mj_o o WHERE NOT EXISTS (SELECT 1 FROM mj_i i WHERE i.k8 = o.k8)');
SELECT mj_check('SELECT count(*) FROM mj_o o JOIN mj_i i ON o.k = i.k');
SELECT mj_check('SELECT count(*) FROM mj_o o LEFT JOIN mj_i i ON o.k = i.k AND o.k2 = i.k2');
SELECT mj_check('SELECT count(*) FROM mj_o o WHERE EXISTS (SELECT 1 FROM mj_i i WHERE i.k8 = o.k8)');
SELECT mj_check('SELECT count(*) FROM mj_o o WHERE NOT EXISTS (SELECT 1 FROM mj_i i WHERE i.k = o.k)');
-- other join quals of SEMI, ANTI and LEFT joins (the node runs them over the pairs)
SELECT mj_check('SELECT o.id FROM mj_o o WHERE EXISTS (SELECT 1 FROM mj_i i WHERE i.k = o.k AND i.w <> o.v % 100)');
SELECT mj_check('SELECT o.id, i.id FROM mj_o o LEFT JOIN mj_i i ON o.k = i.k AND i.w < o.v % 50');
-- empty sides
SELECT mj_check('SELECT o.id FROM mj_o o JOIN mj_e e ON o.k = e.k');
SELECT mj_check('SELECT o.id FROM mj_o o WHERE NOT EXISTS (SELECT 1 FROM mj_e e WHERE e.k8 = o.k8)');
SELECT mj_check('SELECT count(*) FROM mj_e e JOIN mj_i i ON e.k = i.k');
-- the outer side a join (the chunks the node lays out), the inner side a join
SELECT mj_check('SELECT a.id, i.id FROM (SELECT o.id, o.k FROM mj_o o JOIN mj_i x ON o.k8 = x.k8) a JOIN mj_i i ON a.k = i.k');
SELECT mj_check('SELECT o.id FROM mj_o o JOIN (SELECT i.k FROM mj_i i JOIN mj_o p ON i.k8 = p.k8 WHERE p.v = 7) b ON o.k = b.k');

-- the merge join, and the range join
SET gpuext.enable_hashjoin = off;
SELECT mj_check('SELECT o.id, i.id FROM mj_o o JOIN mj_i i ON o.k = i.k');
SELECT mj_check('SELECT count(*) FROM mj_o o JOIN mj_i i ON o.k8 = i.k8 AND o.k2 = i.k2');
SELECT mj_check('SELECT o.id FROM mj_o o WHERE NOT EXISTS (SELECT 1 FROM mj_i i WHERE i.k = o.k)');
SELECT mj_check('SELECT count(*) FROM mj_o o LEFT JOIN mj_i i ON o.k = i.k');
RESET gpuext.enable_hashjoin;
SELECT mj_check('SELECT count(*) FROM mj_o o JOIN mj_i i ON i.k8 BETWEEN o.k8 - 1 AND o.k8 + 1 WHERE o.id <= 20000');
SELECT mj_check('SELECT o.id FROM mj_o o WHERE EXISTS (SELECT 1 FROM mj_i i WHERE i.k8 >= o.k8 AND i.k8 < o.k8 + 2) AND o.id <= 9000');

-- the table copied to every other device, probes on each: a join
-- returning rows waits for the copies, then its heap batches go to the
-- least loaded device in turn; a counting join's probes start at once on
-- home, a device joining once its copy is done (so which device probes
-- what depends on timing: only the copies are checked).  A join that
-- gathers the rows it returns probes on its home device (gpujoin_gather):
-- these run without gathering
SET gpuext.join_gather = off;
SELECT mj_spread('SELECT o.id, i.id FROM mj_o o JOIN mj_i i ON o.k = i.k') AS pairs_spread,
       mj_spread('SELECT o.id FROM mj_o o WHERE NOT EXISTS (SELECT 1 FROM mj_i i WHERE i.k = o.k)') AS anti_spread,
       mj_copied('SELECT count(*) FROM mj_o o JOIN mj_i i ON o.k = i.k') AS count_copied;
SET gpuext.enable_hashjoin = off;
SELECT mj_spread('SELECT o.id, i.id FROM mj_o o JOIN mj_i i ON o.k8 = i.k8') AS merge_pairs_spread,
       mj_copied('SELECT count(*) FROM mj_o o JOIN mj_i i ON o.k8 = i.k8') AS merge_count_copied;
RESET gpuext.enable_hashjoin;
SELECT mj_copied('SELECT count(*) FROM mj_o o JOIN mj_i i ON i.k8 BETWEEN o.k8 - 1 AND o.k8 + 1') AS range_copied;
RESET gpuext.join_gather;

-- RIGHT and FULL joins (their probes mark the table), joins that
-- aggregate their pairs: on the home device, right on every selection
SELECT mj_check('SELECT o.id, i.id FROM mj_o o RIGHT JOIN mj_i i ON o.k = i.k');
SELECT mj_check('SELECT o.id, i.id FROM mj_o o FULL JOIN mj_i i ON o.k8 = i.k8');
SELECT mj_check('SELECT count(*) FROM mj_o o FULL JOIN mj_i i ON o.k = i.k');
SELECT mj_check('SELECT i.w, count(*), sum(o.v) FROM mj_o o JOIN mj_i i ON o.k = i.k GROUP BY 1');
SELECT mj_home('SELECT o.id, i.id FROM mj_o o JOIN mj_i i ON o.k = i.k') AS gathering_on_home,
       mj_home('SELECT count(*) FROM mj_o o FULL JOIN mj_i i ON o.k = i.k') AS full_on_home,
       mj_home('SELECT o.id, i.id FROM mj_o o FULL JOIN mj_i i ON o.k8 = i.k8') AS full_rows_on_home,
       mj_home('SELECT i.w, count(*), sum(o.v) FROM mj_o o JOIN mj_i i ON o.k = i.k GROUP BY 1') AS agg_on_home;

-- cached inputs, their entries on several devices (small entries): the
-- inner side built on home by peer access, each outer entry probed where
-- it lies; stale blocks read from the heap
SET gpuext.cache_entry_rows = 20000;
VACUUM mj_o, mj_i;
SELECT gpuext_cache_load('mj_o') > 0 AS loaded, gpuext_cache_load('mj_i') > 0 AS loaded;
SELECT chunks > 1 AS several_entries FROM gpuext_cache WHERE "table" = 'mj_o'::regclass;
SELECT mj_check('SELECT count(*) FROM mj_o o JOIN mj_i i ON o.k = i.k');
SELECT mj_check('SELECT count(*) FROM mj_o o WHERE EXISTS (SELECT 1 FROM mj_i i WHERE i.k8 = o.k8)');
SELECT mj_check('SELECT count(*) FROM mj_o o WHERE NOT EXISTS (SELECT 1 FROM mj_i i WHERE i.k = o.k)');
SELECT mj_check('SELECT o.id, i.id FROM mj_o o JOIN mj_i i ON o.k = i.k AND o.k2 = i.k2');
SELECT mj_check('SELECT o.id FROM mj_o o WHERE EXISTS (SELECT 1 FROM mj_i i WHERE i.k = o.k)');
SET gpuext.join_gather = off;
SELECT mj_copied('SELECT count(*) FROM mj_o o JOIN mj_i i ON o.k = i.k') AS cached_count_copied,
       mj_spread('SELECT o.id, i.id FROM mj_o o JOIN mj_i i ON o.k = i.k AND o.k2 = i.k2') AS cached_pairs_spread;
RESET gpuext.join_gather;
SET gpuext.enable_hashjoin = off;
SELECT mj_check('SELECT count(*) FROM mj_o o JOIN mj_i i ON o.k = i.k');
SELECT mj_check('SELECT count(*) FROM mj_o o LEFT JOIN mj_i i ON o.k8 = i.k8');
SELECT mj_copied('SELECT count(*) FROM mj_o o JOIN mj_i i ON o.k = i.k') AS cached_merge_copied;
RESET gpuext.enable_hashjoin;
UPDATE mj_o SET k = k + 1 WHERE id % 53 = 0;
DELETE FROM mj_i WHERE id % 61 = 0;
SELECT mj_check('SELECT count(*) FROM mj_o o JOIN mj_i i ON o.k = i.k');
SELECT mj_check('SELECT o.id, i.id FROM mj_o o JOIN mj_i i ON o.k = i.k AND o.k2 = i.k2');
SELECT gpuext_cache_evict('mj_o') >= 0 AS evicted, gpuext_cache_evict('mj_i') >= 0 AS evicted;
RESET gpuext.cache_entry_rows;

-- a copy without room (gpuext.session_memory holds one table, not two):
-- its device probes nothing, the rows are the same
SET gpuext.session_memory = '5MB';
SELECT mj_check('SELECT count(*) FROM mj_o o JOIN mj_i i ON o.k = i.k');
SELECT mj_check('SELECT o.id FROM mj_o o WHERE EXISTS (SELECT 1 FROM mj_i i WHERE i.k = o.k)');
SELECT mj_no_copy('SELECT count(*) FROM mj_o o JOIN mj_i i ON o.k = i.k') AS no_copy;
RESET gpuext.session_memory;

-- parallel plans: the leader builds and copies before the workers start;
-- every process's probes spread over the devices holding the table
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SELECT mj_check('SELECT count(*) FROM mj_o o JOIN mj_i i ON o.k = i.k');
SELECT mj_check('SELECT o.id, i.id FROM mj_o o JOIN mj_i i ON o.k8 = i.k8 WHERE o.v < 100');
SELECT mj_check('SELECT count(*) FROM mj_o o WHERE NOT EXISTS (SELECT 1 FROM mj_i i WHERE i.k = o.k)');
-- (a join returning rows copies its table when it does not gather them:
-- a gathering join probes on its home device, gpujoin_gather)
SET gpuext.join_gather = off;
SELECT mj_parallel('SELECT count(*) FROM mj_o o JOIN mj_i i ON o.k = i.k') AS parallel,
       mj_copied('SELECT count(*) FROM mj_o o JOIN mj_i i ON o.k = i.k') AS parallel_copied,
       mj_parallel('SELECT o.id, i.id FROM mj_o o JOIN mj_i i ON o.k8 = i.k8 WHERE o.v < 100') AS parallel_rows,
       mj_copied('SELECT o.id, i.id FROM mj_o o JOIN mj_i i ON o.k8 = i.k8 WHERE o.v < 100') AS parallel_rows_copied;
RESET gpuext.join_gather;
RESET max_parallel_workers_per_gather;
RESET min_parallel_table_scan_size;
RESET parallel_tuple_cost;
RESET parallel_setup_cost;
SET max_parallel_workers_per_gather = 0;

-- rescans: the table (and its copies) kept while the inner side's
-- parameters stay, built and copied again when they change
SELECT mj_check('SELECT x.g, (SELECT count(*) FROM mj_o o JOIN mj_i i ON o.k = i.k WHERE o.k2 = x.g) FROM generate_series(0, 6) x(g)');
SELECT mj_check('SELECT x.g, (SELECT count(*) FROM mj_o o JOIN mj_i i ON o.k = i.k WHERE i.k2 = x.g) FROM generate_series(0, 4) x(g)');
SELECT mj_check('SELECT x.g, s.n FROM generate_series(0, 3) x(g), LATERAL (SELECT count(*) AS n FROM mj_o o WHERE EXISTS (SELECT 1 FROM mj_i i WHERE i.k = o.k AND i.k2 = x.g)) s');

-- a cursor over joins whose probes spread: their rows read in steps
SELECT mj_cursor('SELECT o.id, i.id FROM mj_o o JOIN mj_i i ON o.k = i.k', 997) =
       (SELECT count(*) FROM mj_o o JOIN mj_i i ON o.k = i.k) AS cursor_rows,
       mj_cursor('SELECT o.id FROM mj_o o WHERE NOT EXISTS (SELECT 1 FROM mj_i i WHERE i.k8 = o.k8)', 5000) =
       (SELECT count(*) FROM mj_o o WHERE NOT EXISTS (SELECT 1 FROM mj_i i WHERE i.k8 = o.k8)) AS cursor_anti_rows;

-- gpuext.join_replicas = auto copies when a device's share of the probes
-- takes longer than a copy: a merge join's probes (which sort) of the whole
-- outer side pay for it, a hash join probing a hundred rows does not;
-- off copies nothing.  The rows are the same.
SET gpuext.join_replicas = auto;
SELECT mj_check('SELECT count(*) FROM mj_o o JOIN mj_i i ON o.k = i.k WHERE o.id <= 100');
SELECT mj_no_copy('SELECT count(*) FROM mj_o o JOIN mj_i i ON o.k = i.k WHERE o.id <= 100') AS few_probes_no_copy;
SET gpuext.enable_hashjoin = off;
SELECT mj_copied('SELECT o.id, i.id FROM mj_o o JOIN mj_i i ON o.k8 = i.k8') AS merge_copied;
RESET gpuext.enable_hashjoin;
SET gpuext.join_replicas = off;
SELECT mj_check('SELECT o.id, i.id FROM mj_o o JOIN mj_i i ON o.k = i.k');
SELECT mj_no_copy('SELECT o.id, i.id FROM mj_o o JOIN mj_i i ON o.k = i.k') AS off_no_copy;
RESET gpuext.join_replicas;

-- a counting hash join's table partitioned over the devices
-- (gpuext.join_device_parts = on; auto: an inner side of 1M rows or
-- more): each device builds and probes the keys of its part, every batch
-- visiting every device; the counts add up to the join's.  Cached sides
-- (entries on several devices), heap sides, NULL keys (part 0's), a key
-- holding 90% of the inner rows (its part's table full: every table made
-- again larger), empty sides.
SET gpuext.join_device_parts = on;
CREATE FUNCTION mj_parts(q text) RETURNS bool LANGUAGE plpgsql
    SET gpuext.force = on SET gpuext.devices = '' AS $$
DECLARE
    line text;
    parts int := 0;
    probes text := '';
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
        IF line ~ 'Table Parts On Devices: ' THEN
            parts := substring(line from 'Table Parts On Devices: (\d+)')::int;
        ELSIF line ~ 'Device Probe Tasks: ' THEN
            probes := line;
        END IF;
    END LOOP;
    -- (one device: no parts; n: n parts, every device probed)
    RETURN CASE WHEN probes = '' THEN parts = 0
                ELSE parts = (SELECT count(*) FROM regexp_matches(probes, '=', 'g')) AND
                     probes !~ '=0(,|$)' END;
END $$;
-- (was a table made again larger?)
CREATE FUNCTION mj_made_again(q text) RETURNS bool LANGUAGE sql
    SET gpuext.force = on SET gpuext.devices = '' AS $$
    SELECT count(*) > 0 FROM gx_explain(q, 'ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF') l
    WHERE l ~ 'Tables Made Again: [1-9]'
$$;
SELECT mj_check('SELECT count(*) FROM mj_o o JOIN mj_i i ON o.k = i.k');
SELECT mj_check('SELECT count(*) FROM mj_o o JOIN mj_i i ON o.k = i.k AND o.k2 = i.k2');
SELECT mj_check('SELECT count(*) FROM mj_o o LEFT JOIN mj_i i ON o.k8 = i.k8');
SELECT mj_check('SELECT count(*) FROM mj_o o WHERE EXISTS (SELECT 1 FROM mj_i i WHERE i.k = o.k)');
SELECT mj_check('SELECT count(*) FROM mj_o o WHERE NOT EXISTS (SELECT 1 FROM mj_i i WHERE i.k8 = o.k8)');
SELECT mj_check('SELECT count(*) FROM mj_o o JOIN mj_e e ON o.k = e.k');
SELECT mj_check('SELECT count(*) FROM mj_e e WHERE NOT EXISTS (SELECT 1 FROM mj_i i WHERE i.k = e.k)');
SELECT mj_parts('SELECT count(*) FROM mj_o o JOIN mj_i i ON o.k = i.k') AS parts,
       mj_parts('SELECT count(*) FROM mj_o o WHERE NOT EXISTS (SELECT 1 FROM mj_i i WHERE i.k8 = o.k8)') AS anti_parts;
CREATE TABLE mj_skew (id int4, k int4);
INSERT INTO mj_skew SELECT g, CASE WHEN g % 10 = 0 THEN g ELSE 7 END FROM generate_series(1, 40000) g;
VACUUM ANALYZE mj_skew;
SELECT mj_check('SELECT count(*) FROM mj_o o JOIN mj_skew s ON o.k = s.k');
SELECT mj_check('SELECT count(*) FROM mj_o o WHERE EXISTS (SELECT 1 FROM mj_skew s WHERE s.k = o.k)');
SELECT mj_parts('SELECT count(*) FROM mj_o o JOIN mj_skew s ON o.k = s.k') AS skew_parts,
       mj_made_again('SELECT count(*) FROM mj_o o JOIN mj_skew s ON o.k = s.k') =
       (md_labels(md_cache_kind()) ~ ',') AS skew_made_again;
-- cached sides: every device reads the others' entries by peer access
SET gpuext.cache_entry_rows = 20000;
VACUUM mj_o;
SELECT gpuext_cache_load('mj_o') > 0 AS loaded, gpuext_cache_load('mj_skew') > 0 AS loaded;
SELECT mj_check('SELECT count(*) FROM mj_o o JOIN mj_skew s ON o.k = s.k');
SELECT mj_check('SELECT count(*) FROM mj_skew s JOIN mj_o o ON o.k = s.k');
SELECT mj_check('SELECT count(*) FROM mj_o o WHERE NOT EXISTS (SELECT 1 FROM mj_skew s WHERE s.k = o.k)');
SELECT mj_parts('SELECT count(*) FROM mj_skew s JOIN mj_o o ON o.k = s.k') AS cached_parts;
SELECT gpuext_cache_evict('mj_o') >= 0 AS evicted, gpuext_cache_evict('mj_skew') >= 0 AS evicted;
RESET gpuext.cache_entry_rows;
-- auto: these inner sides are far below a million rows, one table
SET gpuext.join_device_parts = auto;
SELECT mj_parts('SELECT count(*) FROM mj_o o JOIN mj_i i ON o.k = i.k') = (md_labels(md_cache_kind()) !~ ',')
       AS auto_one_table;
RESET gpuext.join_device_parts;
DROP TABLE mj_skew;
DROP FUNCTION mj_parts(text);
DROP FUNCTION mj_made_again(text);

DROP TABLE mj_o, mj_i, mj_e;
DROP FUNCTION mj_check(text);
DROP FUNCTION mj_spread(text);
DROP FUNCTION mj_copied(text);
DROP FUNCTION mj_home(text);
DROP FUNCTION mj_no_copy(text);
DROP FUNCTION mj_nodes(text);
DROP FUNCTION mj_parallel(text);
DROP FUNCTION mj_cursor(text, int);
RESET max_parallel_workers_per_gather;
