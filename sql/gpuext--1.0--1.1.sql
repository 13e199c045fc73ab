-- gpuext 1.0 -> 1.1: the device engine's views
\echo Use "ALTER EXTENSION gpuext UPDATE TO '1.1'" to load this file. \quit

CREATE FUNCTION gpuext_sessions(
    OUT session bigint, OUT pid int, OUT device text, OUT state text,
    OUT objects int, OUT bytes bigint, OUT opened timestamptz)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'gpuext_sessions'
LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION gpuext_sessions() IS 'engine sessions open now: the backend, its device objects and their device memory';

CREATE VIEW gpuext_sessions AS SELECT * FROM gpuext_sessions();
GRANT SELECT ON gpuext_sessions TO PUBLIC;

CREATE FUNCTION gpuext_memory(
    OUT device text, OUT owner text, OUT bytes bigint, OUT "limit" bigint)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'gpuext_memory'
LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION gpuext_memory() IS 'device memory the gpuext engine uses, per device and owner (staging, cache, sessions)';

CREATE VIEW gpuext_memory AS SELECT * FROM gpuext_memory();
GRANT SELECT ON gpuext_memory TO PUBLIC;

CREATE FUNCTION gpuext_service_restart() RETURNS boolean
AS 'MODULE_PATHNAME', 'gpuext_service_restart'
LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION gpuext_service_restart() IS 'stop the gpuext service (the postmaster starts a fresh one): queries in flight get an error; superuser only';
REVOKE ALL ON FUNCTION gpuext_service_restart() FROM PUBLIC;
