/*
 * ptree_check.cpp - gpuext_ptree_check(regclass): checks a gpuext_ptree
 * index's structure, in the spirit of amcheck, and returns what it
 * counted.  Under the metapage's share lock (no change meanwhile) it walks
 * the tree from the root: every pointer leads to an item of the right
 * page kind, a node's prefix fits, every entry's key begins with the path
 * to it (ends at a node for its term), keys come in strictly increasing
 * order (so no entry is reached twice), chains hold continuations only,
 * and the NULL chain holds no key.  Any violation is an ERROR
 * (ERRCODE_INDEX_CORRUPTED).
 */
#include "gpuext.h"
#include "ptree.h"

extern "C"
{
#include "access/relation.h"
#include "catalog/pg_am.h"
#include "commands/defrem.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

PGDLLEXPORT Datum gpuext_ptree_check(PG_FUNCTION_ARGS);
PG_FUNCTION_INFO_V1(gpuext_ptree_check);
}

typedef struct PtreeCheck
{
	Relation	index;
	uint8	   *path;			/* nibbles of the way down */
	int			cappath;
	uint8	   *last;			/* the last key seen */
	int			lastlen;
	bool		has_last;
	int64		keys;
	int64		tids;
	int64		nodes;
	int			depth;			/* the most nodes on a way down */
	int64		chain_max;		/* a chain longer than this loops */
} PtreeCheck;

/* report a violation */
static void
ptree_check_fail(PtreeCheck *cs, PtreePtr p, const char *what)
{
	ereport(ERROR,
			(errcode(ERRCODE_INDEX_CORRUPTED),
			 errmsg("gpuext_ptree index \"%s\" is corrupted: %s (block %u, item %u)",
					RelationGetRelationName(cs->index), what, p.blkno, p.off)));
}

/* count the TIDs of the chain after head, checking its entries */
static int64
ptree_check_chain(PtreeCheck *cs, PtreeEntry *head)
{
	int64		n = head->ntids;
	int64		len = 0;
	PtreePtr	next = head->next;

	while (PtreePtrIsValid(next))
	{
		PtreeEntry *e = ptree_read_entry(cs->index, next);

		CHECK_FOR_INTERRUPTS();
		if (e->flags != PTREE_ENTRY_CONT || e->keylen != 0)
			ptree_check_fail(cs, next, "a continuation entry is not one");
		if (++len > cs->chain_max)
			ptree_check_fail(cs, next, "an entry chain loops");
		n += e->ntids;
		next = e->next;
		pfree(e);
	}
	return n;
}

/* check the entry at p, reached by path nibbles [0, n); term: it ends there */
static void
ptree_check_entry(PtreeCheck *cs, PtreePtr p, int n, bool term)
{
	PtreeEntry *e = ptree_read_entry(cs->index, p);
	const uint8 *key = (const uint8 *) PtreeEntryKey(e);

	if (e->flags != PTREE_ENTRY_HEAD)
		ptree_check_fail(cs, p, "a slot points to an entry that is no head of a key");
	if (term ? 2 * e->keylen != n : 2 * e->keylen < n)
		ptree_check_fail(cs, p, "an entry's key has the wrong length for its place");
	for (int i = 0; i < n; i++)
		if (ptree_nibble(key, i) != cs->path[i])
			ptree_check_fail(cs, p, "an entry's key does not begin with the path to it");
	if (cs->has_last && ptree_key_cmp(cs->last, cs->lastlen, key, e->keylen) >= 0)
		ptree_check_fail(cs, p, "keys are out of order");
	if (cs->lastlen < e->keylen || cs->last == NULL)
		cs->last = (uint8 *) (cs->last ? repalloc(cs->last, e->keylen + 1) : palloc(e->keylen + 1));
	memcpy(cs->last, key, e->keylen);
	cs->lastlen = e->keylen;
	cs->has_last = true;
	cs->keys++;
	cs->tids += ptree_check_chain(cs, e);
	pfree(e);
}

/* check the node at p, whose prefix begins at nibble depth, and below it */
static void
ptree_check_node(PtreeCheck *cs, PtreePtr p, int depth, int level)
{
	PtreeNode  *node = ptree_read_node(cs->index, p);
	int			d2;

	check_stack_depth();
	CHECK_FOR_INTERRUPTS();
	if (node->nprefix > PTREE_MAX_PREFIX)
		ptree_check_fail(cs, p, "a node's prefix is too long");
	d2 = depth + node->nprefix;
	if (d2 + 1 > cs->cappath)
	{
		cs->cappath = Max(d2 + 1, 2 * cs->cappath);
		cs->path = (uint8 *) repalloc(cs->path, cs->cappath);
	}
	for (int i = 0; i < node->nprefix; i++)
	{
		if (node->prefix[i] >= PTREE_FANOUT)
			ptree_check_fail(cs, p, "a node's prefix holds a value that is no nibble");
		cs->path[depth + i] = node->prefix[i];
	}
	cs->nodes++;
	cs->depth = Max(cs->depth, level);
	if (PtreePtrIsValid(node->term))
		ptree_check_entry(cs, node->term, d2, true);
	for (int c = 0; c < PTREE_FANOUT; c++)
	{
		PtreePtr	cp = node->child[c];

		cs->path[d2] = (uint8) c;
		if (cp.kind == PTREE_PTR_NODE)
			ptree_check_node(cs, cp, d2 + 1, level + 1);
		else if (cp.kind == PTREE_PTR_ENTRY)
			ptree_check_entry(cs, cp, d2 + 1, false);
		else if (cp.kind != PTREE_PTR_NONE)
			ptree_check_fail(cs, p, "a node has a pointer of no kind");
	}
	pfree(node);
}

/* gpuext_ptree_check(index regclass): check it; what it counted */
Datum
gpuext_ptree_check(PG_FUNCTION_ARGS)
{
	Oid			indexoid = PG_GETARG_OID(0);
	Relation	index = relation_open(indexoid, AccessShareLock);
	MemoryContext ctx = AllocSetContextCreate(CurrentMemoryContext, "gpuext_ptree check",
											  ALLOCSET_DEFAULT_SIZES);
	MemoryContext old;
	TupleDesc	tupdesc;
	PtreeCheck	cs;
	Buffer		metabuf;
	PtreeMeta	meta;
	int64		nulls = 0;
	Datum		values[6];
	bool		isnull[6] = {false, false, false, false, false, false};

	if (index->rd_rel->relkind != RELKIND_INDEX ||
		index->rd_rel->relam != get_index_am_oid("gpuext_ptree", false))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a gpuext_ptree index", RelationGetRelationName(index))));
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "gpuext_ptree_check must return a record");

	old = MemoryContextSwitchTo(ctx);
	memset(&cs, 0, sizeof(cs));
	cs.index = index;
	cs.cappath = 64;
	cs.path = (uint8 *) palloc(cs.cappath);
	cs.chain_max = (int64) RelationGetNumberOfBlocks(index) * MaxOffsetNumber;

	meta = ptree_read_meta(index);
	metabuf = ReadBuffer(index, PTREE_METAPAGE_BLKNO);
	LockBuffer(metabuf, BUFFER_LOCK_SHARE);
	meta = *PtreePageGetMeta(BufferGetPage(metabuf));
	if (meta.root.kind != PTREE_PTR_NODE)
		ptree_check_fail(&cs, meta.root, "the root is not a node");
	if (meta.key_kind != ptree_key_kind(index) || meta.span_bits != PTREE_SPAN_BITS)
		ptree_check_fail(&cs, meta.root, "the metapage's key kind or span is not the index's");
	ptree_check_node(&cs, meta.root, 0, 1);
	{
		PtreeNode  *root = ptree_read_node(index, meta.root);

		if (root->nprefix != 0)
			ptree_check_fail(&cs, meta.root, "the root has a prefix");
	}
	if (PtreePtrIsValid(meta.nulls))
	{
		PtreeEntry *e = ptree_read_entry(index, meta.nulls);

		if (e->flags != (PTREE_ENTRY_HEAD | PTREE_ENTRY_NULL) || e->keylen != 0)
			ptree_check_fail(&cs, meta.nulls, "the NULL chain's head is not one");
		nulls = ptree_check_chain(&cs, e);
	}
	UnlockReleaseBuffer(metabuf);
	MemoryContextSwitchTo(old);

	values[0] = Int64GetDatum(cs.keys);
	values[1] = Int64GetDatum(cs.tids);
	values[2] = Int64GetDatum(nulls);
	values[3] = Int64GetDatum(cs.nodes);
	values[4] = Int32GetDatum(cs.depth);
	values[5] = Int64GetDatum((int64) meta.change_count);
	MemoryContextDelete(ctx);
	relation_close(index, AccessShareLock);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(tupdesc), values, isnull)));
}
