/*
 * join_levels_path.cpp - the multi-level form of an aggregating GpuJoin
 * (issue 15: TPC-H's chains on the device; the node: join_levels.cpp).
 *
 * Design note
 * -----------
 * An aggregating GpuJoin P (join_agg_path.cpp) whose outer side is
 * another GpuJoin C reads C's joined rows: C returns them to the backend,
 * P lays them out again for its group probes (about 1 us a row).  The
 * device can instead join C's outer table through C's table and then
 * P's in one group probe (docs/engine.md, "multi-level group probe"):
 * level 0 is C's inner side (the task's own table), level 1 P's inner
 * side, the probe stream C's outer table.  Built for that left-deep shape
 * of two levels:
 *
 *   P: INNER hash join, no host quals      (levels 0 and 1: C's, P's tables)
 *     C: INNER hash join, no host quals    (outer: a plain scan the device
 *        reads, its quals and keys compiled: gx_join_side_prog)
 *
 * Every group key, aggregate argument (and FILTER) is an expression of
 * C's outer table, compiled as one more output of that table's program,
 * or a plain Var of a level's inner relation, stored in that level's
 * inner column store (strings as dictionary ids); each of P's outer keys
 * is a plain Var of C's outer table (an output of the program) or of C's
 * inner relation (a level 0 column), of an integer-like or float type.
 * Else, or with gpuext.enable_join_levels off, P keeps today's form (it
 * reads C's rows).
 *
 * Path: gx_join_group_paths asks gx_join_levels_ok of each candidate and
 * marks the path (its custom_private item 9, String "levels"), costed
 * below the row-passing chain by the rows C would return.  Plan
 * (gx_join_levels_plan, from gx_plan_join_path): P's custom_private items
 * 10 .. 20 as join_agg_path.cpp's design note has them, where the joined
 * output vector is the table program's outputs, then level 0's columns,
 * then level 1's (item 15: level 1's columns, 16: level 1's icol_base,
 * 17: 0, 19: a level 0 column's dictionary is -(GX_JOIN_MAX_COLS + 1 +
 * c)), and
 *  21  List: (IntList: per P key, its entry of the joined output vector;
 *      Integer: the table program's outputs; Integer: level 0's columns;
 *      Integer: the levels, 2)
 * P's item 7 is Integer 0 (it reads no outer side itself).  C's plan
 * becomes a level: item 5 Integer 3, item 7 the table's program with the
 * group outputs, item 10 level 0's columns (resno in C's inner child,
 * gx_type, scale, dictionary), item 11 the program's outputs.  P's
 * fallback (its third child) is today's plan: the Partial Aggregate over
 * PostgreSQL's join of another copy of C (the row-returning GpuJoin,
 * with its own fallback) and P's inner side.
 */
#include "gpuext.h"
#include "compat.h"
#include "planner.h"
#include "compiler.h"

extern "C"
{
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/tlist.h"
}

/* the GpuJoin path under path (past projections), or NULL */
static CustomPath *
gx_levels_join_path(Path *path)
{
	Path	   *p = gx_unproject(path);

	if (!IsA(p, CustomPath) || ((CustomPath *) p)->methods != &gx_join_path_methods ||
		list_length(((CustomPath *) p)->custom_paths) < 2)
		return NULL;
	return (CustomPath *) p;
}

/*
 * An INNER hash GpuJoin path's private (mode, keys, scales, count flag,
 * range, host quals, algorithm) without host quals, range or counting?
 */
static bool
gx_levels_plain_inner(List *priv, int mode_flag)
{
	return intVal(linitial(priv)) == GX_JOIN_INNER && intVal(list_nth(priv, 4)) == mode_flag &&
		list_nth(priv, 5) == NIL && list_nth(priv, 6) == NIL &&
		intVal(list_nth(priv, 7)) == GX_JOIN_HASH;
}

/*
 * May aggregating GpuJoin path w (partial target partial) take the
 * multi-level form (see the design note)?  The checks a path allows;
 * gx_join_levels_plan makes the rest.
 */
bool
gx_join_levels_ok(Path *w, PathTarget *partial)
{
	CustomPath *p = (CustomPath *) w;
	CustomPath *c = gx_levels_join_path((Path *) linitial(p->custom_paths));
	Path	   *tpath;
	Relids		i0,
				i1;
	ListCell   *lc;

	if (!gx_enable_join_levels || c == NULL || w->parallel_aware || c->path.parallel_aware ||
		!gx_levels_plain_inner(p->custom_private, 0) ||
		!gx_levels_plain_inner(c->custom_private, 0))
		return false;
	tpath = (Path *) linitial(c->custom_paths);
	if (tpath->parent->reloptkind != RELOPT_BASEREL || tpath->param_info != NULL)
		return false;
	i0 = ((Path *) lsecond(c->custom_paths))->parent->relids;
	i1 = ((Path *) lsecond(p->custom_paths))->parent->relids;
	foreach(lc, (List *) lsecond(p->custom_private))
	{
		Var		   *v = (Var *) lfirst(lc);

		if (!IsA(v, Var) || v->varlevelsup != 0 ||
			(v->varno != (int) tpath->parent->relid && !bms_is_member(v->varno, i0)))
			return false;
	}
	return gx_join_group_fits(partial->exprs, tpath->parent, bms_union(i0, i1), false);
}

/*
 * The multi-level form of aggregating path g (made of w, which
 * gx_join_levels_ok accepted): marked, costed below it by the rows the
 * lower GpuJoin would return and the upper one lay out
 */
Path *
gx_join_levels_path(Path *g, Path *w)
{
	CustomPath *cp = makeNode(CustomPath);
	Path	   *lower = (Path *) linitial(((CustomPath *) w)->custom_paths);
	Cost		save = lower->rows * 2 * cpu_tuple_cost;

	memcpy(cp, g, sizeof(CustomPath));
	cp->custom_private = lappend(list_copy(((CustomPath *) g)->custom_private),
								 makeString(pstrdup("levels")));
	cp->path.total_cost = Max(cp->path.startup_cost, cp->path.total_cost - save);
	return &cp->path;
}

/* is path private priv (an aggregating GpuJoin's, item 9) marked "levels"? */
bool
gx_join_levels_marked(List *priv)
{
	return list_length(priv) > 9 && IsA(list_nth(priv, 9), String) &&
		strcmp(strVal(list_nth(priv, 9)), "levels") == 0;
}

/* the resno of Var v in plan p's target list, added there when missing */
static int
gx_levels_col_resno(Plan *p, Var *v)
{
	TargetEntry *tle;

	v = (Var *) copyObjectImpl(v);
#if PG_VERSION_NUM >= 160000
	v->varnullingrels = NULL;
#endif
	tle = tlist_member((Expr *) v, p->targetlist);
	if (tle == NULL)
	{
		tle = makeTargetEntry((Expr *) v, list_length(p->targetlist) + 1, NULL, false);
		p->targetlist = lappend(p->targetlist, tle);
	}
	return tle->resno;
}

/* a type a level's key may be read as: integer-like or float (not numeric) */
static bool
gx_levels_key_type(int t)
{
	return t == GX_INT2 || t == GX_INT4 || t == GX_INT8 || t == GX_BOOL || GX_JOIN_FLOAT(t);
}

/*
 * At plan time, the multi-level form of aggregating GpuJoin cscan (its
 * custom_private items 0 .. 9 made; see the design note): C's plan outer
 * made a level, P's items 10 .. 21 appended; false, with nothing changed,
 * when the shape does not qualify (the caller plans today's form).
 * opath: P's outer path (C's), okeys: P's outer key expressions, tlist:
 * the partial target list, groups: the estimate (item 18).
 */
bool
gx_join_levels_plan(CustomScan *cscan, Plan *outer, Plan *inner, Path *opath, Path *ipath,
					List *okeys, List *tlist, Node *groups)
{
	CustomPath *cpath = gx_levels_join_path(opath);
	CustomScan *c = (CustomScan *) outer;
	List	   *cpriv;
	Plan	   *tplan,
			   *i0plan;
	Relids		i0,
				i1 = ipath->parent->relids;
	Index		relid = 0;
	GxProgram  *prog;
	GxInnerCols icols;
	GxInnerCols lv1;
	List	   *outs,
			   *scales,
			   *filts,
			   *dscales,
			   *sqs;
	List	   *krefs = NIL,
			   *fixed = NIL,
			   *dicts = NIL,
			   *cols0 = NIL,
			   *cols1 = NIL,
			   *iouts;
	Node	   *iprog = (Node *) list_nth(cscan->custom_private, 8);
	int			map[GX_JOIN_MAX_COLS];
	int			lvl[GX_JOIN_MAX_COLS];
	int			n0 = 0,
				n1 = 0,
				base;
	ListCell   *lc;

	if (cpath == NULL || !IsA(outer, CustomScan) ||
		strcmp(c->methods->CustomName, "GpuJoin") != 0 || list_length(c->custom_private) != 10 ||
		intVal(list_nth(c->custom_private, 5)) != 0 || c->custom_exprs != NIL ||
		intVal(linitial(c->custom_private)) != GX_JOIN_INNER ||
		intVal(list_nth(c->custom_private, 9)) != GX_JOIN_HASH)
		return false;
	cpriv = c->custom_private;
	tplan = (Plan *) linitial(c->custom_plans);
	i0plan = (Plan *) lsecond(c->custom_plans);
	i0 = ((Path *) lsecond(cpath->custom_paths))->parent->relids;
	icols = GxInnerCols{bms_union(i0, i1), NIL, NIL, NIL, NIL, NIL, NIL};
	prog = gx_join_side_prog(tplan, (List *) lsecond(cpriv), false, &relid);
	if (prog == NULL ||
		!gx_group_outputs(prog, tlist, relid, &outs, &scales, &filts, &dscales, &sqs, &icols) ||
		icols.dict_resnos != NIL)
		return false;
	/* P's keys: an output of the table's program, or a level 0 column */
	foreach(lc, okeys)
	{
		Var		   *v = (Var *) copyObjectImpl(lfirst(lc));
		int			t = -1,
					sc,
					o = -1;

#if PG_VERSION_NUM >= 160000
		if (IsA(v, Var))
			v->varnullingrels = NULL;
#endif
		if (!IsA(v, Var) || v->varlevelsup != 0)
			return false;
		if (v->varno == (int) relid)
			o = gx_program_add_output(prog, (Expr *) v, relid, &t, &sc);
		else if (bms_is_member(v->varno, i0))
		{
			o = gx_inner_col(&icols, v, &sc);
			if (o >= 0)
				t = list_nth_int(icols.types, o - GX_INNER_OUT(0));
		}
		if (o < 0 || !gx_levels_key_type(t))
			return false;
		krefs = lappend_int(krefs, o);
	}
	if (prog->params != NIL || prog->may_fallback)
		return false;
	/* the inner columns by level: level 0 (C's inner side) first, then level 1 */
	foreach(lc, icols.vars)
	{
		int			c0 = foreach_current_index(lc);

		lvl[c0] = bms_is_member(((Var *) lfirst(lc))->varno, i0) ? 0 : 1;
		map[c0] = lvl[c0] == 0 ? n0++ : n1++;
	}
	base = prog->nouts;
	if (base + n0 + n1 > GX_MAX_OUTS)
		return false;
	for (int c0 = 0; c0 < list_length(icols.vars); c0++)
		map[c0] += lvl[c0] == 0 ? base : base + n0;
	foreach(lc, outs)
		fixed = lappend_int(fixed, GX_IS_INNER_OUT(lfirst_int(lc)) ?
							map[lfirst_int(lc) - GX_INNER_OUT(0)] : lfirst_int(lc));
	foreach(lc, krefs)
		if (GX_IS_INNER_OUT(lfirst_int(lc)))
			lfirst_int(lc) = map[lfirst_int(lc) - GX_INNER_OUT(0)];
	foreach(lc, icols.entry_dicts)
	{
		int			d = lfirst_int(lc);
		int			c0 = -d - 1;

		dicts = lappend_int(dicts, d >= 0 ? d : lvl[c0] == 0 ?
							-(GX_JOIN_MAX_COLS + 1 + map[c0] - base) :
							-(1 + map[c0] - base - n0));
	}
	/* each level's columns: (resno in its inner child, type, scale, dictionary) */
	lv1 = GxInnerCols{i1, NIL, NIL, NIL, NIL, NIL, NIL};
	for (int l = 0; l < 2; l++)
		for (int c0 = 0; c0 < list_length(icols.vars); c0++)
		{
			Var		   *v = (Var *) list_nth(icols.vars, c0);
			List	   *e;

			if (lvl[c0] != l)
				continue;
			e = list_make4_int(gx_levels_col_resno(l == 0 ? i0plan : inner, v),
							   list_nth_int(icols.types, c0), list_nth_int(icols.scales, c0),
							   list_nth_int(icols.dicts, c0));
			if (l == 0)
				cols0 = list_concat(cols0, e);
			else
			{
				cols1 = list_concat(cols1, e);
				lv1.vars = lappend(lv1.vars, v);
				lv1.types = lappend_int(lv1.types, list_nth_int(icols.types, c0));
				lv1.scales = lappend_int(lv1.scales, list_nth_int(icols.scales, c0));
				lv1.dicts = lappend_int(lv1.dicts, list_nth_int(icols.dicts, c0));
			}
		}
	iouts = gx_join_group_inner_prog(inner, (List *) lthird(cscan->custom_private), &lv1,
									 &iprog);
	/* C: a level (its table in P's session, its outer table the probe stream) */
	lfirst(list_nth_cell(cpriv, 5)) = makeInteger(3);
	lfirst(list_nth_cell(cpriv, 7)) = (Node *) gx_program_to_const(prog);
	c->custom_private = lappend(lappend(cpriv, cols0), makeInteger(base));
	/* P */
	lfirst(list_nth_cell(cscan->custom_private, 5)) = makeInteger(2);
	lfirst(list_nth_cell(cscan->custom_private, 7)) = (Node *) makeInteger(0);
	lfirst(list_nth_cell(cscan->custom_private, 8)) = iprog;
	cscan->custom_private =
		lappend(list_concat(list_concat(cscan->custom_private,
										list_make5(fixed, scales, filts, dscales, sqs)),
							list_make5(cols1, makeInteger(base + n0), makeInteger(0), groups,
									   list_make2(dicts, NIL))),
				iouts);
	cscan->custom_private = lappend(cscan->custom_private,
									list_make4(krefs, makeInteger(base), makeInteger(n0),
											   makeInteger(2)));
	return true;
}
