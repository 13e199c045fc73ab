/*
 * compile.cpp - compiles WHERE quals into a gx opcode program.
 *
 * Design note
 * -----------
 * Each qual compiles to a tree walk that emits register-machine code:
 * registers are allocated like a stack (a subexpression's temporaries are
 * freed once its result is consumed), so long IN lists reuse the same few
 * registers.  Operators are recognised by the OID of their implementing
 * function (fmgroids.h), which pins down the exact semantics: int24pl
 * adds in int4 with int4 overflow rules, float48lt compares as float8,
 * and so on.  Mixed-type operators cast the narrower side first (these
 * widening casts never fail).  AND/OR/= ANY compile to accumulator steps
 * with jumps, giving PostgreSQL's three-valued logic and short-circuit.
 * Params get a slot in the constant table, filled at scan start/rescan.
 *
 * Cross-type comparisons among date, timestamp and timestamptz follow
 * PostgreSQL's date.c / timestamp.c exactly.  date vs timestamp does not
 * depend on the session: GX_OP_CMPDT compares per row as
 * date_cmp_timestamp_internal does (infinities, dates past the last
 * timestamp).  Anything with timestamptz depends on the session's
 * TimeZone, which the device does not know: when one side is a Const or a
 * Param, the comparison becomes GX_OP_INRANGES over a run of bounds in the
 * other side's own type, computed at scan start with PostgreSQL's own
 * comparison functions (runs.cpp), so that "v op K" is exactly "v lies in
 * these ranges"; with no Const or Param side it stays on the host.
 *
 * x = ANY (array) and x <> ALL (array) over a Const array or an array
 * Param become a binary search (and NOT) of the sorted distinct elements,
 * with ScalarArrayOpExpr's NULL rules:
 *  - GX_OP_INSET, a Const array that fits the constant table: its run is
 *    sorted here and lives in the table, which every device stages with
 *    the program (in shared memory on the GPU: a lookup costs a few
 *    shared-memory reads);
 *  - GX_OP_INBIGSET, a big set (issue 16): a longer Const array, or any
 *    array Param, of any size.  Only a three-entry header is in the table
 *    (gx_program.h, "Big sets"); the set is built at scan start like a
 *    Param's value (gx_program_fill: sorted, distinct int64 device values,
 *    GxProgram.big), and the scan puts all its program's sets in one
 *    session object that each of its FILTER / CACHE_SCAN tasks names as
 *    obj[GX_TASK_OBJ_SETS] (scan_sets.cpp: OBJ_WRITE tasks, then the
 *    offsets in the headers).  At most GX_MAX_BIGSETS a program; more
 *    stay on the host.  Only GpuScan (gpuscan.cpp, every mode) fills big
 *    sets; a GpuJoin's programs take no Param, so never have one.  The
 *    cost counts log2(n) instructions per lookup (gx_program_work).
 *  - x IN (SELECT ...) and NOT IN (an uncorrelated ANY SubPlan, hashed or
 *    not, that PostgreSQL left as a filter: NOT IN always, for its NULL
 *    semantics) compile as x = ANY (ARRAY(SELECT ...)): the same
 *    subquery plan as an ARRAY SubPlan, evaluated at scan start like a
 *    Param (gx_subplan_as_any), its rows the big set.  = ANY's NULL rules
 *    are IN's: a NULL in the set makes a miss NULL, so NOT IN filters it;
 *    an empty set makes every row, a NULL x too, not IN it.
 *
 * numeric columns with a typmod of precision <= 18 are GX_NUMERIC: int64
 * fixed-point values at the column's scale.  The compiler tracks the scale
 * of every numeric register (GxCx.scale): a column's, a Const's own
 * dscale, the scale chosen for a Param (the other operand's, filled at
 * scan start, GX_DYN_NUMERIC: a value that is not exact at that scale runs
 * the scan's device quals on the host, may_fallback), 0 for an integer
 * cast to numeric; + - give the larger scale and * the sum, as
 * numeric_add / numeric_mul do, and instructions carry the shift between
 * their operands' scales (gx_program.h).  A numeric result beyond int64
 * is no error: the device selects the row for the host to evaluate
 * (GX_ERR_HOST), so a program that may do so (may_host) is only used
 * where the scan returns rows, which it rechecks (gpuscan.cpp).
 *
 * bpchar(n) columns whose every value has at most 8 bytes (n times the
 * encoding's longest character, gx_type_supported_mod) are GX_CHAR8: the
 * bytes without trailing spaces packed into an int64, so that = and <>
 * (bpchareq / bpcharne) and = ANY / <> ALL are int64 comparisons exactly
 * when the collation is deterministic (the Var's and the operator's, else
 * the host).  A bpchar Const longer than 8 bytes stays on the host; a
 * Param is packed at scan start (GX_DYN_CHAR8; too long: the scan runs its
 * device quals on the host, may_fallback).  Order comparisons depend on
 * the collation and stay on the host.
 *
 * extract(field from date / timestamp) (numeric), date_part (float8),
 * date_trunc(field, timestamp) and the cast date -> timestamp compile to
 * GX_OP_EXTRACT / DATETRUNC / DATE2TS when the field is a Const the device
 * computes (parsed as PostgreSQL parses it: DecodeUnits, DecodeSpecial);
 * the result scale of extract is PostgreSQL's (6 for a timestamp's second
 * and epoch, else 0).  Infinite inputs and what PostgreSQL raises for are
 * host rows (may_host).  timestamptz depends on the TimeZone: host only.
 *
 * gx_program_add_qual() returns false (and leaves the program unchanged)
 * for anything it does not support; the planner then keeps that qual as a
 * host qual.  The compiler never ereports for unsupported input.
 */
#include "gpuext.h"
#include "compiler.h"

extern "C"
{
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "parser/scansup.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
}
#include <math.h>

/* ---------- operator tables ---------- */
typedef struct GxOpEntry
{
	Oid			funcid;
	int			op;				/* enum gx_op */
	int			type;			/* compute type */
} GxOpEntry;

#define CMP6(P, T) \
	{F_##P##EQ, GX_OP_EQ, T}, {F_##P##NE, GX_OP_NE, T}, {F_##P##LT, GX_OP_LT, T}, \
	{F_##P##LE, GX_OP_LE, T}, {F_##P##GT, GX_OP_GT, T}, {F_##P##GE, GX_OP_GE, T}
#define CMP6U(P, T) \
	{F_##P##_EQ, GX_OP_EQ, T}, {F_##P##_NE, GX_OP_NE, T}, {F_##P##_LT, GX_OP_LT, T}, \
	{F_##P##_LE, GX_OP_LE, T}, {F_##P##_GT, GX_OP_GT, T}, {F_##P##_GE, GX_OP_GE, T}
#define ARITH4(P, T) \
	{F_##P##PL, GX_OP_ADD, T}, {F_##P##MI, GX_OP_SUB, T}, \
	{F_##P##MUL, GX_OP_MUL, T}, {F_##P##DIV, GX_OP_DIV, T}

static const GxOpEntry gx_binops[] = {
	CMP6(INT2, GX_INT2), CMP6(INT4, GX_INT4), CMP6(INT8, GX_INT8),
	CMP6(INT24, GX_INT4), CMP6(INT42, GX_INT4), CMP6(INT28, GX_INT8),
	CMP6(INT82, GX_INT8), CMP6(INT48, GX_INT8), CMP6(INT84, GX_INT8),
	CMP6(FLOAT4, GX_FLOAT4), CMP6(FLOAT8, GX_FLOAT8),
	CMP6(FLOAT48, GX_FLOAT8), CMP6(FLOAT84, GX_FLOAT8),
	CMP6(BOOL, GX_BOOL),
	CMP6U(DATE, GX_INT4), CMP6U(TIMESTAMP, GX_INT8), CMP6U(TIMESTAMPTZ, GX_INT8),
	ARITH4(INT2, GX_INT2), ARITH4(INT4, GX_INT4), ARITH4(INT8, GX_INT8),
	ARITH4(INT24, GX_INT4), ARITH4(INT42, GX_INT4), ARITH4(INT28, GX_INT8),
	ARITH4(INT82, GX_INT8), ARITH4(INT48, GX_INT8), ARITH4(INT84, GX_INT8),
	ARITH4(FLOAT4, GX_FLOAT4), ARITH4(FLOAT8, GX_FLOAT8),
	ARITH4(FLOAT48, GX_FLOAT8), ARITH4(FLOAT84, GX_FLOAT8),
	{F_INT2MOD, GX_OP_MOD, GX_INT2}, {F_INT4MOD, GX_OP_MOD, GX_INT4},
	{F_INT8MOD, GX_OP_MOD, GX_INT8},
};

/* numeric operators (both operands numeric: the parser casts integers) */
static const GxOpEntry gx_numops[] = {
	CMP6(NUMERIC_, GX_NUMERIC),
	{F_NUMERIC_ADD, GX_OP_ADD, GX_NUMERIC}, {F_NUMERIC_SUB, GX_OP_SUB, GX_NUMERIC},
	{F_NUMERIC_MUL, GX_OP_MUL, GX_NUMERIC},
};

static const GxOpEntry gx_unops[] = {
	{F_INT2UM, GX_OP_NEG, GX_INT2}, {F_INT4UM, GX_OP_NEG, GX_INT4},
	{F_INT8UM, GX_OP_NEG, GX_INT8}, {F_FLOAT4UM, GX_OP_NEG, GX_FLOAT4},
	{F_FLOAT8UM, GX_OP_NEG, GX_FLOAT8},
};

typedef struct GxCastEntry
{
	Oid			funcid;
	int			from;
	int			to;
} GxCastEntry;

static const GxCastEntry gx_casts[] = {
	{F_INT4_INT2, GX_INT2, GX_INT4}, {F_INT2_INT4, GX_INT4, GX_INT2},
	{F_INT8_INT4, GX_INT4, GX_INT8}, {F_INT4_INT8, GX_INT8, GX_INT4},
	{F_INT8_INT2, GX_INT2, GX_INT8}, {F_INT2_INT8, GX_INT8, GX_INT2},
	{F_FLOAT8_INT4, GX_INT4, GX_FLOAT8}, {F_FLOAT8_INT2, GX_INT2, GX_FLOAT8},
	{F_FLOAT8_INT8, GX_INT8, GX_FLOAT8}, {F_FLOAT4_INT4, GX_INT4, GX_FLOAT4},
	{F_FLOAT4_INT2, GX_INT2, GX_FLOAT4}, {F_FLOAT4_INT8, GX_INT8, GX_FLOAT4},
	{F_INT4_FLOAT8, GX_FLOAT8, GX_INT4}, {F_INT2_FLOAT8, GX_FLOAT8, GX_INT2},
	{F_INT8_FLOAT8, GX_FLOAT8, GX_INT8}, {F_INT4_FLOAT4, GX_FLOAT4, GX_INT4},
	{F_INT2_FLOAT4, GX_FLOAT4, GX_INT2}, {F_INT8_FLOAT4, GX_FLOAT4, GX_INT8},
	{F_FLOAT8_FLOAT4, GX_FLOAT4, GX_FLOAT8}, {F_FLOAT4_FLOAT8, GX_FLOAT8, GX_FLOAT4},
};

/* cross-type comparisons among date, timestamp and timestamptz */
typedef struct GxXCmpEntry
{
	Oid			funcid;
	int			op;				/* GX_OP_EQ .. GX_OP_GE */
	Oid			ltype;
	Oid			rtype;
} GxXCmpEntry;

#define XCMP6(L, R) \
	{F_##L##_EQ_##R, GX_OP_EQ, L##OID, R##OID}, {F_##L##_NE_##R, GX_OP_NE, L##OID, R##OID}, \
	{F_##L##_LT_##R, GX_OP_LT, L##OID, R##OID}, {F_##L##_LE_##R, GX_OP_LE, L##OID, R##OID}, \
	{F_##L##_GT_##R, GX_OP_GT, L##OID, R##OID}, {F_##L##_GE_##R, GX_OP_GE, L##OID, R##OID}

static const GxXCmpEntry gx_xcmps[] = {
	XCMP6(DATE, TIMESTAMP), XCMP6(TIMESTAMP, DATE),
	XCMP6(DATE, TIMESTAMPTZ), XCMP6(TIMESTAMPTZ, DATE),
	XCMP6(TIMESTAMP, TIMESTAMPTZ), XCMP6(TIMESTAMPTZ, TIMESTAMP),
};

static const GxOpEntry *
gx_find_op(const GxOpEntry *tab, int n, Oid funcid)
{
	for (int i = 0; i < n; i++)
		if (tab[i].funcid == funcid)
			return &tab[i];
	return NULL;
}

static bool
gx_is_int(int t)
{
	return t == GX_BOOL || t == GX_INT2 || t == GX_INT4 || t == GX_INT8;
}

/* ---------- emission helpers ---------- */
typedef struct GxCx
{
	GxProgram  *p;
	Index		relid;
	bool		may_error;
	bool		may_host;		/* a numeric result may need the host */
	int			param_scale;	/* scale of a numeric Param compiled next, or -1 */
	int			scale[GX_MAX_REGS];	/* scale of each numeric register */
} GxCx;

/* the scale a numeric Param gets with no other operand to follow */
#define GX_PARAM_NUMERIC_SCALE 6

static int
gx_new_reg(GxCx *cx)
{
	GxProgram  *p = cx->p;

	if (p->inuse >= GX_MAX_REGS)
		return -1;
	p->nregs = Max(p->nregs, p->inuse + 1);
	return p->inuse++;
}

static int
gx_emit(GxCx *cx, int op, int type, int dst, int a, int b, int arg)
{
	GxProgram  *p = cx->p;
	gx_instr   *in;

	if (p->ninstr >= GX_MAX_INSTR || dst < 0 || a < 0 || b < 0)
		return -1;
	in = &p->code[p->ninstr];
	memset(in, 0, sizeof(*in));
	in->op = (uint8_t) op;
	in->type = (uint8_t) type;
	in->dst = (uint8_t) dst;
	in->a = (uint8_t) a;
	in->b = (uint8_t) b;
	in->arg = arg;
	return p->ninstr++;
}

/* add a constant (value already in 'type' representation) */
static int
gx_add_const(GxCx *cx, int type, bool isnull, int64 ival, double dval)
{
	GxProgram  *p = cx->p;
	gx_const   *c;

	if (p->nconsts >= GX_MAX_CONSTS)
		return -1;
	c = &p->consts[p->nconsts];
	memset(c, 0, sizeof(*c));
	c->type = type;
	c->isnull = isnull;
	if (gx_is_int(type) || type == GX_NUMERIC || type == GX_CHAR8)
		c->v.i = ival;
	else
		c->v.d = dval;
	return p->nconsts++;
}

/*
 * Reserve a run of cap values (GX_OP_INSET / INRANGES) in the constant
 * table: the header says NULL and no value until it is filled.  Returns
 * its index, or -1 when the table has no room.
 */
static int
gx_add_run(GxCx *cx, int type, int cap)
{
	GxProgram  *p = cx->p;
	int			k = p->nconsts;

	if (cap < 0 || GX_MAX_CONSTS - p->nconsts < GX_RUN_HEADER + cap)
		return -1;
	memset(&p->consts[k], 0, sizeof(gx_const) * (GX_RUN_HEADER + cap));
	for (int i = 0; i < GX_RUN_HEADER + cap; i++)
		p->consts[k + i].type = i < GX_RUN_HEADER ? GX_INT8 : type;
	p->consts[k].isnull = 1;
	p->nconsts += GX_RUN_HEADER + cap;
	return k;
}

/* a Param or Const whose value fills constant k at scan start, as kind */
static void
gx_add_dyn(GxCx *cx, Node *expr, int k, int kind)
{
	GxProgram  *p = cx->p;

	p->params = lappend(p->params, expr);
	p->param_idx = lappend_int(p->param_idx, k);
	p->param_kind = lappend_int(p->param_kind, kind);
}

/* is node a value known at scan start: a Const, or a Param the scan evaluates? */
static bool
gx_is_scan_value(Node *node)
{
	if (IsA(node, Const))
		return true;
	return IsA(node, Param) &&
		(((Param *) node)->paramkind == PARAM_EXTERN ||
		 ((Param *) node)->paramkind == PARAM_EXEC);
}

/*
 * is node a set known at scan start: a Const or Param array, or an
 * uncorrelated ARRAY SubPlan (gx_subplan_as_any), which the scan
 * evaluates once?
 */
static bool
gx_is_set_value(Node *node)
{
	SubPlan    *sp = (SubPlan *) node;

	if (gx_is_scan_value(node))
		return true;
	return IsA(node, SubPlan) && sp->subLinkType == ARRAY_SUBLINK && sp->parParam == NIL &&
		sp->args == NIL && sp->setParam == NIL;
}

/* the comparison op with its operands swapped (a < b is b > a) */
static int
gx_flip_cmp(int op)
{
	switch (op)
	{
		case GX_OP_LT:
			return GX_OP_GT;
		case GX_OP_LE:
			return GX_OP_GE;
		case GX_OP_GT:
			return GX_OP_LT;
		case GX_OP_GE:
			return GX_OP_LE;
		default:
			return op;
	}
}

/* convert a constant value between types along a widening cast */
static void
gx_widen_value(int from, int to, int64 *ival, double *dval)
{
	if (gx_is_int(from) && !gx_is_int(to))
		*dval = (to == GX_FLOAT4) ? (double) (float) *ival : (double) *ival;
}

static int	gx_cx_expr(GxCx *cx, Node *node, int *type);
/* x = ANY (constant array) of at most this many elements: a chain of compares */
#define GX_SET_CHAIN_MAX 8

static int	gx_cx_numset(GxCx *cx, ScalarArrayOpExpr *sa, int *type);
static int	gx_cx_char8set(GxCx *cx, ScalarArrayOpExpr *sa, int *type);

/* cast register r from 'from' to 'to' in place (no-op when equal) */
static int
gx_cx_cast(GxCx *cx, int r, int from, int to)
{
	if (r < 0 || from == to)
		return r;
	/* int -> int of the same class needs no code when widening */
	if (gx_is_int(from) && gx_is_int(to) && to > from)
		return r;
	if (!(gx_is_int(from) && gx_is_int(to) && to > from) &&
		!(gx_is_int(from) && !gx_is_int(to)) &&
		!(from == GX_FLOAT4 && to == GX_FLOAT8))
		cx->may_error = true;
	if (gx_emit(cx, GX_OP_CAST, to, r, r, r, from) < 0)
		return -1;
	return r;
}

/*
 * Integer / and % by a constant can fail only for 0 (division by zero)
 * and, for /, -1 (overflow of the minimum value; % by -1 gives 0).
 */
static bool
gx_int_divisor_safe(const GxOpEntry *e, Node *r)
{
	Const	   *c;
	int64		v;

	if ((e->op != GX_OP_DIV && e->op != GX_OP_MOD) || !gx_is_int(e->type) ||
		!IsA(r, Const) || ((Const *) r)->constisnull)
		return false;
	c = (Const *) r;
	switch (c->consttype)
	{
		case INT2OID:
			v = DatumGetInt16(c->constvalue);
			break;
		case INT4OID:
			v = DatumGetInt32(c->constvalue);
			break;
		case INT8OID:
			v = DatumGetInt64(c->constvalue);
			break;
		default:
			return false;
	}
	return v != 0 && (e->op == GX_OP_MOD || v != -1);
}

/* binary operator on two expressions, computed as 'ctype' */
static int
gx_cx_binop(GxCx *cx, const GxOpEntry *e, Node *l, Node *r, int *type)
{
	int			lt,
				rt;
	int			ra = gx_cx_expr(cx, l, &lt);
	int			rb;

	if (ra < 0)
		return -1;
	ra = gx_cx_cast(cx, ra, lt, e->type);
	rb = gx_cx_expr(cx, r, &rt);
	if (ra < 0 || rb < 0)
		return -1;
	rb = gx_cx_cast(cx, rb, rt, e->type);
	if (rb < 0)
		return -1;
	if (e->op >= GX_OP_ADD && e->op <= GX_OP_MOD)
	{
		if (!gx_int_divisor_safe(e, r))
			cx->may_error = true;
		*type = e->type;
	}
	else
		*type = GX_BOOL;
	if (gx_emit(cx, e->op, e->type, ra, ra, rb, 0) < 0)
		return -1;
	cx->p->inuse = ra + 1;
	return ra;
}

/*
 * A comparison among date, timestamp and timestamptz (x: its entry):
 * GX_OP_CMPDT per row for date vs timestamp; against a Const or Param with
 * timestamptz on either side, GX_OP_INRANGES over bounds in the other
 * side's type, computed at scan start (GX_DYN_BOUND).
 */
static int
gx_cx_xcmp(GxCx *cx, const GxXCmpEntry *x, Node *l, Node *r, int *type)
{
	Node	   *vnode,
			   *knode;
	Oid			vtype;
	int			op,
				vt,
				rv,
				k,
				dom;

	*type = GX_BOOL;
	if (x->ltype != TIMESTAMPTZOID && x->rtype != TIMESTAMPTZOID)
	{
		/* date vs timestamp: per row, the date first */
		bool		date_left = x->ltype == DATEOID;
		int			dt,
					tt;
		int			ra = gx_cx_expr(cx, date_left ? l : r, &dt);
		int			rb = ra < 0 ? -1 : gx_cx_expr(cx, date_left ? r : l, &tt);

		if (ra < 0 || rb < 0 || dt != GX_INT4 || tt != GX_INT8 ||
			gx_emit(cx, GX_OP_CMPDT, GX_INT8, ra, ra, rb,
					date_left ? x->op : gx_flip_cmp(x->op)) < 0)
			return -1;
		cx->p->inuse = ra + 1;
		return ra;
	}
	/* v op K with K known at scan start */
	if (gx_is_scan_value(r))
	{
		vnode = l;
		knode = r;
		vtype = x->ltype;
		op = x->op;
	}
	else if (gx_is_scan_value(l))
	{
		vnode = r;
		knode = l;
		vtype = x->rtype;
		op = gx_flip_cmp(x->op);
	}
	else
		return -1;				/* the time zone per row: host */
	dom = vtype == DATEOID ? GX_DOM_DATE :
		vtype == TIMESTAMPOID ? GX_DOM_TIMESTAMP : GX_DOM_TIMESTAMPTZ;
	rv = gx_cx_expr(cx, vnode, &vt);
	if (rv < 0 || vt != (dom == GX_DOM_DATE ? GX_INT4 : GX_INT8))
		return -1;
	k = gx_add_run(cx, GX_INT8, GX_BOUNDS_CAP);
	if (k < 0 || gx_emit(cx, GX_OP_INRANGES, GX_INT8, rv, rv, rv, k) < 0)
		return -1;
	gx_add_dyn(cx, knode, k, GX_DYN_BOUND | op << 8 | dom << 16);
	/* timestamp vs timestamptz is exact only away from odd time zone rules */
	if (dom == GX_DOM_TIMESTAMP)
		cx->p->may_fallback = true;
	cx->p->inuse = rv + 1;
	return rv;
}

/* elements of an array Datum */
static int
gx_array_nitems(Datum d)
{
	ArrayType  *arr = DatumGetArrayTypeP(d);

	return ArrayGetNItems(ARR_NDIM(arr), ARR_DIMS(arr));
}

/*
 * Reserve the header of a big set (GX_OP_INBIGSET) whose values come from
 * expr, a Const array too long for the constant table or an array Param,
 * filled at scan start (gx_program_fill, dyn | GX_DYN_BIG and its index):
 * the header says NULL until then, and its count is the Const's elements
 * (for EXPLAIN and costs; -1 for a Param, -2 for an ARRAY SubPlan).  Returns its index, or -1 when
 * the program has GX_MAX_BIGSETS already or the table no room.
 */
static int
gx_add_bigset(GxCx *cx, Node *expr, int64 dyn)
{
	ListCell   *lc;
	int			idx = 0,
				k;

	foreach(lc, cx->p->param_kind)
		if (lfirst_int(lc) & GX_DYN_BIG)
			idx++;
	if (idx >= GX_MAX_BIGSETS)
		return -1;
	k = gx_add_run(cx, GX_INT8, GX_BIGSET_HEADER - GX_RUN_HEADER);
	if (k < 0)
		return -1;
	cx->p->consts[k].v.i = IsA(expr, Const) ?
		gx_array_nitems(((Const *) expr)->constvalue) : IsA(expr, SubPlan) ? -2 : -1;
	gx_add_dyn(cx, expr, k, dyn | GX_DYN_BIG | idx << 16);
	return k;
}

/*
 * x = ANY (right) / x <> ALL (right), x in register rx compared as ctype:
 * GX_OP_INSET over the set run of a Const array that fits the constant
 * table, built now (gx_set_run_build), else GX_OP_INBIGSET over a big set
 * (a longer Const array, or an array Param) filled at scan start (dyn:
 * its GX_DYN_*SET kind and AUX1); then NOT for <> ALL.  elemtype: a Const
 * array's element type.
 */
static int
gx_cx_set_test(GxCx *cx, ScalarArrayOpExpr *sa, int rx, int ctype, int64 dyn, Oid elemtype)
{
	Node	   *right = (Node *) lsecond(sa->args);
	int			room = GX_MAX_CONSTS - cx->p->nconsts - GX_RUN_HEADER;
	int			op = GX_OP_INSET;
	int			k;

	if (IsA(right, Const) &&
		(((Const *) right)->constisnull ||
		 gx_array_nitems(((Const *) right)->constvalue) <= room))
	{
		Const	   *c = (Const *) right;
		gx_const	vals[GX_MAX_CONSTS];
		int64		flags = 0;
		int			n = 0;

		if (room < 0)
			return -1;
		if (!c->constisnull)
		{
			n = gx_set_run_build(dyn, c->constvalue, elemtype, vals, room, &flags);
			if (n < 0)
				return -1;		/* no device type: host */
		}
		k = gx_add_run(cx, ctype, n);
		if (k < 0)
			return -1;
		cx->p->consts[k].isnull = c->constisnull;
		cx->p->consts[k].v.i = n;
		cx->p->consts[k + 1].v.i = flags;
		memcpy(&cx->p->consts[k + GX_RUN_HEADER], vals, sizeof(gx_const) * n);
	}
	else
	{
		k = gx_add_bigset(cx, right, dyn);
		if (k < 0)
			return -1;
		op = GX_OP_INBIGSET;
	}
	if (gx_emit(cx, op, ctype, rx, rx, rx, k) < 0 ||
		(!sa->useOr && gx_emit(cx, GX_OP_NOT, GX_BOOL, rx, rx, rx, 0) < 0))
		return -1;
	cx->p->inuse = rx + 1;
	return rx;
}

/*
 * x = ANY (array) / x <> ALL (array) over a Const array or an array Param:
 * GX_OP_INSET over the sorted distinct elements (then NOT for <> ALL).
 * e: the element comparison (= or <>), elemtype its array's element type.
 */
static int
gx_cx_inset(GxCx *cx, ScalarArrayOpExpr *sa, const GxOpEntry *e, Oid elemtype, int *type)
{
	Node	   *left = (Node *) linitial(sa->args);
	int			lt,
				rx;

	*type = GX_BOOL;
	rx = gx_cx_expr(cx, left, &lt);
	rx = gx_cx_cast(cx, rx, lt, e->type);
	if (rx < 0)
		return -1;
	return gx_cx_set_test(cx, sa, rx, e->type, GX_DYN_SET | e->type << 8, elemtype);
}

/*
 * x IN (SELECT y ...) left as a filter (an ANY SubPlan, as NOT IN's is):
 * x = ANY (ARRAY(SELECT y ...)), the same subquery plan as an ARRAY
 * SubPlan that the scan evaluates at scan start; NULL (the host's) when
 * the SubPlan is correlated, has more than one column, or its test is not
 * x op Param
 */
static ScalarArrayOpExpr *
gx_subplan_as_any(SubPlan *sp)
{
	OpExpr	   *op = (OpExpr *) sp->testexpr;
	Param	   *pr;
	SubPlan    *arr;
	ScalarArrayOpExpr *sa;

	if (sp->subLinkType != ANY_SUBLINK || sp->parParam != NIL || sp->args != NIL ||
		sp->setParam != NIL || list_length(sp->paramIds) != 1 || op == NULL ||
		!IsA(op, OpExpr) || list_length(op->args) != 2)
		return NULL;
	pr = (Param *) lsecond(op->args);
	if (!IsA(pr, Param) || pr->paramkind != PARAM_EXEC ||
		pr->paramid != linitial_int(sp->paramIds) ||
		!OidIsValid(get_array_type(sp->firstColType)) ||
		exprType((Node *) pr) != sp->firstColType)
		return NULL;
	arr = (SubPlan *) copyObjectImpl(sp);
	arr->subLinkType = ARRAY_SUBLINK;
	arr->testexpr = NULL;
	arr->paramIds = NIL;
	arr->useHashTable = false;
	arr->unknownEqFalse = false;
	sa = makeNode(ScalarArrayOpExpr);
	sa->opno = op->opno;
	sa->opfuncid = op->opfuncid;
	sa->useOr = true;
	sa->inputcollid = op->inputcollid;
	sa->args = list_make2(linitial(op->args), arr);
	sa->location = -1;
	return sa;
}

/* x op ANY/ALL (array): an OR/AND chain over the elements */
static int
gx_cx_saop(GxCx *cx, ScalarArrayOpExpr *sa, int *type)
{
	const GxOpEntry *e;
	Node	   *left = (Node *) linitial(sa->args);
	Node	   *right = (Node *) lsecond(sa->args);
	int			acc,
				rx,
				lt,
				mark;
	List	   *jumps = NIL;
	ListCell   *lc;
	Oid			elemtype;
	int			et;

	set_sa_opfuncid(sa);
	if ((sa->opfuncid == F_NUMERIC_EQ && sa->useOr) ||
		(sa->opfuncid == F_NUMERIC_NE && !sa->useOr))
		return gx_is_set_value(right) ? gx_cx_numset(cx, sa, type) : -1;
	if ((sa->opfuncid == F_BPCHAREQ && sa->useOr) ||
		(sa->opfuncid == F_BPCHARNE && !sa->useOr))
		return gx_is_set_value(right) ? gx_cx_char8set(cx, sa, type) : -1;
	e = gx_find_op(gx_binops, lengthof(gx_binops), sa->opfuncid);
	if (e == NULL || e->op < GX_OP_EQ || e->op > GX_OP_GE)
		return -1;
	elemtype = get_element_type(exprType(right));
	if (!OidIsValid(elemtype) || !gx_type_supported(elemtype, &et))
		return -1;
	/*
	 * = ANY / <> ALL over a Param or a Const of more than GX_SET_CHAIN_MAX
	 * elements: a set lookup (a few: the chain below, compares the compiled
	 * kernel inlines; with the lookup, a loop, bench/queries/q5's x IN (5
	 * values) ran 19% slower than with the chain, cached, H100)
	 */
	if (((e->op == GX_OP_EQ && sa->useOr) || (e->op == GX_OP_NE && !sa->useOr)) &&
		gx_is_set_value(right) &&
		!(IsA(right, Const) && !((Const *) right)->constisnull &&
		  gx_array_nitems(((Const *) right)->constvalue) <= GX_SET_CHAIN_MAX))
		return gx_cx_inset(cx, sa, e, elemtype, type);
	if (!IsA(right, Const) && !IsA(right, ArrayExpr))
		return -1;
	*type = GX_BOOL;
	acc = gx_new_reg(cx);
	if (acc < 0)
		return -1;
	if (IsA(right, Const) && ((Const *) right)->constisnull)
	{
		int			k = gx_add_const(cx, GX_BOOL, true, 0, 0);

		return gx_emit(cx, GX_OP_LDCONST, GX_BOOL, acc, 0, 0, k) < 0 || k < 0 ? -1 : acc;
	}
	if (gx_emit(cx, GX_OP_SETBOOL, GX_BOOL, acc, 0, 0, sa->useOr ? 0 : 1) < 0)
		return -1;
	rx = gx_cx_expr(cx, left, &lt);
	rx = gx_cx_cast(cx, rx, lt, e->type);
	if (rx < 0)
		return -1;
	mark = cx->p->inuse;

	if (IsA(right, Const))
	{
		ArrayType  *arr = DatumGetArrayTypeP(((Const *) right)->constvalue);
		int16		elmlen;
		bool		elmbyval;
		char		elmalign;
		Datum	   *values;
		bool	   *nulls;
		int			n;

		get_typlenbyvalalign(elemtype, &elmlen, &elmbyval, &elmalign);
		deconstruct_array(arr, elemtype, elmlen, elmbyval, elmalign, &values, &nulls, &n);
		if (n > GX_MAX_CONSTS / 2)
			return -1;
		for (int i = 0; i < n; i++)
		{
			int64		iv;
			double		dv;
			int			k,
						re;

			gx_datum_value(values[i], elemtype, &iv, &dv);
			gx_widen_value(et, e->type, &iv, &dv);
			k = gx_add_const(cx, e->type, nulls[i], iv, dv);
			re = gx_new_reg(cx);
			if (k < 0 || re < 0 ||
				gx_emit(cx, GX_OP_LDCONST, e->type, re, 0, 0, k) < 0 ||
				gx_emit(cx, e->op, e->type, re, rx, re, 0) < 0)
				return -1;
			int			j = gx_emit(cx, sa->useOr ? GX_OP_ORSTEP : GX_OP_ANDSTEP, GX_BOOL, acc, re, 0, 0);

			if (j < 0)
				return -1;
			jumps = lappend_int(jumps, j);
			cx->p->inuse = mark;
		}
	}
	else
	{
		foreach(lc, ((ArrayExpr *) right)->elements)
		{
			int			rt;
			int			re = gx_cx_expr(cx, (Node *) lfirst(lc), &rt);

			re = gx_cx_cast(cx, re, rt, e->type);
			if (re < 0 || gx_emit(cx, e->op, e->type, re, rx, re, 0) < 0)
				return -1;
			int			j = gx_emit(cx, sa->useOr ? GX_OP_ORSTEP : GX_OP_ANDSTEP, GX_BOOL, acc, re, 0, 0);

			if (j < 0)
				return -1;
			jumps = lappend_int(jumps, j);
			cx->p->inuse = mark;
		}
	}
	foreach(lc, jumps)
		cx->p->code[lfirst_int(lc)].jump = (int16_t) cx->p->ninstr;
	cx->p->inuse = acc + 1;
	return acc;
}

/*
 * numeric binary operator e (comparison, + - *) on two numeric
 * expressions: the instruction carries the shift between their scales.
 * A Param operand takes the other operand's scale (compiled first).
 */
static int
gx_cx_numop(GxCx *cx, const GxOpEntry *e, Node *l, Node *r, int *type)
{
	bool		swap = IsA(l, Param) && !IsA(r, Param);
	int			lt,
				rt,
				ra,
				rb,
				sa,
				sb,
				dst;

	if (swap)
	{
		rb = gx_cx_expr(cx, r, &rt);
		cx->param_scale = rb >= 0 && rt == GX_NUMERIC ? cx->scale[rb] : -1;
		ra = rb < 0 ? -1 : gx_cx_expr(cx, l, &lt);
	}
	else
	{
		ra = gx_cx_expr(cx, l, &lt);
		cx->param_scale = ra >= 0 && lt == GX_NUMERIC ? cx->scale[ra] : -1;
		rb = ra < 0 ? -1 : gx_cx_expr(cx, r, &rt);
	}
	cx->param_scale = -1;
	if (ra < 0 || rb < 0 || lt != GX_NUMERIC || rt != GX_NUMERIC)
		return -1;
	sa = cx->scale[ra];
	sb = cx->scale[rb];
	dst = Min(ra, rb);
	if (e->op == GX_OP_MUL)
	{
		if (sa + sb > GX_NUMERIC_MAX_SCALE)
			return -1;
		if (gx_emit(cx, GX_OP_MUL, GX_NUMERIC, dst, ra, rb, 0) < 0)
			return -1;
		cx->scale[dst] = sa + sb;
		cx->may_host = true;
		*type = GX_NUMERIC;
	}
	else
	{
		if (sa - sb > GX_NUMERIC_MAX_SCALE || sb - sa > GX_NUMERIC_MAX_SCALE ||
			gx_emit(cx, e->op, GX_NUMERIC, dst, ra, rb, sa - sb) < 0)
			return -1;
		if (e->op == GX_OP_ADD || e->op == GX_OP_SUB)
		{
			cx->scale[dst] = Max(sa, sb);
			cx->may_host = true;
			*type = GX_NUMERIC;
		}
		else
			*type = GX_BOOL;
	}
	cx->p->inuse = dst + 1;
	return dst;
}

/*
 * numeric x = ANY (array) / x <> ALL (array) over a Const array or an
 * array Param: GX_OP_INSET over the elements at x's scale
 * (gx_numeric_set_build: an element that has no value at that scale
 * equals no x and is left out).  A Param's run is filled at scan start
 * (GX_DYN_NUMSET; more distinct elements than reserved: the scan runs its
 * device quals on the host).
 */
static int
gx_cx_numset(GxCx *cx, ScalarArrayOpExpr *sa, int *type)
{
	Node	   *left = (Node *) linitial(sa->args);
	int			lt,
				rx,
				sc;

	*type = GX_BOOL;
	rx = gx_cx_expr(cx, left, &lt);
	if (rx < 0 || lt != GX_NUMERIC)
		return -1;
	sc = cx->scale[rx];
	return gx_cx_set_test(cx, sa, rx, GX_NUMERIC, GX_DYN_NUMSET | sc << 8, NUMERICOID);
}

/*
 * bpchar = / <> (bpchareq, bpcharne) of two GX_CHAR8 operands under
 * collation collid: int64 EQ / NE when the collation is deterministic
 */
static int
gx_cx_char8op(GxCx *cx, Oid funcid, Oid collid, Node *l, Node *r, int *type)
{
	int			lt,
				rt,
				ra,
				rb;

	if (!gx_collation_exact(collid))
		return -1;
	ra = gx_cx_expr(cx, l, &lt);
	rb = ra < 0 ? -1 : gx_cx_expr(cx, r, &rt);
	if (ra < 0 || rb < 0 || lt != GX_CHAR8 || rt != GX_CHAR8)
		return -1;
	*type = GX_BOOL;
	if (gx_emit(cx, funcid == F_BPCHAREQ ? GX_OP_EQ : GX_OP_NE, GX_CHAR8, Min(ra, rb), ra, rb,
				0) < 0)
		return -1;
	cx->p->inuse = Min(ra, rb) + 1;
	return Min(ra, rb);
}

/*
 * bpchar x = ANY (array) / x <> ALL (array) over a Const array or an array
 * Param, x a GX_CHAR8 value under a deterministic collation: GX_OP_INSET
 * over the packed elements (gx_char8_set_build: one longer than 8 bytes
 * equals no x and is left out).  A Param's run is filled at scan start
 * (GX_DYN_CHAR8SET; more distinct elements than reserved: the host).
 */
static int
gx_cx_char8set(GxCx *cx, ScalarArrayOpExpr *sa, int *type)
{
	Node	   *left = (Node *) linitial(sa->args);
	int			lt,
				rx;

	*type = GX_BOOL;
	if (!gx_collation_exact(sa->inputcollid))
		return -1;
	rx = gx_cx_expr(cx, left, &lt);
	if (rx < 0 || lt != GX_CHAR8)
		return -1;
	return gx_cx_set_test(cx, sa, rx, GX_CHAR8, GX_DYN_CHAR8SET, BPCHAROID);
}

/*
 * numeric unary minus and plus, and casts of integers to numeric (scale
 * 0); -1 when funcid is none of them
 */
static int
gx_cx_numunary(GxCx *cx, Oid funcid, Node *arg, int *type)
{
	int			at,
				r,
				from;

	switch (funcid)
	{
		case F_NUMERIC_UMINUS:
		case F_NUMERIC_UPLUS:
			r = gx_cx_expr(cx, arg, &at);
			if (r < 0 || at != GX_NUMERIC)
				return -1;
			*type = GX_NUMERIC;
			if (funcid == F_NUMERIC_UPLUS)
				return r;
			cx->may_host = true;	/* -INT64_MIN */
			return gx_emit(cx, GX_OP_NEG, GX_NUMERIC, r, r, r, 0) < 0 ? -1 : r;
		case F_NUMERIC_INT2:
			from = GX_INT2;
			break;
		case F_NUMERIC_INT4:
			from = GX_INT4;
			break;
		case F_NUMERIC_INT8:
			from = GX_INT8;
			break;
		default:
			return -1;
	}
	r = gx_cx_expr(cx, arg, &at);
	if (r < 0 || at != from || gx_emit(cx, GX_OP_CAST, GX_NUMERIC, r, r, r, from) < 0)
		return -1;
	if (from == GX_INT8)
		cx->may_host = true;	/* int8's extremes are no device numeric */
	cx->scale[r] = 0;
	*type = GX_NUMERIC;
	return r;
}

/*
 * The GX_DT_* field of a units Const of extract / date_part (trunc:
 * date_trunc, which knows units only), parsed as PostgreSQL parses it
 * (downcased, DecodeUnits then DecodeSpecial); -1 for a field the device
 * does not compute
 */
static int
gx_dt_field(Node *units, bool trunc)
{
	Const	   *c = (Const *) units;
	char	   *s,
			   *low;
	int			type,
				val;

	if (!IsA(units, Const) || c->constisnull || c->consttype != TEXTOID)
		return -1;
	s = TextDatumGetCString(c->constvalue);
	low = downcase_truncate_identifier(s, strlen(s), false);
	type = DecodeUnits(0, low, &val);
	if (type == UNKNOWN_FIELD && !trunc)
		type = DecodeSpecial(0, low, &val);
	if (type == UNITS)
	{
		switch (val)
		{
			case DTK_YEAR:
				return GX_DT_YEAR;
			case DTK_QUARTER:
				return GX_DT_QUARTER;
			case DTK_MONTH:
				return GX_DT_MONTH;
			case DTK_DAY:
				return GX_DT_DAY;
			case DTK_HOUR:
				return GX_DT_HOUR;
			case DTK_MINUTE:
				return GX_DT_MINUTE;
			case DTK_SECOND:
				return GX_DT_SECOND;
			default:
				break;
		}
	}
	if ((type == UNITS || type == RESERV) && !trunc)
	{
		switch (val)
		{
			case DTK_DOW:
				return GX_DT_DOW;
			case DTK_ISODOW:
				return GX_DT_ISODOW;
			case DTK_DOY:
				return GX_DT_DOY;
			case DTK_EPOCH:
				return type == RESERV ? GX_DT_EPOCH : -1;
			default:
				break;
		}
	}
	return -1;
}

/*
 * extract(field from date / timestamp) (numeric), date_part(field,
 * timestamp / date) (float8), date_trunc(field, timestamp) and the cast
 * date -> timestamp, on the device; -1 when funcid is none of them or the
 * field or type is one the device leaves to the host (timestamptz depends
 * on the session's TimeZone)
 */
static int
gx_cx_datetime(GxCx *cx, Oid funcid, List *args, int *type)
{
	Node	   *arg = (Node *) llast(args);
	Oid			argtype = exprType(arg);
	int			f = -1,
				at,
				r;

	switch (funcid)
	{
		case F_TIMESTAMP_DATE:
			if (list_length(args) != 1 || argtype != DATEOID)
				return -1;
			r = gx_cx_expr(cx, arg, &at);
			if (r < 0 || at != GX_INT4 || gx_emit(cx, GX_OP_DATE2TS, GX_INT8, r, r, r, 0) < 0)
				return -1;
			cx->may_host = true;	/* dates past the last timestamp raise */
			*type = GX_INT8;
			return r;
		case F_EXTRACT_TEXT_DATE:
		case F_EXTRACT_TEXT_TIMESTAMP:
		case F_DATE_PART_TEXT_TIMESTAMP:
		case F_DATE_PART_TEXT_DATE:
		case F_DATE_TRUNC_TEXT_TIMESTAMP:
			break;
		default:
			return -1;
	}
	if (list_length(args) != 2 ||
		argtype != (funcid == F_EXTRACT_TEXT_DATE || funcid == F_DATE_PART_TEXT_DATE ?
					DATEOID : TIMESTAMPOID))
		return -1;
	f = gx_dt_field((Node *) linitial(args), funcid == F_DATE_TRUNC_TEXT_TIMESTAMP);
	if (f < 0 || (funcid == F_EXTRACT_TEXT_DATE && f >= GX_DT_HOUR) ||
		(funcid == F_DATE_TRUNC_TEXT_TIMESTAMP &&
		 (f == GX_DT_DOW || f == GX_DT_ISODOW || f == GX_DT_DOY || f == GX_DT_EPOCH)))
		return -1;
	r = gx_cx_expr(cx, arg, &at);
	if (r < 0 || at != (argtype == DATEOID ? GX_INT4 : GX_INT8))
		return -1;
	cx->may_host = true;		/* infinities */
	switch (funcid)
	{
		case F_DATE_TRUNC_TEXT_TIMESTAMP:
			*type = GX_INT8;
			return gx_emit(cx, GX_OP_DATETRUNC, GX_INT8, r, r, r, f) < 0 ? -1 : r;
		case F_DATE_PART_TEXT_DATE:
			/* date_part(text, date) is date_part(text, d::timestamp) */
			if (gx_emit(cx, GX_OP_DATE2TS, GX_INT8, r, r, r, 0) < 0)
				return -1;
			*type = GX_FLOAT8;
			return gx_emit(cx, GX_OP_EXTRACT, GX_FLOAT8, r, r, r, f | GX_DT_TS) < 0 ? -1 : r;
		case F_DATE_PART_TEXT_TIMESTAMP:
			*type = GX_FLOAT8;
			return gx_emit(cx, GX_OP_EXTRACT, GX_FLOAT8, r, r, r, f | GX_DT_TS) < 0 ? -1 : r;
		default:
			/* numeric: a timestamp's second and epoch at scale 6 (int64_div_fast_to_numeric) */
			*type = GX_NUMERIC;
			cx->scale[r] = funcid == F_EXTRACT_TEXT_TIMESTAMP &&
				(f == GX_DT_SECOND || f == GX_DT_EPOCH) ? 6 : 0;
			return gx_emit(cx, GX_OP_EXTRACT, GX_NUMERIC, r, r, r,
						   f | (funcid == F_EXTRACT_TEXT_TIMESTAMP ? GX_DT_TS : 0)) < 0 ? -1 : r;
	}
}

/* compile one expression; returns its register or -1 if unsupported */
static int
gx_cx_expr(GxCx *cx, Node *node, int *type)
{
	GxProgram  *p = cx->p;

	if (node == NULL)
		return -1;
	check_stack_depth();
	switch (nodeTag(node))
	{
		case T_Var:
			{
				Var		   *v = (Var *) node;
				int			t,
							sc,
							col = -1,
							r;

				if ((Index) v->varno != cx->relid || v->varlevelsup != 0 || v->varattno <= 0 ||
					!gx_type_supported_mod(v->vartype, v->vartypmod, &t, &sc) ||
					(t == GX_CHAR8 && !gx_collation_exact(v->varcollid)))
					return -1;
				for (int i = 0; i < p->ncols; i++)
					if (p->col_attno[i] == v->varattno)
						col = i;
				if (col < 0)
				{
					if (p->ncols >= GX_MAX_COLS)
						return -1;
					col = p->ncols++;
					p->col_attno[col] = v->varattno;
					p->col_type[col] = t;
					p->col_typid[col] = v->vartype;
					p->col_scale[col] = sc;
				}
				else if (p->col_type[col] != t || p->col_scale[col] != sc)
					return -1;
				r = gx_new_reg(cx);
				*type = t;
				if (r < 0)
					return -1;
				/*
				 * an unconstrained numeric's registers: GX_NUMERIC_FREE_SCALE;
				 * the values the device cannot hold are host rows
				 */
				if (sc == GX_NUMERIC_FREE)
					cx->may_host = true;
				cx->scale[r] = sc == GX_NUMERIC_FREE ? GX_NUMERIC_FREE_SCALE : sc;
				return gx_emit(cx, GX_OP_LDCOL, t, r, 0, 0, col) < 0 ? -1 : r;
			}
		case T_Const:
			{
				Const	   *c = (Const *) node;
				int			t,
							k,
							r;
				int64		iv = 0;
				double		dv = 0;

				if (c->consttype == BPCHAROID)
				{
					/* packed; longer than 8 bytes: the host */
					if (!c->constisnull && !gx_char8_value(c->constvalue, &iv))
						return -1;
					k = gx_add_const(cx, GX_CHAR8, c->constisnull, iv, 0);
					r = gx_new_reg(cx);
					*type = GX_CHAR8;
					if (k < 0 || r < 0)
						return -1;
					return gx_emit(cx, GX_OP_LDCONST, GX_CHAR8, r, 0, 0, k) < 0 ? -1 : r;
				}
				if (c->consttype == NUMERICOID)
				{
					int			ds = 0;

					/* at its own dscale; NaN is GX_NUMERIC_NAN */
					if (!c->constisnull && !gx_numeric_value(c->constvalue, -1, &iv, &ds))
						return -1;
					k = gx_add_const(cx, GX_NUMERIC, c->constisnull, iv, 0);
					r = gx_new_reg(cx);
					*type = GX_NUMERIC;
					if (k < 0 || r < 0)
						return -1;
					cx->scale[r] = ds;
					return gx_emit(cx, GX_OP_LDCONST, GX_NUMERIC, r, 0, 0, k) < 0 ? -1 : r;
				}
				if (!gx_type_supported(c->consttype, &t))
					return -1;
				if (!c->constisnull)
					gx_datum_value(c->constvalue, c->consttype, &iv, &dv);
				k = gx_add_const(cx, t, c->constisnull, iv, dv);
				r = gx_new_reg(cx);
				*type = t;
				if (k < 0 || r < 0)
					return -1;
				return gx_emit(cx, GX_OP_LDCONST, t, r, 0, 0, k) < 0 ? -1 : r;
			}
		case T_Param:
			{
				Param	   *prm = (Param *) node;
				int			t,
							k,
							r;

				if (prm->paramkind != PARAM_EXTERN && prm->paramkind != PARAM_EXEC)
					return -1;
				if (prm->paramtype == BPCHAROID)
				{
					/* packed at scan start; longer than 8 bytes: the host */
					k = gx_add_const(cx, GX_CHAR8, true, 0, 0);
					r = gx_new_reg(cx);
					*type = GX_CHAR8;
					if (k < 0 || r < 0)
						return -1;
					gx_add_dyn(cx, (Node *) prm, k, GX_DYN_CHAR8);
					cx->p->may_fallback = true;
					return gx_emit(cx, GX_OP_LDCONST, GX_CHAR8, r, 0, 0, k) < 0 ? -1 : r;
				}
				if (prm->paramtype == NUMERICOID)
				{
					/* the other operand's scale; filled exactly, else the host */
					int			sc = cx->param_scale >= 0 ? cx->param_scale :
						GX_PARAM_NUMERIC_SCALE;

					k = gx_add_const(cx, GX_NUMERIC, true, 0, 0);
					r = gx_new_reg(cx);
					*type = GX_NUMERIC;
					if (k < 0 || r < 0)
						return -1;
					cx->scale[r] = sc;
					gx_add_dyn(cx, (Node *) prm, k, GX_DYN_NUMERIC | sc << 8);
					cx->p->may_fallback = true;
					return gx_emit(cx, GX_OP_LDCONST, GX_NUMERIC, r, 0, 0, k) < 0 ? -1 : r;
				}
				if (!gx_type_supported(prm->paramtype, &t))
					return -1;
				k = gx_add_const(cx, t, true, 0, 0);
				r = gx_new_reg(cx);
				*type = t;
				if (k < 0 || r < 0)
					return -1;
				gx_add_dyn(cx, (Node *) prm, k, GX_DYN_VALUE);
				return gx_emit(cx, GX_OP_LDCONST, t, r, 0, 0, k) < 0 ? -1 : r;
			}
		case T_RelabelType:
			{
				RelabelType *rl = (RelabelType *) node;
				int			t1,
							t2;

				if (!gx_type_supported(rl->resulttype, &t1) ||
					!gx_type_supported(exprType((Node *) rl->arg), &t2) || t1 != t2)
					return -1;
				return gx_cx_expr(cx, (Node *) rl->arg, type);
			}
		case T_OpExpr:
		case T_FuncExpr:
			{
				Oid			funcid;
				List	   *args;
				const GxOpEntry *e;

				if (IsA(node, OpExpr))
				{
					set_opfuncid((OpExpr *) node);
					funcid = ((OpExpr *) node)->opfuncid;
					args = ((OpExpr *) node)->args;
					if (((OpExpr *) node)->opretset)
						return -1;
				}
				else
				{
					funcid = ((FuncExpr *) node)->funcid;
					args = ((FuncExpr *) node)->args;
					if (((FuncExpr *) node)->funcretset)
						return -1;
				}
				switch (funcid)
				{
					case F_TIMESTAMP_DATE:
					case F_EXTRACT_TEXT_DATE:
					case F_EXTRACT_TEXT_TIMESTAMP:
					case F_DATE_PART_TEXT_TIMESTAMP:
					case F_DATE_PART_TEXT_DATE:
					case F_DATE_TRUNC_TEXT_TIMESTAMP:
						return gx_cx_datetime(cx, funcid, args, type);
					default:
						break;
				}
				if (list_length(args) == 2 && (funcid == F_BPCHAREQ || funcid == F_BPCHARNE))
					return gx_cx_char8op(cx, funcid, exprInputCollation(node),
										 (Node *) linitial(args), (Node *) lsecond(args), type);
				if (list_length(args) == 2 &&
					(e = gx_find_op(gx_numops, lengthof(gx_numops), funcid)) != NULL)
					return gx_cx_numop(cx, e, (Node *) linitial(args),
									   (Node *) lsecond(args), type);
				if (list_length(args) == 1)
				{
					int			r = gx_cx_numunary(cx, funcid, (Node *) linitial(args), type);

					if (r >= 0)
						return r;
				}
				if (list_length(args) == 2 &&
					(e = gx_find_op(gx_binops, lengthof(gx_binops), funcid)) != NULL)
					return gx_cx_binop(cx, e, (Node *) linitial(args),
									   (Node *) lsecond(args), type);
				if (list_length(args) == 2)
				{
					for (size_t i = 0; i < lengthof(gx_xcmps); i++)
						if (gx_xcmps[i].funcid == funcid)
							return gx_cx_xcmp(cx, &gx_xcmps[i], (Node *) linitial(args),
											  (Node *) lsecond(args), type);
				}
				if (list_length(args) == 1 &&
					(e = gx_find_op(gx_unops, lengthof(gx_unops), funcid)) != NULL)
				{
					int			at;
					int			r = gx_cx_expr(cx, (Node *) linitial(args), &at);

					r = gx_cx_cast(cx, r, at, e->type);
					if (r < 0)
						return -1;
					if (gx_is_int(e->type))
						cx->may_error = true;
					*type = e->type;
					return gx_emit(cx, GX_OP_NEG, e->type, r, r, r, 0) < 0 ? -1 : r;
				}
				if (list_length(args) == 1)
				{
					for (size_t i = 0; i < lengthof(gx_casts); i++)
					{
						if (gx_casts[i].funcid != funcid)
							continue;
						int			at;
						int			r = gx_cx_expr(cx, (Node *) linitial(args), &at);

						if (r < 0 || at != gx_casts[i].from)
							return -1;
						*type = gx_casts[i].to;
						return gx_cx_cast(cx, r, at, gx_casts[i].to);
					}
				}
				return -1;
			}
		case T_BoolExpr:
			{
				BoolExpr   *b = (BoolExpr *) node;
				ListCell   *lc;
				List	   *jumps = NIL;
				int			acc,
							mark,
							t;

				*type = GX_BOOL;
				if (b->boolop == NOT_EXPR)
				{
					int			r = gx_cx_expr(cx, (Node *) linitial(b->args), &t);

					if (r < 0 || t != GX_BOOL)
						return -1;
					return gx_emit(cx, GX_OP_NOT, GX_BOOL, r, r, r, 0) < 0 ? -1 : r;
				}
				acc = gx_new_reg(cx);
				if (acc < 0 ||
					gx_emit(cx, GX_OP_SETBOOL, GX_BOOL, acc, 0, 0,
							b->boolop == AND_EXPR ? 1 : 0) < 0)
					return -1;
				mark = p->inuse;
				foreach(lc, b->args)
				{
					int			r = gx_cx_expr(cx, (Node *) lfirst(lc), &t);
					int			j;

					if (r < 0 || t != GX_BOOL)
						return -1;
					j = gx_emit(cx, b->boolop == AND_EXPR ? GX_OP_ANDSTEP : GX_OP_ORSTEP,
								GX_BOOL, acc, r, 0, 0);
					if (j < 0)
						return -1;
					jumps = lappend_int(jumps, j);
					p->inuse = mark;
				}
				foreach(lc, jumps)
					p->code[lfirst_int(lc)].jump = (int16_t) p->ninstr;
				return acc;
			}
		case T_NullTest:
			{
				NullTest   *nt = (NullTest *) node;
				int			t;
				int			r;

				if (nt->argisrow)
					return -1;
				r = gx_cx_expr(cx, (Node *) nt->arg, &t);
				*type = GX_BOOL;
				if (r < 0)
					return -1;
				return gx_emit(cx, nt->nulltesttype == IS_NULL ? GX_OP_ISNULL : GX_OP_ISNOTNULL,
							   GX_BOOL, r, r, r, 0) < 0 ? -1 : r;
			}
		case T_BooleanTest:
			{
				BooleanTest *bt = (BooleanTest *) node;
				int			t,
							op;
				int			r = gx_cx_expr(cx, (Node *) bt->arg, &t);

				if (r < 0 || t != GX_BOOL)
					return -1;
				switch (bt->booltesttype)
				{
					case IS_TRUE:
						op = GX_OP_ISTRUE;
						break;
					case IS_NOT_TRUE:
						op = GX_OP_ISNOTTRUE;
						break;
					case IS_FALSE:
						op = GX_OP_ISFALSE;
						break;
					case IS_NOT_FALSE:
						op = GX_OP_ISNOTFALSE;
						break;
					case IS_UNKNOWN:
						op = GX_OP_ISNULL;
						break;
					default:
						op = GX_OP_ISNOTNULL;
						break;
				}
				*type = GX_BOOL;
				return gx_emit(cx, op, GX_BOOL, r, r, r, 0) < 0 ? -1 : r;
			}
		case T_ScalarArrayOpExpr:
			return gx_cx_saop(cx, (ScalarArrayOpExpr *) node, type);
		case T_SubPlan:
			{
				/* x IN (SELECT ...) / NOT IN: x = ANY (ARRAY(SELECT ...)) */
				ScalarArrayOpExpr *sa = gx_subplan_as_any((SubPlan *) node);

				return sa == NULL ? -1 : gx_cx_saop(cx, sa, type);
			}
		default:
			return -1;
	}
}

void
gx_program_init(GxProgram *prog)
{
	memset(prog, 0, sizeof(*prog));
}

/*
 * Append one qual (an implicitly-ANDed WHERE clause, no RestrictInfo).
 * Returns false, leaving the program as it was, when unsupported, or when
 * only_safe is set and the qual may raise an error on the device.
 * *may_error tells whether the qual can raise an error on the device.
 */
bool
gx_program_add_qual(GxProgram *prog, Expr *qual, Index scanrelid, bool *may_error,
					bool only_safe)
{
	GxProgram	save;
	GxCx		cx;
	int			t;
	int			r;

	memcpy(&save, prog, offsetof(GxProgram, code));
	int			nparams = list_length(prog->params);
	bool		fallback = prog->may_fallback;

	cx.p = prog;
	cx.relid = scanrelid;
	cx.may_error = false;
	cx.may_host = false;
	cx.param_scale = -1;
	prog->inuse = 0;
	r = gx_cx_expr(&cx, (Node *) qual, &t);
	*may_error = cx.may_error;
	if (r >= 0 && t == GX_BOOL && !(only_safe && cx.may_error) &&
		gx_emit(&cx, GX_OP_QUAL, GX_BOOL, 0, r, 0, 0) >= 0)
	{
		prog->may_error |= cx.may_error;
		prog->may_host |= cx.may_host;
		*may_error = cx.may_error;
		return true;
	}
	/* roll back */
	prog->ninstr = save.ninstr;
	prog->nconsts = save.nconsts;
	prog->nregs = save.nregs;
	prog->ncols = save.ncols;
	prog->may_error = save.may_error;
	prog->may_fallback = fallback;
	prog->params = list_truncate(prog->params, nparams);
	prog->param_idx = list_truncate(prog->param_idx, nparams);
	prog->param_kind = list_truncate(prog->param_kind, nparams);
	return false;
}

/*
 * Append an output (GX_OP_OUT): expr, computed for every row that passes
 * the quals (GpuPreAgg's group keys and aggregate inputs), after which no
 * qual may follow.  Returns its index, or -1, leaving the program as it
 * was, when expr cannot run on the device or no output is left; *gxtype
 * is its device type and *scale, for numeric, the scale of its values
 * (the dscale PostgreSQL gives each of them).  An expression that can raise an error raises it
 * for a passing row, as PostgreSQL's aggregation would.
 */
int
gx_program_add_output(GxProgram *prog, Expr *expr, Index scanrelid, int *gxtype, int *scale)
{
	GxProgram	save;
	GxCx		cx;
	int			r;
	int			nparams = list_length(prog->params);
	bool		fallback = prog->may_fallback;
	bool		host = prog->may_host;

	memcpy(&save, prog, offsetof(GxProgram, code));
	cx.p = prog;
	cx.relid = scanrelid;
	cx.may_error = false;
	cx.may_host = false;
	cx.param_scale = -1;
	prog->inuse = 0;
	if (prog->nouts < GX_MAX_OUTS)
	{
		r = gx_cx_expr(&cx, (Node *) expr, gxtype);
		*scale = r >= 0 && *gxtype == GX_NUMERIC ? cx.scale[r] : 0;
		if (r >= 0 && gx_emit(&cx, GX_OP_OUT, *gxtype, 0, r, 0, prog->nouts) >= 0)
		{
			prog->may_error |= cx.may_error;
			prog->may_host |= cx.may_host;
			return prog->nouts++;
		}
	}
	prog->ninstr = save.ninstr;
	prog->nconsts = save.nconsts;
	prog->nregs = save.nregs;
	prog->ncols = save.ncols;
	prog->nouts = save.nouts;
	prog->may_error = save.may_error;
	prog->may_host = host;
	prog->may_fallback = fallback;
	prog->params = list_truncate(prog->params, nparams);
	prog->param_idx = list_truncate(prog->param_idx, nparams);
	prog->param_kind = list_truncate(prog->param_kind, nparams);
	return -1;
}

/*
 * Append an output of the dscale of each row's value of var, an
 * unconstrained numeric column (GX_NUMERIC_FREE) of scanrelid: var's
 * output (gx_program_add_output), whose load then reads the dscale
 * (GX_OP_DSCALE) as an int8.  Returns the output's index, or -1.
 */
int
gx_program_add_dscale(GxProgram *prog, Var *var, Index scanrelid)
{
	int			t,
				sc;
	int			at = prog->ninstr;
	int			idx = gx_program_add_output(prog, (Expr *) var, scanrelid, &t, &sc);

	if (idx < 0)
		return -1;
	/* a Var compiles to its load and the output */
	if (t != GX_NUMERIC || prog->ninstr != at + 2 || prog->code[at].op != GX_OP_LDCOL ||
		prog->code[at + 1].op != GX_OP_OUT ||
		prog->col_scale[prog->code[at].arg] != GX_NUMERIC_FREE)
		elog(ERROR, "gpuext: unexpected program for a dscale output");
	prog->code[at].op = GX_OP_DSCALE;
	prog->code[at].type = GX_INT8;
	prog->code[at + 1].type = GX_INT8;
	return idx;
}

/*
 * Make attribute attno (of type typid) a column of the chunk without
 * loading it in the program (device aggregates read it); returns its
 * column index, or -1 when the type is not a device type or no column is
 * left.
 */
int
gx_program_add_column(GxProgram *prog, AttrNumber attno, Oid typid)
{
	int			t;

	if (attno <= 0 || !gx_type_supported(typid, &t))
		return -1;
	for (int i = 0; i < prog->ncols; i++)
		if (prog->col_attno[i] == attno)
			return i;
	if (prog->ncols >= GX_MAX_COLS)
		return -1;
	prog->col_attno[prog->ncols] = attno;
	prog->col_type[prog->ncols] = t;
	prog->col_typid[prog->ncols] = typid;
	prog->col_scale[prog->ncols] = 0;
	return prog->ncols++;
}

/*
 * A program as it is kept in a plan: the bytes of a bytea Const (the
 * program, its constants, its columns and the constant slot of each
 * Param), so that the executor never compiles.  The Params themselves go
 * to the plan's custom_exprs, where setrefs sees them.
 */
typedef struct GxProgramImage
{
	int32		vl_len_;		/* varlena header */
	int32		ninstr;
	int32		nconsts;
	int32		nregs;
	int32		ncols;
	int32		nparams;
	int32		may_error;
	int32		may_fallback;
	int32		may_host;
	/* gx_instr code[ninstr], gx_const consts[nconsts], then per column
	 * int16 attno, int32 type, Oid typid, int32 scale, then per param
	 * int32 const index and int32 GX_DYN_* kind */
} GxProgramImage;

Const *
gx_program_to_const(const GxProgram *p)
{
	int			nparams = list_length(p->param_idx);
	Size		sz = MAXALIGN(sizeof(GxProgramImage)) + sizeof(gx_instr) * p->ninstr +
		sizeof(gx_const) * p->nconsts +
		(sizeof(int16) + sizeof(int32) + sizeof(Oid) + sizeof(int32)) * p->ncols +
		sizeof(int32) * 2 * nparams;
	GxProgramImage *img = (GxProgramImage *) palloc0(sz);
	char	   *q = (char *) img + MAXALIGN(sizeof(GxProgramImage));
	ListCell   *lc,
			   *lc2;

	SET_VARSIZE(img, sz);
	img->ninstr = p->ninstr;
	img->nconsts = p->nconsts;
	img->nregs = p->nregs;
	img->ncols = p->ncols;
	img->nparams = nparams;
	img->may_error = p->may_error;
	img->may_fallback = p->may_fallback;
	img->may_host = p->may_host;
	memcpy(q, p->code, sizeof(gx_instr) * p->ninstr);
	q += sizeof(gx_instr) * p->ninstr;
	memcpy(q, p->consts, sizeof(gx_const) * p->nconsts);
	q += sizeof(gx_const) * p->nconsts;
	memcpy(q, p->col_attno, sizeof(int16) * p->ncols);
	q += sizeof(int16) * p->ncols;
	memcpy(q, p->col_type, sizeof(int32) * p->ncols);
	q += sizeof(int32) * p->ncols;
	memcpy(q, p->col_typid, sizeof(Oid) * p->ncols);
	q += sizeof(Oid) * p->ncols;
	memcpy(q, p->col_scale, sizeof(int32) * p->ncols);
	q += sizeof(int32) * p->ncols;
	forboth(lc, p->param_idx, lc2, p->param_kind)
	{
		int32		k[2] = {lfirst_int(lc), lfirst_int(lc2)};

		memcpy(q, k, sizeof(k));
		q += sizeof(k);
	}
	return makeConst(BYTEAOID, -1, InvalidOid, -1, PointerGetDatum(img), false, false);
}

/* the program of a plan (gx_program_to_const); params: its Params, in order */
GxProgram *
gx_program_from_const(Const *c, List *params)
{
	GxProgramImage *img = (GxProgramImage *) DatumGetPointer(c->constvalue);
	GxProgram  *p = (GxProgram *) palloc0(sizeof(GxProgram));
	const char *q = (const char *) img + MAXALIGN(sizeof(GxProgramImage));

	if (c->constisnull || img->ninstr > GX_MAX_INSTR || img->nconsts > GX_MAX_CONSTS ||
		img->ncols > GX_MAX_COLS || img->nparams != list_length(params))
		elog(ERROR, "gpuext: malformed device program in the plan");
	p->ninstr = img->ninstr;
	p->nconsts = img->nconsts;
	p->nregs = img->nregs;
	p->ncols = img->ncols;
	p->may_error = img->may_error != 0;
	p->may_fallback = img->may_fallback != 0;
	p->may_host = img->may_host != 0;
	memcpy(p->code, q, sizeof(gx_instr) * p->ninstr);
	q += sizeof(gx_instr) * p->ninstr;
	memcpy(p->consts, q, sizeof(gx_const) * p->nconsts);
	q += sizeof(gx_const) * p->nconsts;
	memcpy(p->col_attno, q, sizeof(int16) * p->ncols);
	q += sizeof(int16) * p->ncols;
	memcpy(p->col_type, q, sizeof(int32) * p->ncols);
	q += sizeof(int32) * p->ncols;
	memcpy(p->col_typid, q, sizeof(Oid) * p->ncols);
	q += sizeof(Oid) * p->ncols;
	memcpy(p->col_scale, q, sizeof(int32) * p->ncols);
	q += sizeof(int32) * p->ncols;
	for (int i = 0; i < img->nparams; i++)
	{
		int32		k[2];

		memcpy(k, q, sizeof(k));
		q += sizeof(k);
		if (k[0] < 0 || k[0] >= p->nconsts)
			elog(ERROR, "gpuext: malformed device program in the plan");
		p->param_idx = lappend_int(p->param_idx, k[0]);
		p->param_kind = lappend_int(p->param_kind, k[1]);
	}
	p->params = params;
	return p;
}

/*
 * May the program of a plan (gx_program_to_const) have to run its device
 * quals on the host at scan start?  (Device aggregates cannot.)
 */
bool
gx_program_const_may_fallback(Const *c)
{
	GxProgramImage *img = (GxProgramImage *) DatumGetPointer(c->constvalue);

	return c->constisnull || img->may_fallback != 0;
}

/*
 * May rows of the program of a plan need the host (GX_ERR_HOST)?  Such a
 * program must run where the scan returns rows: the scan rechecks them.
 */
bool
gx_program_const_may_host(Const *c)
{
	GxProgramImage *img = (GxProgramImage *) DatumGetPointer(c->constvalue);

	return c->constisnull || img->may_host != 0;
}

/*
 * A program's work per row in instructions, for the cost model: one an
 * instruction, and log2(n) more for each big set's lookup (a binary search
 * of n values; n, a Const's elements, or GX_BIGSET_PARAM_GUESS values for
 * a Param, unknown at plan time).
 */
double
gx_program_work(const GxProgram *p)
{
	double		work = p->ninstr;

	for (int pc = 0; pc < p->ninstr; pc++)
		if (p->code[pc].op == GX_OP_INBIGSET)
		{
			int64		n = p->consts[p->code[pc].arg].v.i;

			work += log2((double) Max(n < 0 ? GX_BIGSET_PARAM_GUESS : n, 2));
		}
	return work;
}

/* does the program search a big set (a session object its tasks name)? */
bool
gx_program_has_bigsets(const GxProgram *p)
{
	for (int pc = 0; pc < p->ninstr; pc++)
		if (p->code[pc].op == GX_OP_INBIGSET)
			return true;
	return false;
}

/*
 * The big sets of a program, for EXPLAIN: each one's values once filled
 * (the scan started), else a Const array's elements, "a subquery's rows"
 * (an ARRAY SubPlan's: gx_subplan_as_any) or "a parameter",
 * then the search (gpuext.search); NULL when it has none
 */
char *
gx_program_describe_sets(const GxProgram *p)
{
	StringInfoData buf;
	int			nsets = 0;

	initStringInfo(&buf);
	for (int pc = 0; pc < p->ninstr; pc++)
	{
		const gx_const *h;

		if (p->code[pc].op != GX_OP_INBIGSET)
			continue;
		h = &p->consts[p->code[pc].arg];
		if (nsets++ > 0)
			appendStringInfoString(&buf, ", ");
		if (!h[0].isnull)
			appendStringInfo(&buf, INT64_FORMAT " values", h[0].v.i);
		else if (h[0].v.i >= 0)
			appendStringInfo(&buf, INT64_FORMAT " elements", h[0].v.i);
		else if (h[0].v.i == -2)
			appendStringInfoString(&buf, "a subquery's rows");
		else
			appendStringInfoString(&buf, "a parameter");
	}
	if (nsets == 0)
	{
		pfree(buf.data);
		return NULL;
	}
	appendStringInfo(&buf, " (search: %s)", gx_search == GX_SEARCH_PARY ? "pary" : "binary");
	return buf.data;
}
