/*
 * gx_projection.h - the tasks of a cached column's sorted projection
 * (issue 16; the backend's side: src/cache/projection.cpp; docs/engine.md,
 * "The sorted projection of a cached column"), shared by the backend and
 * the unit tests so that both run the same programs.  No PostgreSQL
 * header; valid C and C++.
 *
 * A projection is a range join's table (gx_jrange.cuh) whose payloads are
 * positions: a row's TID as (block << 16 | line pointer).  Its JOIN_BUILD
 * tasks read a cache entry: column 0 the key, column 1 the entry's row
 * map (a uint32 per row, block delta << 16 | offset, below 2^31: an entry
 * spans fewer than 2^15 blocks), read as an INT4 column; the program
 * outputs the key (output 0) and the row map value plus (the entry's
 * first block << 16) (output 1, the payload).  Its lookups are INNER
 * JOIN_PROBE tasks of int8 keys (the task's column 0), each key both
 * bounds, inclusive.
 */
#ifndef GX_PROJECTION_H
#define GX_PROJECTION_H

#include "gx_program.h"

/* append instruction (op, type, dst, a, b, arg) to c's program */
GX_INLINE void
gx_proj_emit(gx_chunk *c, int op, int type, int dst, int a, int b, int arg)
{
	gx_instr   *in = &c->code[c->ninstr++];

	in->op = (uint8_t) op;
	in->type = (uint8_t) type;
	in->dst = (uint8_t) dst;
	in->a = (uint8_t) a;
	in->b = (uint8_t) b;
	in->pad = 0;
	in->jump = 0;
	in->arg = arg;
}

/* the range join fields of a projection's task (cap rows), table obj */
GX_INLINE void
gx_proj_join(gx_chunk *c, uint32_t obj, uint32_t cap)
{
	c->obj[0] = obj;
	c->ext.join.alg = GX_JOIN_RANGE;
	c->ext.join.mode = GX_JOIN_INNER;
	c->ext.join.nkeys = 1;
	c->ext.join.key_out[0] = 0;
	c->ext.join.payload_out = -1;
	c->ext.join.cap = cap;
	c->ext.join.lo_out = -1;
	c->ext.join.hi_out = -1;
	c->ext.join.bflags = 0;
}

/*
 * The program and columns of a JOIN_BUILD task of a projection (cap rows,
 * table obj) over an entry whose first block is start: the key column of
 * gx type keytype (INT2, INT4, INT8) at key_values_off / key_nulls_off,
 * the row map at rowmap_off (entry-relative); the caller sets the rest of
 * the header (kind, session, rows, entry, skip bitmap, sizes)
 */
GX_INLINE void
gx_proj_build_program(gx_chunk *c, uint32_t obj, uint32_t cap, int keytype,
					  uint64_t key_values_off, uint64_t key_nulls_off, uint64_t rowmap_off,
					  uint32_t start)
{
	gx_proj_join(c, obj, cap);
	c->ncols = 2;
	c->cols[0].type = (uint8_t) keytype;
	c->cols[0].scale = 0;
	c->cols[0].values_off = key_values_off;
	c->cols[0].nulls_off = key_nulls_off;
	c->cols[1].type = GX_INT4;
	c->cols[1].scale = 0;
	c->cols[1].values_off = rowmap_off;
	c->cols[1].nulls_off = 0;
	c->ext.rowmap_off = rowmap_off;
	c->nconsts = 1;
	c->consts[0].v.i = (int64_t) start << 16;
	c->consts[0].isnull = 0;
	c->consts[0].type = GX_INT8;
	c->ninstr = 0;
	gx_proj_emit(c, GX_OP_LDCOL, keytype, 0, 0, 0, 0);
	gx_proj_emit(c, GX_OP_OUT, keytype, 0, 0, 0, 0);
	gx_proj_emit(c, GX_OP_LDCOL, GX_INT4, 1, 0, 0, 1);
	gx_proj_emit(c, GX_OP_LDCONST, GX_INT8, 2, 0, 0, 0);
	gx_proj_emit(c, GX_OP_ADD, GX_INT8, 3, 1, 2, 0);
	gx_proj_emit(c, GX_OP_OUT, GX_INT8, 0, 3, 0, 1);
	c->nregs = 4;
	c->ext.join.payload_out = 1;
	c->ext.join.row_base = 0;
}

/*
 * The program of a projection's lookup (a JOIN_PROBE of the table obj of
 * cap rows): column 0 the int8 keys (the caller places them), each key
 * both bounds; pass (first_row, first_match), max_pairs entries
 */
GX_INLINE void
gx_proj_probe_program(gx_chunk *c, uint32_t obj, uint32_t cap, uint32_t first_row,
					  uint32_t first_match, uint32_t max_pairs)
{
	gx_proj_join(c, obj, cap);
	c->ncols = 1;
	c->cols[0].type = GX_INT8;
	c->cols[0].scale = 0;
	c->ext.join.lo_out = 0;
	c->ext.join.hi_out = 0;
	c->ext.join.bflags = GX_JOIN_LO_INCL | GX_JOIN_HI_INCL;
	c->ext.join.first_row = first_row;
	c->ext.join.first_match = first_match;
	c->ext.join.max_pairs = max_pairs;
	c->nconsts = 0;
	c->ninstr = 0;
	gx_proj_emit(c, GX_OP_LDCOL, GX_INT8, 0, 0, 0, 0);
	gx_proj_emit(c, GX_OP_OUT, GX_INT8, 0, 0, 0, 0);
	c->nregs = 1;
}

#endif							/* GX_PROJECTION_H */
