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
-- (md_check and the other md_ helpers: setup.sql.)
--
CREATE TABLE md (id int4, a int4, b int8, c float8);
INSERT INTO md SELECT g, g % 1000, g * 3, (g % 77) / 7.0 FROM generate_series(1, 300000) g;
UPDATE md SET a = NULL WHERE id % 997 = 0;
VACUUM ANALYZE md;

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
SELECT chunks > 1 AS several_entries, devices = md_cache_labels() AS on_every_cache_device
FROM gpuext_cache WHERE "table" = 'md'::regclass;
-- each entry's chunk runs where the entry lies: the devices holding them all ran some
SET gpuext.force = on;
SELECT md_spread('SELECT count(*) FROM md WHERE a > 10') AS spread;
SELECT md_spread('SELECT count(*), sum(a) FROM md WHERE a > 10') AS spread_agg;
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
-- a session on the last device of the cache's kind (with a small cache,
-- one holding no share of it) reads those entries by peer access
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
