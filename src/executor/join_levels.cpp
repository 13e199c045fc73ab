/*
 * join_levels.cpp - the multi-level group probe's node side: an
 * aggregating GpuJoin P that absorbs the GpuJoin C below it (planning:
 * src/planner/join_levels_path.cpp; the device side: docs/engine.md,
 * "multi-level group probe").
 *
 * Design note
 * -----------
 * Each lower join C of the chain (C1 .. Ck down P's outer children) has a
 * level's plan (custom_private 5 = 3): its node never returns a row.  It
 * keeps what a GpuJoin has for its table (its inner child, keys, build
 * tasks; its build stores its level's inner columns, gx_join_level_begin)
 * and, for Ck (level 0), its outer device input, whose program computes
 * Ck's keys, then P's group outputs and the upper levels' keys that are
 * expressions of the lowest table.  P is an aggregating GpuJoin
 * (join_agg.cpp) with nlevels k + 1 whose own table is the last level and
 * which reads no outer side itself.  P's run (gx_join_levels_run):
 *
 *  1. P's table, with its inner columns, in P's session (gx_join_build);
 *  2. each level's table, with its columns, in the same session (C->level:
 *     a level neither opens nor closes a session), read through its inner
 *     child;
 *  3. P's group table there (gx_group_prepare);
 *  4. group probes of Ck's outer device input (gx_join_count_input on Ck,
 *     with its grs and upper set while they run): each task is Ck's probe
 *     of its table (level 0) with ext.join.nlevels and levels 1 .. k the
 *     other joins' tables and column stores (gx_join_levels_task).
 *
 * The right-deep shape (P over table T and GpuJoin C of A and B): P's
 * table is level 0, built from C's outer child A (P's inner side from the
 * children's start, gx_join_levels_children; C stays in custom_ps), C's
 * table level 1; P probes T's device input itself.
 *
 * The joined output vector is the program's outputs (Ck's icol_base of
 * them), then each level's columns in level order (each join's
 * icol_base).  An empty level joins nothing (INNER): no group.  Exactness
 * as the aggregating join's: a table that cannot be had (any level), no
 * outer device input, or a probe that could not add every combination (no
 * room, a row left to the host) means P's fallback (PostgreSQL's Partial
 * Aggregate over its join of the row-returning chain), decided before
 * the first row.  The levels forget their tables whenever P's session
 * goes (gx_join_levels_reset); their nodes are never run, so P takes
 * their changed parameters (a rescan) and counts each run as one loop of
 * theirs for EXPLAIN ANALYZE.
 */
#include "gpuext.h"
#include "compat.h"
#include "join_state.h"

extern "C"
{
#include "commands/explain.h"
#include "executor/executor.h"
#include "utils/memutils.h"
}

/* the join whose table is level l of aggregating join st (it may be st) */
static GxJoinState *
gx_join_level_of(GxJoinState *st, int l)
{
	return st->lv[l];
}

/*
 * At a level's node start (C): its inner columns (custom_private 10) and
 * its place in the joined output vector (11); no group table of its own
 * (the aggregating join's is lent to level 0 while its probes run)
 */
void
gx_join_level_begin(GxJoinState *st, CustomScan *cscan)
{
	List	   *priv = cscan->custom_private;
	MemoryContext dcxt;

	if (list_length(priv) < 12 || intVal(list_nth(priv, 9)) != GX_JOIN_HASH ||
		st->mode != GX_JOIN_INNER)
		elog(ERROR, "gpuext: GpuJoin level of a malformed plan");
	st->grs = NULL;
	st->icol_base = intVal(list_nth(priv, 11));
	dcxt = AllocSetContextCreate(st->css.ss.ps.state->es_query_cxt, "GpuJoin dictionaries",
								 ALLOCSET_DEFAULT_SIZES);
	gx_join_agg_cols_begin(st, (List *) list_nth(priv, 10), dcxt);
}

/* the multi-level item (custom_private 21) of an aggregating join's plan, or NIL */
static List *
gx_join_levels_item(List *priv)
{
	if (list_length(priv) > 21 && IsA(list_nth(priv, 21), List) &&
		intVal(list_nth(priv, 5)) == 2)
		return (List *) list_nth(priv, 21);
	return NIL;
}

/* is PlanState ps a GpuJoin planned as a level? */
static bool
gx_join_is_level(PlanState *ps)
{
	return IsA(ps, CustomScanState) &&
		strcmp(((CustomScan *) ps->plan)->methods->CustomName, "GpuJoin") == 0 &&
		((GxJoinState *) ps)->level;
}

/*
 * Right after the children's start: the right-deep shape's aggregating
 * join builds its table (level 0) from its inner child's outer child, so
 * that is its inner side from here on (the inner child itself, level 1,
 * stays in custom_ps: EXPLAIN shows it, EndCustomScan ends it)
 */
void
gx_join_levels_children(GxJoinState *st, CustomScan *cscan)
{
	List	   *item = gx_join_levels_item(cscan->custom_private);

	if (item == NIL || intVal(list_nth(item, 3)) == 0)
		return;
	if (!gx_join_is_level(st->inner_ps))
		elog(ERROR, "gpuext: multi-level GpuJoin without its level above");
	st->right_deep = true;
	st->inner_ps = ((GxJoinState *) st->inner_ps)->outer_ps;
}

/*
 * At the aggregating join's node start (P): its levels, their places in
 * the joined output vector, each level's keys' entries there
 * (custom_private 21).  Left-deep: levels 0 .. k - 1 are the GpuJoins
 * down its outer children (the lowest probes), level k itself;
 * right-deep: level 0 itself (it probes), level 1 its inner child.
 */
void
gx_join_levels_begin(GxJoinState *st, List *item)
{
	List	   *krefs = (List *) linitial(item);
	int			base = intVal(lsecond(item));
	int			n = intVal(lthird(item));

	if (n < 2 || n > GX_JOIN_MAX_LEVELS || list_length(krefs) != n - 1 ||
		(st->right_deep && n != 2))
		elog(ERROR, "gpuext: multi-level GpuJoin of %d levels", n);
	st->nlevels = n;
	if (st->right_deep)
	{
		st->lv[0] = st;
		st->lv[1] = (GxJoinState *) lsecond(st->css.custom_ps);
		st->lv[1]->level_no = 1;
	}
	else
	{
		PlanState  *ps = st->outer_ps;

		st->lv[n - 1] = st;
		for (int l = n - 2; l >= 0; l--)
		{
			if (!gx_join_is_level(ps))
				elog(ERROR, "gpuext: multi-level GpuJoin without its level %d below", l);
			st->lv[l] = (GxJoinState *) ps;
			st->lv[l]->level_no = l;
			ps = st->lv[l]->outer_ps;
		}
	}
	st->prober = st->lv[0];
	for (int l = 0; l < n; l++)
	{
		GxJoinState *j = st->lv[l];
		List	   *refs = l == 0 ? NIL : (List *) list_nth(krefs, l - 1);
		ListCell   *lc;

		if (j->icol_base != (l == 0 ? base : st->lv[l - 1]->icol_base + st->lv[l - 1]->gncols) ||
			(l > 0 && list_length(refs) != j->nkeys))
			elog(ERROR, "gpuext: multi-level GpuJoin whose levels do not follow each other");
		foreach(lc, refs)
			st->lkey_ref[l][foreach_current_index(lc)] = (int16) lfirst_int(lc);
	}
}

/*
 * The dictionary of a string group key whose entry dictionary d < 0 is
 * an inner column: -(l * GX_JOIN_MAX_COLS + c + 1), column c of level l
 * (of this join when it has no levels; join_levels_path.cpp)
 */
GxDict *
gx_join_levels_dict(GxJoinState *st, int d)
{
	int			l = (-d - 1) / GX_JOIN_MAX_COLS;

	if (l >= Max(st->nlevels, 1))
		elog(ERROR, "gpuext: GpuJoin dictionary of a level it does not have");
	return (st->nlevels == 0 ? st : st->lv[l])->gcol_dict[(-d - 1) % GX_JOIN_MAX_COLS];
}

/*
 * A group probe task c of the join that probes (st, level 0) while the
 * aggregating join runs it: levels 1 .. nlevels - 1, each join's table
 * and column store
 */
void
gx_join_levels_task(GxJoinState *st, gx_chunk *c)
{
	GxJoinState *up = st->upper;

	c->ext.join.nlevels = (uint32) up->nlevels;
	for (int l = 1; l < up->nlevels; l++)
	{
		const GxJoinState *j = gx_join_level_of(up, l);
		gx_join_level *v = &c->ext.join.level[l - 1];

		memset(v, 0, sizeof(*v));
		v->cap = j->cap;
		v->kcap = j->kcap;
		v->nkeys = (uint16) j->nkeys;
		v->kfloat = (uint16) j->kfloat;
		for (int k = 0; k < j->nkeys; k++)
			v->key_ref[k] = up->lkey_ref[l][k];
		v->ncols = (uint16) j->gncols;
		v->icol_base = (uint16) j->icol_base;
		for (int i = 0; i < j->gncols; i++)
			v->col_type[i] = (uint8) j->gcol_type[i];
		c->obj[GX_JOIN_OBJ_LEVEL(l)] = j->table;
		c->obj[GX_JOIN_OBJ_LEVEL_COLS(l)] = j->cols_obj;
	}
}

/*
 * The levels' tables and the group probes (steps 1 to 4 of the design
 * note); false when the caller must run the fallback
 */
static bool
gx_join_levels_probe(GxJoinState *st)
{
	GxJoinState *pr = st->prober;
	GxScanState *g = st->grs;
	int64		pairs0;

	if (!st->built)
		gx_join_build(st);
	/* (P's own build chose the fallback already) */
	if (st->fallback)
		return true;
	if (st->icol_base < 0 || !pr->input[0].on || pr->input[0].prog == NULL)
		return false;
	/* (an empty level joins nothing: no group) */
	if (st->table == 0)
		return true;
	for (int l = st->nlevels - 1; l >= 0; l--)
	{
		GxJoinState *c = st->lv[l];

		if (c == st)
			continue;
		c->session = st->session;
		if (!c->built)
			gx_join_build(c);
		if (c->fallback)
			return false;
		if (c->table == 0)
			return true;
	}
	g->session = st->session;
	g->own_session = false;
	gx_group_prepare(g);
	pr->grs = g;
	pr->upper = st;
	pr->group_bad = false;
	pairs0 = pr->stats.pairs;
	PG_TRY();
	{
		gx_join_count_input(pr);
	}
	PG_FINALLY();
	{
		pr->upper = NULL;
		if (pr != st)
			pr->grs = NULL;
	}
	PG_END_TRY();
	if (pr != st)
		st->stats.pairs += pr->stats.pairs - pairs0;
	st->probed = true;
	if (pr->group_bad)
		return false;
	g->grp.reading = true;
	return true;
}

/*
 * This run's groups through the levels (see the design note): false when
 * the caller must run the fallback.  The levels are never run as nodes:
 * their changed parameters are taken here, and EXPLAIN ANALYZE counts
 * their work as one loop each.
 */
bool
gx_join_levels_run(GxJoinState *st)
{
	bool		ok;

	/* (top down: a level's rescan passes its changed parameters to the one below) */
	for (int l = st->nlevels - 1; l >= 0; l--)
	{
		PlanState  *ps = &st->lv[l]->css.ss.ps;

		if (st->lv[l] == st)
			continue;
		/* (a run after the first: the level's children from their start) */
		if (ps->chgParam != NULL || st->levels_ran)
			ExecReScan(ps);
		if (ps->instrument != NULL)
			InstrStartNode(ps->instrument);
	}
	st->levels_ran = true;
	ok = gx_join_levels_probe(st);
	for (int l = 0; l < st->nlevels; l++)
		if (st->lv[l] != st && st->lv[l]->css.ss.ps.instrument != NULL)
			InstrStopNode(st->lv[l]->css.ss.ps.instrument, 0);
	return ok;
}

/* P's session goes: the levels forget their tables (they never close it) */
void
gx_join_levels_reset(GxJoinState *st)
{
	for (int l = 0; l < st->nlevels; l++)
		if (st->lv[l] != st && (st->lv[l]->session != 0 || st->lv[l]->built))
			gx_join_drop_table(st->lv[l]);
}

/*
 * EXPLAIN: an aggregating join's "Levels" and each level's keys; a
 * level's place
 */
void
gx_join_levels_explain(GxJoinState *st, List *ancestors, ExplainState *es)
{
	List	   *anc[GX_JOIN_MAX_LEVELS];

	if (st->level)
		ExplainPropertyText("Multi-Level",
							psprintf("level %d of the GpuJoin that aggregates above%s",
									 st->level_no, st->level_no == 0 ?
									 " (its outer table probed through every level)" : ""),
							es);
	if (st->nlevels < 2)
		return;
	ExplainPropertyInteger("Levels", NULL, st->nlevels, es);
	/* (each level's keys deparsed as its node's, under the nodes above it) */
	for (int l = 0; l < st->nlevels; l++)
	{
		anc[l] = ancestors;
		if (st->lv[l] != st && st->right_deep)
			anc[l] = lcons(st->css.ss.ps.plan, ancestors);
		for (int m = st->nlevels - 1; m > l && st->lv[l] != st && !st->right_deep; m--)
			anc[l] = lcons(st->lv[m]->css.ss.ps.plan, anc[l]);
	}
	for (int l = 0; l < st->nlevels; l++)
		ExplainPropertyText(psprintf("Level %d Keys", l),
							gx_join_keys_text(st->lv[l], anc[l], es), es);
}
