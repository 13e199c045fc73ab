--
-- multidevice: several devices (issue 17).  The service runs the CPU
-- device, every GPU it found and the extra CPU devices of
-- gpuext.cpu_devices (the test runner sets 2 on some runs: then every CPU
-- query of the suite runs over two CPU devices, as over two GPUs).
-- gpuext.devices restricts a session to some of them.  A load spreads a
-- table's cache entries over the devices by block range; a scan runs each
-- entry's chunk on the device holding it and heap chunks on the least
-- loaded device; an aggregate's state lives on the scan's home device and
-- the chunks of the others add into it through peer access.  Every query
-- runs with gpuext off and on every device selection: the same rows.
-- The same expected output holds with one device of a kind or several.
--
CREATE TABLE md (id int4, a int4, b int8, c float8);
INSERT INTO md SELECT g, g % 1000, g * 3, (g % 77) / 7.0 FROM generate_series(1, 300000) g;
UPDATE md SET a = NULL WHERE id % 997 = 0;
VACUUM ANALYZE md;

-- the labels of the devices of a kind, in device order ('' kind: all)
CREATE FUNCTION md_labels(k text) RETURNS text LANGUAGE sql AS $$
    SELECT string_agg(label, ',' ORDER BY device) FROM gpuext_devices() WHERE k = '' OR kind = k
$$;
-- the kind that holds the cache: the GPUs when the service has one
CREATE FUNCTION md_cache_kind() RETURNS text LANGUAGE sql AS $$
    SELECT CASE WHEN EXISTS (SELECT 1 FROM gpuext_devices() WHERE kind = 'gpu')
                THEN 'gpu' ELSE 'cpu' END
$$;

-- q with gpuext off, then forced with gpuext.device = auto on each device
-- selection of gpuext.devices: each device alone, the CPU devices
-- together, the GPUs together, all of them (a plain filter may run on a
-- GPU and the CPU device at once); the same rows each time
CREATE FUNCTION md_check(q text) RETURNS text LANGUAGE plpgsql
    SET gpuext.enabled = off SET gpuext.force = off AS $$
DECLARE
    ref record;
    got record;
    sel text;
    sels text[];
BEGIN
    ref := gx_try(q);
    SELECT array_agg(label ORDER BY device) INTO sels FROM gpuext_devices();
    sels := sels || md_labels('cpu') || md_labels('');
    IF md_labels('gpu') IS NOT NULL THEN
        sels := sels || md_labels('gpu');
    END IF;
    PERFORM set_config('gpuext.enabled', 'on', true);
    PERFORM set_config('gpuext.force', 'on', true);
    PERFORM set_config('gpuext.device', 'auto', true);
    FOREACH sel IN ARRAY sels LOOP
        PERFORM set_config('gpuext.devices', sel, true);
        got := gx_try(q);
        IF got.summary IS DISTINCT FROM ref.summary OR got.r IS DISTINCT FROM ref.r THEN
            RETURN format('MISMATCH with gpuext.devices = %s: off gave "%s", on gave "%s"',
                          sel, ref.summary, got.summary);
        END IF;
    END LOOP;
    RETURN format('%s, %s', ref.summary, gx_device_node(q));
END $$;

-- did q's scan read cache entries (EXPLAIN ANALYZE's Cached Chunks > 0)?
CREATE FUNCTION md_read_cache(q text) RETURNS bool LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
        IF line ~ 'Cached Chunks: [1-9]' THEN
            RETURN true;
        END IF;
    END LOOP;
    RETURN false;
END $$;

-- did every device of the node run chunks?  (the EXPLAIN ANALYZE line
-- "Device Chunks: cpu=3, cpu1=2" of a node with several devices; true for
-- a node with one)
CREATE FUNCTION md_all_devices_ran(q text) RETURNS bool LANGUAGE plpgsql AS $$
DECLARE
    line text;
    ok bool := true;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
        IF line ~ 'Device Chunks: ' THEN
            ok := ok AND line !~ '=0(,|$)';
        END IF;
    END LOOP;
    RETURN ok;
END $$;

-- the devices: 0 is the CPU device; each has its name for gpuext.devices,
-- and reaches its own memory and its peers' (the CPU devices all share the
-- service's memory)
SELECT device, kind, label FROM gpuext_devices() WHERE device = 0;
SELECT bool_and(cardinality(string_to_array(peers, ',')) =
                (SELECT count(*) - 1 FROM gpuext_devices() WHERE kind = 'cpu'))
           AS cpu_devices_reach_each_other
FROM gpuext_devices() WHERE kind = 'cpu';
SELECT count(DISTINCT device) = (SELECT count(*) FROM gpuext_devices()) AS memory_per_device
FROM gpuext_memory;

-- filters, errors and aggregates on every selection of devices
SELECT md_check('SELECT id, a FROM md WHERE a > 990');
SELECT md_check('SELECT id FROM md WHERE a IS NULL');
SELECT md_check('SELECT count(*), sum(a), count(b) FROM md WHERE a < 500');
SELECT md_check('SELECT a % 10 AS k, count(*), sum(b), min(c), max(c) FROM md WHERE id > 1000 GROUP BY 1');
SELECT md_check('SELECT count(*) FROM md WHERE a = ANY (ARRAY(SELECT g FROM generate_series(1, 900, 3) g))');
SELECT md_check('SELECT id FROM md WHERE b / (a - 500) > 1000000');
SET gpuext.devices = '';

-- a load spreads the table's entries over every device holding a share of
-- the cache, by block range (small entries: many of them)
SET gpuext.cache_entry_rows = 20000;
SELECT gpuext_cache_load('md') AS rows_cached;
SELECT chunks > 1 AS several_entries, devices = md_labels(md_cache_kind()) AS on_every_cache_device
FROM gpuext_cache WHERE "table" = 'md'::regclass;
-- each entry's chunk runs where the entry lies: every device ran some
SET gpuext.force = on;
SELECT md_all_devices_ran('SELECT count(*) FROM md WHERE a > 10') AS every_device_ran;
SELECT md_all_devices_ran('SELECT count(*), sum(a) FROM md WHERE a > 10') AS every_device_ran_agg;
SELECT gx_check('SELECT count(*), sum(a), count(b) FROM md WHERE a > 10');
SELECT gx_check('SELECT id, b FROM md WHERE a BETWEEN 10 AND 12');
SELECT md_check('SELECT count(*) FROM md WHERE a > 10');
SELECT md_check('SELECT a % 7 AS k, count(*), sum(b) FROM md GROUP BY 1');
-- a write makes its block stale on whatever device holds it: read from the heap
UPDATE md SET a = -1 WHERE id = 150001;
SELECT md_check('SELECT id, a FROM md WHERE a < 0');
SELECT md_check('SELECT count(*), sum(a) FROM md WHERE a >= 0');

-- gpuext.devices restricts a load to its devices: the first cache device
SELECT gpuext_cache_evict('md') > 0 AS evicted;
VACUUM md;
SELECT set_config('gpuext.devices', split_part(md_labels(md_cache_kind()), ',', 1), false) IS NOT NULL;
SELECT gpuext_cache_load('md') > 0 AS loaded;
SELECT devices = split_part(md_labels(md_cache_kind()), ',', 1) AS on_the_first_device
FROM gpuext_cache WHERE "table" = 'md'::regclass;
-- a session on the last cache device reads those entries by peer access
SELECT set_config('gpuext.devices',
                  (SELECT label FROM gpuext_devices() WHERE kind = md_cache_kind()
                   ORDER BY device DESC LIMIT 1), false) IS NOT NULL;
SELECT md_read_cache('SELECT count(*) FROM md WHERE a > 500') AS read_the_entries;
SELECT gx_check('SELECT count(*), sum(b) FROM md WHERE a > 500');
SELECT gx_check('SELECT id FROM md WHERE a = 999');
RESET gpuext.devices;
SELECT gpuext_cache_evict('md') > 0 AS evicted;
RESET gpuext.cache_entry_rows;

-- a list that names no device that is there is an error; device = cpu
-- takes the CPU devices whatever the list says of GPUs
SET gpuext.device = auto;
SET gpuext.devices = 'gpu7';
SELECT count(*) FROM md WHERE a > 10;
SET gpuext.device = cpu;
SELECT count(*) FROM md WHERE a > 10;
RESET gpuext.device;
RESET gpuext.devices;
RESET gpuext.force;

DROP TABLE md;
DROP FUNCTION md_check(text);
DROP FUNCTION md_all_devices_ran(text);
DROP FUNCTION md_read_cache(text);
DROP FUNCTION md_labels(text);
DROP FUNCTION md_cache_kind();
