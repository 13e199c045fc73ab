-- gpuext 1.2 -> 1.3: the column cache under writes: stale blocks instead of
-- whole entries, refreshes, bytes used and reserved, load progress
\echo Use "ALTER EXTENSION gpuext UPDATE TO '1.3'" to load this file. \quit

DROP VIEW gpuext_cache;
DROP FUNCTION gpuext_cache_info();
CREATE FUNCTION gpuext_cache_info(
    OUT "table" regclass, OUT columns text, OUT chunks int, OUT rows bigint,
    OUT bytes bigint, OUT reserved_bytes bigint, OUT stale_blocks bigint,
    OUT refreshed_blocks bigint, OUT rows_from_device bigint,
    OUT blocks_from_heap bigint, OUT hits bigint, OUT state text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'gpuext_cache_info'
LANGUAGE C STRICT VOLATILE;
CREATE VIEW gpuext_cache AS SELECT * FROM gpuext_cache_info();
COMMENT ON VIEW gpuext_cache IS 'tables in the gpuext cache that the current user may read';
GRANT SELECT ON gpuext_cache TO PUBLIC;

CREATE FUNCTION gpuext_cache_refresh(rel regclass) RETURNS bigint
AS 'MODULE_PATHNAME', 'gpuext_cache_refresh'
LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION gpuext_cache_refresh(regclass) IS 'reload the stale blocks of a table''s cache entries that are all-visible again; returns the blocks reloaded';
REVOKE ALL ON FUNCTION gpuext_cache_refresh(regclass) FROM PUBLIC;

CREATE FUNCTION gpuext_cache_progress(
    OUT pid int, OUT "table" regclass, OUT blocks_done bigint,
    OUT blocks_total bigint, OUT rows bigint)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'gpuext_cache_progress'
LANGUAGE C STRICT VOLATILE;
CREATE VIEW gpuext_cache_progress AS SELECT * FROM gpuext_cache_progress();
COMMENT ON VIEW gpuext_cache_progress IS 'gpuext_cache_load calls running now in this database';
GRANT SELECT ON gpuext_cache_progress TO PUBLIC;

DROP VIEW gpuext_stat;
DROP FUNCTION gpuext_stat();
-- the columns follow GX_SCAN_STATS (src/include/executor.h), in order
CREATE FUNCTION gpuext_stat(
    OUT dbid oid, OUT relid oid, OUT scans bigint,
    OUT chunks bigint, OUT chunks_gpu bigint, OUT chunks_mapped bigint,
    OUT chunks_jit bigint, OUT rows_in bigint, OUT rows_selected bigint,
    OUT bytes_to_device bigint, OUT bytes_from_device bigint,
    OUT transfer_to_device_ms float8, OUT kernel_ms float8,
    OUT transfer_from_device_ms float8, OUT device_ms float8,
    OUT fill_ms float8, OUT wait_ms float8, OUT cache_chunks bigint,
    OUT cache_not_valid bigint, OUT cache_bytes bigint, OUT cache_rows bigint,
    OUT cache_stale_blocks bigint, OUT cache_stale_rows bigint, OUT wall_ms float8)
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
       s.cache_bytes, s.cache_rows, s.cache_stale_blocks, s.cache_stale_rows, s.wall_ms
FROM gpuext_stat() s
WHERE s.dbid = (SELECT oid FROM pg_database WHERE datname = current_database());
GRANT SELECT ON gpuext_stat TO PUBLIC;
