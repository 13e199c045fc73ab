/*
 * gpuscan.cpp - executor of GpuScan.
 *
 * Design note
 * -----------
 * The backend reads the heap page by page with heapgetpage(), which decides
 * visibility in the scan's snapshot exactly as a sequential scan does
 * (all-visible pages skip the per-tuple check; SSI conflicts are checked),
 * deforms the columns the device program needs (directly at their fixed
 * offset when the tuple has no NULL, else with heap_getattr) and writes
 * them column-major, with a null bitmap per column, straight into a staging
 * slot in shared memory.  The slot goes to the gpuext service, which
 * runs the program on the GPU or the CPU device and writes back the
 * selected row indexes per tile, in row order.  Two chunks are kept in
 * flight: while the device filters one, the backend reads the next.  Each
 * chunk carries the transfer mode of gpuext.transfer (the GPU copies it
 * to its memory, or reads it in place: mapped); the result says which
 * mode ran, and EXPLAIN ANALYZE reports it with how much of the device's
 * time was hidden behind the backend's own work.
 *
 * The selection is copied out of the slot (which is then freed).  The
 * backend keeps a pin on every heap page of a chunk until the chunk is
 * consumed (like heapam's page-at-a-time scan, a pin keeps the tuples of a
 * page in place), so a selected row is returned by storing its HeapTuple
 * into a buffer-heap slot: no copy and no second lookup, and only projected
 * columns are ever deformed for output.  Host quals and the projection run through ExecScan.
 *
 * If the device raised an error (overflow, division by zero) at row r of a
 * chunk, the rows selected before r are returned first and the error is
 * raised when the next row is asked for: exactly where PostgreSQL would.
 */
#include "gpuext.h"
#include "executor.h"

extern "C"
{
#include "access/heapam.h"
#include "access/tupdesc_details.h"
#include "executor/nodeCustom.h"
#include "storage/bufmgr.h"
#include "miscadmin.h"
#include "optimizer/optimizer.h"
#include "portability/instr_time.h"
#include "utils/float.h"
#include "utils/memutils.h"
#include "utils/rel.h"
}

static void gx_begin_scan(CustomScanState *node, EState *estate, int eflags);
static TupleTableSlot *gx_exec_scan(CustomScanState *node);
static void gx_end_scan(CustomScanState *node);
static void gx_rescan(CustomScanState *node);
static void gx_end_loop(GxScanState *st);

static CustomExecMethods gx_scan_exec_methods = {
	"GpuScan",
	gx_begin_scan,
	gx_exec_scan,
	gx_end_scan,
	gx_rescan,
	NULL, NULL,
	gx_par_estimate_dsm,
	gx_par_init_dsm,
	gx_par_reinit_dsm,
	gx_par_init_worker,
	gx_par_shutdown,
	gx_explain_scan
};

/* CreateCustomScanState callback */
Node *
gx_create_scan_state(CustomScan *cscan)
{
	GxScanState *st = (GxScanState *) newNode(sizeof(GxScanState), T_CustomScanState);

	st->css.methods = &gx_scan_exec_methods;
	return (Node *) st;
}

/* raise a device error with PostgreSQL's message and SQLSTATE */
void
gx_raise_error(int code)
{
	switch (code)
	{
		case GX_ERR_INT2_RANGE:
			ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
							errmsg("smallint out of range")));
			break;
		case GX_ERR_INT4_RANGE:
			ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
							errmsg("integer out of range")));
			break;
		case GX_ERR_INT8_RANGE:
			ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
							errmsg("bigint out of range")));
			break;
		case GX_ERR_DIV_ZERO:
			ereport(ERROR, (errcode(ERRCODE_DIVISION_BY_ZERO),
							errmsg("division by zero")));
			break;
		case GX_ERR_FLOAT_OVERFLOW:
			float_overflow_error();
			break;
		case GX_ERR_FLOAT_UNDERFLOW:
			float_underflow_error();
			break;
		case GX_ERR_BAD_PAGE:
			elog(ERROR, "gpuext: a heap page failed the checks of the device deformer");
			break;
		default:
			elog(ERROR, "gpuext: device program failed with code %d", code);
	}
}

/* evaluate Params into the program's constant table (scan start, rescan) */
static void
gx_eval_params(GxScanState *st)
{
	ExprContext *econtext = st->css.ss.ps.ps_ExprContext;
	ListCell   *lc1,
			   *lc2,
			   *lc3;

	forthree(lc1, st->param_states, lc2, st->prog->param_idx, lc3, st->prog->params)
	{
		ExprState  *es = (ExprState *) lfirst(lc1);
		gx_const   *c = &st->prog->consts[lfirst_int(lc2)];
		Param	   *prm = (Param *) lfirst(lc3);
		bool		isnull;
		Datum		d = ExecEvalExprSwitchContext(es, econtext, &isnull);

		c->isnull = isnull;
		c->v.i = 0;
		if (isnull)
			continue;
		switch (prm->paramtype)
		{
			case BOOLOID:
				c->v.i = DatumGetBool(d);
				break;
			case INT2OID:
				c->v.i = DatumGetInt16(d);
				break;
			case INT4OID:
			case DATEOID:
				c->v.i = DatumGetInt32(d);
				break;
			case FLOAT4OID:
				c->v.d = DatumGetFloat4(d);
				break;
			case FLOAT8OID:
				c->v.d = DatumGetFloat8(d);
				break;
			default:
				c->v.i = DatumGetInt64(d);
				break;
		}
	}
}

/* layout of a chunk for this scan's columns */
static void
gx_plan_layout(GxScanState *st)
{
	GxProgram  *p = st->prog;
	uint64		row_bytes = 4 + 8;	/* selection entry + slack */
	uint64		rows;
	uint64		off;

	for (int i = 0; i < p->ncols; i++)
		row_bytes += 8 + 1;		/* value (padded) + bitmap, generously */
	rows = (gx_shared->slot_bytes - sizeof(gx_chunk) - 4096 -
			(uint64) GX_MAX_COLS * 2 * GX_ALIGN) / row_bytes;
	rows = Min(rows, (uint64) gx_chunk_rows);
	rows = Max(rows, (uint64) 1024);
	rows &= ~((uint64) 7);
	st->rows_per_chunk = (uint32) rows;

	off = GX_ALIGN_UP(sizeof(gx_chunk));
	for (int i = 0; i < p->ncols; i++)
	{
		int			w = (p->col_type[i] == GX_BOOL) ? 1 :
			(p->col_type[i] == GX_INT2) ? 2 :
			(p->col_type[i] == GX_INT4 || p->col_type[i] == GX_FLOAT4) ? 4 : 8;

		st->col_values_off[i] = off;
		off = GX_ALIGN_UP(off + (uint64) w * rows);
		st->col_nulls_off[i] = off;
		off = GX_ALIGN_UP(off + (rows + 7) / 8);
	}
	st->input_bytes = off;
	st->result_off = off;
	if (off + gx_result_bytes((uint32) rows) > gx_shared->slot_bytes)
		elog(ERROR, "gpuext: chunk layout does not fit a staging slot");
}

/* fixed offsets of the needed columns in tuples without NULLs */
static void
gx_fast_offsets(GxScanState *st)
{
	TupleDesc	desc = RelationGetDescr(st->rel);
	int			off = 0;
	int			valid_upto = 0;
	int		   *offs = (int *) palloc(sizeof(int) * (desc->natts + 1));

	st->maxatt = 0;
	for (int i = 0; i < st->prog->ncols; i++)
		st->maxatt = Max(st->maxatt, st->prog->col_attno[i]);
	for (int a = 1; a <= desc->natts && a <= st->maxatt; a++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, a - 1);

		if (att->attlen <= 0)
			break;
		off = att_align_nominal(off, att->attalign);
		offs[a] = off;
		off += att->attlen;
		valid_upto = a;
	}
	for (int i = 0; i < st->prog->ncols; i++)
	{
		int			a = st->prog->col_attno[i];

		st->fast_off[i] = (a <= valid_upto) ? offs[a] : -1;
	}
	pfree(offs);
}

/* alignment in bytes of an attalign code */
static uint8
gx_align_bytes(char attalign)
{
	switch (attalign)
	{
		case TYPALIGN_SHORT:
			return 2;
		case TYPALIGN_INT:
			return 4;
		case TYPALIGN_DOUBLE:
			return 8;
		default:
			return 1;
	}
}

/* bytes of a value of a gx_type */
int
gx_type_width(int gxtype)
{
	switch (gxtype)
	{
		case GX_BOOL:
			return 1;
		case GX_INT2:
			return 2;
		case GX_INT4:
		case GX_FLOAT4:
			return 4;
		default:
			return 8;
	}
}

/*
 * Describe attributes 1 .. max(attno) of a relation for the page deformer
 * (gx_deform.cuh); column i of the chunk is attribute attno[i] of type
 * gxtype[i].  False when the deformer cannot produce them: an attribute
 * beyond GX_MAX_DEFORM_ATTS or the relation, or a needed attribute that is
 * not fixed-width by-value of the column's width.  atts has room for
 * GX_MAX_DEFORM_ATTS entries.
 */
bool
gx_deform_atts(TupleDesc desc, int ncols, const AttrNumber *attno,
			   const int *gxtype, gx_attr *atts, int *maxatt)
{
	int			off = 0;
	bool		fixed = true;
	int			maxa = 0;

	for (int i = 0; i < ncols; i++)
		maxa = Max(maxa, attno[i]);
	*maxatt = maxa;
	if (maxa > GX_MAX_DEFORM_ATTS || maxa > desc->natts)
		return false;
	memset(atts, 0, sizeof(gx_attr) * Max(maxa, 1));
	for (int a = 1; a <= maxa; a++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, a - 1);
		gx_attr    *ga = &atts[a - 1];

		ga->attlen = att->attlen;
		ga->attalign = gx_align_bytes(att->attalign);
		ga->col = -1;
		ga->fixed_off = -1;
		if (fixed && att->attlen > 0)
		{
			off = att_align_nominal(off, att->attalign);
			ga->fixed_off = off;
			off += att->attlen;
		}
		else
			fixed = false;
		if (att->atthasmissing && desc->constr && desc->constr->missing &&
			desc->constr->missing[a - 1].am_present)
		{
			ga->has_missing = 1;
			ga->missing = (int64) desc->constr->missing[a - 1].am_value;
		}
	}
	for (int i = 0; i < ncols; i++)
	{
		gx_attr    *ga = &atts[attno[i] - 1];

		/* only fixed-width by-value attributes are read into columns */
		if (attno[i] < 1 || ga->attlen != gx_type_width(gxtype[i]) ||
			!TupleDescAttr(desc, attno[i] - 1)->attbyval)
			return false;
		ga->col = (int16) i;
	}
	return true;
}

/*
 * Device deforming: describe attributes 1 .. maxatt for the deformer.
 * Off when disabled or when the snapshot is not an MVCC one (no page mode).
 */
static void
gx_plan_deform(GxScanState *st, EState *estate)
{
	int			maxatt;

	st->device_deform = gx_device_deform && IsMVCCSnapshot(estate->es_snapshot);
	if (!st->device_deform)
		return;
	st->atts = (gx_attr *) palloc0(sizeof(gx_attr) * GX_MAX_DEFORM_ATTS);
	st->device_deform = gx_deform_atts(RelationGetDescr(st->rel), st->prog->ncols,
									   st->prog->col_attno, st->prog->col_type,
									   st->atts, &maxatt);
}

/*
 * Use n batches (at most GX_MAX_BATCHES), allocating the arrays of those
 * not allocated yet in the query's memory context.
 */
static void
gx_alloc_batches(GxScanState *st, int n)
{
	MemoryContext old = MemoryContextSwitchTo(st->css.ss.ps.state->es_query_cxt);

	for (int i = st->nalloc; i < n; i++)
	{
		st->batch[i].tups = (HeapTupleData *)
			palloc(sizeof(HeapTupleData) * st->rows_per_chunk);
		st->batch[i].rowbuf = (Buffer *) palloc(sizeof(Buffer) * st->rows_per_chunk);
		st->batch[i].pins = (Buffer *) palloc(sizeof(Buffer) * st->rows_per_chunk);
		st->batch[i].npins = 0;
		st->batch[i].sel = (uint32 *) palloc(sizeof(uint32) * st->rows_per_chunk);
		st->batch[i].selcap = st->rows_per_chunk;
		st->batch[i].map = st->device_deform ?
			(uint32 *) palloc(sizeof(uint32) * st->rows_per_chunk) : NULL;
	}
	MemoryContextSwitchTo(old);
	if (n > st->nalloc)
		st->nalloc = n;
	st->nbatches = n;
}

/* BeginCustomScan */
static void
gx_begin_scan(CustomScanState *node, EState *estate, int eflags)
{
	GxScanState *st = (GxScanState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	Index		relid = cscan->scan.scanrelid;
	ListCell   *lc;

	st->rel = node->ss.ss_currentRelation;
	st->agg_mode = gx_agg_plan(cscan);
	if (st->agg_mode)
	{
		/*
		 * aggregates: ExecInitCustomScan made the scan slot from
		 * custom_scan_tlist (the partial aggregates); the quals point into
		 * it and are mapped back to the table's columns
		 */
		st->device_quals = gx_agg_device_quals(cscan);
		st->host_quals = NIL;
		st->device_recheck = NULL;
	}
	else
	{
		st->device_quals = (List *) linitial(cscan->custom_exprs);
		st->host_quals = (List *) lsecond(cscan->custom_exprs);

		/* scan slot: a buffer heap slot holding the pinned tuple */
		ExecInitScanTupleSlot(estate, &node->ss, RelationGetDescr(st->rel),
							  table_slot_callbacks(st->rel));
		ExecAssignScanProjectionInfoWithVarno(&node->ss, relid);
		node->ss.ps.qual = ExecInitQual(st->host_quals, &node->ss.ps);
		st->device_recheck = ExecInitQual(st->device_quals, &node->ss.ps);
	}

	/* compile the device program */
	st->prog = (GxProgram *) palloc(sizeof(GxProgram));
	gx_program_init(st->prog);
	foreach(lc, st->device_quals)
	{
		bool		may_error;

		if (!gx_program_add_qual(st->prog, (Expr *) lfirst(lc), relid, &may_error))
			elog(ERROR, "gpuext: device qual no longer compiles");
	}
	st->param_states = NIL;
	foreach(lc, st->prog->params)
		st->param_states = lappend(st->param_states,
								   ExecInitExpr((Expr *) lfirst(lc), &node->ss.ps));

	/* does anything above read columns of the rows we return? */
	if (st->agg_mode)
		gx_agg_begin(st, cscan);
	else
	{
		Bitmapset  *attrs = NULL;

		pull_varattnos((Node *) cscan->scan.plan.targetlist, relid, &attrs);
		pull_varattnos((Node *) st->host_quals, relid, &attrs);
		st->need_tuples = !bms_is_empty(attrs) || estate->es_epq_active != NULL;
	}
	st->vmbuf = InvalidBuffer;
	st->fetch_buf = InvalidBuffer;
	st->fetch_blk = InvalidBlockNumber;
	st->stop_block = InvalidBlockNumber;

	st->device = gx_resolve_device();
	st->transfer = gx_transfer;
	gx_plan_layout(st);
	gx_fast_offsets(st);
	gx_plan_deform(st, estate);
	for (int i = 0; i < GX_MAX_BATCHES; i++)
		st->batch[i].slot = -1;
	gx_alloc_batches(st, GX_HEAP_BATCHES);
	if (eflags & EXEC_FLAG_EXPLAIN_ONLY)
		return;
	st->read_slot = table_slot_create(st->rel, NULL);
}

/* write the needed columns of one tuple as row n of the chunk */
static inline void
gx_deform_row(GxScanState *st, gx_chunk *c, uint32 n, HeapTuple tup,
			  TupleDesc desc, bool *has_nulls)
{
	GxProgram  *p = st->prog;
	HeapTupleHeader th = tup->t_data;
	bool		fast = !HeapTupleHasNulls(tup) &&
		HeapTupleHeaderGetNatts(th) >= st->maxatt;
	const char *tp = (const char *) th + th->t_hoff;

	for (int i = 0; i < p->ncols; i++)
	{
		char	   *vals = (char *) c + st->col_values_off[i];
		Datum		d;
		bool		isnull = false;

		if (fast && st->fast_off[i] >= 0)
		{
			const char *src = tp + st->fast_off[i];

			switch (p->col_type[i])
			{
				case GX_BOOL:
					((uint8 *) vals)[n] = *(const uint8 *) src != 0;
					break;
				case GX_INT2:
					((int16 *) vals)[n] = *(const int16 *) src;
					break;
				case GX_INT4:
				case GX_FLOAT4:
					((int32 *) vals)[n] = *(const int32 *) src;
					break;
				default:
					((int64 *) vals)[n] = *(const int64 *) src;
					break;
			}
			continue;
		}
		d = heap_getattr(tup, p->col_attno[i], desc, &isnull);
		if (isnull)
		{
			uint8	   *bm = (uint8 *) c + st->col_nulls_off[i];

			bm[n >> 3] |= (uint8) (1 << (n & 7));
			has_nulls[i] = true;
		}
		switch (p->col_type[i])
		{
			case GX_BOOL:
				((uint8 *) vals)[n] = isnull ? 0 : DatumGetBool(d);
				break;
			case GX_INT2:
				((int16 *) vals)[n] = isnull ? 0 : DatumGetInt16(d);
				break;
			case GX_INT4:
				((int32 *) vals)[n] = isnull ? 0 : DatumGetInt32(d);
				break;
			case GX_FLOAT4:
				((float4 *) vals)[n] = isnull ? 0 : DatumGetFloat4(d);
				break;
			case GX_FLOAT8:
				((float8 *) vals)[n] = isnull ? 0 : DatumGetFloat8(d);
				break;
			default:
				((int64 *) vals)[n] = isnull ? 0 : DatumGetInt64(d);
				break;
		}
	}
}

/*
 * Page mode: fill rows from heap pages read with heapgetpage().  The scan
 * keeps its pin on the current page; the batch takes one more per page.
 */
static uint32
gx_fill_pages(GxScanState *st, GxBatch *b, gx_chunk *c, bool *has_nulls)
{
	HeapScanDesc hs = (HeapScanDesc) st->scan;
	TupleDesc	desc = RelationGetDescr(st->rel);
	Oid			relid = RelationGetRelid(st->rel);
	uint32		n = 0;

	while (n < st->rows_per_chunk)
	{
		if (st->page_valid && st->cur_line < hs->rs_ntuples)
		{
			Page		page = BufferGetPage(hs->rs_cbuf);

			if (b->npins == 0 || b->pins[b->npins - 1] != hs->rs_cbuf)
			{
				IncrBufferRefCount(hs->rs_cbuf);
				b->pins[b->npins++] = hs->rs_cbuf;
			}
			while (n < st->rows_per_chunk && st->cur_line < hs->rs_ntuples)
			{
				OffsetNumber off = hs->rs_vistuples[st->cur_line++];
				ItemId		lpp = PageGetItemId(page, off);
				HeapTuple	t = &b->tups[n];

				t->t_data = (HeapTupleHeader) PageGetItem(page, lpp);
				t->t_len = ItemIdGetLength(lpp);
				t->t_tableOid = relid;
				ItemPointerSet(&t->t_self, hs->rs_cblock, off);
				b->rowbuf[n] = hs->rs_cbuf;
				gx_deform_row(st, c, n, t, desc, has_nulls);
				n++;
			}
			continue;
		}
		BlockNumber blk;

		if (!gx_scan_next_block(st, &blk))
		{
			st->heap_done = true;
			break;
		}
		heapgetpage(st->scan, blk);
		st->cur_line = 0;
		st->page_valid = true;
	}
	return n;
}

/* bytes of the column area plus the result area of a page chunk of n rows */
static uint64
gx_device_cols_bytes(GxScanState *st, uint32 n)
{
	uint64		bytes = gx_result_bytes(n);

	for (int i = 0; i < st->prog->ncols; i++)
		bytes += GX_ALIGN_UP((uint64) st->atts[st->prog->col_attno[i] - 1].attlen * n) +
			GX_ALIGN_UP(((uint64) n + 31) / 32 * 4);
	return bytes;
}

/*
 * Device deform: copy whole heap pages read with heapgetpage() into the
 * chunk and list their visible tuples in b->map; the device deforms them.
 * The batch keeps a pin on each page (b->pins, indexed like the map), so
 * selected rows are returned from the shared buffer.  Pages are copied
 * without the content lock, as heapgettup_pagemode() reads them: the pin
 * keeps visible tuples in place and nothing the deformer reads of them
 * (line pointer, natts, HEAP_HASNULL, t_hoff, null bitmap, data) changes.
 * Fills the page section and the column directory; returns the rows.
 */
static uint32
gx_fill_device_pages(GxScanState *st, GxBatch *b, gx_chunk *c)
{
	HeapScanDesc hs = (HeapScanDesc) st->scan;
	uint64		slot_bytes = gx_shared->slot_bytes;
	uint64		deform_off = GX_ALIGN_UP(sizeof(gx_chunk));
	uint64		pages_off = GX_ALIGN_UP(deform_off + sizeof(gx_deform_hdr));
	gx_deform_hdr *d = (gx_deform_hdr *) ((char *) c + deform_off);
	uint32		n = 0;
	uint32		np = 0;
	uint64		off;

	for (;;)
	{
		if (st->page_valid && st->cur_line < hs->rs_ntuples)
		{
			uint32		k = (uint32) hs->rs_ntuples;
			uint64		need = pages_off + (uint64) (np + 1) * BLCKSZ +
				GX_ALIGN_UP((uint64) (n + k) * 4) + gx_device_cols_bytes(st, n + k);

			if (n + k > st->rows_per_chunk || need > slot_bytes)
			{
				if (n == 0)
					elog(ERROR, "gpuext: a heap page does not fit a staging slot");
				break;			/* this page starts the next chunk */
			}
			memcpy((char *) c + pages_off + (uint64) np * BLCKSZ,
				   BufferGetPage(hs->rs_cbuf), BLCKSZ);
			IncrBufferRefCount(hs->rs_cbuf);
			b->pins[np] = hs->rs_cbuf;
			for (uint32 i = 0; i < k; i++)
				b->map[n++] = (np << 16) | hs->rs_vistuples[i];
			np++;
			st->cur_line = hs->rs_ntuples;
			continue;
		}
		BlockNumber blk;

		if (st->ipending < st->npending)
			blk = st->pending[st->ipending++];	/* a hole of the last entry */
		else
		{
			/* a cache entry starts here (serial scans only use the cache) */
			if (st->next_block >= st->stop_block && st->next_block < hs->rs_nblocks)
				break;
			if (!gx_scan_next_block(st, &blk))
			{
				st->heap_done = true;
				break;
			}
		}
		heapgetpage(st->scan, blk);
		st->cur_line = 0;
		st->page_valid = true;
	}
	b->npins = np;

	d->npages = np;
	d->page_size = BLCKSZ;
	d->natts = st->maxatt;
	d->pad = 0;
	d->pages_off = pages_off;
	d->rowmap_off = pages_off + (uint64) np * BLCKSZ;
	memcpy(d->atts, st->atts, sizeof(gx_attr) * st->maxatt);
	memcpy((char *) c + d->rowmap_off, b->map, sizeof(uint32) * n);
	c->deform_off = deform_off;
	c->input_bytes = GX_ALIGN_UP(d->rowmap_off + (uint64) n * 4);

	/* the device writes the columns after the input, then the result */
	off = c->input_bytes;
	for (int i = 0; i < st->prog->ncols; i++)
	{
		c->cols[i].values_off = off;
		off = GX_ALIGN_UP(off + (uint64) st->atts[st->prog->col_attno[i] - 1].attlen * n);
		c->cols[i].nulls_off = off;
		off = GX_ALIGN_UP(off + ((uint64) n + 31) / 32 * 4);
		c->cols[i].type = st->prog->col_type[i];
		c->cols[i].width = 0;
	}
	c->result_off = off;
	Assert(off + gx_result_bytes(n) <= slot_bytes);
	return n;
}

/* block where heap reading must stop: the next cache entry, if any */
static void
gx_set_stop_block(GxScanState *st)
{
	st->stop_block = st->cidx < st->ncrefs ? st->crefs[st->cidx].start : InvalidBlockNumber;
}

/*
 * If the scan stands at the first block of a cache entry, fill the chunk
 * with a reference to it (program + entry-relative column directory) and
 * return its rows; the entry is pinned through the slot.  An entry that is
 * no longer valid is skipped: its blocks are read from the heap.  Returns
 * false when no entry was used.
 */
static bool
gx_fill_cached(GxScanState *st, GxBatch *b, gx_chunk *c, int slot)
{
	HeapScanDesc hs = (HeapScanDesc) st->scan;
	GxCacheRef *r;

	while (st->cidx < st->ncrefs && st->crefs[st->cidx].start < st->next_block)
		st->cidx++;
	if (st->cidx >= st->ncrefs || st->crefs[st->cidx].start != st->next_block ||
		(st->page_valid && st->cur_line < hs->rs_ntuples) ||
		st->ipending < st->npending)
	{
		gx_set_stop_block(st);
		return false;
	}
	r = &st->crefs[st->cidx++];
	gx_set_stop_block(st);
	if (r->start + r->nblocks > hs->rs_nblocks || !gx_cache_pin(slot, r))
	{
		st->stats.cache_invalid++;
		return false;
	}
	if (!gx_cache_valid(st->rel, &st->vmbuf, r))
	{
		gx_shared->slots[slot].cache_entry = -1;
		st->stats.cache_invalid++;
		return false;
	}
	gx_cache_touch(r->idx);

	c->deform_off = 0;
	c->nrows = r->nrows;
	c->input_bytes = GX_ALIGN_UP(sizeof(gx_chunk));
	c->result_off = c->input_bytes;
	for (int i = 0; i < st->prog->ncols; i++)
	{
		c->cols[i].values_off = r->values_off[i];
		c->cols[i].nulls_off = r->nulls_off[i];
		c->cols[i].type = st->prog->col_type[i];
		c->cols[i].width = 0;
	}
	c->ext.op = GX_CHUNK_CACHE_SCAN;
	c->ext.entry = r->idx;
	c->ext.map_sel = st->need_tuples ? 1 : 0;
	c->ext.rowmap_off = r->rowmap_off;
	b->cached = true;
	b->cache_start = r->start;
	b->npins = 0;
	/* the blocks of the range the entry lacks are read next, from the heap */
	memcpy(st->pending, r->holes, sizeof(BlockNumber) * r->nholes);
	st->npending = r->nholes;
	st->ipending = 0;
	st->next_block = r->start + r->nblocks;
	st->page_valid = false;
	st->stats.cache_chunks++;
	for (int i = 0; i < st->prog->ncols; i++)
		st->stats.cache_bytes += (int64) r->nrows * gx_type_width(st->prog->col_type[i]);
	return true;
}

/*
 * A row selected from a cache entry: the tuple at (block, offset) of the
 * heap, returned from its pinned buffer.  The entry was valid when the
 * chunk was sent, so the tuple is there and visible to the scan.
 */
static TupleTableSlot *
gx_fetch_cached(GxScanState *st, GxBatch *b, uint32 m, TupleTableSlot *slot)
{
	BlockNumber blk = b->cache_start + (m >> 16);
	OffsetNumber off = (OffsetNumber) (m & 0xFFFF);
	HeapTuple	t = &st->cur_tup;
	Page		page;
	ItemId		lpp;

	if (blk != st->fetch_blk || !BufferIsValid(st->fetch_buf))
	{
		if (BufferIsValid(st->fetch_buf))
			ReleaseBuffer(st->fetch_buf);
		st->fetch_buf = InvalidBuffer;
		st->fetch_buf = ReadBufferExtended(st->rel, MAIN_FORKNUM, blk, RBM_NORMAL, NULL);
		st->fetch_blk = blk;
	}
	/*
	 * No content lock: like heapgettup_pagemode() reading a tuple after
	 * heapgetpage(), the pin keeps the line pointer and the tuple in place
	 * (pruning needs a cleanup lock); concurrent inserts only add items.
	 */
	page = BufferGetPage(st->fetch_buf);
	if (off < FirstOffsetNumber || off > PageGetMaxOffsetNumber(page) ||
		!ItemIdIsNormal(PageGetItemId(page, off)))
		elog(ERROR, "gpuext: cached row (%u,%u) of \"%s\" is not in the heap",
			 blk, off, RelationGetRelationName(st->rel));
	lpp = PageGetItemId(page, off);
	t->t_data = (HeapTupleHeader) PageGetItem(page, lpp);
	t->t_len = ItemIdGetLength(lpp);
	t->t_tableOid = RelationGetRelid(st->rel);
	ItemPointerSet(&t->t_self, blk, off);
	return ExecStoreBufferHeapTuple(t, slot, st->fetch_buf);
}

/* drop the page pins a consumed batch holds */
static void
gx_unpin_batch(GxBatch *b)
{
	for (int i = 0; i < b->npins; i++)
		ReleaseBuffer(b->pins[i]);
	b->npins = 0;
}

/* read up to rows_per_chunk rows into a new staging slot and submit it */
static bool
gx_fill_batch(GxScanState *st, GxBatch *b, bool wait)
{
	GxProgram  *p = st->prog;
	gx_chunk   *c;
	TupleTableSlot *rs = st->read_slot;
	uint32		n = 0;
	bool		has_nulls[GX_MAX_COLS];
	int			maxatt = 0;
	int			slot;
	instr_time	t0,
				t1;

	slot = gx_slot_acquire(wait);
	if (slot < 0)
		return false;
	gx_unpin_batch(b);
	INSTR_TIME_SET_CURRENT(t0);
	b->slot = slot;
	b->generation = gx_service_generation();
	c = gx_slot_chunk(slot);

	/* header: program, constants, column directory */
	c->magic = GX_CHUNK_MAGIC;
	c->ncols = p->ncols;
	c->ninstr = p->ninstr;
	c->nconsts = p->nconsts;
	c->nregs = p->nregs;
	c->flags = (st->transfer == GX_TRANSFER_MAPPED ? GX_CHUNK_MAPPED : 0) |
		(gx_jit ? GX_CHUNK_JIT : 0) | (gx_jit && gx_jit_wait ? GX_CHUNK_JIT_WAIT : 0);
	c->pad = 0;
	c->capacity = gx_shared->slot_bytes;
	c->result_off = st->result_off;
	c->input_bytes = st->input_bytes;
	c->deform_off = 0;
	memset(&c->ext, 0, sizeof(c->ext));
	c->ext.entry = -1;
	c->ext.count_only = st->need_tuples ? 0 : 1;
	if (st->agg_mode)
		gx_agg_set_chunk(st, c);
	b->cached = false;
	b->count_only = !st->need_tuples;
	memcpy(c->code, p->code, sizeof(gx_instr) * p->ninstr);
	memcpy(c->consts, p->consts, sizeof(gx_const) * p->nconsts);
	for (int i = 0; i < p->ncols && !st->device_deform; i++)
	{
		maxatt = Max(maxatt, p->col_attno[i]);
		has_nulls[i] = false;
		memset((char *) c + st->col_nulls_off[i], 0, (st->rows_per_chunk + 7) / 8);
	}

	/* rows: heap pages for the device, or deform the needed attributes */
	if (st->device_deform)
	{
		for (;;)
		{
			if (gx_fill_cached(st, b, c, slot))
			{
				n = c->nrows;
				if (n > 0)
					break;
				/* an entry of empty pages: nothing to filter */
				gx_shared->slots[slot].cache_entry = -1;
				b->cached = false;
				memset(&c->ext, 0, sizeof(c->ext));
				c->ext.entry = -1;
				c->ext.count_only = st->need_tuples ? 0 : 1;
				if (st->agg_mode)
					gx_agg_set_chunk(st, c);
				continue;
			}
			n = gx_fill_device_pages(st, b, c);
			/* stopped at a cache entry before any row: use or skip it */
			if (n > 0 || st->heap_done)
				break;
		}
	}
	else if (st->pagemode)
		n = gx_fill_pages(st, b, c, has_nulls);
	while (!st->pagemode && n < st->rows_per_chunk)
	{
		if (!table_scan_getnextslot(st->scan, ForwardScanDirection, rs))
		{
			st->heap_done = true;
			break;
		}
		slot_getsomeattrs(rs, maxatt);
		for (int i = 0; i < p->ncols; i++)
		{
			int			a = p->col_attno[i] - 1;
			char	   *vals = (char *) c + st->col_values_off[i];
			Datum		d = rs->tts_values[a];

			if (rs->tts_isnull[a])
			{
				uint8	   *bm = (uint8 *) c + st->col_nulls_off[i];

				bm[n >> 3] |= (uint8) (1 << (n & 7));
				has_nulls[i] = true;
				d = (Datum) 0;
			}
			switch (p->col_type[i])
			{
				case GX_BOOL:
					((uint8 *) vals)[n] = DatumGetBool(d);
					break;
				case GX_INT2:
					((int16 *) vals)[n] = DatumGetInt16(d);
					break;
				case GX_INT4:
					((int32 *) vals)[n] = DatumGetInt32(d);
					break;
				case GX_FLOAT4:
					((float4 *) vals)[n] = rs->tts_isnull[a] ? 0 : DatumGetFloat4(d);
					break;
				case GX_FLOAT8:
					((float8 *) vals)[n] = rs->tts_isnull[a] ? 0 : DatumGetFloat8(d);
					break;
				default:
					((int64 *) vals)[n] = DatumGetInt64(d);
					break;
			}
		}
		{
			BufferHeapTupleTableSlot *bs = (BufferHeapTupleTableSlot *) rs;

			if (b->npins == 0 || b->pins[b->npins - 1] != bs->buffer)
			{
				IncrBufferRefCount(bs->buffer);
				b->pins[b->npins++] = bs->buffer;
			}
			b->tups[n] = *bs->base.tuple;
			b->rowbuf[n] = bs->buffer;
		}
		n++;
	}
	ExecClearTuple(rs);

	for (int i = 0; i < p->ncols && !st->device_deform; i++)
	{
		c->cols[i].values_off = st->col_values_off[i];
		c->cols[i].nulls_off = has_nulls[i] ? st->col_nulls_off[i] : 0;
		c->cols[i].type = p->col_type[i];
		c->cols[i].width = 0;
	}
	c->nrows = n;
	b->nrows = n;
	INSTR_TIME_SET_CURRENT(t1);
	INSTR_TIME_SUBTRACT(t1, t0);
	st->stats.fill_ms += INSTR_TIME_GET_MILLISEC(t1);
	if (n == 0)
	{
		gx_slot_release(slot);
		b->slot = -1;
		return false;
	}
	b->seq = st->next_seq++;
	b->inflight = true;
	gx_slot_submit(slot, st->device);
	st->stats.chunks++;
	st->stats.rows_in += n;
	return true;
}

/* wait for a batch's slot and copy its selection out; frees the slot */
static void
gx_collect_batch(GxScanState *st, GxBatch *b)
{
	gx_chunk   *c;
	gx_result  *res;
	uint32	   *seg_off,
			   *seg_cnt,
			   *sel;
	uint32		n = 0;
	uint32		errrow = UINT32_MAX;
	uint32		errkey = UINT32_MAX;
	instr_time	t0,
				t1;

	INSTR_TIME_SET_CURRENT(t0);
	gx_slot_wait(b->slot, b->generation, b->cached ? GX_WAIT_SPIN_US : 0);
	INSTR_TIME_SET_CURRENT(t1);
	INSTR_TIME_SUBTRACT(t1, t0);
	st->stats.wait_ms += INSTR_TIME_GET_MILLISEC(t1);

	c = gx_slot_chunk(b->slot);
	res = gx_chunk_result(c);
	seg_off = gx_result_seg_off(res);
	seg_cnt = gx_result_seg_cnt(res);
	sel = gx_result_sel(res);
	b->error = GX_ERR_NONE;
	if (res->error != GX_NO_ERROR)
	{
		errrow = (uint32) (res->error >> 8);
		/* a cached chunk's selection holds row map values */
		errkey = (b->cached && !b->count_only) ? res->error_key : errrow;
		b->error = (int) (res->error & 0xff);
	}
	/* a cache entry has more rows than a heap chunk */
	if (!b->count_only && b->nrows > b->selcap)
	{
		b->sel = (uint32 *) repalloc(b->sel, sizeof(uint32) * b->nrows);
		b->selcap = b->nrows;
	}
	for (uint32 t = 0; t < res->ntiles && n < b->nrows; t++)
	{
		if (b->count_only)
			n += seg_cnt[t];	/* rows of a tile stop at its error */
		else
		{
			for (uint32 k = 0; k < seg_cnt[t]; k++)
			{
				uint32		row = sel[seg_off[t] + k];

				if (row >= errkey)
					break;
				b->sel[n++] = row;
			}
		}
		if ((uint64) (t + 1) * GX_TILE_ROWS > errrow)
			break;
	}
	n = Min(n, b->nrows);
	if (st->agg_mode && b->error == GX_ERR_NONE)
		gx_agg_collect(st, res, n);
	b->nsel = n;
	b->pos = 0;
	st->stats.rows_selected += n;
	st->stats.bytes_h2d += res->bytes_h2d;
	st->stats.bytes_d2h += res->bytes_d2h;
	st->stats.h2d_ms += res->h2d_ns / 1e6;
	st->stats.kernel_ms += res->kernel_ns / 1e6;
	st->stats.d2h_ms += res->d2h_ns / 1e6;
	/* device busy time: copies + kernels (mapped: the kernels' span) */
	st->stats.device_ms += (res->h2d_ns + res->kernel_ns + res->d2h_ns) / 1e6;
	if (res->flags & GX_RESULT_GPU)
		st->stats.chunks_gpu++;
	if (res->flags & GX_RESULT_MAPPED)
		st->stats.chunks_mapped++;
	if (res->flags & GX_RESULT_JIT)
		st->stats.chunks_jit++;
	gx_slot_release(b->slot);
	b->slot = -1;
	b->inflight = false;
}

/* the batch submitted first among those in flight, or NULL */
static GxBatch *
gx_oldest_inflight(GxScanState *st)
{
	GxBatch    *next = NULL;

	for (int i = 0; i < st->nbatches; i++)
		if (st->batch[i].inflight && (next == NULL || st->batch[i].seq < next->seq))
			next = &st->batch[i];
	return next;
}

/* keep up to st->nbatches chunks in flight */
static void
gx_keep_inflight(GxScanState *st)
{
	for (int i = 0; i < st->nbatches && !st->heap_done; i++)
	{
		GxBatch    *b = &st->batch[i];
		bool		any_inflight = gx_oldest_inflight(st) != NULL;

		if (b->inflight || b == st->consuming)
			continue;
		/* the first chunk in flight may wait for a slot, a prefetch may not */
		if (!gx_fill_batch(st, b, !any_inflight && st->consuming == NULL))
			break;
	}
}

/*
 * Aggregate mode: run every chunk, adding up their aggregates, then return
 * the one row of partial aggregate states (raising a device error first).
 */
static TupleTableSlot *
gx_next_agg_row(GxScanState *st, TupleTableSlot *slot)
{
	if (st->agg_done)
		return ExecClearTuple(slot);
	for (;;)
	{
		GxBatch    *next;

		CHECK_FOR_INTERRUPTS();
		gx_keep_inflight(st);
		next = gx_oldest_inflight(st);
		if (next == NULL)
			break;
		gx_collect_batch(st, next);
		gx_unpin_batch(next);
		next->nsel = next->pos = 0;
		if (next->error != GX_ERR_NONE)
		{
			int			code = next->error;

			next->error = GX_ERR_NONE;
			gx_raise_error(code);
		}
	}
	st->agg_done = true;
	return gx_agg_store(st, slot);
}

/* ExecScan access method: next row that passed the device quals */
static TupleTableSlot *
gx_next_row(ScanState *ss)
{
	GxScanState *st = (GxScanState *) ss;
	TupleTableSlot *slot = ss->ss_ScanTupleSlot;

	if (st->agg_mode)
		return gx_next_agg_row(st, slot);
	for (;;)
	{
		GxBatch    *b = st->consuming;

		if (b != NULL)
		{
			if (b->pos < b->nsel && b->count_only)
			{
				/* nothing reads the row's columns: an empty row will do */
				b->pos++;
				if (st->null_row && !TTS_EMPTY(slot))
					return slot;	/* still there from the last row */
				st->null_row = true;
				return ExecStoreAllNullTuple(slot);
			}
			st->null_row = false;
			if (b->pos < b->nsel && b->cached)
				return gx_fetch_cached(st, b, b->sel[b->pos++], slot);
			if (b->pos < b->nsel && b->map != NULL && st->device_deform)
			{
				/* device deform: the tuple from its pinned page */
				uint32		m = b->map[b->sel[b->pos++]];
				Buffer		buf = b->pins[m >> 16];
				OffsetNumber off = (OffsetNumber) (m & 0xFFFF);
				Page		page = BufferGetPage(buf);
				ItemId		lpp = PageGetItemId(page, off);
				HeapTuple	t = &st->cur_tup;

				t->t_data = (HeapTupleHeader) PageGetItem(page, lpp);
				t->t_len = ItemIdGetLength(lpp);
				t->t_tableOid = RelationGetRelid(st->rel);
				ItemPointerSet(&t->t_self, BufferGetBlockNumber(buf), off);
				return ExecStoreBufferHeapTuple(t, slot, buf);
			}
			while (b->pos < b->nsel)
			{
				uint32		row = b->sel[b->pos++];

				return ExecStoreBufferHeapTuple(&b->tups[row], slot, b->rowbuf[row]);
			}
			if (b->error != GX_ERR_NONE)
			{
				int			code = b->error;

				b->error = GX_ERR_NONE;
				gx_raise_error(code);
			}
			st->consuming = NULL;
		}

		CHECK_FOR_INTERRUPTS();
		gx_keep_inflight(st);

		/* collect the oldest chunk in flight */
		GxBatch    *next = gx_oldest_inflight(st);

		if (next == NULL)
		{
			gx_end_loop(st);
			return ExecClearTuple(slot);
		}
		gx_collect_batch(st, next);
		st->consuming = next;
		/* refill the other buffer while this one is consumed */
		gx_keep_inflight(st);
	}
}

/*
 * ExecScan recheck method, used by EvalPlanQual: a row version updated
 * concurrently must still pass the device quals, evaluated here on the host
 * (ExecScan then applies the host quals).
 */
static bool
gx_recheck(ScanState *ss, TupleTableSlot *slot)
{
	GxScanState *st = (GxScanState *) ss;
	ExprContext *econtext = ss->ps.ps_ExprContext;

	econtext->ecxt_scantuple = slot;
	return ExecQualAndReset(st->device_recheck, econtext);
}

/* end the current scan loop: add its wall time to the statistics */
static void
gx_end_loop(GxScanState *st)
{
	instr_time	now;

	if (!st->loop_open)
		return;
	INSTR_TIME_SET_CURRENT(now);
	INSTR_TIME_SUBTRACT(now, st->loop_start);
	st->stats.wall_ms += INSTR_TIME_GET_MILLISEC(now);
	st->loop_open = false;
}

/* start the heap scan on first use */
static void
gx_start(GxScanState *st)
{
	EState	   *estate = st->css.ss.ps.state;

	INSTR_TIME_SET_CURRENT(st->loop_start);
	st->loop_open = true;

	gx_eval_params(st);
	if (st->scan == NULL)
	{
		/* no syncscan: rows come in block order, like a fresh seqscan */
		st->scan = table_beginscan_strat(st->rel, estate->es_snapshot, 0, NULL,
										 true, false);
		st->pagemode = (st->scan->rs_flags & SO_ALLOW_PAGEMODE) != 0;
		if (!st->pagemode)
			st->device_deform = false;
	}
	st->next_block = 0;
	st->npending = st->ipending = 0;
	st->agg_done = false;
	st->agg_rows = 0;
	memset(st->agg_val, 0, sizeof(st->agg_val));
	memset(st->agg_cnt, 0, sizeof(st->agg_cnt));
	st->cur_line = 0;
	st->page_valid = false;
	st->heap_done = false;
	st->consuming = NULL;
	st->started = true;
	gx_cache_scan_begin(st);
	gx_set_stop_block(st);
	/* count-only chunks of cached columns: keep more of them in flight */
	gx_alloc_batches(st, st->ncrefs > 0 && !st->need_tuples ? GX_MAX_BATCHES : GX_HEAP_BATCHES);
}

/* ExecCustomScan */
static TupleTableSlot *
gx_exec_scan(CustomScanState *node)
{
	GxScanState *st = (GxScanState *) node;

	if (!st->started)
		gx_start(st);
	return ExecScan(&node->ss, gx_next_row, gx_recheck);
}

/* drop batches in flight */
static void
gx_drop_batches(GxScanState *st)
{
	for (int i = 0; i < st->nalloc; i++)
	{
		GxBatch    *b = &st->batch[i];

		if (b->slot >= 0)
			gx_slot_release(b->slot);
		b->slot = -1;
		b->inflight = false;
		b->nsel = b->pos = 0;
		b->error = GX_ERR_NONE;
		gx_unpin_batch(b);
	}
	st->consuming = NULL;
	if (BufferIsValid(st->fetch_buf))
		ReleaseBuffer(st->fetch_buf);
	st->fetch_buf = InvalidBuffer;
	st->fetch_blk = InvalidBlockNumber;
}

/* EndCustomScan */
static void
gx_end_scan(CustomScanState *node)
{
	GxScanState *st = (GxScanState *) node;

	if (st->css.ss.ss_ScanTupleSlot)
		ExecClearTuple(st->css.ss.ss_ScanTupleSlot);
	gx_end_loop(st);
	gx_drop_batches(st);
	if (BufferIsValid(st->vmbuf))
		ReleaseBuffer(st->vmbuf);
	st->vmbuf = InvalidBuffer;
	if (st->scan)
		table_endscan(st->scan);
	st->scan = NULL;
	if (st->read_slot)
		ExecDropSingleTupleTableSlot(st->read_slot);
	st->read_slot = NULL;
}

/* ReScanCustomScan: new Params, restart from the first block */
static void
gx_rescan(CustomScanState *node)
{
	GxScanState *st = (GxScanState *) node;

	gx_end_loop(st);
	gx_drop_batches(st);
	if (st->scan)
		table_rescan(st->scan, NULL);
	st->page_valid = false;
	st->started = false;
	ExecScanReScan(&node->ss);
}
