-- gpuext 1.3 -> 1.4: the prefix-tree index access method gpuext_ptree
\echo Use "ALTER EXTENSION gpuext UPDATE TO '1.4'" to load this file. \quit

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
