/*
 * join_gather_path.cpp - at plan time, the programs with which a GpuJoin
 * that returns rows has the device gather the columns it returns
 * (gathered output; the node: src/executor/join_gather.cpp).
 *
 * Design note
 * -----------
 * A GpuJoin that returns rows gets back, per probe pass, its entries
 * (outer row, inner payload).  Without more, the node then reads each
 * joined row back itself: the outer row from its table (a buffer pin
 * and a deform per entry) and the inner row from the copies it keeps (a
 * random read of a tuple per entry, after reading the whole inner side
 * through its child).  With gathered output the device writes, beside
 * each entry, the values of every column the node returns
 * (gx_program.h, "Gathered output"): the outer ones are outputs of the
 * outer side's program, the inner ones columns of the table's inner
 * column store, which the build fills (as for aggregation over a join).
 * The node then makes each row from those values alone.
 *
 * What qualifies: an INNER, LEFT, SEMI or ANTI join (hash, merge or
 * range) whose outer side is a table the device reads (a device input:
 * gx_join_side_prog) and whose every returned column (the scan target:
 * the target list, and an INNER join's host quals' Vars) is a plain
 * column of a type the device holds as an int64 or a double and gives
 * back exactly (bool, int2, int4, int8, date, timestamp, timestamptz,
 * float4, float8): outer ones of the outer table, inner ones (at most
 * GX_JOIN_MAX_COLS distinct, none for SEMI and ANTI) any column of the
 * inner child.  Not RIGHT or FULL (their unmatched inner rows come from
 * the host's copies), nor a counting or aggregating join (nothing to
 * return), nor a SEMI, ANTI or LEFT join with other join quals (the node
 * runs those over the rows: join_filter.cpp; its executor checks).
 *
 * The plan's item 10 (after gx_join_plan_private's 0 .. 9), a List:
 *   0  Const: the outer program: the plan's (quals, keys as outputs
 *      0 .. nkeys - 1), then each returned outer column as an output
 *   1  IntList: per scan target column, its output of that program, or
 *      -1 for an inner column
 *   2  Const: the inner program likewise with the inner columns as
 *      outputs after the keys, or Integer 0 when the inner child is no
 *      table the device reads (its rows then fill the column store)
 *   3  IntList: per inner column (the distinct inner resnos in target
 *      order), its output of the inner program (NIL without one)
 * or NIL when the join does not qualify.
 */
#include "gpuext.h"
#include "planner.h"

extern "C"
{
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/pg_list.h"
}

/* can the device gather expression e's values exactly (a plain type of int64 or double values)? */
static bool
gx_gather_type_ok(Expr *e)
{
	int			t;

	return gx_type_supported(exprType((Node *) e), &t);
}

/*
 * Add the column of child's target entry resno as an output of prog (a
 * program over the child's table relid); the output, or -1 when it is no
 * plain column of that table or of another type than its own
 */
static int
gx_gather_add_output(GxProgram *prog, Plan *child, Index relid, int resno)
{
	TargetEntry *tle = (TargetEntry *) list_nth(child->targetlist, resno - 1);
	Var		   *v = (Var *) tle->expr;
	int			want,
				t,
				sc,
				o;

	if (!IsA(v, Var) || v->varno != (int) relid || v->varattno <= 0 ||
		!gx_type_supported(v->vartype, &want))
		return -1;
	v = (Var *) copyObjectImpl(v);
#if PG_VERSION_NUM >= 160000
	v->varnullingrels = NULL;
#endif
	o = gx_program_add_output(prog, (Expr *) v, relid, &t, &sc);
	return o >= 0 && t == want && sc == 0 ? o : -1;
}

/* is prog a device input's program (no Params, no rows for the host)? */
static bool
gx_gather_prog_ok(const GxProgram *prog)
{
	return prog->params == NIL && !prog->may_host && !prog->may_fallback &&
		prog->nouts <= GX_MAX_OUTS;
}

/*
 * Item 10 of a GpuJoin plan of join mode 'mode' that returns rows (see
 * the design note): ores / ires the keys' resnos in the outer and inner
 * child, range a range join's (the outer keys are its bounds), src per
 * scan target column side << 16 | resno (gx_join_plan_private's item 4)
 */
List *
gx_join_gather_plan(int mode, Plan *outer, Plan *inner, List *ores, List *ires, bool range,
					List *src)
{
	Index		orelid,
				irelid;
	GxProgram  *oprog,
			   *iprog;
	List	   *oouts = NIL,
			   *icols = NIL,
			   *iouts = NIL;
	Node	   *inode;
	ListCell   *lc;

	if ((mode != GX_JOIN_INNER && mode != GX_JOIN_LEFT && mode != GX_JOIN_SEMI &&
		 mode != GX_JOIN_ANTI) || src == NIL || list_length(src) > GX_JOIN_MAX_GATHER)
		return NIL;
	oprog = gx_join_side_prog(outer, ores, range, &orelid);
	if (oprog == NULL)
		return NIL;
	foreach(lc, src)
	{
		int			side = lfirst_int(lc) >> 16;
		int			resno = lfirst_int(lc) & 0xffff;
		int			o = -1;

		if (side == 0)
		{
			o = gx_gather_add_output(oprog, outer, orelid, resno);
			if (o < 0)
				return NIL;
		}
		else
		{
			TargetEntry *tle;

			if (mode == GX_JOIN_SEMI || mode == GX_JOIN_ANTI || resno < 1 ||
				resno > list_length(inner->targetlist))
				return NIL;
			tle = (TargetEntry *) list_nth(inner->targetlist, resno - 1);
			if (!gx_gather_type_ok(tle->expr))
				return NIL;
			if (!list_member_int(icols, resno))
				icols = lappend_int(icols, resno);
		}
		oouts = lappend_int(oouts, o);
	}
	if (!gx_gather_prog_ok(oprog) || list_length(icols) > GX_JOIN_MAX_COLS)
		return NIL;
	/*
	 * the inner columns as outputs of the inner device input's program
	 * (a range join's inner program reads its one key: the first inner key)
	 */
	inode = (Node *) makeInteger(0);
	iprog = icols == NIL ? NULL :
		gx_join_side_prog(inner, range ? list_make1_int(linitial_int(ires)) : ires, false,
						  &irelid);
	if (iprog != NULL)
	{
		foreach(lc, icols)
		{
			int			o = gx_gather_add_output(iprog, inner, irelid, lfirst_int(lc));

			if (o < 0)
				break;
			iouts = lappend_int(iouts, o);
		}
		if (list_length(iouts) == list_length(icols) && gx_gather_prog_ok(iprog))
			inode = (Node *) gx_program_to_const(iprog);
		else
			iouts = NIL;
	}
	return list_make4(gx_program_to_const(oprog), oouts, inode, iouts);
}
