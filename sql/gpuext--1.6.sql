-- gpuext 1.6: GPU (and CPU device) execution of SQL: filters, aggregates, the column cache (kept under writes), the device engine, statistics, the prefix-tree index gpuext_ptree and its batched device lookups, shared engine objects (the index image a device copy for every session)
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

-- device-resident column cache
CREATE FUNCTION gpuext_cache_load(rel regclass) RETURNS bigint
AS 'MODULE_PATHNAME', 'gpuext_cache_load'
LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION gpuext_cache_load(regclass) IS 'load the all-visible blocks of a table into the gpuext cache; returns the rows cached';

CREATE FUNCTION gpuext_cache_evict(rel regclass) RETURNS integer
AS 'MODULE_PATHNAME', 'gpuext_cache_evict'
LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION gpuext_cache_evict(regclass) IS 'drop a table''s entries from the gpuext cache; returns how many';

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


-- the device engine (1.1)
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
COMMENT ON FUNCTION gpuext_memory() IS 'device memory the gpuext engine uses, per device and owner (staging, cache, sessions, shared objects)';

CREATE VIEW gpuext_memory AS SELECT * FROM gpuext_memory();
GRANT SELECT ON gpuext_memory TO PUBLIC;

CREATE FUNCTION gpuext_service_restart() RETURNS boolean
AS 'MODULE_PATHNAME', 'gpuext_service_restart'
LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION gpuext_service_restart() IS 'stop the gpuext service (the postmaster starts a fresh one): queries in flight get an error; superuser only';
REVOKE ALL ON FUNCTION gpuext_service_restart() FROM PUBLIC;

-- 1.2
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

CREATE FUNCTION gpuext_stat_reset() RETURNS integer
AS 'MODULE_PATHNAME', 'gpuext_stat_reset'
LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION gpuext_stat_reset() IS 'forget the statistics of gpuext_stat (every database); returns the entries dropped';
REVOKE ALL ON FUNCTION gpuext_stat_reset() FROM PUBLIC;

-- prefix-tree index (gpuext_ptree)
-- An index access method: a prefix tree (16-way nodes over 4-bit spans of
-- order-preserving byte keys) in the index's own pages (docs/ptree.md).
CREATE FUNCTION gpuext_ptree_handler(internal) RETURNS index_am_handler
AS 'MODULE_PATHNAME', 'gpuext_ptree_handler'
LANGUAGE C STRICT;
CREATE ACCESS METHOD gpuext_ptree TYPE INDEX HANDLER gpuext_ptree_handler;
COMMENT ON ACCESS METHOD gpuext_ptree IS 'prefix-tree index: int4, int8 (equality, ranges, ordered scans), text (equality; byte-order ranges with text_pattern_ops)';

-- integers: one family, int4 and int8 (keys are int64), btree's strategies
CREATE OPERATOR FAMILY integer_ops USING gpuext_ptree;
CREATE OPERATOR CLASS int4_ops DEFAULT FOR TYPE int4 USING gpuext_ptree FAMILY integer_ops AS
    OPERATOR 1 < , OPERATOR 2 <= , OPERATOR 3 = , OPERATOR 4 >= , OPERATOR 5 > ;
CREATE OPERATOR CLASS int8_ops DEFAULT FOR TYPE int8 USING gpuext_ptree FAMILY integer_ops AS
    OPERATOR 1 < , OPERATOR 2 <= , OPERATOR 3 = , OPERATOR 4 >= , OPERATOR 5 > ;
ALTER OPERATOR FAMILY integer_ops USING gpuext_ptree ADD
    OPERATOR 1 < (int4, int8), OPERATOR 2 <= (int4, int8), OPERATOR 3 = (int4, int8),
    OPERATOR 4 >= (int4, int8), OPERATOR 5 > (int4, int8),
    OPERATOR 1 < (int8, int4), OPERATOR 2 <= (int8, int4), OPERATOR 3 = (int8, int4),
    OPERATOR 4 >= (int8, int4), OPERATOR 5 > (int8, int4);

-- text: equality (a deterministic collation: byte equality)
CREATE OPERATOR FAMILY text_ops USING gpuext_ptree;
CREATE OPERATOR CLASS text_ops DEFAULT FOR TYPE text USING gpuext_ptree FAMILY text_ops AS
    OPERATOR 3 = ;
-- text in byte order: equality and the ~<~ family's ranges and order
CREATE OPERATOR FAMILY text_pattern_ops USING gpuext_ptree;
CREATE OPERATOR CLASS text_pattern_ops FOR TYPE text USING gpuext_ptree FAMILY text_pattern_ops AS
    OPERATOR 1 ~<~ , OPERATOR 2 ~<=~ , OPERATOR 3 = , OPERATOR 4 ~>=~ , OPERATOR 5 ~>~ ;

CREATE FUNCTION gpuext_ptree_check(index regclass,
    OUT keys bigint, OUT tids bigint, OUT null_tids bigint, OUT nodes bigint,
    OUT depth int, OUT change_count bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'gpuext_ptree_check'
LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION gpuext_ptree_check(regclass) IS 'check a gpuext_ptree index''s structure (ERROR if corrupted); its keys, TIDs, NULL TIDs, nodes, depth and change counter';
REVOKE ALL ON FUNCTION gpuext_ptree_check(regclass) FROM PUBLIC;

-- batched lookups on the device (gpuext.device): a key array against a
-- gpuext_ptree index of int4 / int8 keys, through the index's device image
-- (docs/ptree.md); the index's entries, or (visible) the row versions the
-- query's snapshot sees, HOT chains followed as an index scan does
CREATE FUNCTION gpuext_ptree_lookup(index regclass, keys bigint[], parts int DEFAULT 0,
    visible boolean DEFAULT false, OUT key bigint, OUT tid tid)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'gpuext_ptree_lookup'
LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION gpuext_ptree_lookup(regclass, bigint[], int, boolean) IS 'look up a batch of keys in a gpuext_ptree index on the device: (key, tid) of each index entry (parts 0: sequential walk; 2, 4, 8, 16: speculative partitioned traversal), or with visible of each row version the snapshot sees';

-- 1.6
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
