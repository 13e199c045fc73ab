/*
 * ptree_scan.cpp - index and bitmap scans of gpuext_ptree (amgettuple,
 * amgetbitmap), on the CPU.
 *
 * The scan keys (btree strategies on one column, IS NULL / IS NOT NULL)
 * become one range of encoded keys [lo, hi], each end inclusive or not.
 * The tree is walked depth first in key order (backward: the reverse), a
 * stack of copies of the nodes on the way down: a subtree whose path
 * cannot begin a key in the range is skipped, an entry's whole key is
 * compared with the range, so the result is exact (no recheck under an
 * MVCC snapshot).  The TIDs
 * of an entry's chain are collected at once and returned one by one.  No
 * page lock is held between calls (see the design note in ptree_page.cpp
 * for why a scan sees each entry that it must see once).  NULL keys come
 * after all keys in a forward scan (ASC NULLS LAST, as btree) and first in
 * a backward one.
 */
#include "gpuext.h"
#include "ptree.h"

extern "C"
{
#include "access/relscan.h"
#include "access/stratnum.h"
#include "miscadmin.h"
#include "nodes/tidbitmap.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
}

/* one node on the way down */
typedef struct PtreeFrame
{
	PtreeNode  *node;			/* a copy */
	int			depth;			/* the nibble its prefix begins at */
	int			next;			/* the next slot to visit (-1: term) */
} PtreeFrame;

typedef struct PtreeScanOpaque
{
	MemoryContext ctx;			/* all of a scan's state; reset by rescan */
	/* the range, from the scan keys */
	bool		empty;			/* no row can match */
	bool		want_keys;
	bool		want_nulls;
	bool		has_lo;
	bool		lo_incl;
	uint8	   *lo;
	int			lolen;
	bool		has_hi;
	bool		hi_incl;
	uint8	   *hi;
	int			hilen;
	/* the walk */
	bool		started;
	bool		forward;
	int			step;			/* the part of the scan: 0, 1; 2: done */
	bool		entered;		/* has the part begun? */
	PtreeMeta	meta;
	PtreeFrame *stack;
	int			nstack;
	int			capstack;
	uint8	   *path;			/* nibbles of the way down */
	int			cappath;
	/* TIDs of the current entry chain */
	ItemPointerData *tids;
	int			ntids;
	int			captids;
	int			pos;
} PtreeScanOpaque;

/* ambeginscan */
IndexScanDesc
ptree_beginscan(Relation r, int nkeys, int norderbys)
{
	IndexScanDesc scan = RelationGetIndexScan(r, nkeys, norderbys);
	PtreeScanOpaque *so = (PtreeScanOpaque *) palloc0(sizeof(PtreeScanOpaque));

	so->ctx = AllocSetContextCreate(CurrentMemoryContext, "gpuext_ptree scan",
									ALLOCSET_DEFAULT_SIZES);
	scan->opaque = so;
	return scan;
}

/* narrow the range by one key of strategy st and encoded value v */
static void
ptree_scan_bound(PtreeScanOpaque *so, StrategyNumber st, uint8 *v, int len)
{
	bool		lower = (st == BTGreaterStrategyNumber || st == BTGreaterEqualStrategyNumber ||
						 st == BTEqualStrategyNumber);
	bool		upper = (st == BTLessStrategyNumber || st == BTLessEqualStrategyNumber ||
						 st == BTEqualStrategyNumber);
	bool		incl = (st == BTLessEqualStrategyNumber || st == BTGreaterEqualStrategyNumber ||
						st == BTEqualStrategyNumber);

	if (lower)
	{
		int			c = so->has_lo ? ptree_key_cmp(v, len, so->lo, so->lolen) : 1;

		if (c > 0 || (c == 0 && !incl))
		{
			so->has_lo = true;
			so->lo = v;
			so->lolen = len;
			so->lo_incl = incl;
		}
	}
	if (upper)
	{
		int			c = so->has_hi ? ptree_key_cmp(v, len, so->hi, so->hilen) : -1;

		if (c < 0 || (c == 0 && !incl))
		{
			so->has_hi = true;
			so->hi = v;
			so->hilen = len;
			so->hi_incl = incl;
		}
	}
}

/* amrescan: the scan keys become the range */
void
ptree_rescan(IndexScanDesc scan, ScanKey scankey, int nscankeys, ScanKey orderbys, int norderbys)
{
	PtreeScanOpaque *so = (PtreeScanOpaque *) scan->opaque;
	MemoryContext old;
	bool		only_nulls = false;
	bool		no_nulls = false;
	uint32		key_kind = ptree_key_kind(scan->indexRelation);

	if (scankey && scan->numberOfKeys > 0)
		memmove(scan->keyData, scankey, scan->numberOfKeys * sizeof(ScanKeyData));
	MemoryContextReset(so->ctx);
	memset((char *) so + offsetof(PtreeScanOpaque, empty), 0,
		   sizeof(PtreeScanOpaque) - offsetof(PtreeScanOpaque, empty));
	old = MemoryContextSwitchTo(so->ctx);
	for (int i = 0; i < scan->numberOfKeys; i++)
	{
		ScanKey		sk = &scan->keyData[i];
		Oid			typid;
		uint8	   *v;
		int			len;

		if (sk->sk_flags & SK_ISNULL)
		{
			if (sk->sk_flags & SK_SEARCHNULL)
				only_nulls = true;
			else if (sk->sk_flags & SK_SEARCHNOTNULL)
				no_nulls = true;
			else
				so->empty = true;	/* an operator with a NULL argument */
			continue;
		}
		no_nulls = true;
		typid = OidIsValid(sk->sk_subtype) ? sk->sk_subtype : scan->indexRelation->rd_opcintype[0];
		v = ptree_encode(sk->sk_argument, typid, key_kind, &len);
		ptree_scan_bound(so, sk->sk_strategy, v, len);
	}
	if (only_nulls && no_nulls)
		so->empty = true;
	if (so->has_lo && so->has_hi)
	{
		int			c = ptree_key_cmp(so->lo, so->lolen, so->hi, so->hilen);

		if (c > 0 || (c == 0 && !(so->lo_incl && so->hi_incl)))
			so->empty = true;
	}
	so->want_keys = !only_nulls;
	so->want_nulls = !no_nulls;
	MemoryContextSwitchTo(old);
}

/* compare path nibbles p[0..n) with the first nibbles of key k */
static int
ptree_scan_path_cmp(const uint8 *p, int n, const uint8 *k, int klen, bool *longer)
{
	int			kn = 2 * klen;
	int			m = Min(n, kn);

	for (int i = 0; i < m; i++)
	{
		int			b = ptree_nibble(k, i);

		if (p[i] != b)
			return p[i] < b ? -1 : 1;
	}
	*longer = n > kn;
	return 0;
}

/* can a key that begins with path nibbles p[0..n) lie in the range? */
static bool
ptree_scan_possible(PtreeScanOpaque *so, const uint8 *p, int n)
{
	bool		longer = false;

	/* all such keys are > hi if the path passes hi or runs on past it */
	if (so->has_hi)
	{
		int			c = ptree_scan_path_cmp(p, n, so->hi, so->hilen, &longer);

		if (c > 0 || (c == 0 && longer))
			return false;
	}
	/* all are < lo if the path is below lo where they differ */
	if (so->has_lo && ptree_scan_path_cmp(p, n, so->lo, so->lolen, &longer) < 0)
		return false;
	return true;
}

/* is a key in the range? */
static bool
ptree_scan_in_range(PtreeScanOpaque *so, const uint8 *k, int len)
{
	if (so->has_lo)
	{
		int			c = ptree_key_cmp(k, len, so->lo, so->lolen);

		if (c < 0 || (c == 0 && !so->lo_incl))
			return false;
	}
	if (so->has_hi)
	{
		int			c = ptree_key_cmp(k, len, so->hi, so->hilen);

		if (c > 0 || (c == 0 && !so->hi_incl))
			return false;
	}
	return true;
}

/* make room for n nibbles of path */
static void
ptree_scan_path_room(PtreeScanOpaque *so, int n)
{
	if (n <= so->cappath)
		return;
	so->cappath = Max(n, 2 * so->cappath);
	if (so->path == NULL)
		so->path = (uint8 *) MemoryContextAlloc(so->ctx, so->cappath);
	else
		so->path = (uint8 *) repalloc(so->path, so->cappath);
}

/* go down into the node at ptr, whose prefix begins at nibble depth */
static void
ptree_scan_push(IndexScanDesc scan, PtreePtr ptr, int depth)
{
	PtreeScanOpaque *so = (PtreeScanOpaque *) scan->opaque;
	MemoryContext old = MemoryContextSwitchTo(so->ctx);
	PtreeNode  *node = ptree_read_node(scan->indexRelation, ptr);
	PtreeFrame *f;

	ptree_scan_path_room(so, depth + node->nprefix + 1);
	memcpy(so->path + depth, node->prefix, node->nprefix);
	if (!ptree_scan_possible(so, so->path, depth + node->nprefix))
	{
		pfree(node);
		MemoryContextSwitchTo(old);
		return;
	}
	if (so->nstack == so->capstack)
	{
		so->capstack = Max(16, 2 * so->capstack);
		so->stack = (PtreeFrame *) (so->stack ? repalloc(so->stack, so->capstack * sizeof(PtreeFrame))
									: palloc(so->capstack * sizeof(PtreeFrame)));
	}
	f = &so->stack[so->nstack++];
	f->node = node;
	f->depth = depth;
	f->next = so->forward ? -1 : PTREE_FANOUT - 1;
	MemoryContextSwitchTo(old);
}

/* append an entry's TIDs to the current batch */
static void
ptree_scan_add_tids(PtreeScanOpaque *so, PtreeEntry *e)
{
	if (so->ntids + e->ntids > so->captids)
	{
		so->captids = Max(so->ntids + e->ntids, 2 * so->captids);
		so->tids = (ItemPointerData *) (so->tids ? repalloc(so->tids, so->captids * sizeof(ItemPointerData))
										: MemoryContextAlloc(so->ctx, so->captids * sizeof(ItemPointerData)));
	}
	memcpy(so->tids + so->ntids, PtreeEntryTids(e), e->ntids * sizeof(ItemPointerData));
	so->ntids += e->ntids;
}

/*
 * The TIDs of the chain headed at ptr into the batch, if its key is in the
 * range (not checked for the NULL chain); true if there are any.
 */
static bool
ptree_scan_chain(IndexScanDesc scan, PtreePtr ptr, bool nulls)
{
	PtreeScanOpaque *so = (PtreeScanOpaque *) scan->opaque;
	MemoryContext old = MemoryContextSwitchTo(so->ctx);
	PtreeEntry *e = ptree_read_entry(scan->indexRelation, ptr);

	so->ntids = 0;
	so->pos = 0;
	if (!(e->flags & PTREE_ENTRY_HEAD) ||
		(nulls != ((e->flags & PTREE_ENTRY_NULL) != 0)))
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("index \"%s\" has a bad entry at block %u, item %u",
						RelationGetRelationName(scan->indexRelation), ptr.blkno, ptr.off)));
	if (nulls || ptree_scan_in_range(so, (uint8 *) PtreeEntryKey(e), e->keylen))
	{
		for (;;)
		{
			PtreePtr	next = e->next;

			CHECK_FOR_INTERRUPTS();
			ptree_scan_add_tids(so, e);
			pfree(e);
			if (!PtreePtrIsValid(next))
				break;
			e = ptree_read_entry(scan->indexRelation, next);
		}
	}
	else
		pfree(e);
	MemoryContextSwitchTo(old);
	return so->ntids > 0;
}

/* walk the tree to the next entry in the range with TIDs; false at its end */
static bool
ptree_scan_tree_next(IndexScanDesc scan)
{
	PtreeScanOpaque *so = (PtreeScanOpaque *) scan->opaque;

	while (so->nstack > 0)
	{
		PtreeFrame *f = &so->stack[so->nstack - 1];
		int			d2 = f->depth + f->node->nprefix;
		int			slot;
		PtreePtr	p;

		CHECK_FOR_INTERRUPTS();
		if (f->next < -1 || f->next >= PTREE_FANOUT)
		{
			pfree(f->node);
			so->nstack--;
			continue;
		}
		slot = so->forward ? f->next++ : f->next--;
		p = (slot < 0) ? f->node->term : f->node->child[slot];
		if (!PtreePtrIsValid(p))
			continue;
		if (slot >= 0)
		{
			so->path[d2] = (uint8) slot;
			if (!ptree_scan_possible(so, so->path, d2 + 1))
				continue;
		}
		if (p.kind == PTREE_PTR_NODE && slot >= 0)
			ptree_scan_push(scan, p, d2 + 1);
		else if (ptree_scan_chain(scan, p, false))
			return true;
	}
	return false;
}

/*
 * The next batch of TIDs; false when the scan has no more.  The parts of a
 * scan: the tree, then the NULL chain (backward: the other way round).
 */
static bool
ptree_scan_fill(IndexScanDesc scan, ScanDirection dir)
{
	PtreeScanOpaque *so = (PtreeScanOpaque *) scan->opaque;

	if (!so->started)
	{
		so->started = true;
		so->forward = !ScanDirectionIsBackward(dir);
		so->meta = ptree_read_meta(scan->indexRelation);
		so->step = 0;
		so->entered = false;
	}
	while (so->step < 2)
	{
		bool		tree = (so->step == 0) == so->forward;

		if (!so->entered)
		{
			so->entered = true;
			if (tree && so->want_keys)
				ptree_scan_push(scan, so->meta.root, 0);
			else if (!tree && so->want_nulls && PtreePtrIsValid(so->meta.nulls) &&
					 ptree_scan_chain(scan, so->meta.nulls, true))
				return true;
		}
		if (tree && ptree_scan_tree_next(scan))
			return true;
		so->step++;
		so->entered = false;
	}
	return false;
}

/* amgettuple: the next TID */
bool
ptree_gettuple(IndexScanDesc scan, ScanDirection dir)
{
	PtreeScanOpaque *so = (PtreeScanOpaque *) scan->opaque;

	if (so->empty)
		return false;
	while (so->pos >= so->ntids)
	{
		so->ntids = 0;
		so->pos = 0;
		if (!ptree_scan_fill(scan, dir))
			return false;
	}
	scan->xs_heaptid = so->tids[so->pos++];
	/*
	 * Exact, and no page stays pinned: under an MVCC snapshot a TID that
	 * VACUUM freed and a newer row took is invisible anyway; other snapshots
	 * (an exclusion constraint's dirty one) recheck the key on the row.
	 */
	scan->xs_recheck = !IsMVCCSnapshot(scan->xs_snapshot);
	return true;
}

/* amgetbitmap: all TIDs into the bitmap */
int64
ptree_getbitmap(IndexScanDesc scan, TIDBitmap *tbm)
{
	PtreeScanOpaque *so = (PtreeScanOpaque *) scan->opaque;
	int64		n = 0;

	if (so->empty)
		return 0;
	while (ptree_scan_fill(scan, ForwardScanDirection))
	{
		tbm_add_tuples(tbm, so->tids, so->ntids, false);
		n += so->ntids;
		so->ntids = 0;
	}
	return n;
}

/* amendscan */
void
ptree_endscan(IndexScanDesc scan)
{
	PtreeScanOpaque *so = (PtreeScanOpaque *) scan->opaque;

	MemoryContextDelete(so->ctx);
	pfree(so);
}
