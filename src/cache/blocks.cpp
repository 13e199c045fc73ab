/*
 * blocks.cpp - which blocks of a cache entry still hold what the heap holds.
 *
 * Design note
 * -----------
 * An entry only ever holds blocks that were all-visible in the visibility
 * map when they were read: every tuple on them is visible to every
 * snapshot, now and later, so the entry's rows of such a block are what
 * any MVCC snapshot sees of it as long as the block did not change.
 *
 * Every change to a heap page (insert, update, delete, by anyone, COPY,
 * logical replication apply and WAL replay included, committed or not)
 * clears the block's all-visible bit before it touches the page, and sets
 * the page's LSN to its WAL record's.  The bit comes back only through
 * visibilitymap_set(), which advances the VM page's LSN.  (Clearing a bit
 * advances it too on PostgreSQL 18, not on 15.)  So, per block record
 * (block of the entry): its content LSN is the page LSN of the image that
 * was loaded, and at scan start
 *   - a block whose bit is clear is stale (changed since it was loaded, by
 *     a transaction the scan may see);
 *   - while a VM page's LSN equals the one the records were last checked
 *     against, no bit under it was set again, so a set bit means the block
 *     is unchanged;
 *   - when the LSN moved, bits were set (or, on 18, cleared) since: each
 *     block that is not stale yet is checked by its page's LSN (a newer LSN
 *     than the content LSN: stale), then the VM page's new LSN becomes the
 *     entry's baseline.  This costs a buffer read per block of the entry,
 *     once per change of the VM page (after a VACUUM, on 15; after any
 *     change under it, on 18).
 * A change made after the check is by a transaction the scan's snapshot
 * cannot see, so the rows the entry holds are still what it sees.  Stale
 * blocks found are recorded in the entry (blk_lsn 0, blk_stale bit) so
 * that later scans skip them without checking, and a refresh reloads them
 * once they are all-visible again (load.cpp).
 *
 * TRUNCATE, VACUUM FULL, CLUSTER and rewriting ALTER TABLEs give the
 * relation a new relfilenode, which is part of the key; DROP leaves
 * entries nobody finds until they are evicted.
 */
#include "gpuext.h"
#include "compat.h"
#include "cache.h"


extern "C"
{
#include "access/visibilitymap.h"
#include "access/xlog.h"
#include "catalog/pg_class.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "utils/rel.h"
}

/* the all-visible bits of 32 blocks (2 bits a block, the same in every byte) */
#define GX_VM_ALL_VISIBLE_WORD UINT64CONST(0x5555555555555555)
StaticAssertDecl(VISIBILITYMAP_ALL_VISIBLE == 0x01 && GX_VM_BLOCKS_PER_PAGE % 32 == 0,
				 "the visibility map layout gx_vm_read_bits reads");

/* can this relation be cached / read from the cache at all? */
bool
gx_cache_rel_ok(Relation rel)
{
	return rel->rd_rel->relkind == RELKIND_RELATION &&
		rel->rd_rel->relpersistence == RELPERSISTENCE_PERMANENT &&
		RelationNeedsWAL(rel) && !RecoveryInProgress();
}

/* is heap block blk all-visible in the VM? */
bool
gx_vm_all_visible(Relation rel, Buffer *vmbuf, BlockNumber blk)
{
	return (visibilitymap_get_status(rel, blk, vmbuf) & VISIBILITYMAP_ALL_VISIBLE) != 0;
}

/*
 * Read the VM page covering heap blocks [lo, hi) (one VM page): its LSN,
 * and mark in 'skip' (bit b - start) every block whose all-visible bit is
 * clear.  False when the VM page does not exist.
 */
static bool
gx_vm_read_bits(Relation rel, Buffer *vmbuf, BlockNumber start, BlockNumber lo,
				BlockNumber hi, XLogRecPtr *lsn, uint32 *skip)
{
	uint8	   *map;

	(void) visibilitymap_get_status(rel, lo, vmbuf);
	if (!BufferIsValid(*vmbuf))
		return false;
	LockBuffer(*vmbuf, BUFFER_LOCK_SHARE);
	*lsn = PageGetLSN(BufferGetPage(*vmbuf));
	map = (uint8 *) PageGetContents(BufferGetPage(*vmbuf));
	for (BlockNumber b = lo; b < hi;)
	{
		uint32		r = b % GX_VM_BLOCKS_PER_PAGE;

		/* 32 blocks at once: one 64-bit word of the map */
		if ((r % 32) == 0 && b + 32 <= hi)
		{
			uint64		w;

			memcpy(&w, map + r / 4, sizeof(w));
			if ((w & GX_VM_ALL_VISIBLE_WORD) == GX_VM_ALL_VISIBLE_WORD)
			{
				b += 32;
				continue;
			}
		}
		if (((map[r / 4] >> ((r % 4) * 2)) & VISIBILITYMAP_ALL_VISIBLE) == 0)
		{
			uint32		i = b - start;

			skip[i / 32] |= (uint32) 1 << (i % 32);
		}
		b++;
	}
	LockBuffer(*vmbuf, BUFFER_LOCK_UNLOCK);
	return true;
}

/* the LSN of the VM page covering heap block blk (0 when it has none) */
XLogRecPtr
gx_vm_page_lsn(Relation rel, Buffer *vmbuf, BlockNumber blk)
{
	XLogRecPtr	lsn = InvalidXLogRecPtr;

	(void) gx_vm_read_bits(rel, vmbuf, blk, blk, blk, &lsn, NULL);
	return lsn;
}

/* the entry rows of the blocks a view skips */
uint32
gx_cache_skipped_rows(const GxCacheRef *r, const GxBlockView *v)
{
	GxCacheEntry *e = &gx_cache->entries[r->idx];
	uint32		rows = 0;

	LWLockAcquire(gx_cache->lock, LW_SHARED);
	if (e->generation == r->generation)
	{
		uint32		base = gx_cache_blkbase(e);

		for (uint32 w = 0; w < (r->nblocks + 31) / 32; w++)
			for (uint32 bits = v->skip[w]; bits != 0; bits &= bits - 1)
			{
				uint32		i = w * 32 + (uint32) __builtin_ctz(bits);
				uint32		next = i + 1 < r->nblocks ? gx_blk_row[base + i + 1] : r->nrows;

				rows += next - gx_blk_row[base + i];
			}
	}
	LWLockRelease(gx_cache->lock);
	return rows;
}

/* has heap block blk changed since the image with content LSN 'lsn'? */
static bool
gx_block_changed(Relation rel, BlockNumber blk, XLogRecPtr lsn)
{
	Buffer		buf = ReadBufferExtended(rel, MAIN_FORKNUM, blk, RBM_NORMAL, NULL);
	XLogRecPtr	cur;

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	cur = PageGetLSN(BufferGetPage(buf));
	UnlockReleaseBuffer(buf);
	return cur != lsn;
}

/*
 * A scan (or refresh) about to use entry r, with v its view
 * (gx_cache_view): add every block that changed since it was loaded (see
 * the design note), record the new stale blocks and the VM pages' new LSNs
 * in the entry, and count v->nskip.  False when the entry cannot be used
 * at all (its VM pages are gone).
 */
bool
gx_cache_check_blocks(Relation rel, Buffer *vmbuf, const GxCacheRef *r, GxBlockView *v)
{
	GxCacheEntry *e = &gx_cache->entries[r->idx];
	BlockNumber end = r->start + r->nblocks;
	uint32		nwords = (r->nblocks + 31) / 32;
	uint32		known = v->nskip;	/* recorded stale blocks: bits are only added */
	int			nvm = 0;
	BlockNumber vm_block[GX_CACHE_MAX_VM];
	XLogRecPtr	vm_now[GX_CACHE_MAX_VM];
	const XLogRecPtr *vm_then = v->vm_lsn;	/* the baseline of the records */
	XLogRecPtr *content = NULL;
	bool		found_new;

	/* bits, and each VM page's LSN, before any page is looked at */
	for (BlockNumber lo = r->start; lo < end; nvm++)
	{
		BlockNumber vmpage = lo / GX_VM_BLOCKS_PER_PAGE;
		BlockNumber hi = Min(end, (vmpage + 1) * GX_VM_BLOCKS_PER_PAGE);

		if (nvm >= GX_CACHE_MAX_VM ||
			!gx_vm_read_bits(rel, vmbuf, r->start, lo, hi, &vm_now[nvm], v->skip))
			return false;
		vm_block[nvm] = vmpage;
		lo = hi;
	}

	/* a VM page whose LSN moved: check its set blocks by their page LSN */
	for (int k = 0; k < nvm; k++)
	{
		BlockNumber lo = Max(r->start, vm_block[k] * GX_VM_BLOCKS_PER_PAGE);
		BlockNumber hi = Min(end, (vm_block[k] + 1) * GX_VM_BLOCKS_PER_PAGE);

		if (vm_now[k] == vm_then[k])
			continue;
		if (content == NULL)
		{
			content = (XLogRecPtr *) palloc(sizeof(XLogRecPtr) * r->nblocks);
			LWLockAcquire(gx_cache->lock, LW_SHARED);
			if (e->generation == r->generation)
				memcpy(content, gx_blk_lsn + gx_cache_blkbase(e),
					   sizeof(XLogRecPtr) * r->nblocks);
			else
				memset(content, 0, sizeof(XLogRecPtr) * r->nblocks);
			LWLockRelease(gx_cache->lock);
		}
		for (BlockNumber b = lo; b < hi; b++)
		{
			uint32		i = b - r->start;

			if ((v->skip[i / 32] >> (i % 32)) & 1)
				continue;
			if (content[i] == InvalidXLogRecPtr || gx_block_changed(rel, b, content[i]))
				v->skip[i / 32] |= (uint32) 1 << (i % 32);
			if ((i & 255) == 0)
				CHECK_FOR_INTERRUPTS();
		}
	}

	/* record what is new: stale blocks, the VM pages' LSNs checked against */
	v->nskip = 0;
	for (uint32 w = 0; w < nwords; w++)
		v->nskip += (uint32) __builtin_popcount(v->skip[w]);
	found_new = v->nskip != known;
	if (found_new || content != NULL)
	{
		LWLockAcquire(gx_cache->lock, LW_EXCLUSIVE);
		if (e->state == GX_CE_READY && e->generation == r->generation)
		{
			uint32		base = gx_cache_blkbase(e);

			if (found_new)
			{
				gx_cache->stale_seq++;
				e->stale_seq = gx_cache->stale_seq;
			}
			for (uint32 w = 0; w < nwords; w++)
			{
				uint32		add = v->skip[w] & ~gx_blk_stale[base / 32 + w];

				for (; add != 0; add &= add - 1)
				{
					uint32		i = w * 32 + (uint32) __builtin_ctz(add);

					gx_blk_lsn[base + i] = InvalidXLogRecPtr;
					e->nstale++;
				}
				gx_blk_stale[base / 32 + w] |= v->skip[w];
			}
			for (int k = 0; k < nvm && k < e->nvm; k++)
				if (e->vm_block[k] == vm_block[k] && e->vm_lsn[k] == vm_then[k])
					e->vm_lsn[k] = vm_now[k];
		}
		LWLockRelease(gx_cache->lock);
	}
	/* bits were set again (a VACUUM): stale blocks may be refreshable now */
	if (content != NULL && v->nskip > 0 && gx_cache_refresh)
		gx_cache_request_work();
	if (content)
		pfree(content);
	return true;
}
