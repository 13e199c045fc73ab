-- gpuext 1.7 -> 1.8: several devices (issue 17).  The service opens every
-- GPU; gpuext_devices() names each (for gpuext.devices) and lists the
-- devices whose memory its tasks may reach; gpuext_cache says which
-- devices hold a table's entries.
\echo Use "ALTER EXTENSION gpuext UPDATE TO '1.8'" to load this file. \quit
DROP FUNCTION gpuext_devices();
CREATE FUNCTION gpuext_devices(
    OUT device int, OUT kind text, OUT name text, OUT memory_mb bigint,
    OUT compute_capability text, OUT multiprocessors int,
    OUT label text, OUT peers text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'gpuext_devices'
LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION gpuext_devices() IS 'devices the gpuext service runs: the CPU device, every GPU it opened, the extra CPU devices of gpuext.cpu_devices; label is the name gpuext.devices takes, peers the devices whose memory its tasks may reach';

DROP VIEW gpuext_cache;
DROP FUNCTION gpuext_cache_info();
CREATE FUNCTION gpuext_cache_info(
    OUT "table" regclass, OUT columns text, OUT chunks int, OUT rows bigint,
    OUT bytes bigint, OUT reserved_bytes bigint, OUT stale_blocks bigint,
    OUT refreshed_blocks bigint, OUT rows_from_device bigint,
    OUT blocks_from_heap bigint, OUT hits bigint, OUT state text,
    OUT devices text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'gpuext_cache_info'
LANGUAGE C STRICT VOLATILE;
CREATE VIEW gpuext_cache AS SELECT * FROM gpuext_cache_info();
COMMENT ON VIEW gpuext_cache IS 'tables in the gpuext cache that the current user may read, and the devices holding their entries';
GRANT SELECT ON gpuext_cache TO PUBLIC;
