-- gpuext 1.4 -> 1.5: batched prefix-tree lookups on the device
\echo Use "ALTER EXTENSION gpuext UPDATE TO '1.5'" to load this file. \quit

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
