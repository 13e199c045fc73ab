-- gpuext 1.1 -> 1.2: cumulative statistics; server-wide state changed by
-- its owner's (and the administrator's) choice only
\echo Use "ALTER EXTENSION gpuext UPDATE TO '1.2'" to load this file. \quit

-- the cache is shared by every user of the server: loading and evicting
-- are granted by the administrator (and need the table's ownership)
REVOKE ALL ON FUNCTION gpuext_cache_load(regclass) FROM PUBLIC;
REVOKE ALL ON FUNCTION gpuext_cache_evict(regclass) FROM PUBLIC;

-- the columns follow GX_SCAN_STATS (src/include/executor.h), in order
CREATE FUNCTION gpuext_stat(
    OUT dbid oid, OUT relid oid, OUT scans bigint,
    OUT chunks bigint, OUT chunks_gpu bigint, OUT chunks_mapped bigint,
    OUT chunks_jit bigint, OUT rows_in bigint, OUT rows_selected bigint,
    OUT bytes_to_device bigint, OUT bytes_from_device bigint,
    OUT transfer_to_device_ms float8, OUT kernel_ms float8,
    OUT transfer_from_device_ms float8, OUT device_ms float8,
    OUT fill_ms float8, OUT wait_ms float8, OUT cache_chunks bigint,
    OUT cache_not_valid bigint, OUT cache_bytes bigint, OUT wall_ms float8)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'gpuext_stat'
LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION gpuext_stat() IS 'cumulative GpuScan statistics per database and relation (relid 0: relations past the table''s size)';

CREATE VIEW gpuext_stat AS
SELECT s.relid::regclass AS relation, s.scans, s.chunks, s.chunks_gpu,
       s.chunks_mapped, s.chunks_jit, s.chunks - s.chunks_jit AS chunks_interpreted,
       s.rows_in, s.rows_selected, s.bytes_to_device, s.bytes_from_device,
       s.transfer_to_device_ms, s.kernel_ms, s.transfer_from_device_ms,
       s.device_ms, s.fill_ms, s.wait_ms, s.cache_chunks, s.cache_not_valid,
       s.cache_bytes, s.wall_ms
FROM gpuext_stat() s
WHERE s.dbid = (SELECT oid FROM pg_database WHERE datname = current_database());
GRANT SELECT ON gpuext_stat TO PUBLIC;

CREATE FUNCTION gpuext_stat_reset() RETURNS integer
AS 'MODULE_PATHNAME', 'gpuext_stat_reset'
LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION gpuext_stat_reset() IS 'forget the statistics of gpuext_stat (every database); returns the entries dropped';
REVOKE ALL ON FUNCTION gpuext_stat_reset() FROM PUBLIC;
