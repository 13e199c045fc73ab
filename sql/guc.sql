--
-- guc: the gpuext.* settings, their defaults, ranges and contexts, the
-- reserved prefix, gpuext_devices(), and device selection per session
--

SELECT name, setting, unit, context, vartype, min_val, max_val, enumvals
FROM pg_settings WHERE name LIKE 'gpuext.%'
    AND name NOT IN ('gpuext.device', 'gpuext.staging_size', 'gpuext.cache_size', 'gpuext.transfer',
                     'gpuext.jit_wait', 'gpuext.cpu_devices')
ORDER BY name;
-- device, staging_size, cache_size, transfer, jit_wait and cpu_devices may be set by the test
-- runner; their definitions
SELECT name, context, vartype, enumvals, boot_val, min_val, max_val, unit
FROM pg_settings WHERE name IN ('gpuext.device', 'gpuext.staging_size', 'gpuext.cache_size', 'gpuext.transfer',
                                'gpuext.jit_wait', 'gpuext.cpu_devices')
ORDER BY name;

-- invalid values are rejected
SET gpuext.device = 'tpu';
SET gpuext.transfer = 'zerocopy';
SET gpuext.chunk_rows = 10;
SET gpuext.chunk_rows = 100000000;
SET gpuext.gpu_setup_cost = -1;
SET gpuext.enabled = 'maybe';
SET gpuext.devices = 'tpu0';
SET gpuext.devices = 'gpu0,,cpu';
SET gpuext.devices = 'gpu123';
-- postmaster settings cannot change at run time
SET gpuext.staging_size = '512MB';
SET gpuext.cpu_threads = 4;
SET gpuext.cache_size = 128;
-- the prefix is reserved: unknown gpuext.* names are errors
SET gpuext.no_such_setting = 1;
-- other prefixes still accept placeholders
SET gpuext_other.x = 1;
SHOW gpuext_other.x;
RESET gpuext_other.x;

-- valid changes take effect per session
SET gpuext.chunk_rows = 4096;
SHOW gpuext.chunk_rows;
SET gpuext.chunk_rows = '1048576';
SHOW gpuext.chunk_rows;
RESET gpuext.chunk_rows;
SHOW gpuext.chunk_rows;
SET gpuext.device = cpu;
SHOW gpuext.device;
RESET gpuext.device;
SET gpuext.transfer = mapped;
SHOW gpuext.transfer;
SET gpuext.transfer = copy;
SHOW gpuext.transfer;
RESET gpuext.transfer;

-- the CPU device is always listed (device 0, "cpu"), GPUs (if any) with
-- memory and capability, as many CPU devices as gpuext.cpu_devices says
SELECT kind, label, name ~ '^CPU device \([0-9]+ threads\)$' AS cpu_name_ok,
       multiprocessors > 0 AS has_threads
FROM gpuext_devices() WHERE device = 0;
SELECT count(*) FILTER (WHERE kind = 'cpu') = current_setting('gpuext.cpu_devices')::int
           AS cpu_devices_as_configured,
       bool_and(memory_mb > 0 AND compute_capability ~ '^[0-9]+\.[0-9]+$')
           FILTER (WHERE kind = 'gpu') IS NOT FALSE AS gpus_described,
       bool_and(label ~ '^(cpu[0-9]*|gpu[0-9]+)$') AS labels_are_device_names
FROM gpuext_devices();

-- the service has a row in pg_stat_activity, with its own backend type
SELECT count(*) AS services, bool_and(datid IS NULL) AS no_database
FROM pg_stat_activity WHERE backend_type = 'gpuext service';

-- device = cpu runs on the CPU device, whatever the host has (devices =
-- cpu: the CPU device alone, not the extra ones of gpuext.cpu_devices)
SET gpuext.device = cpu;
SET gpuext.devices = cpu;
SET gpuext.force = on;
EXPLAIN (COSTS OFF) SELECT id FROM gx_num WHERE i4 > 0;
RESET ALL;

-- device = auto plans a GpuScan by cost only where the service found a
-- GPU (on a host without one, PostgreSQL's own scans are faster than the
-- CPU device); force still makes it run, on the CPU device there
SET gpuext.device = auto;
SET gpuext.gpu_setup_cost = 0;
SET gpuext.gpu_operator_cost = 0;
SET gpuext.gpu_tuple_cost = 0;
SELECT gx_uses_gpuscan('SELECT id FROM gx_num WHERE i4 > 0') =
       EXISTS (SELECT 1 FROM gpuext_devices() WHERE kind = 'gpu') AS gpuscan_only_with_a_gpu;
SET gpuext.force = on;
SELECT gx_uses_gpuscan('SELECT id FROM gx_num WHERE i4 > 0') AS forced_gpuscan;
RESET ALL;

-- gpuext.transfer: mapped gives the same rows (and errors) as copy and as
-- PostgreSQL, on every device (the CPU device ignores the mode)
SET gpuext.transfer = mapped;
SELECT gx_check('SELECT id FROM gx_num WHERE i4 > 0 AND f8 < 10');
SELECT gx_check('SELECT id FROM gx_num WHERE i2 IS NULL OR (b AND d > ''2021-01-01'')');
SELECT gx_error('SELECT id FROM gx_num WHERE i2 * 1000::int2 > 0');
SET gpuext.device_deform = off;
SELECT gx_check('SELECT id FROM gx_num WHERE i4 > 0 AND f8 < 10');
RESET gpuext.device_deform;
RESET gpuext.transfer;

-- EXPLAIN ANALYZE with TIMING says which transfer ran: none on the CPU
-- device; on the GPU the mode asked for (mapped runs as copy when the
-- service could not map the staging area, and says so)
CREATE FUNCTION gx_transfer_ran(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    line text;
    dev text;
    tr text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, SUMMARY OFF) ' || q LOOP
        dev := coalesce(substring(line from 'Device: (GPU|CPU)$'), dev);
        tr := coalesce(substring(line from 'Transfer: (.*)$'), tr);
    END LOOP;
    RETURN CASE WHEN dev = 'CPU' AND tr = 'none' THEN 'as asked'
                WHEN dev = 'GPU' AND tr = current_setting('gpuext.transfer') THEN 'as asked'
                WHEN dev = 'GPU' AND tr = 'copy (mapped unavailable)'
                     AND current_setting('gpuext.transfer') = 'mapped' THEN 'as asked'
                ELSE format('unexpected: Device %s, Transfer %s', dev, tr) END;
END $$;
SET gpuext.force = on;
SELECT gx_transfer_ran('SELECT id FROM gx_num WHERE i4 > 0');
SET gpuext.transfer = mapped;
SELECT gx_transfer_ran('SELECT id FROM gx_num WHERE i4 > 0');
SET gpuext.device = cpu;
SELECT gx_transfer_ran('SELECT id FROM gx_num WHERE i4 > 0');
-- with TIMING OFF there is no Transfer line: plans compare across devices
SELECT gx_explain('SELECT id FROM gx_num WHERE i4 > 0', 'ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF');
DROP FUNCTION gx_transfer_ran(text);
RESET ALL;

-- gpuext.enabled = off and enable_scan = off plan as PostgreSQL does
SET gpuext.force = on;
SET gpuext.enabled = off;
EXPLAIN (COSTS OFF) SELECT id FROM gx_num WHERE i4 > 0;
SET gpuext.enabled = on;
SET gpuext.enable_scan = off;
EXPLAIN (COSTS OFF) SELECT id FROM gx_num WHERE i4 > 0;
RESET ALL;

-- without the extension in a database, nothing is planned there
DROP EXTENSION gpuext;
SET gpuext.force = on;
EXPLAIN (COSTS OFF) SELECT id FROM gx_num WHERE i4 > 0;
SELECT count(*) FROM gx_num WHERE i4 > 0;
CREATE EXTENSION gpuext;
SELECT gx_explain('SELECT id FROM gx_num WHERE i4 > 0');
RESET ALL;
