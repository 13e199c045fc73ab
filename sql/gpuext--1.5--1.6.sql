-- gpuext 1.5 -> 1.6: shared engine objects and their views
\echo Use "ALTER EXTENSION gpuext UPDATE TO '1.6'" to load this file. \quit
-- shared engine objects (docs/engine.md section 2): device objects the
-- service owns, named read-only by every session's tasks (a prefix-tree
-- index's device image), and what was written into them
CREATE FUNCTION gpuext_shared_objects(
    OUT database oid, OUT relation oid, OUT relfilenode oid, OUT kind text,
    OUT version bigint, OUT device text, OUT bytes bigint, OUT state text,
    OUT pins int, OUT uses bigint, OUT last_use timestamptz)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'gpuext_shared_objects'
LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION gpuext_shared_objects() IS 'shared engine objects: their key (database, relation, relfilenode, kind, version), device, bytes, state (writing, ready, dead), pins (calls holding them and tasks in flight), uses and last use';

CREATE VIEW gpuext_shared_objects AS SELECT * FROM gpuext_shared_objects();
GRANT SELECT ON gpuext_shared_objects TO PUBLIC;

CREATE FUNCTION gpuext_shared_object_stats(
    OUT objects_written bigint, OUT bytes_written bigint, OUT session_copies bigint,
    OUT session_copy_bytes bigint, OUT evictions bigint)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'gpuext_shared_object_stats'
LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION gpuext_shared_object_stats() IS 'since server start: shared objects written and their bytes, calls that wrote a copy of their own instead (session copies) and their bytes, shared objects evicted';

CREATE VIEW gpuext_shared_object_stats AS SELECT * FROM gpuext_shared_object_stats();
GRANT SELECT ON gpuext_shared_object_stats TO PUBLIC;

-- gpuext_memory has an owner more: shared objects
COMMENT ON FUNCTION gpuext_memory() IS 'device memory the gpuext engine uses, per device and owner (staging, cache, sessions, shared objects)';
