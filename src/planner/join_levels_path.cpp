/*
 * join_levels_path.cpp - the multi-level form of an aggregating GpuJoin
 * (issue 15: TPC-H's chains on the device; the node: join_levels.cpp).
 *
 * Design note
 * -----------
 * An aggregating GpuJoin P (join_agg_path.cpp) whose outer side is
 * another GpuJoin reads that join's rows: the lower join returns them to
 * the backend, P lays them out again for its group probes (about 1 us a
 * row).  The device can instead join the lowest table through every
 * join's table in one group probe (docs/engine.md, "multi-level group
 * probe").  Built for the left-deep shape, k = 1 .. 3 lower joins:
 *
 *   P: INNER hash join, no host quals          (level k: P's inner side)
 *     C1: INNER hash join, no host quals       (level k - 1: C1's inner side)
 *       ...
 *         Ck: INNER hash join, no host quals   (level 0: Ck's inner side)
 *           T: a plain scan the device reads   (the probe stream: its quals
 *              and Ck's keys compiled, gx_join_side_prog)
 *
 * The right-deep shape (TPC-H Q3's lineitem JOIN (orders JOIN customer)),
 * the same pipeline by associativity (INNER only):
 *
 *   P: INNER hash join, no host quals    (level 0: P's table, built from
 *     T: a plain scan the device reads    A's rows, keyed by P's inner keys)
 *     C: INNER hash join, no host quals   (level 1: C's table, B keyed by
 *       A, B                               C's inner keys)
 *
 * where P's inner keys and C's outer keys are plain Vars of A (level 0's
 * columns); P probes T itself.
 *
 * Every group key, aggregate argument (and FILTER) is an expression of T,
 * compiled as one more output of T's program, or a plain Var of a level's
 * inner relation, stored in that level's inner column store (strings as
 * dictionary ids); the keys of each level past 0 (C(k-1)'s .. P's outer
 * keys) are plain Vars of T (outputs of the program) or of the levels
 * below (their columns), of an integer-like or float type.  Else, or
 * with gpuext.enable_join_levels off, P keeps today's form (it reads
 * C1's rows).
 *
 * Path: gx_join_group_paths asks gx_join_levels_ok of each candidate and
 * marks the path (its custom_private item 9, String "levels"), costed
 * below the row-passing chain by the rows the lower joins would return.
 * Plan (gx_join_levels_plan, from gx_plan_join_path): P's custom_private
 * items 10 .. 20 as join_agg_path.cpp's design note has them, where the
 * joined output vector is T's program's outputs, then level 0's columns,
 * level 1's, ..., level k's (item 15: level k's columns, 16: level k's
 * icol_base, 17: 0, 19: a string key's dictionary -(l *
 * GX_JOIN_MAX_COLS + c + 1), column c of level l), and
 *  21  List: (List of IntLists: per level 1 .. k, its keys' entries of
 *      the joined output vector; Integer: T's program's outputs; Integer:
 *      the levels, k + 1; Integer: 1 right-deep, 0 left-deep)
 * P's item 7 is Integer 0 (it reads no outer side itself).  Each lower
 * join's plan becomes a level: item 5 Integer 3, item 10 its level's
 * columns (resno in its inner child, gx_type, scale, dictionary), item
 * 11 its level's icol_base; Ck's item 7 T's program with the group
 * outputs.  P's fallback (its third child) is today's plan: the Partial
 * Aggregate over PostgreSQL's join of another copy of the chain (the
 * row-returning GpuJoins, with their own fallbacks) and P's inner side.
 * Right-deep: P's item 2 holds its inner keys' resnos in A's plan, 7 T's
 * program with the group outputs, 8 Integer 0, 15 level 0's columns
 * (resnos in A), 16 T's outputs, 20 NIL; C's plan a level (5 = 3, 7
 * Integer 0, 10 level 1's columns, 11 their icol_base).
 */
#include "gpuext.h"
#include "compat.h"
#include "planner.h"
#include "compiler.h"
#include "executor.h"

extern "C"
{
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/tlist.h"
}

/* lower GpuJoins a multi-level join absorbs at most (levels 0 .. k - 1 their inner sides) */
#define GX_LEVELS_LOWER (GX_JOIN_MAX_LEVELS - 1)

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
 * A GpuJoin path's private (mode, keys, scales, count flag, range, host
 * quals, algorithm): an INNER hash join without host quals, range or
 * counting?
 */
static bool
gx_levels_plain_inner(List *priv)
{
	return intVal(linitial(priv)) == GX_JOIN_INNER && intVal(list_nth(priv, 4)) == 0 &&
		list_nth(priv, 5) == NIL && list_nth(priv, 6) == NIL &&
		intVal(list_nth(priv, 7)) == GX_JOIN_HASH;
}

/*
 * The chain from path cur, a join's outer side (see the design note): the
 * lower GpuJoins C1 .. Ck into chain[0 .. k), the table path under Ck
 * into *tpath; k, or 0 when the chain does not qualify
 */
static int
gx_levels_chain(Path *cur, CustomPath **chain, Path **tpath)
{
	CustomPath *c;
	int			k = 0;

	while ((c = gx_levels_join_path(cur)) != NULL)
	{
		if (k == GX_LEVELS_LOWER || c->path.parallel_aware ||
			!gx_levels_plain_inner(c->custom_private))
			return 0;
		chain[k++] = c;
		cur = (Path *) linitial(c->custom_paths);
	}
	if (k == 0 || cur->parent->reloptkind != RELOPT_BASEREL || cur->param_info != NULL)
		return 0;
	*tpath = cur;
	return k;
}

/*
 * The join of level l of a chain of k lower joins under w (level 0:
 * Ck, ..., level k - 1: C1, level k: w itself)
 */
static CustomPath *
gx_levels_join_of(CustomPath *w, CustomPath **chain, int k, int l)
{
	return l == k ? w : chain[k - 1 - l];
}

/* the level (0 .. n - 1) of rels whose relations hold varno, or -1 */
static int
gx_levels_find(Relids *rels, int n, int varno)
{
	for (int l = 0; l < n; l++)
		if (bms_is_member(varno, rels[l]))
			return l;
	return -1;
}

/*
 * The right-deep shape (see the design note): P's outer side opath a
 * table, its inner side ipath an INNER hash GpuJoin C (into *c) whose
 * outer side holds P's inner keys (ikeys) and C's outer keys, all plain
 * columns?
 */
static bool
gx_levels_right(Path *opath, Path *ipath, List *ikeys, CustomPath **c)
{
	Relids		a;
	ListCell   *lc;

	*c = gx_levels_join_path(ipath);
	if (*c == NULL || (*c)->path.parallel_aware || !gx_levels_plain_inner((*c)->custom_private) ||
		gx_levels_join_path(opath) != NULL || opath->parent->reloptkind != RELOPT_BASEREL ||
		opath->param_info != NULL)
		return false;
	a = ((Path *) linitial((*c)->custom_paths))->parent->relids;
	foreach(lc, list_concat(list_copy(ikeys), (List *) lsecond((*c)->custom_private)))
	{
		Var		   *v = (Var *) lfirst(lc);

		if (!IsA(v, Var) || v->varlevelsup != 0 || !bms_is_member(v->varno, a))
			return false;
	}
	return true;
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
	CustomPath *chain[GX_LEVELS_LOWER];
	Relids		rels[GX_JOIN_MAX_LEVELS];
	Relids		all = NULL;
	Path	   *tpath = NULL;
	int			k;

	/* (the probe stream is a device input: without them every run would fall back) */
	if (!gx_enable_join_levels || !gx_enable_join_inputs || w->parallel_aware ||
		!gx_levels_plain_inner(p->custom_private))
		return false;
	k = gx_levels_chain((Path *) linitial(p->custom_paths), chain, &tpath);
	/*
	 * (else the right-deep shape: levels 0 and 1 the inner join's sides,
	 * when gpuext.join_levels_right lets it: level 0 is built from the
	 * rows of the inner join's outer side, all of them, not a device
	 * input, which on TPC-H Q3 cost more than the row-passing plan)
	 */
	if (k == 0)
	{
		CustomPath *c;

		return gx_join_levels_right && gx_levels_right((Path *) linitial(p->custom_paths),
							   (Path *) lsecond(p->custom_paths),
							   (List *) lthird(p->custom_private), &c) &&
			gx_join_group_fits(partial->exprs, ((Path *) linitial(p->custom_paths))->parent,
							   c->path.parent->relids, false, GX_JOIN_MAX_COLS * 2);
	}
	for (int l = 0; l <= k; l++)
	{
		rels[l] = ((Path *) lsecond(gx_levels_join_of(p, chain, k, l)->custom_paths))->parent->relids;
		all = bms_union(all, rels[l]);
	}
	/* (each level's outer keys: columns of the table or of the levels below) */
	for (int l = 1; l <= k; l++)
	{
		ListCell   *lc;

		foreach(lc, (List *) lsecond(gx_levels_join_of(p, chain, k, l)->custom_private))
		{
			Var		   *v = (Var *) lfirst(lc);

			if (!IsA(v, Var) || v->varlevelsup != 0 ||
				(v->varno != (int) tpath->parent->relid &&
				 !(gx_levels_find(rels, l, v->varno) >= 0)))
				return false;
		}
	}
	return gx_join_group_fits(partial->exprs, tpath->parent, all, false,
							  GX_JOIN_MAX_COLS * (k + 1));
}

/*
 * The multi-level form of aggregating path g (made of w, which
 * gx_join_levels_ok accepted): marked, costed below it by the rows the
 * lower GpuJoins would return and the joins above them lay out
 */
Path *
gx_join_levels_path(Path *g, Path *w)
{
	CustomPath *cp = makeNode(CustomPath);
	CustomPath *chain[GX_LEVELS_LOWER];
	Path	   *tpath;
	int			k = gx_levels_chain((Path *) linitial(((CustomPath *) w)->custom_paths), chain,
									&tpath);
	Cost		save = 0;

	for (int i = 0; i < k; i++)
		save += chain[i]->path.rows * 2 * cpu_tuple_cost;
	/* (right-deep: the inner join's rows) */
	if (k == 0)
		save = ((Path *) lsecond(((CustomPath *) w)->custom_paths))->rows * 2 * cpu_tuple_cost;
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

/* a type a level's key may be read as: integer-like or float (not numeric) */
static bool
gx_levels_key_type(int t)
{
	return t == GX_INT2 || t == GX_INT4 || t == GX_INT8 || t == GX_BOOL || GX_JOIN_FLOAT(t);
}

/* a lower join's plan, as gx_plan_join_path made it: a row-returning INNER hash GpuJoin? */
static bool
gx_levels_plain_plan(Plan *plan)
{
	CustomScan *c = (CustomScan *) plan;

	/* (items 0 .. 9, and 10: its gathered output's programs, join_gather_path.cpp) */
	return IsA(plan, CustomScan) && strcmp(c->methods->CustomName, "GpuJoin") == 0 &&
		list_length(c->custom_private) == 11 && intVal(list_nth(c->custom_private, 5)) == 0 &&
		c->custom_exprs == NIL && intVal(linitial(c->custom_private)) == GX_JOIN_INNER &&
		intVal(list_nth(c->custom_private, 9)) == GX_JOIN_HASH;
}

/*
 * The keys of level l's join (okeys, its outer key expressions) as
 * entries of the joined output vector before mapping: outputs of prog
 * (the table relid's columns) or inner columns of the levels below
 * (GX_INNER_OUT); NIL when one is neither, or of a type a level cannot
 * look up
 */
static List *
gx_levels_keys(List *okeys, GxProgram *prog, Index relid, GxInnerCols *icols, Relids *rels,
			   int l)
{
	List	   *refs = NIL;
	ListCell   *lc;

	foreach(lc, okeys)
	{
		Var		   *v = (Var *) copyObjectImpl(lfirst(lc));
		int			t = -1,
					sc,
					o = -1;

		if (!IsA(v, Var) || v->varlevelsup != 0)
			return NIL;
#if PG_VERSION_NUM >= 160000
		v->varnullingrels = NULL;
#endif
		if (v->varno == (int) relid)
			o = gx_program_add_output(prog, (Expr *) v, relid, &t, &sc);
		else if (gx_levels_find(rels, l, v->varno) >= 0)
		{
			o = gx_inner_col(icols, v, &sc);
			if (o >= 0)
				t = list_nth_int(icols->types, o - GX_INNER_OUT(0));
		}
		if (o < 0 || !gx_levels_key_type(t))
			return NIL;
		refs = lappend_int(refs, o);
	}
	return refs;
}

/*
 * The entries' dictionaries (entry_dicts of a GxInnerCols) with inner
 * column c as -(l * GX_JOIN_MAX_COLS + i + 1): column i of level l, where
 * lvl[c] = l, idx[c] = i (gx_join_levels_dict)
 */
static List *
gx_levels_dicts(List *entry_dicts, const int *lvl, const int *idx)
{
	List	   *dicts = NIL;
	ListCell   *lc;

	foreach(lc, entry_dicts)
	{
		int			d = lfirst_int(lc);

		dicts = lappend_int(dicts, d >= 0 ? d :
							-(lvl[-d - 1] * GX_JOIN_MAX_COLS + idx[-d - 1] + 1));
	}
	return dicts;
}

/*
 * At plan time, the multi-level form of aggregating GpuJoin cscan (its
 * custom_private items 0 .. 9 made; see the design note): the lower
 * joins' plans made levels, P's items 10 .. 21 appended; false, with
 * nothing changed, when the shape does not qualify (the caller plans
 * today's form).  outer: P's outer child plan (C1's); opath / ipath:
 * P's sides' paths; okeys: P's outer key expressions; tlist: the partial
 * target list; groups: the estimate (item 18).
 */
static bool
gx_join_levels_left_plan(CustomScan *cscan, Plan *outer, Plan *inner, Path *opath, Path *ipath,
						 List *okeys, List *tlist, Node *groups)
{
	CustomPath *chain[GX_LEVELS_LOWER];
	CustomScan *cplan[GX_LEVELS_LOWER] = {NULL};
	Relids		rels[GX_JOIN_MAX_LEVELS];
	Relids		all = NULL;
	List	   *krefs[GX_JOIN_MAX_LEVELS];
	List	   *cols[GX_JOIN_MAX_LEVELS];
	int			n[GX_JOIN_MAX_LEVELS] = {0};
	int			ibase[GX_JOIN_MAX_LEVELS];
	int			map[GX_JOIN_MAX_COLS * GX_JOIN_MAX_LEVELS];
	int			lvl[GX_JOIN_MAX_COLS * GX_JOIN_MAX_LEVELS];
	Path	   *tpath = NULL;
	Plan	   *tplan;
	Index		relid = 0;
	GxProgram  *prog;
	GxInnerCols icols;
	GxInnerCols top;
	List	   *outs,
			   *scales,
			   *filts,
			   *dscales,
			   *sqs;
	List	   *fixed = NIL,
			   *dicts = NIL,
			   *allrefs = NIL,
			   *iouts;
	Node	   *iprog = (Node *) list_nth(cscan->custom_private, 8);
	int			k,
				base;
	ListCell   *lc;

	/* (the chain of paths, as gx_join_levels_ok walked it) */
	k = gx_levels_chain(opath, chain, &tpath);
	if (k == 0)
		return false;
	for (int i = 0; i < k; i++)
	{
		Plan	   *p = i == 0 ? outer : (Plan *) linitial(cplan[i - 1]->custom_plans);

		if (!gx_levels_plain_plan(p))
			return false;
		cplan[i] = (CustomScan *) p;
	}
	tplan = (Plan *) linitial(cplan[k - 1]->custom_plans);
	for (int l = 0; l <= k; l++)
	{
		rels[l] = l == k ? ipath->parent->relids :
			((Path *) lsecond(chain[k - 1 - l]->custom_paths))->parent->relids;
		all = bms_union(all, rels[l]);
	}
	icols = GxInnerCols{all, NIL, NIL, NIL, NIL, NIL, NIL, GX_JOIN_MAX_COLS * (k + 1)};
	prog = gx_join_side_prog(tplan, (List *) lsecond(cplan[k - 1]->custom_private), false,
							 &relid);
	if (prog == NULL ||
		!gx_group_outputs(prog, tlist, relid, &outs, &scales, &filts, &dscales, &sqs, &icols) ||
		icols.dict_resnos != NIL)
		return false;
	/* each level's keys: an output of the table's program, or a column of a level below */
	for (int l = 1; l <= k; l++)
	{
		krefs[l] = gx_levels_keys(l == k ? okeys : (List *) lsecond(chain[k - 1 - l]->custom_private),
								  prog, relid, &icols, rels, l);
		if (krefs[l] == NIL)
			return false;
	}
	if (prog->params != NIL || prog->may_fallback)
		return false;
	/* the inner columns by level, each level's after the one below */
	foreach(lc, icols.vars)
	{
		int			c = foreach_current_index(lc);

		lvl[c] = gx_levels_find(rels, k + 1, ((Var *) lfirst(lc))->varno);
		map[c] = n[lvl[c]]++;
	}
	base = prog->nouts;
	ibase[0] = base;
	for (int l = 0; l <= k; l++)
	{
		if (n[l] > GX_JOIN_MAX_COLS)
			return false;
		if (l > 0)
			ibase[l] = ibase[l - 1] + n[l - 1];
	}
	if (ibase[k] + n[k] > GX_MAX_OUTS)
		return false;
	foreach(lc, outs)
		fixed = lappend_int(fixed, GX_IS_INNER_OUT(lfirst_int(lc)) ?
							ibase[lvl[lfirst_int(lc) - GX_INNER_OUT(0)]] +
							map[lfirst_int(lc) - GX_INNER_OUT(0)] : lfirst_int(lc));
	for (int l = 1; l <= k; l++)
	{
		foreach(lc, krefs[l])
			if (GX_IS_INNER_OUT(lfirst_int(lc)))
				lfirst_int(lc) = ibase[lvl[lfirst_int(lc) - GX_INNER_OUT(0)]] +
					map[lfirst_int(lc) - GX_INNER_OUT(0)];
		allrefs = lappend(allrefs, krefs[l]);
	}
	dicts = gx_levels_dicts(icols.entry_dicts, lvl, map);
	/* each level's columns: (resno in its inner child, type, scale, dictionary) */
	top = GxInnerCols{rels[k], NIL, NIL, NIL, NIL, NIL, NIL, 0};
	for (int l = 0; l <= k; l++)
	{
		Plan	   *ip = l == k ? inner : (Plan *) lsecond(cplan[k - 1 - l]->custom_plans);

		cols[l] = NIL;
		for (int c = 0; c < list_length(icols.vars); c++)
		{
			Var		   *v = (Var *) list_nth(icols.vars, c);

			if (lvl[c] != l)
				continue;
			cols[l] = list_concat(cols[l],
								  list_make4_int(gx_child_resno(ip, (Expr *) v),
												 list_nth_int(icols.types, c),
												 list_nth_int(icols.scales, c),
												 list_nth_int(icols.dicts, c)));
			if (l == k)
			{
				top.vars = lappend(top.vars, v);
				top.types = lappend_int(top.types, list_nth_int(icols.types, c));
				top.scales = lappend_int(top.scales, list_nth_int(icols.scales, c));
				top.dicts = lappend_int(top.dicts, list_nth_int(icols.dicts, c));
			}
		}
	}
	iouts = gx_join_group_inner_prog(inner, (List *) lthird(cscan->custom_private), &top, &iprog);
	/* the lower joins: levels (their tables in P's session; Ck's outer table the probe stream) */
	for (int l = 0; l < k; l++)
	{
		CustomScan *c = cplan[k - 1 - l];

		lfirst(list_nth_cell(c->custom_private, 5)) = makeInteger(3);
		if (l == 0)
			lfirst(list_nth_cell(c->custom_private, 7)) = (Node *) gx_program_to_const(prog);
		/* (a level returns no rows: its item 10 is its columns, not a gathered output's) */
		c->custom_private = lappend(lappend(list_truncate(c->custom_private, 10), cols[l]),
									makeInteger(ibase[l]));
	}
	/* P */
	lfirst(list_nth_cell(cscan->custom_private, 5)) = makeInteger(2);
	lfirst(list_nth_cell(cscan->custom_private, 7)) = (Node *) makeInteger(0);
	lfirst(list_nth_cell(cscan->custom_private, 8)) = iprog;
	cscan->custom_private =
		lappend(list_concat(list_concat(cscan->custom_private,
										list_make5(fixed, scales, filts, dscales, sqs)),
							list_make5(cols[k], makeInteger(ibase[k]), makeInteger(0), groups,
									   list_make2(dicts, NIL))),
				iouts);
	cscan->custom_private = lappend(cscan->custom_private,
									list_make4(allrefs, makeInteger(base), makeInteger(k + 1),
											   makeInteger(0)));
	return true;
}

/*
 * The right-deep shape's plan (see the design note): P's table is level 0,
 * built from its inner child C's outer child (P's inner keys, ikeys, and
 * level 0's columns resnos there), C's table level 1 (keyed by C's outer
 * keys, level 0's columns); P probes its outer table itself; false, with
 * nothing changed, when the shape does not qualify
 */
static bool
gx_join_levels_right_plan(CustomScan *cscan, Plan *outer, Plan *inner, Path *opath, Path *ipath,
						  List *ikeys, List *tlist, Node *groups)
{
	CustomPath *cpath;
	CustomScan *c = (CustomScan *) inner;
	Plan	   *aplan;
	Relids		rels[2];
	Index		relid = 0;
	GxProgram  *prog;
	GxInnerCols icols;
	List	   *outs,
			   *scales,
			   *filts,
			   *dscales,
			   *sqs;
	List	   *krefs,
			   *ires = NIL,
			   *fixed = NIL,
			   *cols[2] = {NIL, NIL};
	int			map[GX_JOIN_MAX_COLS * 2];
	int			lvl[GX_JOIN_MAX_COLS * 2];
	int			n[2] = {0, 0};
	int			ibase[2];
	ListCell   *lc;

	if (!gx_levels_right(opath, ipath, ikeys, &cpath) || !gx_levels_plain_plan(inner))
		return false;
	aplan = (Plan *) linitial(c->custom_plans);
	rels[0] = ((Path *) linitial(cpath->custom_paths))->parent->relids;
	rels[1] = ((Path *) lsecond(cpath->custom_paths))->parent->relids;
	icols = GxInnerCols{bms_union(rels[0], rels[1]), NIL, NIL, NIL, NIL, NIL, NIL,
		GX_JOIN_MAX_COLS * 2};
	prog = gx_join_side_prog(outer, (List *) lsecond(cscan->custom_private), false, &relid);
	if (prog == NULL ||
		!gx_group_outputs(prog, tlist, relid, &outs, &scales, &filts, &dscales, &sqs, &icols) ||
		icols.dict_resnos != NIL)
		return false;
	/* level 1's keys (C's outer keys): columns of level 0 */
	krefs = gx_levels_keys((List *) lsecond(cpath->custom_private), prog, relid, &icols, rels, 1);
	if (krefs == NIL || prog->params != NIL || prog->may_fallback)
		return false;
	foreach(lc, icols.vars)
	{
		int			i = foreach_current_index(lc);

		lvl[i] = bms_is_member(((Var *) lfirst(lc))->varno, rels[0]) ? 0 : 1;
		map[i] = n[lvl[i]]++;
	}
	ibase[0] = prog->nouts;
	ibase[1] = ibase[0] + n[0];
	if (n[0] > GX_JOIN_MAX_COLS || n[1] > GX_JOIN_MAX_COLS || ibase[1] + n[1] > GX_MAX_OUTS)
		return false;
	foreach(lc, outs)
		fixed = lappend_int(fixed, GX_IS_INNER_OUT(lfirst_int(lc)) ?
							ibase[lvl[lfirst_int(lc) - GX_INNER_OUT(0)]] +
							map[lfirst_int(lc) - GX_INNER_OUT(0)] : lfirst_int(lc));
	foreach(lc, krefs)
		lfirst_int(lc) = ibase[0] + map[lfirst_int(lc) - GX_INNER_OUT(0)];
	/* P's inner keys and each level's columns: resnos in the children that build them */
	foreach(lc, ikeys)
		ires = lappend_int(ires, gx_child_resno(aplan, (Expr *) lfirst(lc)));
	for (int i = 0; i < list_length(icols.vars); i++)
		cols[lvl[i]] = list_concat(cols[lvl[i]],
								   list_make4_int(gx_child_resno(lvl[i] == 0 ? aplan :
																 (Plan *) lsecond(c->custom_plans),
																 (Expr *) list_nth(icols.vars, i)),
												  list_nth_int(icols.types, i),
												  list_nth_int(icols.scales, i),
												  list_nth_int(icols.dicts, i)));
	/* C: level 1 (its outer side is level 0's rows, read by P) */
	lfirst(list_nth_cell(c->custom_private, 5)) = makeInteger(3);
	lfirst(list_nth_cell(c->custom_private, 7)) = (Node *) makeInteger(0);
	c->custom_private = lappend(lappend(list_truncate(c->custom_private, 10), cols[1]),
								makeInteger(ibase[1]));
	/* P: level 0, probing its outer table */
	lfirst(list_nth_cell(cscan->custom_private, 2)) = ires;
	lfirst(list_nth_cell(cscan->custom_private, 5)) = makeInteger(2);
	lfirst(list_nth_cell(cscan->custom_private, 7)) = (Node *) gx_program_to_const(prog);
	lfirst(list_nth_cell(cscan->custom_private, 8)) = (Node *) makeInteger(0);
	cscan->custom_private =
		lappend(list_concat(list_concat(cscan->custom_private,
										list_make5(fixed, scales, filts, dscales, sqs)),
							list_make5(cols[0], makeInteger(ibase[0]), makeInteger(0), groups,
									   list_make2(gx_levels_dicts(icols.entry_dicts, lvl, map),
												  NIL))),
				NIL);
	cscan->custom_private = lappend(cscan->custom_private,
									list_make4(list_make1(krefs), makeInteger(ibase[0]),
											   makeInteger(2), makeInteger(1)));
	return true;
}

/*
 * At plan time, the multi-level form of aggregating GpuJoin cscan, the
 * left-deep shape or the right-deep one (see the design note); false,
 * with nothing changed, when neither qualifies (the caller plans today's
 * form).  outer / inner: P's children's plans; opath / ipath: their
 * paths; okeys / ikeys: P's outer and inner key expressions; tlist: the
 * partial target list; groups: the estimate (item 18).
 */
bool
gx_join_levels_plan(CustomScan *cscan, Plan *outer, Plan *inner, Path *opath, Path *ipath,
					List *okeys, List *ikeys, List *tlist, Node *groups)
{
	CustomPath *chain[GX_LEVELS_LOWER];
	Path	   *tpath;

	if (gx_levels_chain(opath, chain, &tpath) > 0)
		return gx_join_levels_left_plan(cscan, outer, inner, opath, ipath, okeys, tlist, groups);
	return gx_join_levels_right_plan(cscan, outer, inner, opath, ipath, ikeys, tlist, groups);
}
