--
-- upgrade: ALTER EXTENSION gpuext UPDATE from 1.0 gives what CREATE
-- EXTENSION of the default version gives: the same objects with the same
-- privileges, and they work.
--

-- the extension's objects, each with its privileges (functions, views)
CREATE FUNCTION gx_ext_objects() RETURNS TABLE(obj text, acl text) LANGUAGE sql AS $$
    SELECT pg_describe_object(d.classid, d.objid, 0),
           coalesce((SELECT array_to_string(p.proacl, ',') FROM pg_proc p
                     WHERE p.oid = d.objid AND d.classid = 'pg_proc'::regclass),
                    (SELECT array_to_string(c.relacl, ',') FROM pg_class c
                     WHERE c.oid = d.objid AND d.classid = 'pg_class'::regclass), '')
    FROM pg_depend d JOIN pg_extension e ON d.refobjid = e.oid
    WHERE d.refclassid = 'pg_extension'::regclass AND e.extname = 'gpuext' AND d.deptype = 'e'
$$;
CREATE TEMP TABLE gx_fresh AS SELECT * FROM gx_ext_objects();
SELECT extversion FROM pg_extension WHERE extname = 'gpuext';
SET client_min_messages = warning;
DROP EXTENSION gpuext CASCADE;
RESET client_min_messages;
CREATE EXTENSION gpuext VERSION '1.0';
SELECT extversion FROM pg_extension WHERE extname = 'gpuext';
-- the library serves the views of an older version too
ALTER EXTENSION gpuext UPDATE TO '1.2';
SELECT count(*) >= 0 AS cache_view_12 FROM gpuext_cache;
SELECT count(*) >= 0 AS stat_view_12 FROM gpuext_stat;
ALTER EXTENSION gpuext UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'gpuext';
-- nothing missing, nothing extra, the same privileges
(SELECT * FROM gx_fresh EXCEPT SELECT * FROM gx_ext_objects())
UNION ALL
(SELECT * FROM gx_ext_objects() EXCEPT SELECT * FROM gx_fresh);
SELECT count(*) >= 13 AS objects FROM gx_ext_objects();
SELECT obj FROM gx_ext_objects() WHERE acl <> '' ORDER BY obj;
-- and they work
SET gpuext.force = on;
SELECT gx_check('SELECT id FROM gx_num WHERE i4 > 0');
RESET gpuext.force;
SELECT count(*) >= 0 AS stat_view, (SELECT count(*) FROM gpuext_sessions) >= 0 AS sessions_view
FROM gpuext_stat;
-- the prefix-tree index of 1.4 (sql/ptree.sql tests it), its device lookups of 1.5
-- (sql/ptree_lookup.sql), their shared device image of 1.6
CREATE TABLE gx_upgrade_pt AS SELECT g AS k FROM generate_series(1, 100) g;
CREATE INDEX gx_upgrade_pt_k ON gx_upgrade_pt USING gpuext_ptree (k);
SELECT keys, tids FROM gpuext_ptree_check('gx_upgrade_pt_k');
SELECT count(*) FROM gpuext_ptree_lookup('gx_upgrade_pt_k', ARRAY[1, 50, 100, 101]);
-- the shared objects of 1.6 (sql/shared_objects.sql): the lookup's image is one
SELECT kind, state, pins FROM gpuext_shared_objects WHERE relation = 'gx_upgrade_pt_k'::regclass;
SELECT objects_written > 0 AS written FROM gpuext_shared_object_stats;
DROP TABLE gx_upgrade_pt;
-- the sorted projections of 1.7 (sql/sorted_projection.sql): gpuext_cache_load's
-- new signature (sorted =>), gpuext_cache_search, gpuext_cache_projections
CREATE TABLE gx_upgrade_sp AS SELECT g AS k FROM generate_series(1, 100) g;
VACUUM (FREEZE) gx_upgrade_sp;
SELECT gpuext_cache_load('gx_upgrade_sp', sorted => ARRAY['k']);
SELECT "column", rows, state FROM gpuext_cache_projections
WHERE relation = 'gx_upgrade_sp'::regclass;
SELECT * FROM gpuext_cache_search('gx_upgrade_sp', 'k', ARRAY[1, 100, 101]) ORDER BY 1;
SELECT gpuext_cache_evict('gx_upgrade_sp') > 0 AS evicted;
DROP TABLE gx_upgrade_sp;
-- several devices (1.8, sql/multidevice.sql): gpuext_devices() names each
-- device for gpuext.devices, gpuext_cache says which devices hold a table
SELECT label, peers IS NOT NULL AS has_peers FROM gpuext_devices() WHERE device = 0;
CREATE TABLE gx_upgrade_md AS SELECT g AS k FROM generate_series(1, 100) g;
VACUUM (FREEZE) gx_upgrade_md;
SELECT gpuext_cache_load('gx_upgrade_md');
SELECT devices <> '' AS held_somewhere FROM gpuext_cache WHERE "table" = 'gx_upgrade_md'::regclass;
SELECT gpuext_cache_evict('gx_upgrade_md') > 0 AS evicted;
DROP TABLE gx_upgrade_md;
DROP FUNCTION gx_ext_objects();
