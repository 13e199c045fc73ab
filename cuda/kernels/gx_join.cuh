/*
 * gx_join.cuh - the hash join's table and its per-row steps (GpuJoin,
 * issue 15), shared by the GPU kernels (gx_gpu.cu) and the CPU device
 * (gx_cpu.cpp).
 *
 * Design note
 * -----------
 * An equi-join (INNER, SEMI, ANTI, LEFT, RIGHT, FULL) on one or two
 * integer-like keys (int64 values of
 * bool, int2/4/8, date, timestamp(tz), char8; a NULL key never matches).
 * The table is a session object (layout: gx_program.h, gx_join_layout)
 * built in two steps and then only read:
 *
 *  - JOIN_BUILD (any number of tasks, concurrently): a passing inner row
 *    reserves a row index with one atomic add on hdr.nrows (under cap,
 *    exact: rows past cap are selected for the host, GX_RESULT_FULL, and
 *    never lost), finds or makes its key's slot in an open-addressing key
 *    directory (kslot[kcap], linear probing, EMPTY -> BUSY -> READY once,
 *    as the group table's slots), takes its rank in the key's run with an
 *    atomic add on kcount[slot], and is staged as {slot, rank, payload}.
 *    Distinct keys <= rows <= cap <= kcap / 2, so a reserved row always
 *    finds its slot and probes stay short.  A row the device cannot
 *    evaluate (GX_ERR_HOST) is selected for the host (GX_RESULT_HOST).
 *  - JOIN_FINISH_BUILD: kstart = the exclusive prefix sum of kcount (the
 *    paper's count / prefix sum / scatter; cub::DeviceScan on the GPU),
 *    then each staged row is written to run[kstart[slot] + rank].  The
 *    payloads of a key are one contiguous run: a probe finds its key's
 *    slot and has (start, count) at once, so a skewed key (90% of the
 *    inner rows) costs a probe one lookup, not a walk, and count(*),
 *    SEMI and ANTI never touch the runs.
 *  - JOIN_PROBE (any number of tasks, concurrently; in passes): the
 *    lock-free three-phase output of the paper.  Each outer row has e
 *    entries to write (INNER, RIGHT: its matches, SEMI: 1 if it has one,
 *    ANTI: 1 if it has none or a NULL key, LEFT, FULL: its matches, or 1
 *    (GX_JOIN_PAIR_NO_INNER) if it has none or a NULL key; none in
 *    count_only mode; a row for the host: 1, flagged) and m matches to
 *    count.  (1) count: every tile of
 *    GX_TILE_ROWS rows sums e and m; (2) prefix sum over the tiles: each
 *    tile's first position, the total; (3) write: each row writes its
 *    entries at its position (its tile's plus a scan inside the tile), in
 *    the order of the outer rows and, for a row, of its run.  No entry is
 *    written twice or lost; positions past max_pairs are not written: the
 *    pass ends at the first entry that did not fit (GX_RESULT_MORE,
 *    next_row / next_match), and the next pass starts there, so passes
 *    give exactly the full result.  join_count counts the matches of the
 *    pass (the rows before next_row, and the written part of next_row).
 *    A count-only probe writes no pair: phase 3 has nothing to do.
 *  - Outer joins.  LEFT is a probe mode (INNER's entries, and an entry
 *    for an outer row without a match).  RIGHT and FULL probe as INNER
 *    and LEFT and also mark each key they match: kmatched[slot] = 1 (read
 *    first, so a hot key is written once; an idempotent store, in every
 *    phase and pass, count_only too).  A flag per key is a flag per placed
 *    row: the rows of a key match the same outer rows.  After the last
 *    probe (the host waits for each task, so the marks are visible),
 *    JOIN_UNMATCHED reads a range of the placed rows (staged[], arrival
 *    order): each one whose key slot is unmarked gives its payload (one
 *    atomic add reserves its place; count_only: only counted).  The host
 *    reads [0, rows) in ranges, so every unmatched row comes once.  Inner
 *    rows with a NULL key are not in the table: the host keeps them.
 *    Zeroed memory has no marks; the table is not reused after a probe
 *    of another outer side (the host rebuilds it on a rescan).
 *
 * The range join (ext.join.alg GX_JOIN_RANGE: band and inequality
 * predicates) is gx_jrange.cuh's table under the same build, probe and
 * write steps: gx_jtab_of gives its arrays (run = the payloads in key
 * order), gx_join_build_at appends, and gx_join_find_run, the one step
 * the algorithms do not share, finds an outer row's run by its bounds
 * instead of its key.
 *
 * The merge join (ext.join.alg GX_JOIN_MERGE: equi-joins, sort-merge) is
 * gx_jmerge.cuh's table under the same steps: BUILD appends (as the
 * range join), FINISH sorts and encodes the distinct keys, and a PROBE
 * first extracts, sorts and merges its batch (gx_jmerge_extract,
 * gx_jmerge_walk), which gives each outer row its run (t.mrow), read by
 * gx_join_probe_row instead of evaluating the row again; the count,
 * prefix sum, write and pass steps are the hash join's.  The marks of
 * RIGHT / FULL are per distinct key (kmatched points at umatched), and
 * UNMATCHED reads the sorted rows.
 *
 * Gathered output (ext.join.ngather > 0, gx_join_gather_row): phase 3
 * also writes each entry's columns (outer outputs, evaluated again, and
 * inner columns from the store), so GpuJoin returns rows without reading
 * them back from the heap; the count, prefix sum and passes are as without.
 *
 * Partitioning (later): the key directory and the runs are one partition
 * today; a radix-partitioned table is P such directories and run areas,
 * chosen by the hash's high bits (the paper's split: histogram, prefix
 * sum, scatter), with the same slot, run and probe code per partition.
 *
 * Every index read from the object is clamped to the task's geometry
 * (validated against the object's bytes), so a table built under another
 * geometry can give wrong matches but never an access out of bounds.
 *
 * Device and host code; valid under nvcc and g++ (and NVRTC: no C library
 * header, no PostgreSQL header).
 */
#ifndef GX_JOIN_CUH
#define GX_JOIN_CUH

#include "gx_group.cuh"			/* atomics (GX_G_*), gx_gkey_hash */

#define GX_JOIN_NONE 0xFFFFFFFFu

/* gx_join_build_row */
#define GX_JOIN_ADDED 1
#define GX_JOIN_SKIPPED 0		/* a NULL key: the row joins nothing */
#define GX_JOIN_NO_ROOM (-1)	/* the table is full: the host's */

#include "gx_jrange.cuh"		/* the range join (ext.join.alg GX_JOIN_RANGE) */
#include "gx_jmerge.cuh"		/* the merge join (ext.join.alg GX_JOIN_MERGE) */

/* a join table as a task sees it (its geometry from the task) */
typedef struct gx_jtab
{
	gx_join_hdr *hdr;
	gx_join_kslot *kslot;
	uint32_t   *kcount;
	uint32_t   *kstart;
	uint32_t   *kmatched;		/* RIGHT / FULL: a probe matched the key */
	gx_join_staged *staged;
	int64_t    *run;
	uint32_t	cap;
	uint32_t	kmask;			/* kcap - 1 */
	uint32_t	nkeys;
	uint32_t	rows;			/* placed rows (min(hdr.rows, cap)), for probes */
	uint32_t	noruns;			/* sealed without runs: counts only */
	uint32_t	alg;			/* enum gx_join_alg */
	/* GX_JOIN_RANGE (gx_jrange.cuh): run is the payloads in skey's order */
	int64_t    *key;			/* appended keys */
	int64_t    *pay;			/* ... and payloads */
	int64_t    *skey;			/* the keys sorted */
	/* GX_JOIN_MERGE (gx_jmerge.cuh): key / pay / skey / run as above, and */
	int64_t    *key1;			/* appended second keys (0: one key) */
	int64_t    *skey1;			/* ... sorted */
	uint32_t   *urow;			/* the distinct key of each sorted row */
	int64_t    *ukey0;			/* the distinct keys, ascending */
	int64_t    *ukey1;
	uint32_t   *ustart;			/* where each one's run starts */
	uint32_t	ukeys;			/* distinct keys (min(hdr.keys, rows)) */
	gx_jmerge_row *mrow;		/* PROBE: the batch's rows (gx_jtab_probe_of) */
	/* inner columns (gx_jtab_cols): the store obj[1], else NULL */
	int64_t    *cval;			/* column c of staged row i at c * cap + i */
	uint8_t    *cnull;			/* bit c: column c of row i is NULL */
	uint32_t	ncols;
} gx_jtab;

/*
 * A table view of the object obj under the task's geometry j with no
 * array yet: the header, the geometry, the placed rows (min(hdr.rows,
 * cap)); the algorithm's view fills in its arrays
 */
GX_HD gx_jtab
gx_jtab_base(char *obj, const gx_join_ext *j, uint32_t alg)
{
	gx_jtab		t;

	t.hdr = (gx_join_hdr *) obj;
	t.kslot = 0;
	t.kcount = t.kstart = t.kmatched = 0;
	t.staged = 0;
	t.run = t.key = t.pay = t.skey = 0;
	t.key1 = t.skey1 = t.ukey0 = t.ukey1 = 0;
	t.urow = t.ustart = 0;
	t.ukeys = 0;
	t.mrow = 0;
	t.cval = 0;
	t.cnull = 0;
	t.ncols = 0;
	t.cap = j->cap;
	t.kmask = 0;
	t.nkeys = j->nkeys;
	t.rows = t.hdr->rows < j->cap ? t.hdr->rows : j->cap;
	t.noruns = 0;
	t.alg = alg;
	return t;
}

/* the range join's table object obj under the task's geometry j */
GX_HD gx_jtab
gx_jtab_range_of(char *obj, const gx_join_ext *j)
{
	gx_jrange_offs o;
	gx_jtab		t = gx_jtab_base(obj, j, GX_JOIN_RANGE);

	gx_jrange_layout(j->cap, &o);
	t.key = (int64_t *) (obj + o.key);
	t.pay = (int64_t *) (obj + o.pay);
	t.skey = (int64_t *) (obj + o.skey);
	t.run = (int64_t *) (obj + o.run);
	t.nkeys = 1;
	return t;
}

/* the merge join's table object obj under the task's geometry j */
GX_HD gx_jtab
gx_jtab_merge_of(char *obj, const gx_join_ext *j)
{
	gx_jmerge_offs o;
	gx_jtab		t = gx_jtab_base(obj, j, GX_JOIN_MERGE);

	gx_jmerge_layout(j->cap, &o);
	t.kmatched = (uint32_t *) (obj + o.umatched);	/* per distinct key */
	t.key = (int64_t *) (obj + o.key0);
	t.key1 = (int64_t *) (obj + o.key1);
	t.pay = (int64_t *) (obj + o.pay);
	t.skey = (int64_t *) (obj + o.skey0);
	t.skey1 = (int64_t *) (obj + o.skey1);
	t.run = (int64_t *) (obj + o.run);
	t.urow = (uint32_t *) (obj + o.urow);
	t.ukey0 = (int64_t *) (obj + o.ukey0);
	t.ukey1 = (int64_t *) (obj + o.ukey1);
	t.ustart = (uint32_t *) (obj + o.ustart);
	t.ukeys = t.hdr->keys < t.rows ? t.hdr->keys : t.rows;
	return t;
}

/* the table object obj under the task's geometry j */
GX_HD gx_jtab
gx_jtab_of(char *obj, const gx_join_ext *j)
{
	gx_join_offs o;
	gx_jtab		t;

	if (j->alg == GX_JOIN_RANGE)
		return gx_jtab_range_of(obj, j);
	if (j->alg == GX_JOIN_MERGE)
		return gx_jtab_merge_of(obj, j);
	t = gx_jtab_base(obj, j, GX_JOIN_HASH);
	gx_join_layout(j->cap, j->kcap, &o);
	t.kslot = (gx_join_kslot *) (obj + o.kslot);
	t.kcount = (uint32_t *) (obj + o.kcount);
	t.kstart = (uint32_t *) (obj + o.kstart);
	t.kmatched = (uint32_t *) (obj + o.kmatched);
	t.staged = (gx_join_staged *) (obj + o.staged);
	t.run = (int64_t *) (obj + o.run);
	t.kmask = j->kcap - 1;
	t.noruns = t.hdr->noruns;
	return t;
}

/*
 * Where a merge PROBE of nrows rows has its scratch
 * (gx_jmerge_probe_layout): in its result area res, or the object
 * mscratch (GX_JOIN_MSCRATCH)
 */
GX_HD char *
gx_jmerge_scratch(const gx_join_ext *j, char *res, char *mscratch, uint32_t nrows)
{
	return (j->jflags & GX_JOIN_MSCRATCH) ? mscratch : res + gx_join_scratch_off(nrows);
}

/*
 * The table as a PROBE task of nrows rows sees it: a merge probe also
 * reads its rows' runs from its scratch (gx_jmerge_scratch)
 */
GX_HD gx_jtab
gx_jtab_probe_of(char *obj, const gx_join_ext *j, char *res, char *mscratch, uint32_t nrows)
{
	gx_jtab		t = gx_jtab_of(obj, j);

	if (j->alg == GX_JOIN_MERGE)
	{
		gx_jmerge_probe_offs o;

		gx_jmerge_probe_layout(nrows, &o);
		t.mrow = (gx_jmerge_row *) (gx_jmerge_scratch(j, res, mscratch, nrows) + o.mrow);
	}
	return t;
}

/*
 * The inner column store cols (obj[1], gx_join_cols_bytes(cap, ncols))
 * of a task of j->ncols > 0 columns into t; none when cols is NULL
 */
GX_HD void
gx_jtab_cols(gx_jtab *t, char *cols, const gx_join_ext *j)
{
	if (cols == 0 || j->ncols == 0)
		return;
	t->cval = (int64_t *) cols;
	t->cnull = (uint8_t *) (cols + GX_ALIGN_UP((uint64_t) j->cap * 8 * j->ncols));
	t->ncols = j->ncols;
}

/*
 * BUILD: write the inner columns of a row staged at index idx (< cap),
 * its outputs j->col_out[c], into the store
 */
GX_HD void
gx_join_put_cols(const gx_jtab *t, const gx_join_ext *j, const gx_reg *out, uint32_t idx)
{
	uint32_t	nulls = 0;

	for (uint32_t c = 0; c < t->ncols; c++)
	{
		const gx_reg *r = &out[j->col_out[c]];

		t->cval[(uint64_t) c * t->cap + idx] = r->isnull ? 0 : r->v.i;
		nulls |= (uint32_t) (r->isnull != 0) << c;
	}
	t->cnull[idx] = (uint8_t) nulls;
}

/*
 * Where a BUILD or PROBE task's rows come from, as for FILTER / CACHE_SCAN:
 * the task's own columns, heap pages the device deformed into columns
 * after the input (deform_off), or a cache entry (ext.entry >= 0: the
 * entry's columns, its row map; the rows of the blocks in the task's skip
 * bitmap and padding rows are neither built nor probed).  A PROBE of an
 * entry with ext.map_sel names its outer rows by their row map values.
 */
typedef struct gx_jin
{
	const char *colbase;		/* where the column offsets point */
	const uint32_t *emap;		/* an entry's row map, else NULL */
	const uint32_t *skip_bits;	/* the stale blocks, skip_blocks > 0 */
	uint32_t	skip_blocks;
	uint32_t	map_sel;		/* PROBE: pair.outer = emap[row] */
} gx_jin;

/*
 * The rows of task c ('in': its input as the device sees it; colbase:
 * where its columns lie; entry: the entry's memory, or NULL)
 */
GX_HD gx_jin
gx_jin_of(const gx_chunk *c, const char *in, const char *colbase, const char *entry)
{
	gx_jin		r;

	r.colbase = colbase;
	r.emap = entry != NULL ? (const uint32_t *) (entry + c->ext.rowmap_off) : NULL;
	r.skip_blocks = entry != NULL ? c->ext.skip_blocks : 0;
	r.skip_bits = (const uint32_t *) (in + c->ext.skip_off);
	r.map_sel = entry != NULL ? c->ext.map_sel : 0;
	return r;
}

/* is row 'row' none of the task's rows (a stale block's, or padding)? */
GX_HD int
gx_jin_skipped(const gx_jin *in, uint32_t row)
{
	return in->skip_blocks > 0 && gx_row_skipped(in->skip_bits, in->skip_blocks, in->emap, row);
}

/* the name of outer row 'row' in the pairs: the row, or its row map value */
GX_HD uint32_t
gx_jin_outer(const gx_jin *in, uint32_t row)
{
	return in->map_sel ? in->emap[row] : row;
}

/* the hash of a key (the group table's: splitmix64 over the words) */
GX_HD uint64_t
gx_join_hash(const int64_t *k, uint32_t nkeys)
{
	gx_gkey		g;

	g.nulls = 0;
	for (uint32_t i = 0; i < nkeys; i++)
		g.k[i] = k[i];
	return gx_gkey_hash(&g, nkeys);
}

/*
 * The key slot of key k, or GX_JOIN_NONE.  create (BUILD): make it if it
 * is not there, waiting for a slot another thread is making (BUSY); else
 * (PROBE, the table is sealed) a BUSY slot is passed over, so a probe
 * never waits.  At most kcap probes.
 */
GX_HD uint32_t
gx_join_slot(const gx_jtab *t, const int64_t *k, int create)
{
	uint32_t	i = (uint32_t) gx_join_hash(k, t->nkeys) & t->kmask;

	for (uint32_t probe = 0; probe <= t->kmask; probe++, i = (i + 1) & t->kmask)
	{
		gx_join_kslot *s = &t->kslot[i];

		for (;;)
		{
			uint32_t	st = GX_G_LOAD_ACQ32(&s->state);

			if (st == GX_JSLOT_EMPTY)
			{
				if (!create)
					return GX_JOIN_NONE;
				if (GX_G_CAS32(&s->state, GX_JSLOT_EMPTY, GX_JSLOT_BUSY) != GX_JSLOT_EMPTY)
					continue;
				for (uint32_t q = 0; q < t->nkeys; q++)
					s->key[q] = k[q];
				GX_G_STORE_REL32(&s->state, GX_JSLOT_READY);
				return i;
			}
			if (st == GX_JSLOT_BUSY)
			{
				if (create)
					continue;	/* being made: wait for it */
				break;
			}
			uint32_t	q = 0;

			while (q < t->nkeys && s->key[q] == k[q])
				q++;
			if (q == t->nkeys)
				return i;
			break;				/* another key: probe on */
		}
	}
	return GX_JOIN_NONE;
}

/*
 * A float key as an int64 that is equal exactly where float8eq holds
 * (-0 = 0, every NaN one value; a float4 is exact as a double, as in
 * float48eq), and ordered as float8_cmp orders (gx_float_ord)
 */
GX_HD int64_t
gx_join_float_key(double d)
{
	return gx_float_ord(d == 0.0 ? 0.0 : d);
}

/*
 * The keys of a row whose program passed (its outputs j->key_out) into k,
 * floats (j->kfloat) as gx_join_float_key; 0 when a key is NULL (the row
 * joins nothing), else 1
 */
GX_HD int
gx_join_out_keys(const gx_jtab *t, const gx_join_ext *j, const gx_reg *out, int64_t *k)
{
	for (uint32_t i = 0; i < t->nkeys; i++)
	{
		const gx_reg *r = &out[j->key_out[i]];

		if (r->isnull)
			return 0;
		k[i] = (j->kfloat >> i) & 1 ? gx_join_float_key(r->v.d) : r->v.i;
	}
	return 1;
}

/*
 * The device part of keys k among n (gx_join_ext.part_n): the hash's top
 * 32 bits scaled to n, so the key directory, whose slots come from its
 * low bits, stays spread within a part
 */
GX_HD uint32_t
gx_join_part_of(const int64_t *k, uint32_t nkeys, uint32_t n)
{
	return (uint32_t) (((gx_join_hash(k, nkeys) >> 32) * (uint64_t) n) >> 32);
}

/* is a row with keys k (null: a key is NULL) this task's part's?  (part 0 has the NULL keys) */
GX_HD int
gx_join_in_part(const gx_join_ext *j, const int64_t *k, uint32_t nkeys, int null)
{
	if (j->part_n <= 1)
		return 1;
	return null ? j->part_d == 0 : gx_join_part_of(k, nkeys, j->part_n) == j->part_d;
}

/*
 * BUILD: the keys of an inner row whose program passed into k, and its
 * payload (output j->payload_out, else 'payload', the row's default); 0
 * when a key is NULL or the keys are another device part's, else 1
 */
GX_HD int
gx_join_build_keys(const gx_jtab *t, const gx_join_ext *j, const gx_reg *out, int64_t *k,
				   int64_t *payload)
{
	if (!gx_join_out_keys(t, j, out, k) || !gx_join_in_part(j, k, t->nkeys, 0))
		return 0;
	if (j->payload_out >= 0)
		*payload = out[j->payload_out].isnull ? 0 : out[j->payload_out].v.i;
	return 1;
}

/*
 * BUILD: stage a row with keys k and its payload at row index idx, which
 * the caller reserved with an add on hdr.nrows (exact: an index past cap
 * has no room, and the row goes to the host).  With inner columns
 * (t->ncols > 0) the row's outputs out[j->col_out[c]] go to the store at
 * idx, and its payload is idx.  GX_JOIN_ADDED or GX_JOIN_NO_ROOM.
 */
GX_HD int
gx_join_build_at(const gx_jtab *t, const gx_join_ext *j, const gx_reg *out, const int64_t *k,
				 int64_t payload, uint32_t idx)
{
	if (idx >= t->cap)
	{
		GX_G_STORE_REL32(&t->hdr->full, 1);
		return GX_JOIN_NO_ROOM;
	}
	if (t->ncols > 0)
	{
		gx_join_put_cols(t, j, out, idx);
		payload = (int64_t) idx;
	}
	if (t->alg == GX_JOIN_RANGE || t->alg == GX_JOIN_MERGE)
	{
		/* appended as it comes (a range join: its one key); FINISH sorts */
		t->key[idx] = k[0];
		if (t->alg == GX_JOIN_MERGE)
			t->key1[idx] = t->nkeys > 1 ? k[1] : 0;
		t->pay[idx] = payload;
		return GX_JOIN_ADDED;
	}
	gx_join_staged *st = &t->staged[idx];
	uint32_t	s = gx_join_slot(t, k, 1);

	if (s == GX_JOIN_NONE)
	{
		/* cannot happen (keys <= cap <= kcap / 2): FINISH skips the row */
		st->kslot = GX_JOIN_NONE;
		GX_G_STORE_REL32(&t->hdr->full, 1);
		return GX_JOIN_NO_ROOM;
	}
	st->rank = GX_G_ADD32(&t->kcount[s], 1);
	st->payload = payload;
	st->kslot = s;
	return GX_JOIN_ADDED;
}

/*
 * BUILD: add an inner row whose program passed, its keys and payload in
 * its outputs (j->key_out, j->payload_out; else payload is the row's
 * default, row_base + row), reserving its index alone (the GPU reserves a
 * warp's at once).  GX_JOIN_ADDED, GX_JOIN_SKIPPED (a NULL key) or
 * GX_JOIN_NO_ROOM (the caller selects the row for the host).
 */
GX_HD int
gx_join_build_row(const gx_jtab *t, const gx_join_ext *j, const gx_reg *out, int64_t payload)
{
	int64_t		k[GX_JOIN_MAX_KEYS];

	if (!gx_join_build_keys(t, j, out, k, &payload))
		return GX_JOIN_SKIPPED;
	/* room first, exactly: one atomic add, never taken back */
	if (GX_G_LOAD32(&t->hdr->nrows) >= t->cap)
	{
		GX_G_STORE_REL32(&t->hdr->full, 1);
		return GX_JOIN_NO_ROOM;
	}
	return gx_join_build_at(t, j, out, k, payload, GX_G_ADD32(&t->hdr->nrows, 1));
}

/* FINISH: the staged rows the table holds, min(nrows, cap) */
GX_HD uint32_t
gx_join_staged_rows(const gx_jtab *t)
{
	return t->hdr->nrows < t->cap ? t->hdr->nrows : t->cap;
}

/*
 * FINISH, after kstart = the exclusive prefix sum of kcount: write staged
 * row i's payload into its key's run (indexes clamped to the geometry)
 */
GX_HD void
gx_join_place(const gx_jtab *t, uint32_t i)
{
	const gx_join_staged *st = &t->staged[i];
	uint32_t	s = st->kslot;

	if (s > t->kmask || st->rank >= t->kcount[s])
		return;
	uint32_t	pos = t->kstart[s];

	if (pos >= t->cap || st->rank >= t->cap - pos)
		return;
	t->run[pos + st->rank] = st->payload;
}

/*
 * PROBE: the run of key k (its first place in *start), and its length;
 * 0 when the key is not in the table.  Clamped to the placed rows.  mark
 * (RIGHT / FULL): a key found is marked matched.
 */
GX_HD uint32_t
gx_join_lookup(const gx_jtab *t, const int64_t *k, uint32_t *start, int mark)
{
	uint32_t	s = gx_join_slot(t, k, 0);

	*start = 0;
	if (s == GX_JOIN_NONE)
		return 0;
	/* (a key's slot exists only with a placed row: it has a match) */
	if (mark && GX_G_LOAD32(&t->kmatched[s]) == 0)
		GX_G_STORE_REL32(&t->kmatched[s], 1);
	if (t->noruns)
		return t->kcount[s] < t->rows ? t->kcount[s] : t->rows;	/* counts only */
	uint32_t	st = t->kstart[s];
	uint32_t	n = t->kcount[s];

	if (st >= t->rows)
		return 0;
	if (n > t->rows - st)
		n = t->rows - st;
	*start = st;
	return n;
}

/*
 * PROBE: the run of the table's payloads that outer row's outputs out
 * match (its first place in *start), and its length: the hash join's key
 * (a NULL key matches nothing), or the range join's bounds
 * (gx_jrange_lookup).  The one step the algorithms do not share.
 */
GX_HD uint32_t
gx_join_find_run(const gx_jtab *t, const gx_join_ext *j, const gx_reg *out, uint32_t *start)
{
	int64_t		k[GX_JOIN_MAX_KEYS];

	*start = 0;
	if (t->alg == GX_JOIN_RANGE)
		return gx_jrange_lookup(t->skey, t->rows, j, out, start);
	if (!gx_join_out_keys(t, j, out, k))
		return 0;
	return gx_join_lookup(t, k, start, GX_JOIN_MODE_MARKS(j->mode));
}

/*
 * Merge PROBE, (a) extract: evaluate outer row 'row' of the task (its
 * program once), its state in *mr and its sort keys in *k0 / *k1 (the
 * largest key unless keyed: it sorts last).  Returns GX_ERR_NONE, or the
 * error the row raised (the caller records it; the row gives nothing).
 */
GX_HD int
gx_jmerge_extract(const gx_chunk *prog, const gx_jin *in, const gx_jtab *t,
				  const gx_join_ext *j, uint32_t row, int64_t *k0, int64_t *k1,
				  gx_jmerge_row *mr)
{
	gx_reg		out[GX_MAX_OUTS];
	int64_t		k[GX_JOIN_MAX_KEYS] = {0, 0};
	int			err = GX_ERR_NONE;

	mr->state = GX_JM_NONE;
	mr->start = mr->count = 0;
	*k0 = *k1 = GX_JM_MAX_KEY;
	if (row < j->first_row || gx_jin_skipped(in, row))
		return GX_ERR_NONE;
	if (!gx_eval_row_out(prog, in->colbase, row, &err, out))
	{
		if (err == GX_ERR_HOST)
			mr->state = GX_JM_HOST;
		return err == GX_ERR_HOST ? GX_ERR_NONE : err;
	}
	if (!gx_join_out_keys(t, j, out, k))
	{
		mr->state = GX_JM_NULLKEY;
		return GX_ERR_NONE;
	}
	mr->state = GX_JM_KEYED;
	*k0 = k[0];
	*k1 = t->nkeys > 1 ? k[1] : 0;
	return GX_ERR_NONE;
}

/*
 * UNMATCHED: the payload of placed row i when no probe matched its key
 * (1), else 0 (a merge table: sorted row i, its distinct key's mark)
 */
GX_HD int
gx_join_unmatched_row(const gx_jtab *t, uint32_t i, int64_t *payload)
{
	if (i >= t->rows)
		return 0;
	if (t->alg == GX_JOIN_MERGE)
	{
		uint32_t	u = t->urow[i];

		if (u >= t->ukeys || GX_G_LOAD32(&t->kmatched[u]) != 0)
			return 0;
		*payload = t->run[i];
		return 1;
	}

	const gx_join_staged *st = &t->staged[i];

	if (st->kslot > t->kmask || GX_G_LOAD32(&t->kmatched[st->kslot]) != 0)
		return 0;
	*payload = st->payload;
	return 1;
}

/* what an outer row gives in a probe */
typedef struct gx_jrow
{
	uint32_t	e;				/* entries to write */
	uint32_t	m;				/* matches to count */
	uint32_t	start;			/* INNER: its key's run */
	uint32_t	skip;			/* INNER: matches written by an earlier pass */
	uint32_t	host;			/* the device cannot evaluate it: one entry */
	uint32_t	none;			/* LEFT / FULL: no match: one entry, no inner */
} gx_jrow;

/*
 * PROBE: evaluate outer row 'row' (program prog over the columns at
 * colbase) and what it gives (*jr).  Returns GX_ERR_NONE, or the error the
 * row raised (the caller records it; the row gives nothing).
 */
GX_HD int
gx_join_probe_row(const gx_chunk *prog, const char *colbase, const gx_jtab *t,
				  const gx_join_ext *j, int count_only, uint32_t row, gx_jrow *jr)
{
	gx_reg		out[GX_MAX_OUTS];
	uint32_t	n;
	int			err;

	jr->e = jr->m = jr->start = jr->skip = jr->host = jr->none = 0;
	if (t->alg == GX_JOIN_MERGE)
	{
		/* the merge gave the row its run: its program ran once (extract) */
		const gx_jmerge_row *mr = &t->mrow[row];

		if (mr->state == GX_JM_HOST)
		{
			jr->host = 1;
			jr->e = 1;
			return GX_ERR_NONE;
		}
		if (mr->state != GX_JM_KEYED && mr->state != GX_JM_NULLKEY)
			return GX_ERR_NONE;	/* not probed, or does not pass */
		n = mr->state == GX_JM_KEYED ? mr->count : 0;
		jr->start = mr->start;
	}
	else if (!gx_eval_row_out(prog, colbase, row, &err, out))
	{
		if (err == GX_ERR_HOST)
		{
			jr->host = 1;
			jr->e = 1;
			return GX_ERR_NONE;
		}
		return err;				/* GX_ERR_NONE: the row does not pass */
	}
	else
	{
		/* (a partitioned table: a row of another device's part gives nothing) */
		if (j->part_n > 1)
		{
			int64_t		k[GX_JOIN_MAX_KEYS];

			if (!gx_join_in_part(j, k, t->nkeys, !gx_join_out_keys(t, j, out, k)))
				return GX_ERR_NONE;
		}
		n = gx_join_find_run(t, j, out, &jr->start);
	}
	switch (j->mode)
	{
		case GX_JOIN_INNER:
		case GX_JOIN_RIGHT:
			jr->skip = row == j->first_row ? (j->first_match < n ? j->first_match : n) : 0;
			jr->m = n - jr->skip;
			break;
		case GX_JOIN_LEFT:
		case GX_JOIN_FULL:
			if (n == 0)
			{
				jr->none = 1;	/* no match, or a NULL key: one entry */
				jr->m = 1;
				break;
			}
			jr->skip = row == j->first_row ? (j->first_match < n ? j->first_match : n) : 0;
			jr->m = n - jr->skip;
			break;
		case GX_JOIN_SEMI:
			jr->m = n > 0;
			break;
		default:				/* ANTI: no match, or a NULL key */
			jr->m = n == 0;
			break;
	}
	jr->e = count_only ? 0 : jr->m;
	return GX_ERR_NONE;
}

/* gx_join_probe_row over a task's rows: a skipped row gives nothing */
GX_HD int
gx_join_probe_in(const gx_chunk *prog, const gx_jin *in, const gx_jtab *t,
				 const gx_join_ext *j, int count_only, uint32_t row, gx_jrow *jr)
{
	if (gx_jin_skipped(in, row))
	{
		jr->e = jr->m = jr->start = jr->skip = jr->host = jr->none = 0;
		return GX_ERR_NONE;
	}
	return gx_join_probe_row(prog, in->colbase, t, j, count_only, row, jr);
}

/*
 * Do the entries of outer row *jr in a probe of mode have an inner row
 * (INNER, LEFT, RIGHT, FULL: a match; not a host row's, nor LEFT / FULL's
 * entry of a row without one)?  Entry i's payload is then
 * t->run[jr->start + jr->skip + i].
 */
GX_HD int
gx_join_entry_has_inner(const gx_jrow *jr, uint32_t mode)
{
	return !jr->host && !jr->none && GX_JOIN_MODE_PAIRS(mode);
}

/*
 * PROBE, phase 3: write the entries of outer row 'row' (*jr) from pass
 * position off on, those before max_pairs
 */
GX_HD void
gx_join_write_row(const gx_jtab *t, const gx_jrow *jr, uint32_t mode, uint32_t row,
				  uint64_t off, uint32_t max_pairs, gx_join_pair *pairs)
{
	for (uint32_t i = 0; i < jr->e && off + i < max_pairs; i++)
	{
		gx_join_pair p;

		p.outer = row;
		p.flags = jr->host ? GX_JOIN_PAIR_HOST : jr->none ? GX_JOIN_PAIR_NO_INNER : 0;
		p.inner = gx_join_entry_has_inner(jr, mode) ? t->run[jr->start + jr->skip + i] : 0;
		pairs[off + i] = p;
	}
}

/*
 * Group probe (aggregation over a join: a JOIN_PROBE with ext.ngroup_cap
 * > 0, gx_program.h).  Each outer row is evaluated once (its program's
 * outputs are j[0 .. icol_base) of the joined output vector), finds its
 * run as any probe does, and each joined pair fills j[icol_base + c] with
 * inner column c of its inner row (the store at the row's payload, its
 * staged index) and goes into its group (gx_group_add_out, with the local
 * and global tables of the caller: a GPU block's shared-memory table or a
 * CPU thread's own).  INNER: every pair; LEFT: its pairs, or the row once
 * with the inner columns NULL when it has no match or a NULL key; SEMI:
 * the row once when it has a match; ANTI: once when it has none (a NULL
 * key included); SEMI and ANTI rows have no inner column (NULL; the
 * validator refuses references to them).  A merge probe's rows have their
 * run from the merge (t->mrow) and are evaluated again for their outputs
 * (they passed in the extract and pass again: programs are pure).
 *
 * Nothing is written but the group table; each pair (row) is counted
 * once: added, no room (the group is not in the table and there is no
 * room to make it), or the host's (an outer row the device cannot
 * evaluate, GX_ERR_HOST: once, whatever its matches; a pair with a
 * non-finite float input to a float sum); a pair of another pass's
 * partition counts nowhere.  Host rows are of no partition: with
 * GX_GROUP_SKIP_HOST they are another pass's (not counted), so the pass
 * without it counts them all.  A table sealed without runs
 * (GX_JOIN_NO_RUNS) has no payloads: the inner columns are NULL, as are
 * those of a payload outside the store (a table built under another
 * geometry: wrong groups, never an access out of bounds).
 */

/* what a thread's pairs (rows) of a group probe gave */
typedef struct gx_jgcount
{
	uint64_t	added;			/* into their groups */
	uint64_t	noroom;			/* no room in the group table */
	uint64_t	host;			/* the host's */
} gx_jgcount;

/*
 * The inner columns of the inner row of payload p into jv[icol_base +
 * c]: all NULL for p < 0 (no inner row), without a store, or for a
 * payload outside it
 */
GX_HD void
gx_join_put_inner(const gx_jtab *t, uint32_t ncols, uint32_t icol_base, int64_t p, gx_reg *jv)
{
	for (uint32_t c = 0; c < ncols; c++)
	{
		gx_reg	   *r = &jv[icol_base + c];

		if (t->cval == 0 || c >= t->ncols || p < 0 || p >= (int64_t) t->cap)
		{
			r->isnull = 1;
			r->v.i = 0;
			continue;
		}
		r->isnull = (t->cnull[p] >> c) & 1;
		r->v.i = r->isnull ? 0 : t->cval[(uint64_t) c * t->cap + (uint64_t) p];
	}
}

/* the inner columns of level 0's row of payload p (gx_join_put_inner) */
GX_HD void
gx_join_inner_cols(const gx_jtab *t, const gx_join_ext *j, int64_t p, gx_reg *jv)
{
	gx_join_put_inner(t, j->ncols, j->icol_base, p, jv);
}

/*
 * Gathered output (gx_program.h, "Gathered output"): a PROBE with
 * ext.join.ngather > 0 also writes, in phase 3, the values of each
 * entry's columns j->gather[g] (gx_join_gather_row, where the entries of
 * a row are written: CPU and GPU alike), so that the host need not read
 * the rows again.  The outer columns are outputs of the outer row's
 * program, evaluated again (it passed in phase 1: programs are pure; a
 * merge probe's row, whose run came from the merge, as a group probe's
 * does), the inner ones come from the inner column store (gx_jtab_cols)
 * at the entry's payload, its staged index, as a group probe's do
 * (gx_join_put_inner: NULL without an inner row, without a store, or for
 * a payload outside it).  A table sealed without runs (GX_JOIN_NO_RUNS)
 * has no payloads: its inner columns are NULL.
 */

/*
 * PROBE, phase 3 of a gathering probe: the gathered columns of the
 * entries of outer row 'row' of the task (*jr; row is the task's row, as
 * the program reads it at colbase, not its row map value) from pass
 * position off on, those before max_pairs, into gval / gnull (column g
 * of entry p at g * max_pairs + p).  The program runs only when a column
 * is an outer output and the row is not the host's; a host row's entry
 * has every column NULL (as would an outer output whose evaluation
 * failed, which cannot happen).
 */
GX_HD void
gx_join_gather_row(const gx_chunk *prog, const char *colbase, const gx_jtab *t,
				   const gx_join_ext *j, const gx_jrow *jr, uint32_t row, uint64_t off,
				   uint32_t max_pairs, int64_t *gval, uint8_t *gnull)
{
	gx_reg		out[GX_MAX_OUTS];
	gx_reg		icol[GX_JOIN_MAX_COLS];
	const uint32_t ng = j->ngather < GX_JOIN_MAX_GATHER ? j->ngather : GX_JOIN_MAX_GATHER;
	const uint32_t nc = j->ncols < GX_JOIN_MAX_COLS ? j->ncols : GX_JOIN_MAX_COLS;
	const int	has_inner = gx_join_entry_has_inner(jr, j->mode) && !t->noruns;
	int			outer = 0,
				inner = 0,
				err = GX_ERR_NONE;

	for (uint32_t g = 0; g < ng; g++)
	{
		if (j->gather[g] >= 0)
			outer = 1;
		else
			inner = 1;
	}
	if (jr->host)
		outer = inner = 0;		/* (every column NULL) */
	if (outer)
		outer = gx_eval_row_out(prog, colbase, row, &err, out);
	for (uint32_t i = 0; i < jr->e && off + i < max_pairs; i++)
	{
		const uint64_t at = off + i;

		if (inner)
			gx_join_put_inner(t, nc, 0, has_inner ? t->run[jr->start + jr->skip + i] : -1,
							  icol);
		for (uint32_t g = 0; g < ng; g++)
		{
			const int	ref = j->gather[g];
			const gx_reg *r = 0;

			if (jr->host)
				r = 0;
			else if (ref >= 0)
				r = outer && ref < GX_MAX_OUTS ? &out[ref] : 0;
			else if ((uint32_t) (-1 - ref) < nc)
				r = &icol[-1 - ref];
			gval[(uint64_t) g * max_pairs + at] = r != 0 && !r->isnull ? r->v.i : 0;
			gnull[(uint64_t) g * max_pairs + at] = r == 0 || r->isnull;
		}
	}
}

/*
 * The levels past the first of a multi-level group probe (gx_program.h,
 * "Multi-level group probe"): t[l - 1] is level l's table with its column
 * store, under the level's geometry; n is the task's level count (0 for
 * one table).  Made once per thread (gx_jlevels_of), read for every row.
 */
typedef struct gx_jlevels
{
	uint32_t	n;
	gx_jtab		t[GX_JOIN_MAX_LEVELS - 1];
} gx_jlevels;

/*
 * The view of task ext j's levels over their objects o (validated: every
 * level's table and store are there, of its geometry); *built: every
 * level's table is sealed
 */
GX_HD void
gx_jlevels_of(gx_jlevels *lv, const gx_join_ext *j, const gx_jlevel_objs *o, int *built)
{
	*built = 1;
	lv->n = j->nlevels > 1 && j->nlevels <= GX_JOIN_MAX_LEVELS ? j->nlevels : 0;
	for (uint32_t l = 1; l < lv->n; l++)
	{
		const gx_join_level *v = &j->level[l - 1];
		gx_join_ext e;

		/* (the fields a hash table's view and its store read) */
		e.alg = GX_JOIN_HASH;
		e.cap = v->cap;
		e.kcap = v->kcap;
		e.nkeys = v->nkeys;
		e.ncols = v->ncols;
		lv->t[l - 1] = gx_jtab_of(o->tab[l - 1], &e);
		gx_jtab_cols(&lv->t[l - 1], o->cols[l - 1], &e);
		if (!lv->t[l - 1].hdr->built)
			*built = 0;
	}
}

/* add one joined output vector jv into its group, counted in *n */
GX_HD void
gx_join_group_add(const gx_chunk_ext *x, const gx_agg *aggs, const gx_reg *jv,
				  const gx_gtab *local, const gx_gtab *global, gx_jgcount *n)
{
	switch (gx_group_add_out(x, aggs, jv, local, global))
	{
		case GX_GROUP_ADDED:
			n->added++;
			break;
		case GX_GROUP_NO_ROOM:
			n->noroom++;
			break;
		case GX_GROUP_HOST:
			if (!(x->gflags & GX_GROUP_SKIP_HOST))
				n->host++;
			break;
		default:
			break;				/* another pass's partition */
	}
}

/*
 * Level l's run for the joined output vector jv (its keys jv[key_ref[k]];
 * a NULL key joins nothing): its first place in *start, its length
 */
GX_HD uint32_t
gx_join_level_run(const gx_jlevels *lv, const gx_join_ext *j, uint32_t l, const gx_reg *jv,
				  uint32_t *start)
{
	const gx_join_level *v = &j->level[l - 1];
	int64_t		k[GX_JOIN_MAX_KEYS];

	*start = 0;
	for (uint32_t i = 0; i < v->nkeys && i < GX_JOIN_MAX_KEYS; i++)
	{
		const gx_reg *r = &jv[v->key_ref[i]];

		if (r->isnull)
			return 0;
		k[i] = (v->kfloat >> i) & 1 ? gx_join_float_key(r->v.d) : r->v.i;
	}
	return gx_join_lookup(&lv->t[l - 1], k, start, 0);
}

/*
 * One pair of level 0 (jv: the outer outputs and level 0's columns) into
 * its groups: with one level, itself; with more, every combination of
 * matches through levels 1 .. n - 1 (a depth-first walk with a run per
 * level, each match's columns written into jv before the next level's
 * keys are read from it), each counted in *n
 */
GX_HD void
gx_join_group_levels(const gx_chunk_ext *x, const gx_agg *aggs, const gx_jlevels *lv,
					 gx_reg *jv, const gx_gtab *local, const gx_gtab *global, gx_jgcount *n)
{
	const gx_join_ext *j = &x->join;
	uint32_t	start[GX_JOIN_MAX_LEVELS],
				cnt[GX_JOIN_MAX_LEVELS],
				at[GX_JOIN_MAX_LEVELS];
	uint32_t	l = 1;

	if (lv == 0 || lv->n < 2)
	{
		gx_join_group_add(x, aggs, jv, local, global, n);
		return;
	}
	cnt[1] = gx_join_level_run(lv, j, 1, jv, &start[1]);
	at[1] = 0;
	for (;;)
	{
		if (at[l] == cnt[l])
		{
			if (--l == 0)
				return;
			continue;
		}

		const gx_jtab *t = &lv->t[l - 1];
		const gx_join_level *v = &j->level[l - 1];

		gx_join_put_inner(t, v->ncols, v->icol_base, t->noruns ? -1 : t->run[start[l] + at[l]],
						  jv);
		at[l]++;
		if (l + 1 == lv->n)
		{
			gx_join_group_add(x, aggs, jv, local, global, n);
			continue;
		}
		l++;
		cnt[l] = gx_join_level_run(lv, j, l, jv, &start[l]);
		at[l] = 0;
	}
}

/*
 * Group PROBE: outer row 'row' of the task (program prog, the ext x of
 * the task as staged: join, group table and aggregates aggs) joined with
 * the table t (and, through each pair, the levels lv past the first:
 * NULL or fewer than 2, none), its pairs added into their groups (local,
 * global) and counted in *n.  Returns GX_ERR_NONE, or the error the row
 * raised (the caller records it).
 */
GX_HD int
gx_join_group_row(const gx_chunk *prog, const gx_jin *in, const gx_jtab *t,
				  const gx_jlevels *lv, const gx_chunk_ext *x, const gx_agg *aggs, uint32_t row,
				  const gx_gtab *local, const gx_gtab *global, gx_jgcount *n)
{
	const gx_join_ext *j = &x->join;
	gx_reg		jv[GX_MAX_OUTS];
	uint32_t	start = 0,
				cnt = 0;
	int			err = GX_ERR_NONE;
	int			host = 0;

	if (gx_jin_skipped(in, row))
		return GX_ERR_NONE;
	if (t->alg == GX_JOIN_MERGE)
	{
		const gx_jmerge_row *mr = &t->mrow[row];

		host = mr->state == GX_JM_HOST;
		if (!host && mr->state != GX_JM_KEYED && mr->state != GX_JM_NULLKEY)
			return GX_ERR_NONE;	/* skipped, or does not pass (errors: the extract's) */
		if (!host && !gx_eval_row_out(prog, in->colbase, row, &err, jv))
			return GX_ERR_NONE;	/* (cannot happen: it passed in the extract) */
		cnt = mr->state == GX_JM_KEYED ? mr->count : 0;
		start = mr->start;
	}
	else if (gx_eval_row_out(prog, in->colbase, row, &err, jv))
		cnt = gx_join_find_run(t, j, jv, &start);
	else if (err == GX_ERR_HOST)
		host = 1;
	else
		return err;				/* GX_ERR_NONE: the row does not pass */
	if (host)
	{
		/* the host joins the row: counted once, in the pass that takes host rows */
		if (!(x->gflags & GX_GROUP_SKIP_HOST))
			n->host++;
		return GX_ERR_NONE;
	}
	switch (j->mode)
	{
		case GX_JOIN_INNER:
		case GX_JOIN_LEFT:
			for (uint32_t i = 0; i < cnt; i++)
			{
				gx_join_inner_cols(t, j, t->noruns ? -1 : t->run[start + i], jv);
				gx_join_group_levels(x, aggs, lv, jv, local, global, n);
			}
			if (cnt > 0 || j->mode == GX_JOIN_INNER)
				break;
			/* LEFT without a match: the row once, its inner columns NULL */
			gx_join_inner_cols(t, j, -1, jv);
			gx_join_group_add(x, aggs, jv, local, global, n);
			break;
		case GX_JOIN_SEMI:
		case GX_JOIN_ANTI:
			if ((cnt > 0) != (j->mode == GX_JOIN_SEMI))
				break;
			gx_join_inner_cols(t, j, -1, jv);
			gx_join_group_add(x, aggs, jv, local, global, n);
			break;
		default:
			break;				/* (RIGHT / FULL: refused) */
	}
	return GX_ERR_NONE;
}

#endif							/* GX_JOIN_CUH */
