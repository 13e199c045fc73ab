-- gpuext 1.0: GPU (and CPU device) execution of SQL filters
\echo Use "CREATE EXTENSION gpuext" to load this file. \quit

-- gpuext only works when preloaded: fail CREATE EXTENSION with a hint otherwise
CREATE FUNCTION gpuext_check_preload() RETURNS void
AS 'MODULE_PATHNAME', 'gpuext_check_preload' LANGUAGE C STRICT;
SELECT gpuext_check_preload();
DROP FUNCTION gpuext_check_preload();

CREATE FUNCTION gpuext_devices(
    OUT device int, OUT kind text, OUT name text, OUT memory_mb bigint,
    OUT compute_capability text, OUT multiprocessors int)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'gpuext_devices'
LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION gpuext_devices() IS 'devices the gpuext service found (the GPU, if any, and the CPU device)';
