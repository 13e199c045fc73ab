/*
 * join_levels.cpp - the multi-level group probe's node side: an
 * aggregating GpuJoin P that absorbs the GpuJoin C below it (planning:
 * src/planner/join_levels_path.cpp; the device side: docs/engine.md,
 * "multi-level group probe").
 *
 * Design note
 * -----------
 * C's plan is a level (custom_private 5 = 3): its node never returns a
 * row.  It keeps what a GpuJoin has for its table (its inner child, keys,
 * build tasks) and its outer device input, whose program computes C's
 * keys, then P's group outputs and keys that are expressions of C's outer
 * table; its build stores level 0's inner columns (gx_join_level_begin).
 * P is an aggregating GpuJoin (join_agg.cpp) with nlevels 2 whose own
 * table is level 1 and which reads no outer side itself.  P's run
 * (gx_join_levels_run):
 *
 *  1. P's table, with its inner columns, in P's session (gx_join_build);
 *  2. C's table, with its columns, in the same session (C->level: C
 *     neither opens nor closes a session), read through C's inner child;
 *  3. P's group table there (gx_group_prepare);
 *  4. group probes of C's outer device input (gx_join_count_input on C,
 *     with C->grs and C->upper set while they run): each task is C's
 *     probe of its table (level 0) with ext.join.nlevels 2 and level 1
 *     P's table and column store (gx_join_levels_task).
 *
 * The joined output vector is the program's outputs (C's icol_base of
 * them), level 0's columns, then level 1's (P's icol_base).  An empty
 * level joins nothing (INNER): no group.  Exactness as the aggregating
 * join's: a table that cannot be had (either level), no outer device
 * input, or a probe that could not add every combination (no room, a
 * row left to the host) means P's fallback (PostgreSQL's Partial
 * Aggregate over its join of the row-returning chain), decided before
 * the first row.  C forgets its table whenever P's session goes
 * (gx_join_levels_reset).
 */
#include "gpuext.h"
#include "join_state.h"

extern "C"
{
#include "commands/explain.h"
#include "executor/executor.h"
#include "utils/memutils.h"
}

/* C, the level under aggregating join st (its outer child) */
static GxJoinState *
gx_join_level_child(GxJoinState *st)
{
	GxJoinState *c = (GxJoinState *) st->outer_ps;

	if (!IsA(c, CustomScanState) ||
		strcmp(((CustomScan *) c->css.ss.ps.plan)->methods->CustomName, "GpuJoin") != 0 ||
		!c->level)
		elog(ERROR, "gpuext: multi-level GpuJoin without its level below");
	return c;
}

/*
 * At a level's node start (C): level 0's inner columns (custom_private
 * 10) and the outputs of its outer program before them (11); no group
 * table of its own (P's is lent while its probes run)
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

/*
 * At the aggregating join's node start (P): its levels and its keys'
 * entries of the joined output vector (custom_private 21)
 */
void
gx_join_levels_begin(GxJoinState *st, List *item)
{
	GxJoinState *c = gx_join_level_child(st);
	List	   *krefs = (List *) linitial(item);
	ListCell   *lc;

	if (list_length(krefs) != st->nkeys || intVal(lsecond(item)) != c->icol_base ||
		intVal(lthird(item)) != c->gncols || st->icol_base != c->icol_base + c->gncols)
		elog(ERROR, "gpuext: multi-level GpuJoin whose levels do not follow each other");
	st->nlevels = intVal(lfourth(item));
	if (st->nlevels != 2)
		elog(ERROR, "gpuext: multi-level GpuJoin of %d levels", st->nlevels);
	foreach(lc, krefs)
		st->lkey_ref[foreach_current_index(lc)] = (int16) lfirst_int(lc);
}

/*
 * The dictionary of a string group key whose entry dictionary d < 0 is
 * an inner column: -(c + 1) this join's column c, -(GX_JOIN_MAX_COLS + 1
 * + c) level 0's (join_levels_path.cpp)
 */
GxDict *
gx_join_levels_dict(GxJoinState *st, int d)
{
	if (d >= -GX_JOIN_MAX_COLS)
		return st->gcol_dict[-d - 1];
	return gx_join_level_child(st)->gcol_dict[-d - 1 - GX_JOIN_MAX_COLS];
}

/*
 * A group probe task c of level st (C) while the join above runs it:
 * level 1, the table and column store of the join above
 */
void
gx_join_levels_task(GxJoinState *st, gx_chunk *c)
{
	const GxJoinState *up = st->upper;
	gx_join_level *v = &c->ext.join.level[0];

	memset(v, 0, sizeof(*v));
	c->ext.join.nlevels = 2;
	v->cap = up->cap;
	v->kcap = up->kcap;
	v->nkeys = (uint16) up->nkeys;
	v->kfloat = (uint16) up->kfloat;
	for (int k = 0; k < up->nkeys; k++)
		v->key_ref[k] = up->lkey_ref[k];
	v->ncols = (uint16) up->gncols;
	v->icol_base = (uint16) up->icol_base;
	for (int i = 0; i < up->gncols; i++)
		v->col_type[i] = (uint8) up->gcol_type[i];
	c->obj[GX_JOIN_OBJ_LEVEL(1)] = up->table;
	c->obj[GX_JOIN_OBJ_LEVEL_COLS(1)] = up->cols_obj;
}

/*
 * This run's groups through the levels (see the design note): false when
 * the caller must run the fallback (P's own build failing has already
 * chosen it)
 */
bool
gx_join_levels_run(GxJoinState *st)
{
	GxJoinState *c = gx_join_level_child(st);
	GxScanState *g = st->grs;
	int64		pairs0;

	/* (C is never run as a node: its changed parameters are taken here) */
	if (c->css.ss.ps.chgParam != NULL)
		ExecReScan(&c->css.ss.ps);
	if (!st->built)
		gx_join_build(st);
	if (st->fallback)
		return true;
	if (st->icol_base < 0 || !c->input[0].on || c->input[0].prog == NULL)
		return false;
	/* (an empty level joins nothing: no group) */
	if (st->table == 0)
		return true;
	c->session = st->session;
	if (!c->built)
		gx_join_build(c);
	if (c->fallback)
		return false;
	if (c->table == 0)
		return true;
	g->session = st->session;
	g->own_session = false;
	gx_group_prepare(g);
	c->grs = g;
	c->upper = st;
	c->group_bad = false;
	pairs0 = c->stats.pairs;
	PG_TRY();
	{
		gx_join_count_input(c);
	}
	PG_FINALLY();
	{
		c->grs = NULL;
		c->upper = NULL;
	}
	PG_END_TRY();
	st->stats.pairs += c->stats.pairs - pairs0;
	st->probed = true;
	if (c->group_bad)
		return false;
	g->grp.reading = true;
	return true;
}

/* P's session goes: the level below forgets its table (it never closes the session) */
void
gx_join_levels_reset(GxJoinState *st)
{
	GxJoinState *c = gx_join_level_child(st);

	if (c->session != 0 || c->built)
		gx_join_drop_table(c);
}

/*
 * EXPLAIN: an aggregating join's "Levels" and each level's keys; a
 * level's place
 */
void
gx_join_levels_explain(GxJoinState *st, List *ancestors, ExplainState *es)
{
	if (st->level)
		ExplainPropertyText("Multi-Level", "level 0 of the GpuJoin above (its outer table probed "
							"through both tables)", es);
	if (st->nlevels < 2)
		return;
	ExplainPropertyInteger("Levels", NULL, st->nlevels, es);
	ExplainPropertyText("Level 0 Keys",
						gx_join_keys_text(gx_join_level_child(st),
										  lcons(st->css.ss.ps.plan, ancestors), es), es);
	ExplainPropertyText("Level 1 Keys", gx_join_keys_text(st, ancestors, es), es);
}
