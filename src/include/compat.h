/*
 * compat.h - what differs between the PostgreSQL versions gpuext builds
 * against (15 to 18), in one place, as pgvector and contrib/bloom keep it:
 *
 *  - a relation's file number: rd_node.relNode (15), rd_locator.relNumber
 *    (16 and later);
 *  - the backend's local transaction id: MyProc->lxid (15, 16),
 *    MyProc->vxid.lxid (17 and later);
 *  - reading one heap page of a page-mode scan into rs_vistuples:
 *    heapgetpage() (15, 16); from 17 a seqscan reads through a read
 *    stream and heap_prepare_pagescan() prepares the page in rs_cbuf,
 *    which the caller reads (gx_heap_read_page);
 *  - ExplainProperty*(): commands/explain.h (15 to 17),
 *    commands/explain_format.h (18);
 *  - expression tree walker / mutator callbacks: old-style "()" function
 *    types (15), typed tree_walker_callback / tree_mutator_callback (16
 *    and later): GX_WALKER / GX_MUTATOR;
 *  - does a role own a relation: pg_class_ownercheck() (15),
 *    object_ownercheck(RelationRelationId, ...) (16 and later);
 *  - vacuum_delay_point(): no argument (15 to 17), is_analyze (18):
 *    GX_VACUUM_DELAY_POINT().
 *
 * Include it after gpuext.h in the files that use these.
 */
#ifndef GX_COMPAT_H
#define GX_COMPAT_H

extern "C"
{
#include "access/heapam.h"
#include "commands/explain.h"
#include "catalog/pg_class.h"
#include "nodes/nodeFuncs.h"
#include "storage/bufmgr.h"
#include "storage/proc.h"
#include "utils/acl.h"
#include "utils/rel.h"
#if PG_VERSION_NUM >= 180000
#include "commands/explain_format.h"
#endif
}

#if PG_VERSION_NUM >= 160000
#define GX_REL_FILENUMBER(rel) ((Oid) (rel)->rd_locator.relNumber)
#else
#define GX_REL_FILENUMBER(rel) ((rel)->rd_node.relNode)
#endif

#if PG_VERSION_NUM >= 160000
#define GX_WALKER(f) ((tree_walker_callback) (void *) (f))
#define GX_MUTATOR(f) ((tree_mutator_callback) (void *) (f))
#else
#define GX_WALKER(f) ((bool (*) ()) (void *) (f))
#define GX_MUTATOR(f) ((Node *(*) ()) (void *) (f))
#endif

#if PG_VERSION_NUM >= 160000
#define GX_REL_OWNERCHECK(relid, role) object_ownercheck(RelationRelationId, (relid), (role))
#else
#define GX_REL_OWNERCHECK(relid, role) pg_class_ownercheck((relid), (role))
#endif

/* the GROUP BY clause the planner groups by (PG16+: without redundant keys) */
#if PG_VERSION_NUM >= 160000
#define GX_GROUP_CLAUSE(root) ((root)->processed_groupClause)
#else
#define GX_GROUP_CLAUSE(root) ((root)->parse->groupClause)
#endif

#if PG_VERSION_NUM >= 180000
#define GX_VACUUM_DELAY_POINT() vacuum_delay_point(false)
#else
#define GX_VACUUM_DELAY_POINT() vacuum_delay_point()
#endif

#if PG_VERSION_NUM >= 170000
#define GX_MY_LXID (MyProc->vxid.lxid)
#else
#define GX_MY_LXID (MyProc->lxid)
#endif

/*
 * Read block blk of a heap scan into rs_cbuf (pinned; the previous page
 * unpinned) and, in page mode, list its visible tuples in
 * rs_vistuples[0 .. rs_ntuples): what heapgetpage() did before 17.
 */
static inline void
gx_heap_read_page(TableScanDesc sscan, BlockNumber blk)
{
#if PG_VERSION_NUM >= 170000
	HeapScanDesc scan = (HeapScanDesc) sscan;

	if (BufferIsValid(scan->rs_cbuf))
	{
		ReleaseBuffer(scan->rs_cbuf);
		scan->rs_cbuf = InvalidBuffer;
	}
	scan->rs_cbuf = ReadBufferExtended(sscan->rs_rd, MAIN_FORKNUM, blk, RBM_NORMAL,
									   scan->rs_strategy);
	scan->rs_cblock = blk;
	if (sscan->rs_flags & SO_ALLOW_PAGEMODE)
		heap_prepare_pagescan(sscan);
	else
		scan->rs_ntuples = 0;
#else
	heapgetpage(sscan, blk);
#endif
}

#endif							/* GX_COMPAT_H */
