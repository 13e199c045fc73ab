/*
 * gx_validate.cpp - the validators of the operator table (gx_ops.h), shared
 * by the CPU and the GPU device.
 *
 * Design note
 * -----------
 * A task comes from a backend through shared memory, so nothing in it is
 * trusted: before a device touches a task, its kind's validator checks
 * that no implementation can read or write outside the memory it was
 * given (the staging slot of slot_bytes, the cache entry of
 * ctx->entry_bytes, the session objects of ctx->obj_bytes) or loop.  On
 * the GPU a stray access would poison the CUDA context for every later
 * task; on the CPU device it would crash the service.  The checks are
 * written against overflow (every sum is compared as a difference against
 * its limit) and use the one type table (gx_type_width) and the one
 * bitmap size (gx_bitmap_bytes: 32-bit words) of gx_program.h.
 *
 * What each device relies on:
 *  - every task: header flags, input and result area inside the slot;
 *  - rows (FILTER, CACHE_LOAD, CACHE_SCAN): program limits, registers,
 *    opcodes and types (gx_instr_args_ok: numeric shifts within
 *    GX_NUMERIC_MAX_SCALE, no numeric division or cast from numeric),
 *    forward jumps, constant and column indexes; the columns the
 *    program or an aggregate reads; aggregates (ops, columns, the state
 *    object obj[0]);
 *  - heap pages (deform_off != 0): the page section and attribute layout,
 *    and every column the deformer writes (between input and result);
 *  - cache entries: row ranges and every entry-relative offset against
 *    ctx->entry_bytes;
 *  - AGG_READ: the state object.
 *  - GROUP_READ / GROUP_MERGE: the tables of the task's geometry, the slot
 *    range, the records' room; a merge's aggregates (their shapes: the
 *    states it merges) and two tables apart from each other.
 *  - big sets (GX_OP_INBIGSET, FILTER and CACHE_SCAN only): each set's
 *    flags, and its values and top keys inside the sets object
 *    obj[GX_TASK_OBJ_SETS];
 *  - OBJ_WRITE: its bytes inside its input, and inside obj[0] where they go.
 *  - OBJ_COPY: each range inside its source obj[1] and its destination obj[0].
 *  - JOIN_BUILD / JOIN_PROBE: their rows as a FILTER's or a CACHE_SCAN's
 *    (own columns, heap pages, or a cache entry);
 *  - JOIN_*: the table's geometry against the object's bytes, the keys and
 *    payload (integer-like program outputs), the pass (first row, first
 *    match, the result area of max_pairs entries); a range join's table
 *    (one key, no key directory) and its probe's bounds (integer-like
 *    outputs, at least one); UNMATCHED: no program nor column, its range
 *    of placed rows inside cap, its result area;
 *  - SEARCH: its probe columns inside the task, operation, algorithm and
 *    lanes, the result area of a run per probe, the projection (a range
 *    join's table) against the object's bytes.
 *  - TREE_LOOKUP: its int8 key column, algorithm and partitions, the
 *    result area of a run per key, the image's layout of the task's
 *    geometry against the object's bytes (its contents are clamped).
 *  - inner columns (ext.join.ncols): at most GX_JOIN_MAX_COLS, each a
 *    BUILD output of its col_type, the store obj[1] of
 *    gx_join_cols_bytes(cap, ncols); a group PROBE: the group table
 *    obj[2] and its aggregates as a FILTER's in group mode, over the
 *    joined output vector (gx_ref_type: icol_base + ncols <= GX_MAX_OUTS,
 *    no inner column in SEMI / ANTI), INNER / LEFT / SEMI / ANTI only, no
 *    pass, no entry.
 *  - gathered output (ext.join.ngather, a PROBE writing entries only): at
 *    most GX_JOIN_MAX_GATHER columns, each an output of the program or
 *    an inner column below ncols (then the store obj[1] of
 *    gx_join_cols_bytes(cap, ncols)), the result area of
 *    gx_join_gather_result_bytes.
 */
#include "gx_ops.h"
#include "gx_guard.h"
#include "gx_ptree.h"

/* does [off, off + n * w) lie inside [lo, limit)?  (w > 0) */
static bool
gx_span_ok(uint64_t off, uint64_t n, uint64_t w, uint64_t lo, uint64_t limit)
{
	return off >= lo && off <= limit && n <= (limit - off) / w;
}

/* is p aligned to a (a power of 2)? */
static bool
gx_aligned(const void *p, uintptr_t a)
{
	return ((uintptr_t) p & (a - 1)) == 0;
}

/*
 * header flags, input and result area inside the slot (result_bytes: the
 * kind's result area; the rows' one by default)
 */
static gx_status
gx_check_layout(const gx_chunk *c, uint64_t slot_bytes, char *err, size_t errlen,
				uint64_t result_bytes = ~(uint64_t) 0)
{
	if (result_bytes == ~(uint64_t) 0)
		result_bytes = gx_result_bytes(c->nrows);
	if ((c->flags & ~(GX_CHUNK_MAPPED | GX_CHUNK_JIT | GX_CHUNK_JIT_WAIT)) != 0)
	{
		gx_errf(err, errlen, "task has unknown flags 0x%x", c->flags);
		return GX_INVALID;
	}
	if (c->input_bytes < sizeof(gx_chunk) || c->input_bytes > slot_bytes ||
		c->result_off < c->input_bytes || (c->result_off & 15) != 0 ||
		c->result_off > slot_bytes ||
		result_bytes > slot_bytes - c->result_off)
	{
		gx_errf(err, errlen, "task layout does not fit its slot");
		return GX_INVALID;
	}
	return GX_OK;
}

/* program limits and instructions (LDCOL indexes; columns are placed elsewhere) */
static gx_status
gx_check_program(const gx_chunk *c, char *err, size_t errlen)
{
	if (c->ninstr > GX_MAX_INSTR || c->ncols > GX_MAX_COLS ||
		c->nconsts > GX_MAX_CONSTS || c->nregs > GX_MAX_REGS)
	{
		gx_errf(err, errlen, "task program exceeds limits");
		return GX_INVALID;
	}
	for (uint32_t pc = 0; pc < c->ninstr; pc++)
	{
		const gx_instr *in = &c->code[pc];

		if (in->dst >= GX_MAX_REGS || in->a >= GX_MAX_REGS || in->b >= GX_MAX_REGS ||
			in->op >= GX_OP_COUNT)
		{
			gx_errf(err, errlen, "task program: bad instruction %u", pc);
			return GX_INVALID;
		}
		if ((in->op == GX_OP_ANDSTEP || in->op == GX_OP_ORSTEP) &&
			(in->jump <= (int) pc || (uint32_t) in->jump > c->ninstr))
		{
			gx_errf(err, errlen, "task program: bad jump at %u", pc);
			return GX_INVALID;
		}
		if (in->op == GX_OP_LDCONST && (in->arg < 0 || (uint32_t) in->arg >= c->nconsts))
		{
			gx_errf(err, errlen, "task program: bad constant at %u", pc);
			return GX_INVALID;
		}
		if ((in->op == GX_OP_LDCOL || in->op == GX_OP_DSCALE) &&
			(in->arg < 0 || (uint32_t) in->arg >= c->ncols ||
			 (in->op == GX_OP_DSCALE && c->cols[in->arg].type != GX_NUMERIC)))
		{
			gx_errf(err, errlen, "task program: bad column at %u", pc);
			return GX_INVALID;
		}
		if (in->type >= GX_NTYPES || !gx_instr_args_ok(in, c->nconsts))
		{
			gx_errf(err, errlen, "task program: bad operand at %u", pc);
			return GX_INVALID;
		}
		if (in->op == GX_OP_INBIGSET && c->kind != GX_TASK_FILTER &&
			c->kind != GX_TASK_CACHE_SCAN)
		{
			gx_errf(err, errlen, "task program: a big set outside a filter at %u", pc);
			return GX_INVALID;
		}
	}
	return GX_OK;
}

/*
 * the big sets of a FILTER / CACHE_SCAN program (GX_OP_INBIGSET): each
 * header's flags known (GX_RUN_HAS_NULL, GX_BIGSET_PARY, a top of at most
 * 8192 keys: never the device's own GX_BIGSET_STAGED), its run [off, off +
 * n + T) of int64 values and top keys inside the sets object
 * obj[GX_TASK_OBJ_SETS] (a NULL array or an empty set reads none)
 */
static gx_status
gx_check_sets(const gx_chunk *c, const gx_task_ctx *ctx, char *err, size_t errlen)
{
	const char *obj = ctx->obj[GX_TASK_OBJ_SETS];
	uint64_t	nvals = obj != NULL && gx_aligned(obj, 8) ?
		ctx->obj_bytes[GX_TASK_OBJ_SETS] / sizeof(int64_t) : 0;

	for (uint32_t pc = 0; pc < c->ninstr; pc++)
	{
		const gx_instr *in = &c->code[pc];
		const gx_const *h;
		uint32_t	top;

		if (in->op != GX_OP_INBIGSET)
			continue;
		h = &c->consts[in->arg];	/* (gx_check_program: the header fits) */
		top = gx_bigset_top(h[1].v.i);
		if ((h[1].v.i & ~(int64_t) (GX_RUN_HAS_NULL | GX_BIGSET_PARY | GX_BIGSET_TOP_MASK)) != 0 ||
			((h[1].v.i & GX_BIGSET_TOP_MASK) != 0 && top == 0))
		{
			gx_errf(err, errlen, "task program: big set at %u has unknown flags", pc);
			return GX_INVALID;
		}
		if (h[0].isnull || h[0].v.i <= 0)
			continue;
		/* its values, then its top keys (at most one a value) */
		if (h[0].v.i > GX_BIGSET_MAX || h[2].v.i < 0 || (uint64_t) h[2].v.i > nvals ||
			(uint64_t) h[0].v.i > nvals - (uint64_t) h[2].v.i ||
			top > (uint64_t) h[0].v.i ||
			top > nvals - (uint64_t) h[2].v.i - (uint64_t) h[0].v.i)
		{
			gx_errf(err, errlen, "task program: big set at %u lies outside its object", pc);
			return GX_INVALID;
		}
	}
	return GX_OK;
}

/* does column i (nrows values and its bitmap) lie inside [lo, limit)? */
static bool
gx_col_fits(const gx_chunk *c, uint32_t i, uint64_t lo, uint64_t limit)
{
	const gx_column *col = &c->cols[i];
	uint32_t	w = gx_type_width(col->type);

	if (w == 0 || col->values_off % w != 0 ||
		!gx_span_ok(col->values_off, c->nrows, w, lo, limit))
		return false;
	return col->nulls_off == 0 ||
		(col->nulls_off % 4 == 0 &&
		 gx_span_ok(col->nulls_off, gx_bitmap_bytes(c->nrows), 1, lo, limit));
}

/* the aggregate state object obj[0] */
static gx_status
gx_check_state(const gx_task_ctx *ctx, char *err, size_t errlen)
{
	if (ctx->obj[0] == NULL || ctx->obj_bytes[0] < GX_AGG_STATE_BYTES ||
		!gx_aligned(ctx->obj[0], 8))
	{
		gx_errf(err, errlen, "task has no aggregate state object of %llu bytes",
				(unsigned long long) GX_AGG_STATE_BYTES);
		return GX_INVALID;
	}
	return GX_OK;
}

/* is a column of type t an integer-like device value (bool, int2/4/8)? */
static bool
gx_int_like(uint32_t t)
{
	return t == GX_BOOL || t == GX_INT2 || t == GX_INT4 || t == GX_INT8;
}

/*
 * may a group key be of type t?  Integer-like ones and GX_CHAR8, whose
 * int64 equality is bpchareq's
 */
static int
gx_key_like(uint32_t t)
{
	return gx_int_like(t) || t == GX_CHAR8;
}

/*
 * The type of program output idx (the last GX_OP_OUT that writes it), or
 * -1 when none does, or when a jump passes over an output (a passing row
 * must run every output).
 */
static int
gx_out_type(const gx_chunk *c, int idx)
{
	int			type = -1;

	for (uint32_t pc = 0; pc < c->ninstr; pc++)
	{
		const gx_instr *in = &c->code[pc];

		if (in->op == GX_OP_OUT && in->arg == idx)
			type = in->type;
		if (in->op == GX_OP_ANDSTEP || in->op == GX_OP_ORSTEP)
			for (uint32_t q = pc + 1; q < (uint32_t) in->jump && q < c->ninstr; q++)
				if (c->code[q].op == GX_OP_OUT)
					return -1;
	}
	return type;
}

/*
 * The type of what a group key or aggregate of task c reads at index idx:
 * the program's output idx (gx_out_type), or, in a group JOIN_PROBE, its
 * joined output vector: outputs below icol_base, then the inner columns
 * (INNER / LEFT: col_type; SEMI / ANTI have none); -1 when nothing is there
 */
static int
gx_ref_type(const gx_chunk *c, int idx)
{
	const gx_join_ext *j = &c->ext.join;

	if (c->kind != GX_TASK_JOIN_PROBE || c->ext.ngroup_cap == 0 || idx < 0 ||
		(uint32_t) idx < j->icol_base)
		return gx_out_type(c, idx);
	if (j->mode != GX_JOIN_INNER && j->mode != GX_JOIN_LEFT)
		return -1;
	if ((uint32_t) idx - j->icol_base < j->ncols && j->ncols <= GX_JOIN_MAX_COLS)
		return j->col_type[(uint32_t) idx - j->icol_base];
	/* (a multi-level probe: the columns of the other levels) */
	for (uint32_t l = 1; l < j->nlevels && j->nlevels <= GX_JOIN_MAX_LEVELS; l++)
	{
		const gx_join_level *v = &j->level[l - 1];

		if ((uint32_t) idx >= v->icol_base && (uint32_t) idx - v->icol_base < v->ncols &&
			v->ncols <= GX_JOIN_MAX_COLS)
			return v->col_type[(uint32_t) idx - v->icol_base];
	}
	return -1;
}

/*
 * Group table mode: its size and load limit, the pass's partition, the
 * keys (integer-like outputs of the program), and the table object
 * obj[gobj] (0; a group JOIN_PROBE's: GX_JOIN_OBJ_GROUP)
 */
static gx_status
gx_check_group(const gx_chunk *c, const gx_task_ctx *ctx, int gobj, char *err, size_t errlen)
{
	const gx_chunk_ext *x = &c->ext;

	if (x->ngroup_cap < 2 || (x->ngroup_cap & (x->ngroup_cap - 1)) != 0 ||
		x->ngroup_limit > x->ngroup_cap / 2 || x->ngkeys > GX_MAX_GKEYS ||
		(x->gflags & ~(GX_GROUP_NO_LOCAL | GX_GROUP_SKIP_HOST)) != 0 ||
		/* a pass: the low bits of the hash's high word, and a value of them */
		(x->gpart_mask & (x->gpart_mask + 1)) != 0 || (x->gpart_value & ~x->gpart_mask) != 0)
	{
		gx_errf(err, errlen, "task group table is malformed");
		return GX_INVALID;
	}
	for (uint32_t k = 0; k < x->ngkeys; k++)
		if (x->gkey_col[k] < 0 || x->gkey_col[k] >= GX_MAX_OUTS ||
			!(gx_key_like((uint32_t) gx_ref_type(c, x->gkey_col[k])) ||
			  gx_ref_type(c, x->gkey_col[k]) == GX_NUMERIC))
		{
			gx_errf(err, errlen, "task group key %u is malformed", k);
			return GX_INVALID;
		}
	if (ctx->obj[gobj] == NULL || !gx_aligned(ctx->obj[gobj], 8) ||
		ctx->obj_bytes[gobj] < gx_group_table_bytes(x->ngroup_cap, x->ngkeys, x->nagg))
	{
		gx_errf(err, errlen, "task has no group table object of %u slots", x->ngroup_cap);
		return GX_INVALID;
	}
	return GX_OK;
}

/*
 * The shape of aggregate a of x (group: of a group table), what the
 * states of a group table's slot rely on whatever its inputs: a known
 * operation; FVAR then two FPARTs of its column and FILTER; SUM128 then
 * its HI; a count shared with an earlier aggregate of its input and
 * FILTER that keeps its own (cnt_of, group tables only)
 */
static bool
gx_agg_shape_ok(const gx_chunk_ext *x, uint32_t a, int group)
{
	const gx_agg *g = &x->agg[a];

	return !(g->op < GX_AGG_COUNT || g->op > GX_AGG_FPART ||
			 (g->op > GX_AGG_SUM && !group) ||
	/* FVAR, FPART, FPART: one column, one FILTER */
			 (g->op == GX_AGG_FVAR &&
			  (a + 2 >= x->nagg || x->agg[a + 1].op != GX_AGG_FPART ||
			   x->agg[a + 2].op != GX_AGG_FPART)) ||
			 (g->op == GX_AGG_FPART &&
			  (a == 0 || (x->agg[a - 1].op != GX_AGG_FVAR &&
						  (a < 2 || x->agg[a - 2].op != GX_AGG_FVAR)) ||
			   x->agg[a - 1].col != g->col || x->agg[a - 1].filt != g->filt)) ||
			 (g->op == GX_AGG_SUM128 &&
			  (a + 1 >= x->nagg || x->agg[a + 1].op != GX_AGG_HI ||
			   x->agg[a + 1].col != g->col)) ||
			 (g->op == GX_AGG_HI &&
			  (a == 0 || x->agg[a - 1].op != GX_AGG_SUM128 || x->agg[a - 1].filt != g->filt)) ||
			 (g->cnt_of != 0 &&
			  (!group || g->cnt_of > a || g->op == GX_AGG_SUM128 || g->op == GX_AGG_HI ||
			   x->agg[g->cnt_of - 1].cnt_of != 0 || x->agg[g->cnt_of - 1].col != g->col ||
			   x->agg[g->cnt_of - 1].filt != g->filt ||
			   x->agg[g->cnt_of - 1].op == GX_AGG_SUM128 ||
			   x->agg[g->cnt_of - 1].op == GX_AGG_HI)));
}

/*
 * aggregates: known operations on the task's columns, row selections, the
 * state object (or, in group mode, the group table obj[gobj])
 */
static gx_status
gx_check_aggs(const gx_chunk *c, const gx_task_ctx *ctx, int gobj, char *err, size_t errlen)
{
	const int	group = c->ext.ngroup_cap > 0;

	if (c->ext.nagg > GX_MAX_AGGS || (c->ext.nagg > 0 && c->ext.map_sel && !group))
	{
		gx_errf(err, errlen, "task has malformed aggregates");
		return GX_INVALID;
	}
	for (uint32_t a = 0; a < c->ext.nagg; a++)
	{
		const gx_agg *g = &c->ext.agg[a];

		/* group mode: inputs are program outputs, else columns */
		if (!gx_agg_shape_ok(&c->ext, a, group) ||
			g->col < (group && g->op == GX_AGG_COUNT ? -1 : 0) ||
			(g->col >= 0 && (uint32_t) g->col >= (group ? GX_MAX_OUTS : c->ncols)) ||
			(group && g->col >= 0 && gx_ref_type(c, g->col) < 0) ||
			/* a FILTER: a bool output, in group mode; a 128-bit sum's pair shares it */
			(g->filt != 0 && (!group || g->filt > GX_MAX_OUTS ||
							  gx_ref_type(c, g->filt - 1) != GX_BOOL)))
		{
			gx_errf(err, errlen, "task aggregate %u is malformed", a);
			return GX_INVALID;
		}
		if (g->op == GX_AGG_COUNT)
			continue;
		uint32_t	t = group ? (uint32_t) gx_ref_type(c, g->col) : c->cols[g->col].type;

		if (g->op >= GX_AGG_FSUM)
		{
			if (t != GX_FLOAT4 && t != GX_FLOAT8)
			{
				gx_errf(err, errlen, "task aggregate %u reads a column it cannot add", a);
				return GX_INVALID;
			}
			continue;
		}
		/* (128-bit sums: numeric, int8, and int2/int4 for exact variances) */
		if (g->op == GX_AGG_SUM128 || g->op == GX_AGG_HI ?
			(t != GX_NUMERIC && t != GX_INT8 && t != GX_INT4 && t != GX_INT2) :
			!((gx_int_like(t) && !(g->op == GX_AGG_SUM && t == GX_BOOL)) ||
			  (t == GX_NUMERIC && g->op != GX_AGG_SUM)))
		{
			gx_errf(err, errlen, "task aggregate %u reads a column it cannot add", a);
			return GX_INVALID;
		}
	}
	if (group)
		return gx_check_group(c, ctx, gobj, err, errlen);
	if (c->ext.ngkeys != 0)
	{
		gx_errf(err, errlen, "task has group keys but no group table");
		return GX_INVALID;
	}
	return c->ext.nagg > 0 ? gx_check_state(ctx, err, errlen) : GX_OK;
}

/*
 * The page section of a task of raw heap pages: the deformer checks every
 * tuple against its page; this checks the pages, the row map, the
 * attribute layout and every column it writes (between input and result).
 */
static gx_status
gx_check_pages(const gx_chunk *c, char *err, size_t errlen)
{
	uint64_t	in = c->input_bytes;

	if (c->deform_off < sizeof(gx_chunk) || c->deform_off % 8 != 0 ||
		c->deform_off > in || sizeof(gx_deform_hdr) > in - c->deform_off)
	{
		gx_errf(err, errlen, "task page section does not fit its slot");
		return GX_INVALID;
	}

	const gx_deform_hdr *d = (const gx_deform_hdr *) ((const char *) c + c->deform_off);

	if (d->natts > GX_MAX_DEFORM_ATTS || d->page_size < 64 || d->page_size > 32768 ||
		!gx_span_ok(d->pages_off, d->npages, d->page_size, 0, in) ||
		d->rowmap_off % 4 != 0 || !gx_span_ok(d->rowmap_off, c->nrows, 4, 0, in))
	{
		gx_errf(err, errlen, "task page section does not fit its slot");
		return GX_INVALID;
	}
	for (uint32_t a = 0; a < d->natts; a++)
	{
		const gx_attr *at = &d->atts[a];

		if ((at->attalign != 1 && at->attalign != 2 && at->attalign != 4 && at->attalign != 8) ||
			at->attlen == 0 || at->attlen < -2 ||
			(at->col >= 0 && ((uint32_t) at->col >= c->ncols ||
							  (c->cols[at->col].type == GX_NUMERIC ||
							   c->cols[at->col].type == GX_CHAR8 ?
							   (at->attlen != -1 || at->fixed_off >= 0 ||
								(c->cols[at->col].scale > GX_NUMERIC_MAX_SCALE &&
								 !(c->cols[at->col].type == GX_NUMERIC &&
								   c->cols[at->col].scale == GX_NUMERIC_FREE))) :
							   (uint32_t) at->attlen != gx_type_width(c->cols[at->col].type)))) ||
			(at->fixed_off >= 0 && (uint32_t) at->fixed_off + 8 > d->page_size))
		{
			gx_errf(err, errlen, "task attribute %u is malformed", a + 1);
			return GX_INVALID;
		}
	}
	for (uint32_t i = 0; i < c->ncols; i++)
		if (c->cols[i].nulls_off == 0 || !gx_col_fits(c, i, in, c->result_off))
		{
			gx_errf(err, errlen, "task column %u of a page task is misplaced", i);
			return GX_INVALID;
		}
	return GX_OK;
}

/* the cache entry the service resolved */
static gx_status
gx_check_entry(const gx_chunk *c, const gx_task_ctx *ctx, char *err, size_t errlen)
{
	if (ctx->entry == NULL || !gx_aligned(ctx->entry, 8) || c->ncols > GX_CACHE_MAX_COLS)
	{
		gx_errf(err, errlen, "cache task has no entry memory (or too many columns)");
		return GX_INVALID;
	}
	return GX_OK;
}

/*
 * The rows of a task that reads a cache entry (CACHE_SCAN, JOIN_BUILD /
 * JOIN_PROBE with ext.entry >= 0): no pages, the row map (map_sel, skip
 * bitmap) and the columns inside the entry, the skip bitmap inside the
 * task
 */
static gx_status
gx_check_entry_rows(const gx_chunk *c, const gx_task_ctx *ctx, char *err, size_t errlen)
{
	const gx_chunk_ext *x = &c->ext;
	gx_status	st;

	if ((st = gx_check_entry(c, ctx, err, errlen)) != GX_OK)
		return st;
	if (c->deform_off != 0 ||
		((x->map_sel || x->skip_blocks > 0) &&
		 (x->rowmap_off % 4 != 0 ||
		  !gx_span_ok(x->rowmap_off, c->nrows, 4, 0, ctx->entry_bytes))))
	{
		gx_errf(err, errlen, "cache scan task: pages, or row map outside the entry");
		return GX_INVALID;
	}
	/* the skip bitmap lies in the task input, after the header */
	if (x->skip_blocks > 0 &&
		(x->skip_blocks > 65536 || x->skip_off % 4 != 0 || x->skip_off < sizeof(gx_chunk) ||
		 !gx_span_ok(x->skip_off, (x->skip_blocks + 31) / 32, 4, 0, c->input_bytes)))
	{
		gx_errf(err, errlen, "cache scan task: skip bitmap outside the task");
		return GX_INVALID;
	}
	for (uint32_t i = 0; i < c->ncols; i++)
		if (!gx_col_fits(c, i, 0, ctx->entry_bytes))
		{
			gx_errf(err, errlen, "cache scan task: column %u outside the entry", i);
			return GX_INVALID;
		}
	return GX_OK;
}

/* FILTER: the task's own columns, or heap pages deformed into its columns */
gx_status
gx_validate_filter(const gx_chunk *c, uint64_t slot_bytes, const gx_task_ctx *ctx,
				   char *err, size_t errlen)
{
	gx_status	st;

	if ((st = gx_check_layout(c, slot_bytes, err, errlen)) != GX_OK ||
		(st = gx_check_program(c, err, errlen)) != GX_OK ||
		(st = gx_check_sets(c, ctx, err, errlen)) != GX_OK ||
		(st = gx_check_aggs(c, ctx, 0, err, errlen)) != GX_OK)
		return st;
	if (c->deform_off != 0)
		return gx_check_pages(c, err, errlen);	/* every column */

	/* given columns lie in the input: those the program or an aggregate reads */
	for (uint32_t pc = 0; pc < c->ninstr; pc++)
		if ((c->code[pc].op == GX_OP_LDCOL || c->code[pc].op == GX_OP_DSCALE) &&
			!gx_col_fits(c, (uint32_t) c->code[pc].arg, 0, c->input_bytes))
		{
			gx_errf(err, errlen, "task column %d lies outside the task", c->code[pc].arg);
			return GX_INVALID;
		}
	for (uint32_t a = 0; a < c->ext.nagg && c->ext.ngroup_cap == 0; a++)
		if (c->ext.agg[a].col >= 0 &&
			!gx_col_fits(c, (uint32_t) c->ext.agg[a].col, 0, c->input_bytes))
		{
			gx_errf(err, errlen, "task aggregate column %d lies outside the task",
					c->ext.agg[a].col);
			return GX_INVALID;
		}
	return GX_OK;
}

/*
 * CACHE_LOAD: heap pages deformed, then appended as entry rows
 * [row0, row0 + nrows) of an entry of entry_rows rows
 */
gx_status
gx_validate_cache_load(const gx_chunk *c, uint64_t slot_bytes, const gx_task_ctx *ctx,
					   char *err, size_t errlen)
{
	const gx_chunk_ext *x = &c->ext;
	uint64_t	eb = ctx->entry_bytes;
	gx_status	st;

	if ((st = gx_check_layout(c, slot_bytes, err, errlen)) != GX_OK ||
		(st = gx_check_program(c, err, errlen)) != GX_OK ||
		(st = gx_check_entry(c, ctx, err, errlen)) != GX_OK)
		return st;
	if (c->deform_off == 0 || x->nagg != 0 || x->ngroup_cap != 0)
	{
		gx_errf(err, errlen, "cache load task without pages, or with aggregates");
		return GX_INVALID;
	}
	if ((st = gx_check_pages(c, err, errlen)) != GX_OK)
		return st;
	if (x->row0 > x->entry_rows || c->nrows > x->entry_rows - x->row0 ||
		x->block0 > 0xFFFF ||
		x->rowmap_off % 4 != 0 || !gx_span_ok(x->rowmap_off, x->entry_rows, 4, 0, eb))
	{
		gx_errf(err, errlen, "cache load task: rows or row map outside the entry");
		return GX_INVALID;
	}
	/* entry_rows <= entry_bytes / 4 from here: no overflow below */
	for (uint32_t i = 0; i < c->ncols; i++)
	{
		uint32_t	w = gx_type_width(c->cols[i].type);

		if (x->values_off[i] % w != 0 ||
			!gx_span_ok(x->values_off[i], x->entry_rows, w, 0, eb) ||
			x->nulls_off[i] % 4 != 0 ||
			!gx_span_ok(x->nulls_off[i], gx_bitmap_bytes(x->entry_rows), 1, 0, eb))
		{
			gx_errf(err, errlen, "cache load task: column %u outside the entry", i);
			return GX_INVALID;
		}
	}
	return GX_OK;
}

/* CACHE_SCAN: filter (and aggregate) the columns of an entry */
gx_status
gx_validate_cache_scan(const gx_chunk *c, uint64_t slot_bytes, const gx_task_ctx *ctx,
					   char *err, size_t errlen)
{
	gx_status	st;

	if ((st = gx_check_layout(c, slot_bytes, err, errlen)) != GX_OK ||
		(st = gx_check_program(c, err, errlen)) != GX_OK ||
		(st = gx_check_sets(c, ctx, err, errlen)) != GX_OK ||
		(st = gx_check_aggs(c, ctx, 0, err, errlen)) != GX_OK)
		return st;
	return gx_check_entry_rows(c, ctx, err, errlen);
}

/* AGG_READ: a result area of no rows, and the state object */
gx_status
gx_validate_agg_read(const gx_chunk *c, uint64_t slot_bytes, const gx_task_ctx *ctx,
					 char *err, size_t errlen)
{
	gx_status	st;

	if ((st = gx_check_layout(c, slot_bytes, err, errlen)) != GX_OK)
		return st;
	if (c->nrows != 0 || c->ext.nagg > GX_MAX_AGGS)
	{
		gx_errf(err, errlen, "aggregate read task has rows or too many aggregates");
		return GX_INVALID;
	}
	return gx_check_state(ctx, err, errlen);
}

/*
 * OBJ_WRITE: no rows nor program; ext.write.bytes bytes from the task's
 * input after its header (8-byte aligned) into obj[0] from ext.write.dst
 */
gx_status
gx_validate_obj_write(const gx_chunk *c, uint64_t slot_bytes, const gx_task_ctx *ctx,
					  char *err, size_t errlen)
{
	const gx_write_ext *w = &c->ext.write;
	gx_status	st;

	if ((st = gx_check_layout(c, slot_bytes, err, errlen, gx_result_bytes(0))) != GX_OK)
		return st;
	if (c->nrows != 0 || c->ninstr != 0 || w->src % 8 != 0 || w->dst % 8 != 0 ||
		!gx_span_ok(w->src, w->bytes, 1, sizeof(gx_chunk), c->input_bytes) ||
		ctx->obj[0] == NULL || !gx_aligned(ctx->obj[0], 8) ||
		!gx_span_ok(w->dst, w->bytes, 1, 0, ctx->obj_bytes[0]))
	{
		gx_errf(err, errlen, "object write task is malformed");
		return GX_INVALID;
	}
	return GX_OK;
}

/*
 * OBJ_COPY: two different objects resolved (obj[0] the destination, obj[1]
 * the source), 1 .. GX_COPY_MAX_RANGES ranges, each inside both; no rows,
 * no program.  (Which devices the objects are on is the service's check:
 * the task's device must reach both.)
 */
gx_status
gx_validate_obj_copy(const gx_chunk *c, uint64_t slot_bytes, const gx_task_ctx *ctx,
					 char *err, size_t errlen)
{
	const gx_copy_ext *x = &c->ext.copy;
	gx_status	st;
	bool		ok;

	if ((st = gx_check_layout(c, slot_bytes, err, errlen, gx_result_bytes(0))) != GX_OK)
		return st;
	ok = c->nrows == 0 && c->ninstr == 0 && x->nranges >= 1 &&
		x->nranges <= GX_COPY_MAX_RANGES && c->obj[0] != c->obj[1] &&
		ctx->obj[0] != NULL && ctx->obj[1] != NULL && ctx->obj[0] != ctx->obj[1];
	for (uint32_t i = 0; ok && i < x->nranges; i++)
		ok = gx_span_ok(x->range[i].src, x->range[i].bytes, 1, 0, ctx->obj_bytes[1]) &&
			gx_span_ok(x->range[i].dst, x->range[i].bytes, 1, 0, ctx->obj_bytes[0]);
	if (!ok)
	{
		gx_errf(err, errlen, "object copy task is malformed");
		return GX_INVALID;
	}
	return GX_OK;
}

/*
 * GROUP_READ, GROUP_MERGE: the task's table geometry (slots a power of 2,
 * keys and aggregates within bounds), its slots [row0, row0 + nrows)
 * among them, and room after the result header for recs records
 */
static bool
gx_group_range_ok(const gx_chunk *c, uint64_t slot_bytes, uint64_t recs)
{
	const gx_chunk_ext *x = &c->ext;

	return !(x->nagg > GX_MAX_AGGS || x->ngkeys > GX_MAX_GKEYS || x->ngroup_cap == 0 ||
			 (x->ngroup_cap & (x->ngroup_cap - 1)) != 0 ||
			 x->row0 > x->ngroup_cap || c->nrows > x->ngroup_cap - x->row0 ||
			 !gx_span_ok(c->result_off + GX_ALIGN_UP(sizeof(gx_result)), recs,
						 gx_group_slot_bytes(x->ngkeys, x->nagg), 0, slot_bytes));
}

/* is ctx's obj[k] a group table of the task's geometry? */
static bool
gx_group_obj_ok(const gx_chunk *c, const gx_task_ctx *ctx, int k)
{
	return ctx->obj[k] != NULL && gx_aligned(ctx->obj[k], 8) &&
		ctx->obj_bytes[k] >= gx_group_table_bytes(c->ext.ngroup_cap, c->ext.ngkeys, c->ext.nagg);
}

/*
 * GROUP_READ: slots [row0, row0 + nrows) of the group table obj[0], and
 * room after the result header for nrows records (GX_GROUP_DISCARD: none)
 */
gx_status
gx_validate_group_read(const gx_chunk *c, uint64_t slot_bytes, const gx_task_ctx *ctx,
					   char *err, size_t errlen)
{
	const int	discard = (c->ext.gflags & GX_GROUP_DISCARD) != 0;
	gx_status	st;

	/* (a discarding read returns no record: any range fits) */
	if ((st = gx_check_layout(c, slot_bytes, err, errlen,
							  gx_result_bytes(discard ? 0 : c->nrows))) != GX_OK)
		return st;
	if (!gx_group_range_ok(c, slot_bytes, discard ? 0 : c->nrows))
	{
		gx_errf(err, errlen, "group read task is malformed");
		return GX_INVALID;
	}
	if (!gx_group_obj_ok(c, ctx, 0))
	{
		gx_errf(err, errlen, "group read task has no group table of %u slots",
				c->ext.ngroup_cap);
		return GX_INVALID;
	}
	return GX_OK;
}

/*
 * GROUP_MERGE: the destination obj[0] and the source obj[1], two group
 * tables of the task's geometry apart from each other, the slots [row0,
 * row0 + nrows) of the source, the aggregates' shapes (the states merged),
 * and room after the result header for nrows records (count_only: none)
 */
gx_status
gx_validate_group_merge(const gx_chunk *c, uint64_t slot_bytes, const gx_task_ctx *ctx,
						char *err, size_t errlen)
{
	const gx_chunk_ext *x = &c->ext;
	uint64_t	tbytes;
	gx_status	st;

	if ((st = gx_check_layout(c, slot_bytes, err, errlen, gx_result_bytes(0))) != GX_OK)
		return st;
	if (!gx_group_range_ok(c, slot_bytes, x->count_only ? 0 : c->nrows) ||
		x->ngroup_cap < 2 || x->ngroup_limit > x->ngroup_cap / 2 || x->gflags != 0 ||
		x->count_only > 1)
	{
		gx_errf(err, errlen, "group merge task is malformed");
		return GX_INVALID;
	}
	for (uint32_t a = 0; a < x->nagg; a++)
		if (!gx_agg_shape_ok(x, a, 1))
		{
			gx_errf(err, errlen, "group merge task: aggregate %u is malformed", a);
			return GX_INVALID;
		}
	tbytes = gx_group_table_bytes(x->ngroup_cap, x->ngkeys, x->nagg);
	for (int k = 0; k < 2; k++)
		if (!gx_group_obj_ok(c, ctx, k))
		{
			gx_errf(err, errlen, "group merge task has no %s table of %u slots",
					k == 0 ? "destination" : "source", x->ngroup_cap);
			return GX_INVALID;
		}
	/* (one table into itself would read what it adds) */
	if (!((uintptr_t) ctx->obj[0] + tbytes <= (uintptr_t) ctx->obj[1] ||
		  (uintptr_t) ctx->obj[1] + tbytes <= (uintptr_t) ctx->obj[0]))
	{
		gx_errf(err, errlen, "group merge task merges a table into itself");
		return GX_INVALID;
	}
	return GX_OK;
}

/* ---------------------------------------------------------------------- */
/* joins (gx_join.cuh)                                                    */
/* ---------------------------------------------------------------------- */

/*
 * A sorted table obj[0] (what: "range" or "merge", gx_jrange.cuh,
 * gx_jmerge.cuh) under the task's geometry: cap rows (no key directory:
 * kcap 0), keys between min_keys and max_keys, the object's bytes
 */
static gx_status
gx_check_sorted_table(const gx_chunk *c, const gx_task_ctx *ctx, const char *what,
					  uint32_t min_keys, uint32_t max_keys, uint64_t bytes, char *err,
					  size_t errlen)
{
	const gx_join_ext *j = &c->ext.join;

	if (j->cap == 0 || j->cap > GX_JOIN_MAX_CAP || j->kcap != 0 || j->nkeys < min_keys ||
		j->nkeys > max_keys)
	{
		gx_errf(err, errlen, "%s join task: bad table geometry (cap %u, kcap %u, %u keys)", what,
				j->cap, j->kcap, j->nkeys);
		return GX_INVALID;
	}
	if (ctx->obj[0] == NULL || !gx_aligned(ctx->obj[0], 8) || ctx->obj_bytes[0] < bytes)
	{
		gx_errf(err, errlen, "%s join task has no join table object of %llu bytes", what,
				(unsigned long long) bytes);
		return GX_INVALID;
	}
	return GX_OK;
}

/*
 * A range probe's bounds: each -1 (unbounded) or an integer-like output,
 * not both unbounded, no unknown flag
 */
static gx_status
gx_check_jrange_bounds(const gx_chunk *c, char *err, size_t errlen)
{
	const gx_join_ext *j = &c->ext.join;
	const int16_t outs[2] = {j->lo_out, j->hi_out};

	for (int b = 0; b < 2; b++)
		if (outs[b] < -1 || outs[b] >= GX_MAX_OUTS ||
			(outs[b] >= 0 && !gx_key_like((uint32_t) gx_out_type(c, outs[b]))))
		{
			gx_errf(err, errlen, "range join probe: bound %d is not an integer-like output", b);
			return GX_INVALID;
		}
	if ((j->lo_out < 0 && j->hi_out < 0) ||
		(j->bflags & ~(GX_JOIN_LO_INCL | GX_JOIN_HI_INCL)) != 0)
	{
		gx_errf(err, errlen, "range join probe: no bound, or bad bound flags");
		return GX_INVALID;
	}
	return GX_OK;
}

/*
 * The join table obj[0] under the task's geometry: cap rows, kcap key
 * slots (a power of 2 >= 2 * cap: the directory stays half empty), the
 * object's bytes
 */
static gx_status
gx_check_join_table(const gx_chunk *c, const gx_task_ctx *ctx, char *err, size_t errlen)
{
	const gx_join_ext *j = &c->ext.join;

	/* (a range join's table holds one key; a merge join's one or two) */
	if (j->alg == GX_JOIN_RANGE)
		return gx_check_sorted_table(c, ctx, "range", 1, 1,
									 j->cap <= GX_JOIN_MAX_CAP ? gx_jrange_table_bytes(j->cap) : 0,
									 err, errlen);
	if (j->alg == GX_JOIN_MERGE)
		return gx_check_sorted_table(c, ctx, "merge", 1, GX_JOIN_MAX_KEYS,
									 j->cap <= GX_JOIN_MAX_CAP ? gx_jmerge_table_bytes(j->cap) : 0,
									 err, errlen);
	if (j->alg != GX_JOIN_HASH)
	{
		gx_errf(err, errlen, "join task: unknown algorithm %u", j->alg);
		return GX_INVALID;
	}
	if (j->cap == 0 || j->cap > GX_JOIN_MAX_CAP || j->kcap > 2 * GX_JOIN_MAX_CAP ||
		(j->kcap & (j->kcap - 1)) != 0 || j->kcap / 2 < j->cap)
	{
		gx_errf(err, errlen, "join task: bad table geometry (cap %u, kcap %u)", j->cap, j->kcap);
		return GX_INVALID;
	}
	if (ctx->obj[0] == NULL || !gx_aligned(ctx->obj[0], 8) ||
		ctx->obj_bytes[0] < gx_join_table_bytes(j->cap, j->kcap))
	{
		gx_errf(err, errlen, "join task has no join table object of %llu bytes",
				(unsigned long long) gx_join_table_bytes(j->cap, j->kcap));
		return GX_INVALID;
	}
	return GX_OK;
}

/* may a join key be an output of type t: integer-like, or a float where flt? */
static bool
gx_join_key_output(int t, bool flt)
{
	return flt ? (t == GX_FLOAT4 || t == GX_FLOAT8) : gx_key_like((uint32_t) t);
}

/*
 * BUILD and PROBE: rows as a FILTER or CACHE_SCAN task has them (its own
 * columns, heap pages the device deforms, or a cache entry; no aggregate
 * or group table; map_sel only for a PROBE of an entry) whose program the
 * device runs, with the keys (and the payload) as integer-like outputs
 * (keys of a hash or merge table: floats where kfloat says)
 */
static gx_status
gx_check_join_rows(const gx_chunk *c, const gx_task_ctx *ctx, bool probe, char *err,
				   size_t errlen)
{
	const gx_chunk_ext *x = &c->ext;
	const gx_join_ext *j = &x->join;
	const bool	group = probe && x->ngroup_cap > 0;	/* a group probe */
	gx_status	st;

	if ((st = gx_check_program(c, err, errlen)) != GX_OK)
		return st;
	if ((!group && (x->nagg != 0 || x->ngroup_cap != 0 || x->ngkeys != 0)) ||
		x->count_only > 1 ||
		(x->entry < 0 && (x->map_sel != 0 || x->skip_blocks != 0)) ||
		(x->map_sel != 0 && c->kind != GX_TASK_JOIN_PROBE))
	{
		gx_errf(err, errlen, "join task with aggregates, a group table or a bad row map");
		return GX_INVALID;
	}
	if (j->nkeys < 1 || j->nkeys > GX_JOIN_MAX_KEYS)
	{
		gx_errf(err, errlen, "join task has %u keys", j->nkeys);
		return GX_INVALID;
	}
	if (probe && j->alg == GX_JOIN_RANGE &&
		(st = gx_check_jrange_bounds(c, err, errlen)) != GX_OK)
		return st;
	/* (device parts: a hash table's, not a group probe's, part_d among part_n <= 64) */
	if (j->part_n > 64 || j->part_d >= (j->part_n > 1 ? j->part_n : 1) ||
		(j->part_n > 1 && (j->alg != GX_JOIN_HASH || group)))
	{
		gx_errf(err, errlen, "join task: device part %u of %u (algorithm %u)",
				j->part_d, j->part_n, j->alg);
		return GX_INVALID;
	}
	if ((j->kfloat >> j->nkeys) != 0 || (j->kfloat != 0 && j->alg == GX_JOIN_RANGE))
	{
		gx_errf(err, errlen, "join task: float keys 0x%x of %u keys (algorithm %u)",
				j->kfloat, j->nkeys, j->alg);
		return GX_INVALID;
	}
	for (uint32_t k = 0; k < j->nkeys && !(probe && j->alg == GX_JOIN_RANGE); k++)
		if (j->key_out[k] < 0 || j->key_out[k] >= GX_MAX_OUTS ||
			!gx_join_key_output(gx_out_type(c, j->key_out[k]), (j->kfloat >> k) & 1))
		{
			gx_errf(err, errlen, "join key %u is not an output of its type", k);
			return GX_INVALID;
		}
	if (group && (st = gx_check_aggs(c, ctx, GX_JOIN_OBJ_GROUP, err, errlen)) != GX_OK)
		return st;
	if (x->entry >= 0)
		return gx_check_entry_rows(c, ctx, err, errlen);
	if (c->deform_off != 0)
		return gx_check_pages(c, err, errlen);	/* every column */
	for (uint32_t pc = 0; pc < c->ninstr; pc++)
		if ((c->code[pc].op == GX_OP_LDCOL || c->code[pc].op == GX_OP_DSCALE) &&
			!gx_col_fits(c, (uint32_t) c->code[pc].arg, 0, c->input_bytes))
		{
			gx_errf(err, errlen, "task column %d lies outside the task", c->code[pc].arg);
			return GX_INVALID;
		}
	return GX_OK;
}

/*
 * Inner columns (ext.join.ncols > 0): at most GX_JOIN_MAX_COLS of known
 * types (a BUILD's: each its output col_out[c] of that type), the store
 * obj[GX_JOIN_OBJ_COLS] of the table's geometry
 */
static gx_status
gx_check_join_cols(const gx_chunk *c, const gx_task_ctx *ctx, bool build, char *err,
				   size_t errlen)
{
	const gx_join_ext *j = &c->ext.join;
	const int	o = GX_JOIN_OBJ_COLS;

	if (j->ncols > GX_JOIN_MAX_COLS)
	{
		gx_errf(err, errlen, "join task has %u inner columns (at most %d)", j->ncols,
				GX_JOIN_MAX_COLS);
		return GX_INVALID;
	}
	for (uint32_t k = 0; k < j->ncols; k++)
		if (j->col_type[k] >= GX_NTYPES ||
			(build && (j->col_out[k] < 0 || j->col_out[k] >= GX_MAX_OUTS ||
					   gx_out_type(c, j->col_out[k]) != (int) j->col_type[k])))
		{
			gx_errf(err, errlen, "join inner column %u is not an output of its type", k);
			return GX_INVALID;
		}
	if (j->ncols > 0 &&
		(ctx->obj[o] == NULL || !gx_aligned(ctx->obj[o], 8) ||
		 ctx->obj_bytes[o] < gx_join_cols_bytes(j->cap, j->ncols)))
	{
		gx_errf(err, errlen, "join task has no inner column store of %llu bytes",
				(unsigned long long) gx_join_cols_bytes(j->cap, j->ncols));
		return GX_INVALID;
	}
	return GX_OK;
}

/*
 * Gathered output (ext.join.ngather > 0; gx_program.h): a PROBE that
 * writes entries (not count-only, no group table, one level), at most
 * GX_JOIN_MAX_GATHER columns, each an output of its program (>= 0) or an
 * inner column below ncols (< 0), and then the inner column store
 * (gx_check_join_cols).  Any other join task has no gathered column.
 */
static gx_status
gx_check_join_gather(const gx_chunk *c, const gx_task_ctx *ctx, char *err, size_t errlen)
{
	const gx_join_ext *j = &c->ext.join;
	bool		inner = false;

	if (j->ngather == 0)
		return GX_OK;
	if (c->kind != GX_TASK_JOIN_PROBE || j->ngather > GX_JOIN_MAX_GATHER ||
		c->ext.count_only != 0 || c->ext.ngroup_cap != 0 || j->nlevels > 1)
	{
		gx_errf(err, errlen,
				"join task gathers %u columns (at most %d, a probe writing entries only)",
				j->ngather, GX_JOIN_MAX_GATHER);
		return GX_INVALID;
	}
	for (uint32_t g = 0; g < j->ngather; g++)
	{
		const int	ref = j->gather[g];

		if (ref >= 0 ? ref >= GX_MAX_OUTS || gx_out_type(c, ref) < 0 :
			(uint32_t) (-1 - ref) >= j->ncols || j->ncols > GX_JOIN_MAX_COLS)
		{
			gx_errf(err, errlen, "join probe: gathered column %u (%d) is neither an output "
					"nor one of %u inner columns", g, ref, j->ncols);
			return GX_INVALID;
		}
		inner = inner || ref < 0;
	}
	/* (only a probe reading an inner column needs the store) */
	return inner ? gx_check_join_cols(c, ctx, false, err, errlen) : GX_OK;
}

/*
 * JOIN_BUILD: rows, the payload output (none with inner columns: the
 * payload is the staged index), the inner columns, the table; the result
 * is the filter's (the rows selected for the host)
 */
gx_status
gx_validate_join_build(const gx_chunk *c, uint64_t slot_bytes, const gx_task_ctx *ctx,
					   char *err, size_t errlen)
{
	const gx_join_ext *j = &c->ext.join;
	gx_status	st;

	if ((st = gx_check_layout(c, slot_bytes, err, errlen)) != GX_OK ||
		(st = gx_check_join_gather(c, ctx, err, errlen)) != GX_OK ||
		(st = gx_check_join_rows(c, ctx, false, err, errlen)) != GX_OK ||
		(st = gx_check_join_table(c, ctx, err, errlen)) != GX_OK)
		return st;
	if (c->ext.count_only != 0 || j->payload_out < -1 || j->payload_out >= GX_MAX_OUTS ||
		(j->payload_out >= 0 && !gx_key_like((uint32_t) gx_out_type(c, j->payload_out))) ||
		(j->payload_out >= 0 && j->ncols > 0))
	{
		gx_errf(err, errlen,
				"join build task: count-only, or a bad payload output (none with inner columns)");
		return GX_INVALID;
	}
	return gx_check_join_cols(c, ctx, true, err, errlen);
}

/* JOIN_FINISH_BUILD: no rows, the table */
gx_status
gx_validate_join_finish(const gx_chunk *c, uint64_t slot_bytes, const gx_task_ctx *ctx,
						char *err, size_t errlen)
{
	gx_status	st;

	if ((st = gx_check_layout(c, slot_bytes, err, errlen)) != GX_OK ||
		(st = gx_check_join_gather(c, ctx, err, errlen)) != GX_OK)
		return st;
	/* (a merge table's runs are its sorted rows: always made) */
	if (c->nrows != 0 || c->ninstr != 0 || c->ext.nagg != 0 || c->ext.ngroup_cap != 0 ||
		(c->ext.join.jflags & ~GX_JOIN_NO_RUNS) != 0 ||
		(c->ext.join.alg == GX_JOIN_MERGE && c->ext.join.jflags != 0))
	{
		gx_errf(err, errlen, "join finish task has rows, a program, aggregates or unknown flags");
		return GX_INVALID;
	}
	return gx_check_join_table(c, ctx, err, errlen);
}

/*
 * The levels past the first of a multi-level group probe (ext.join.nlevels
 * > 1; gx_program.h): a group probe, INNER, at most GX_JOIN_MAX_LEVELS;
 * each level a hash table of sane geometry in its object, with its column
 * store when it has columns (of known types), its keys entries of the
 * joined output vector of its key type before its own columns, which
 * follow the previous level's and end inside GX_MAX_OUTS
 */
static gx_status
gx_check_join_levels(const gx_chunk *c, const gx_task_ctx *ctx, char *err, size_t errlen)
{
	const gx_join_ext *j = &c->ext.join;
	uint32_t	end = j->icol_base + j->ncols;	/* (level 0's, checked) */

	if (j->nlevels <= 1)
		return GX_OK;
	if (j->nlevels > GX_JOIN_MAX_LEVELS || c->ext.ngroup_cap == 0 || j->mode != GX_JOIN_INNER)
	{
		gx_errf(err, errlen, "join probe of %u levels: more than %d, not INNER or not a group probe",
				j->nlevels, GX_JOIN_MAX_LEVELS);
		return GX_INVALID;
	}
	for (uint32_t l = 1; l < j->nlevels; l++)
	{
		const gx_join_level *v = &j->level[l - 1];
		const int	to = GX_JOIN_OBJ_LEVEL(l),
					co = GX_JOIN_OBJ_LEVEL_COLS(l);
		bool		bad = v->cap == 0 || v->cap > GX_JOIN_MAX_CAP ||
			v->kcap > 2 * GX_JOIN_MAX_CAP || (v->kcap & (v->kcap - 1)) != 0 ||
			v->kcap / 2 < v->cap || v->nkeys < 1 || v->nkeys > GX_JOIN_MAX_KEYS ||
			(v->kfloat >> v->nkeys) != 0 || v->ncols > GX_JOIN_MAX_COLS ||
			v->icol_base < end || (uint32_t) v->icol_base + v->ncols > GX_MAX_OUTS;

		for (uint32_t k = 0; k < v->nkeys && !bad; k++)
			bad = v->key_ref[k] < 0 || (uint32_t) v->key_ref[k] >= v->icol_base ||
				!gx_join_key_output(gx_ref_type(c, v->key_ref[k]), (v->kfloat >> k) & 1);
		for (uint32_t k = 0; k < v->ncols && !bad; k++)
			bad = v->col_type[k] >= GX_NTYPES;
		if (bad)
		{
			gx_errf(err, errlen, "join probe level %u: bad geometry, keys or columns", l);
			return GX_INVALID;
		}
		if (ctx->obj[to] == NULL || !gx_aligned(ctx->obj[to], 8) ||
			ctx->obj_bytes[to] < gx_join_table_bytes(v->cap, v->kcap) ||
			(v->ncols > 0 &&
			 (ctx->obj[co] == NULL || !gx_aligned(ctx->obj[co], 8) ||
			  ctx->obj_bytes[co] < gx_join_cols_bytes(v->cap, v->ncols))))
		{
			gx_errf(err, errlen, "join probe level %u has no table of %llu bytes or no column store",
					l, (unsigned long long) gx_join_table_bytes(v->cap, v->kcap));
			return GX_INVALID;
		}
		end = (uint32_t) v->icol_base + v->ncols;
	}
	return GX_OK;
}

/*
 * JOIN_PROBE: rows, the mode, the pass (first_row <= nrows; first_match
 * only where pairs are written), the result area of max_pairs entries
 * (and their gathered columns; a merge probe's: and its scratch), the
 * table
 */
gx_status
gx_validate_join_probe(const gx_chunk *c, uint64_t slot_bytes, const gx_task_ctx *ctx,
					   char *err, size_t errlen)
{
	const gx_join_ext *j = &c->ext.join;
	gx_status	st;

	/*
	 * a group probe (first: its aggregates read the joined output vector):
	 * INNER, LEFT, SEMI or ANTI, no pass nor entry, the inner columns
	 * among the outputs
	 */
	if (c->ext.ngroup_cap > 0 &&
		(j->mode > GX_JOIN_LEFT || j->first_row != 0 || j->first_match != 0 ||
		 j->max_pairs != 0 || c->ext.count_only != 0 || j->ncols > GX_JOIN_MAX_COLS ||
		 j->icol_base > GX_MAX_OUTS || j->ncols > GX_MAX_OUTS - j->icol_base))
	{
		gx_errf(err, errlen,
				"join group probe: mode %u, a pass, or inner columns [%u, +%u) past %d outputs",
				j->mode, j->icol_base, j->ncols, GX_MAX_OUTS);
		return GX_INVALID;
	}
	/* a merge probe's scratch in an object (GX_JOIN_MSCRATCH): room for its rows' */
	if (j->jflags & GX_JOIN_MSCRATCH)
	{
		gx_jmerge_probe_offs o;

		if (j->alg != GX_JOIN_MERGE || ctx->obj[GX_JOIN_OBJ_MSCRATCH] == NULL ||
			ctx->obj_bytes[GX_JOIN_OBJ_MSCRATCH] < gx_jmerge_probe_layout(c->nrows, &o))
		{
			gx_errf(err, errlen, "join probe task: no merge scratch object for %u rows",
					c->nrows);
			return GX_INVALID;
		}
	}
	if ((st = gx_check_join_gather(c, ctx, err, errlen)) != GX_OK ||
		(st = gx_check_layout(c, slot_bytes, err, errlen,
							  gx_join_gather_result_bytes(c->nrows, j->max_pairs,
														  gx_join_res_alg(j), j->ngather))) !=
		GX_OK ||
		(st = gx_check_join_rows(c, ctx, true, err, errlen)) != GX_OK ||
		(st = gx_check_join_table(c, ctx, err, errlen)) != GX_OK)
		return st;
	if (j->mode > GX_JOIN_FULL || j->first_row > c->nrows ||
		(j->first_match != 0 && (!GX_JOIN_MODE_PAIRS(j->mode) || c->ext.count_only)) ||
		(j->nlevels > 1 && c->ext.ngroup_cap == 0))
	{
		gx_errf(err, errlen, "join probe task: bad mode, pass or levels");
		return GX_INVALID;
	}
	if (c->ext.ngroup_cap == 0)
		return GX_OK;
	if ((st = gx_check_join_cols(c, ctx, false, err, errlen)) != GX_OK)
		return st;
	return gx_check_join_levels(c, ctx, err, errlen);
}

/*
 * JOIN_UNMATCHED: no program, no column, no aggregate; a range of nrows
 * placed rows from first_row inside the table's cap; the result area of
 * nrows payloads (none when count_only); the table
 */
gx_status
gx_validate_join_unmatched(const gx_chunk *c, uint64_t slot_bytes, const gx_task_ctx *ctx,
						   char *err, size_t errlen)
{
	const gx_join_ext *j = &c->ext.join;
	gx_status	st;

	if ((st = gx_check_layout(c, slot_bytes, err, errlen,
							  gx_join_unmatched_result_bytes(c->nrows,
															 c->ext.count_only))) != GX_OK ||
		(st = gx_check_join_gather(c, ctx, err, errlen)) != GX_OK)
		return st;
	if (c->ninstr != 0 || c->ncols != 0 || c->deform_off != 0 || c->ext.nagg != 0 ||
		c->ext.ngroup_cap != 0 || c->ext.count_only > 1)
	{
		gx_errf(err, errlen, "join unmatched task has a program, columns or aggregates");
		return GX_INVALID;
	}
	/* (a range table has no matched marks: a hash or merge table has) */
	if (j->alg == GX_JOIN_RANGE)
	{
		gx_errf(err, errlen, "join unmatched task of a range join's table");
		return GX_INVALID;
	}
	if ((st = gx_check_join_table(c, ctx, err, errlen)) != GX_OK)
		return st;
	if ((uint64_t) j->first_row + c->nrows > j->cap)
	{
		gx_errf(err, errlen, "join unmatched task: rows [%u, +%u) outside the table's %u",
				j->first_row, c->nrows, j->cap);
		return GX_INVALID;
	}
	return GX_OK;
}

/* ---------------------------------------------------------------------- */
/* batched lookups (gx_search.cuh)                                        */
/* ---------------------------------------------------------------------- */

/*
 * A task whose rows are probe keys (SEARCH, TREE_LOOKUP): the result area
 * of a run per probe; no program, aggregate, group table, entry or pages
 */
static gx_status
gx_check_probe_task(const gx_chunk *c, uint64_t slot_bytes, const char *what,
					char *err, size_t errlen)
{
	const gx_chunk_ext *x = &c->ext;
	gx_status	st;

	if ((st = gx_check_layout(c, slot_bytes, err, errlen,
							  gx_search_result_bytes(c->nrows))) != GX_OK)
		return st;
	if (c->ninstr != 0 || c->nconsts != 0 || c->deform_off != 0 || x->entry >= 0 ||
		x->nagg != 0 || x->ngroup_cap != 0 || x->ngkeys != 0 || x->count_only != 0 ||
		x->map_sel != 0 || x->skip_blocks != 0)
	{
		gx_errf(err, errlen, "%s task with a program, pages, an entry or aggregates", what);
		return GX_INVALID;
	}
	return GX_OK;
}

/*
 * SEARCH: no program, aggregate, group table, entry or pages; its probe
 * columns (one key, or two bounds: integer-like int64 values) inside the
 * task; a known operation, bound flags only for a range; a known
 * algorithm with its lanes (p-ary: a power of 2 in 2 .. 32); the result
 * area of a run per probe; the projection obj[0], a range join's table
 * under the task's geometry
 */
gx_status
gx_validate_search(const gx_chunk *c, uint64_t slot_bytes, const gx_task_ctx *ctx,
				   char *err, size_t errlen)
{
	const gx_chunk_ext *x = &c->ext;
	const gx_search_ext *s = &x->search;
	const uint32_t ncols = s->op == GX_SEARCH_RANGE ? 2 : 1;
	gx_status	st;

	if ((st = gx_check_probe_task(c, slot_bytes, "search", err, errlen)) != GX_OK)
		return st;
	if (s->op > GX_SEARCH_RANGE || c->ncols != ncols ||
		(s->bflags & ~(s->op == GX_SEARCH_RANGE ? GX_JOIN_LO_INCL | GX_JOIN_HI_INCL : 0u)) != 0)
	{
		gx_errf(err, errlen, "search task: bad operation %u (%u columns, bound flags 0x%x)",
				s->op, c->ncols, s->bflags);
		return GX_INVALID;
	}
	if ((s->alg == GX_SEARCH_BINARY && s->lanes > 1) ||
		(s->alg == GX_SEARCH_PARY &&
		 (s->lanes < 2 || s->lanes > GX_SEARCH_MAX_LANES || (s->lanes & (s->lanes - 1)) != 0)) ||
		s->alg > GX_SEARCH_PARY)
	{
		gx_errf(err, errlen, "search task: unknown algorithm %u with %u lanes", s->alg, s->lanes);
		return GX_INVALID;
	}
	for (uint32_t i = 0; i < ncols; i++)
	{
		uint32_t	t = c->cols[i].type;

		if ((t != GX_INT2 && t != GX_INT4 && t != GX_INT8 && t != GX_CHAR8 && t != GX_NUMERIC) ||
			!gx_col_fits(c, i, 0, c->input_bytes))
		{
			gx_errf(err, errlen, "search task: column %u is not an integer-like column inside "
					"the task", i);
			return GX_INVALID;
		}
	}
	if (s->cap == 0 || s->cap > GX_JOIN_MAX_CAP || ctx->obj[0] == NULL ||
		!gx_aligned(ctx->obj[0], 8) || ctx->obj_bytes[0] < gx_jrange_table_bytes(s->cap))
	{
		gx_errf(err, errlen, "search task has no sorted projection of %u rows", s->cap);
		return GX_INVALID;
	}
	return GX_OK;
}

/*
 * TREE_LOOKUP (gx_ptree.cuh): a probe task (gx_check_probe_task) of one
 * int8 key column inside the task; a known algorithm (SPEC: 2, 4, 8 or 16
 * partitions); the image obj[0] holds the layout of the task's geometry
 * (its contents are not trusted: the steps clamp every index they read)
 */
gx_status
gx_validate_tree_lookup(const gx_chunk *c, uint64_t slot_bytes, const gx_task_ctx *ctx,
						char *err, size_t errlen)
{
	const gx_tree_ext *t = &c->ext.tree;
	gx_pt_geom	g = {t->nnodes, t->nleaves, t->ntids, t->nlevel};
	gx_pt_offs	o;
	gx_status	st;

	if ((st = gx_check_probe_task(c, slot_bytes, "tree lookup", err, errlen)) != GX_OK)
		return st;
	if (c->ncols != 1 || c->cols[0].type != GX_INT8 || !gx_col_fits(c, 0, 0, c->input_bytes))
	{
		gx_errf(err, errlen, "tree lookup task: its keys are not one int8 column inside the task");
		return GX_INVALID;
	}
	if ((t->alg == GX_TREE_SEQ && t->parts > 1) ||
		(t->alg == GX_TREE_SPEC && t->parts != 2 && t->parts != 4 && t->parts != 8 &&
		 t->parts != GX_PT_MAX_PARTS) ||
		t->alg > GX_TREE_SPEC)
	{
		gx_errf(err, errlen, "tree lookup task: unknown algorithm %u with %u partitions",
				t->alg, t->parts);
		return GX_INVALID;
	}
	gx_pt_layout(&g, &o);
	if (t->nnodes > GX_PT_MAX_ITEMS || t->nleaves > GX_PT_MAX_ITEMS ||
		ctx->obj[0] == NULL || !gx_aligned(ctx->obj[0], 8) || ctx->obj_bytes[0] < o.bytes)
	{
		gx_errf(err, errlen, "tree lookup task has no image of %u nodes, %u leaves, %u TIDs",
				t->nnodes, t->nleaves, t->ntids);
		return GX_INVALID;
	}
	return GX_OK;
}
