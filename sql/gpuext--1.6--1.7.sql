-- gpuext 1.6 -> 1.7: sorted projections of cached columns (issue 16 part 1)
\echo Use "ALTER EXTENSION gpuext UPDATE TO '1.7'" to load this file. \quit
-- gpuext_cache_load builds the sorted projections of the columns named in
-- sorted => (src/cache/projection.cpp): the old signature is replaced
DROP FUNCTION gpuext_cache_load(regclass);
CREATE FUNCTION gpuext_cache_load(rel regclass, sorted text[] DEFAULT NULL) RETURNS bigint
AS 'MODULE_PATHNAME', 'gpuext_cache_load'
LANGUAGE C VOLATILE;
COMMENT ON FUNCTION gpuext_cache_load(regclass, text[]) IS 'load the all-visible blocks of a table into the gpuext cache, then build the sorted projection of each column named in sorted; returns the rows cached';
REVOKE ALL ON FUNCTION gpuext_cache_load(regclass, text[]) FROM PUBLIC;

-- batched equality lookups through a column's sorted projection
CREATE FUNCTION gpuext_cache_search(rel regclass, col text, keys int8[])
RETURNS TABLE (key int8, ctid tid)
AS 'MODULE_PATHNAME', 'gpuext_cache_search'
LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION gpuext_cache_search(regclass, text, int8[]) IS 'for each key in order, the TIDs of the rows of the table whose column equals it: through the column''s sorted projection when the cache holds the table whole and valid (built now when needed), else from the heap; the rows a plain query of the same snapshot returns';

CREATE FUNCTION gpuext_cache_projections(
    OUT relation regclass, OUT "column" text, OUT rows bigint, OUT bytes bigint,
    OUT device text, OUT state text, OUT uses bigint)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'gpuext_cache_projections'
LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION gpuext_cache_projections() IS 'sorted projections of cached columns in this database whose tables the user may read: table, column, rows of the cache entries it was built from, bytes, device, state (valid: built from the entries as they are now; stale: rebuilt at its next use; building), uses (calls that used it)';

CREATE VIEW gpuext_cache_projections AS SELECT * FROM gpuext_cache_projections();
GRANT SELECT ON gpuext_cache_projections TO PUBLIC;
