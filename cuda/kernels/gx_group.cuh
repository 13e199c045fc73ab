/*
 * gx_group.cuh - the group table of GROUP BY on the device (GpuPreAgg):
 * open addressing with linear probing, shared by the GPU kernels (global
 * and shared memory), the compiled kernels (NVRTC) and the CPU device.
 *
 * Design note
 * -----------
 * A table is an array of slots (layout: gx_program.h, gx_group_slot_bytes):
 * a state word, a NULL mask of the keys, the keys as int64, and one
 * gx_agg_pair {val, cnt} per aggregate.  A slot goes EMPTY -> BUSY -> READY
 * once: the thread that wins the compare-and-swap on the state word takes
 * room for the group (or gives the slot back, EMPTY, when there is none),
 * writes the keys and initial states, then publishes READY; a thread that
 * meets a BUSY slot waits for it (independent thread scheduling guarantees
 * the writer progresses, on the GPU as on the CPU).  States are updated with
 * atomics (add for count and sum, min / max), so any number of threads,
 * blocks, tasks and processes of a session add into one table.
 *
 * Room is counted, not found: 'used' (gx_group_hdr) counts the groups
 * made plus those being made, taken exactly (gx_gtab_reserve: an atomic
 * add that succeeds under the limit, never taken back).  A row makes a group only after it reserved
 * one under 'limit' (ngroup_limit, at most half the slots, so that probes
 * stay short); else it is not aggregated and goes to the host (the filter
 * selects it).  The GPU kernels add rows into a small table in shared
 * memory per block (a CPU thread: a table of its own) and merge it into
 * the global table at the end; a group is made in the local table only
 * once it exists in the global one (gx_group_slot), so the merge always
 * finds it: no state is ever lost, and a table that is too small only
 * costs host work.
 *
 * Keys are compared as int64 plus the NULL mask (NULL is a group of its
 * own, as in PostgreSQL); only integer-like device types are keys (bool,
 * int2/4/8, date, timestamp, timestamptz), numeric (at the expression's
 * scale) and GX_CHAR8 (bpchar of at most 8 bytes), for which equality of
 * the stored int64 is PostgreSQL's equality.  MIN / MAX hold integer values
 * (bool_and / bool_or are MIN / MAX of 0/1; numeric at its scale, where
 * NaN, GX_NUMERIC_NAN, is above every number as in PostgreSQL).  SUM128
 * sums exactly in 128 bits over two pairs (gx_add128), numeric NaNs
 * counted apart.  Floats: FMIN / FMAX hold gx_float_ord values (the
 * integer atomics); FSUM adds doubles; FVAR keeps sum x and the sums of
 * x - c and (x - c)^2, c (the shift) the first value added into the slot,
 * and a local table's sums move to the global slot's shift when merged
 * (gx_fvar_add).  A row with a NaN or infinite input to a float sum adds
 * nowhere and goes to the host (GX_GROUP_HOST), so float sums hold finite
 * values only.
 *
 * Several devices: the atomics and fences above are of device scope, not
 * coherent between GPUs, so no two devices ever add into one table: each
 * adds into a table of its own, and GROUP_MERGE then merges one table's
 * groups into another's (gx_group_merge_slot: found or made there, states
 * merged as a block's table merges into the global one), reading the
 * source through peer access and updating only the destination, which is
 * on the device that runs it.
 *
 * Passes: when the groups outgrow the largest table there is room for,
 * the host runs the input again per partition of the key hash's high word
 * (gx_chunk_ext.gpart_mask / gpart_value), a table's worth of groups a
 * pass; the low word places a group in its table, so a partition still
 * spreads over every slot.
 *
 * Device and host code; valid under nvcc, NVRTC and g++.
 */
#ifndef GX_GROUP_CUH
#define GX_GROUP_CUH

#include "gx_eval.cuh"

#ifdef __CUDA_ARCH__
#define GX_G_CAS32(p, e, v) atomicCAS((unsigned int *) (p), (unsigned int) (e), (unsigned int) (v))
#define GX_G_LOAD32(p) (*(volatile uint32_t *) (p))
#define GX_G_STORE_REL32(p, v) (__threadfence(), atomicExch((unsigned int *) (p), (unsigned int) (v)))
#define GX_G_ADD32(p, v) atomicAdd((unsigned int *) (p), (unsigned int) (v))
#define GX_G_ADD64(p, v) atomicAdd((unsigned long long *) (p), (unsigned long long) (v))
#define GX_G_MIN64(p, v) atomicMin((long long *) (p), (long long) (v))
#define GX_G_MAX64(p, v) atomicMax((long long *) (p), (long long) (v))
/*
 * a slot's state word with acquire semantics (device scope): the keys a
 * READY state publishes are then visible without a fence per probe
 */
GX_HD uint32_t
gx_g_load_acq32(const uint32_t *p)
{
	uint32_t	v;

	asm volatile("ld.acquire.gpu.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
	return v;
}
#define GX_G_LOAD_ACQ32(p) gx_g_load_acq32((const uint32_t *) (p))
#define GX_G_CAS64(p, e, v) \
	((int64_t) atomicCAS((unsigned long long *) (p), (unsigned long long) (e), \
						 (unsigned long long) (v)))
#define GX_G_LOAD64(p) (*(volatile int64_t *) (p))
/* (double atomicAdd: sm_60 and later) */
#define GX_G_ADDF64(p, v) atomicAdd((double *) (p), (double) (v))
#else
GX_HD uint32_t
gx_g_cas32(uint32_t *p, uint32_t e, uint32_t v)
{
	__atomic_compare_exchange_n(p, &e, v, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
	return e;
}

GX_HD void
gx_g_min64(int64_t *p, int64_t v)
{
	int64_t		cur = __atomic_load_n(p, __ATOMIC_RELAXED);

	while (v < cur && !__atomic_compare_exchange_n(p, &cur, v, true, __ATOMIC_RELAXED,
												   __ATOMIC_RELAXED))
		;
}

GX_HD void
gx_g_max64(int64_t *p, int64_t v)
{
	int64_t		cur = __atomic_load_n(p, __ATOMIC_RELAXED);

	while (v > cur && !__atomic_compare_exchange_n(p, &cur, v, true, __ATOMIC_RELAXED,
												   __ATOMIC_RELAXED))
		;
}
GX_HD int64_t
gx_g_cas64(int64_t *p, int64_t e, int64_t v)
{
	__atomic_compare_exchange_n(p, &e, v, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
	return e;
}

/* add a double into the double whose bits *p holds (a compare-and-swap loop) */
GX_HD void
gx_g_addf64(int64_t *p, double v)
{
	int64_t		cur = __atomic_load_n(p, __ATOMIC_RELAXED);

	while (!__atomic_compare_exchange_n(p, &cur, gx_dbits(gx_bitsd(cur) + v), true,
										__ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}
#define GX_G_CAS32(p, e, v) gx_g_cas32((uint32_t *) (p), (e), (v))
#define GX_G_CAS64(p, e, v) gx_g_cas64((int64_t *) (p), (int64_t) (e), (int64_t) (v))
#define GX_G_LOAD64(p) __atomic_load_n((int64_t *) (p), __ATOMIC_RELAXED)
#define GX_G_ADDF64(p, v) gx_g_addf64((int64_t *) (p), (double) (v))
#define GX_G_LOAD32(p) __atomic_load_n((uint32_t *) (p), __ATOMIC_ACQUIRE)
#define GX_G_STORE_REL32(p, v) __atomic_store_n((uint32_t *) (p), (uint32_t) (v), __ATOMIC_RELEASE)
#define GX_G_ADD32(p, v) __atomic_fetch_add((uint32_t *) (p), (uint32_t) (v), __ATOMIC_RELAXED)
#define GX_G_ADD64(p, v) __atomic_fetch_add((uint64_t *) (p), (uint64_t) (v), __ATOMIC_RELAXED)
#define GX_G_MIN64(p, v) gx_g_min64((int64_t *) (p), (int64_t) (v))
#define GX_G_MAX64(p, v) gx_g_max64((int64_t *) (p), (int64_t) (v))
#define GX_G_LOAD_ACQ32(p) GX_G_LOAD32(p)
#endif

/*
 * A GPU block's table in shared memory (dynamic shared memory of the
 * filter kernel in group mode): a counter, then the slots.  Its size is
 * fixed, its number of slots follows the slot size.
 */
#define GX_GROUP_SMEM 24576

/* slots of a block's shared-memory table */
GX_HD uint32_t
gx_group_smem_cap(uint32_t slot_bytes)
{
	uint32_t	c = 256;

	while (c > 8 && (uint64_t) c * slot_bytes + 16 > GX_GROUP_SMEM)
		c >>= 1;
	return c;
}

/* one table as a kernel or thread sees it */
typedef struct gx_gtab
{
	char	   *slots;			/* slot 0 */
	uint32_t   *used;			/* groups + reservations */
	uint32_t	mask;			/* slots - 1 */
	uint32_t	limit;			/* 'used' may not pass it */
	uint32_t	nkeys;
	uint32_t	nagg;
	uint32_t	slot_bytes;
} gx_gtab;

/* a row's group key: values and NULL mask, and its hash */
typedef struct gx_gkey
{
	int64_t		k[GX_MAX_GKEYS];
	uint32_t	nulls;
	uint32_t	pad;
	uint64_t	hash;
} gx_gkey;

/* the global table of a task (group table object 'obj') */
GX_HD gx_gtab
gx_gtab_global(char *obj, const gx_chunk_ext *ext)
{
	gx_gtab		t;

	t.slots = obj + sizeof(gx_group_hdr);
	t.used = &((gx_group_hdr *) obj)->used;
	t.mask = ext->ngroup_cap - 1;
	t.limit = ext->ngroup_limit;
	t.nkeys = ext->ngkeys;
	t.nagg = ext->nagg;
	t.slot_bytes = (uint32_t) gx_group_slot_bytes(ext->ngkeys, ext->nagg);
	return t;
}

/*
 * reserve room for a new group in t; 0 when there is none.  Exact: one
 * atomic add, succeeding when the count before it was under the limit,
 * never taken back; so exactly min(attempts, limit) reservations succeed,
 * a failure means the table is full, and a table fills up to its limit on
 * every device whatever the concurrency.  (A compare-and-swap loop would
 * be as exact, but thousands of threads making groups at once retry it
 * without end on the GPU: 1M groups took seconds.)  The load first keeps
 * the counter from running on past the limit: at most the threads in
 * flight add past it.
 */
GX_HD int
gx_gtab_reserve(const gx_gtab *t)
{
	if (GX_G_LOAD32(t->used) >= t->limit)
		return 0;
	return GX_G_ADD32(t->used, 1) < t->limit;
}

/* the hash of a key (splitmix64 over the words and the NULL mask) */
GX_HD uint64_t
gx_gkey_hash(const gx_gkey *key, uint32_t nkeys)
{
	uint64_t	h = 0x9E3779B97F4A7C15ull ^ key->nulls;

	for (uint32_t i = 0; i < nkeys; i++)
	{
		h ^= (uint64_t) key->k[i] + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
		h ^= h >> 30;
		h *= 0xBF58476D1CE4E5B9ull;
		h ^= h >> 27;
		h *= 0x94D049BB133111EBull;
		h ^= h >> 31;
	}
	return h;
}

GX_HD uint32_t *
gx_gslot_state(char *slot)
{
	return (uint32_t *) slot;
}

GX_HD int64_t *
gx_gslot_keys(char *slot)
{
	return (int64_t *) (slot + 8);
}

GX_HD gx_agg_pair *
gx_gslot_aggs(char *slot, uint32_t nkeys)
{
	return (gx_agg_pair *) (slot + 8 + 8 * (uint64_t) nkeys);
}

/* does a READY slot hold this key? */
GX_HD int
gx_gslot_match(char *slot, const gx_gkey *key, uint32_t nkeys)
{
	const int64_t *k = gx_gslot_keys(slot);

	if (((const uint32_t *) slot)[1] != key->nulls)
		return 0;
	for (uint32_t i = 0; i < nkeys; i++)
		if (k[i] != key->k[i])
			return 0;
	return 1;
}

/* write a new group into a slot this thread holds BUSY, then publish it */
GX_HD void
gx_gslot_init(char *slot, const gx_gkey *key, uint32_t nkeys, uint32_t nagg,
			  const gx_agg *aggs)
{
	int64_t    *k = gx_gslot_keys(slot);
	gx_agg_pair *p = gx_gslot_aggs(slot, nkeys);

	((uint32_t *) slot)[1] = key->nulls;
	for (uint32_t i = 0; i < nkeys; i++)
		k[i] = key->k[i];
	for (uint32_t a = 0; a < nagg; a++)
	{
		const int	op = aggs[a].op;

		/*
		 * (a double 0.0 is all zero bits; a float sum starts at -0.0, the
		 * identity of addition, so that a sum of -0 values is -0 as
		 * PostgreSQL's, which starts at the first value)
		 */
		p[a].val = op == GX_AGG_MIN || op == GX_AGG_FMIN ? (int64_t) 0x7FFFFFFFFFFFFFFFll :
			op == GX_AGG_MAX || op == GX_AGG_FMAX || op == GX_AGG_FSUM ?
			(int64_t) (-0x7FFFFFFFFFFFFFFFll - 1) : 0;
		p[a].cnt = op == GX_AGG_FPART && aggs[a - 1].op == GX_AGG_FVAR ? GX_FSHIFT_UNSET : 0;
	}
	GX_G_STORE_REL32(gx_gslot_state(slot), GX_GSLOT_READY);
}

/*
 * The slot of a key's group in table t.  create: make the group if it is
 * not there, when a reservation under t.limit can be had.  NULL: the key
 * is not in the table (and no room to create it).
 */
GX_HD char *
gx_group_find(const gx_gtab *t, const gx_gkey *key, const gx_agg *aggs, int create)
{
	uint32_t	i = (uint32_t) key->hash & t->mask;

	for (uint32_t probe = 0; probe <= t->mask; probe++, i = (i + 1) & t->mask)
	{
		char	   *slot = t->slots + (uint64_t) i * t->slot_bytes;

		for (;;)
		{
			uint32_t	st = GX_G_LOAD_ACQ32(gx_gslot_state(slot));

			if (st == GX_GSLOT_EMPTY)
			{
				if (!create)
					return NULL;
				/*
				 * take the slot, then the room: only the thread that makes
				 * the group reserves, so racing threads cannot use up the
				 * limit between them
				 */
				if (GX_G_CAS32(gx_gslot_state(slot), GX_GSLOT_EMPTY, GX_GSLOT_BUSY) !=
					GX_GSLOT_EMPTY)
					continue;
				if (!gx_gtab_reserve(t))
				{
					GX_G_STORE_REL32(gx_gslot_state(slot), GX_GSLOT_EMPTY);
					return NULL;
				}
				gx_gslot_init(slot, key, t->nkeys, t->nagg, aggs);
				return slot;
			}
			if (st == GX_GSLOT_BUSY)
				continue;		/* being made (or given back) */
			if (gx_gslot_match(slot, key, t->nkeys))
				return slot;
			break;				/* another group: probe on */
		}
	}
	return NULL;
}

/*
 * The slot a row of key adds into: its group in the local table (a GPU
 * block's in shared memory, a CPU thread's own), made there once the
 * group exists in the global table, so that the local table's merge at
 * the end always finds it; or the global group when the local table is
 * full; NULL when the global table has no room for a new group.
 */
GX_HD char *
gx_group_slot(const gx_gtab *local, const gx_gtab *global, const gx_gkey *key,
			  const gx_agg *aggs)
{
	char	   *slot;
	char	   *g;

	if (local->mask == 0)		/* no local table (GX_GROUP_NO_LOCAL) */
		return gx_group_find(global, key, aggs, 1);
	slot = gx_group_find(local, key, aggs, 0);
	if (slot != NULL)
		return slot;
	g = gx_group_find(global, key, aggs, 1);
	if (g == NULL)
		return NULL;
	/* a full local table takes no more groups: do not even try */
	if (GX_G_LOAD32(local->used) >= local->limit)
		return g;
	slot = gx_group_find(local, key, aggs, 1);
	return slot != NULL ? slot : g;
}

/*
 * add (vlo, vhi) = vhi * 2^64 + vlo into the 128-bit sum lo + hi * 2^64:
 * the carry of each atomic addition into lo goes to hi, so the two words
 * are exact once every addition is done
 */
GX_HD void
gx_add128(int64_t *lo, int64_t *hi, uint64_t vlo, int64_t vhi)
{
	uint64_t	old = (uint64_t) GX_G_ADD64(lo, vlo);
	int64_t		carry = old + vlo < old;

	if (vhi + carry != 0)
		GX_G_ADD64(hi, vhi + carry);
}

/*
 * The shift of an FVAR's sums (its first FPART's cnt): c, the first value
 * offered, set once with a compare-and-swap
 */
GX_HD double
gx_fshift(int64_t *word, double c)
{
	int64_t		cur = GX_G_LOAD64(word);

	if (cur == GX_FSHIFT_UNSET)
	{
		cur = GX_G_CAS64(word, GX_FSHIFT_UNSET, gx_dbits(c));
		if (cur == GX_FSHIFT_UNSET)
			return c;
	}
	return gx_bitsd(cur);
}

/*
 * add n finite values into an FVAR at p (p[0] .. p[2]): their sum sx, and
 * their sums shifted by c0, s = sum (x - c0) and q = sum (x - c0)^2, moved
 * to the slot's own shift c (c0 the first time: then d = 0): with
 * d = c0 - c, sum (x - c) = s + n d and sum (x - c)^2 = q + 2 d s + n d^2.
 * The count is the caller's.
 */
GX_HD void
gx_fvar_add(gx_agg_pair *p, double sx, double s, double q, double n, double c0)
{
	const double d = c0 - gx_fshift(&p[1].cnt, c0);

	GX_G_ADDF64(&p[0].val, sx);
	if (d == 0.0)
	{
		GX_G_ADDF64(&p[1].val, s);
		GX_G_ADDF64(&p[2].val, q);
		return;
	}
	GX_G_ADDF64(&p[1].val, s + n * d);
	GX_G_ADDF64(&p[2].val, q + 2.0 * d * s + n * d * d);
}

/*
 * add a row's non-NULL input v of aggregate a (gx_group_agg_input) into
 * the group's states p
 */
GX_HD void
gx_group_add_value(gx_agg_pair *p, const gx_agg *aggs, uint32_t a, int64_t v)
{
	switch (aggs[a].op)
	{
		case GX_AGG_HI:
		case GX_AGG_FPART:
			return;				/* (the aggregate before them adds) */
		case GX_AGG_SUM:
			GX_G_ADD64(&p[a].val, v);
			break;
		case GX_AGG_MIN:
		case GX_AGG_FMIN:		/* (a gx_float_ord value) */
			GX_G_MIN64(&p[a].val, v);
			break;
		case GX_AGG_MAX:
		case GX_AGG_FMAX:
			GX_G_MAX64(&p[a].val, v);
			break;
		case GX_AGG_FSUM:
			GX_G_ADDF64(&p[a].val, gx_bitsd(v));
			break;
		case GX_AGG_FVAR:
			gx_fvar_add(&p[a], gx_bitsd(v), 0.0, 0.0, 1.0, gx_bitsd(v));
			break;
		case GX_AGG_SUM128:
			if (v == GX_NUMERIC_NAN)
			{
				GX_G_ADD64(&p[a + 1].cnt, 1);	/* a NaN: counted apart */
				return;
			}
			gx_add128(&p[a].val, &p[a + 1].val, (uint64_t) v, v < 0 ? -1 : 0);
			break;
		default:
			break;
	}
	if (aggs[a].cnt_of == 0)
		GX_G_ADD64(&p[a].cnt, 1);
}

/* add one row into a group: val[a] / isnull[a] are the aggregates' inputs */
GX_HD void
gx_group_add_row(char *slot, uint32_t nkeys, uint32_t nagg, const gx_agg *aggs,
				 const int64_t *val, uint32_t nulls)
{
	gx_agg_pair *p = gx_gslot_aggs(slot, nkeys);

	for (uint32_t a = 0; a < nagg; a++)
		if (!((nulls >> a) & 1))
			gx_group_add_value(p, aggs, a, val[a]);
}

/* merge the states of a group (src, not shared any more) into dst */
GX_HD void
gx_group_merge(char *dst, const char *src, uint32_t nkeys, uint32_t nagg, const gx_agg *aggs)
{
	gx_agg_pair *p = gx_gslot_aggs(dst, nkeys);
	const gx_agg_pair *q = gx_gslot_aggs((char *) src, nkeys);

	for (uint32_t a = 0; a < nagg; a++)
	{
		if (aggs[a].op == GX_AGG_HI)
		{
			if (q[a].cnt != 0)
				GX_G_ADD64(&p[a].cnt, q[a].cnt);	/* NaNs */
			continue;
		}
		const int64_t n = gx_agg_count(aggs, q, a);

		if (n == 0 || aggs[a].op == GX_AGG_FPART)
			continue;
		switch (aggs[a].op)
		{
			case GX_AGG_SUM:
				GX_G_ADD64(&p[a].val, q[a].val);
				break;
			case GX_AGG_MIN:
			case GX_AGG_FMIN:
				GX_G_MIN64(&p[a].val, q[a].val);
				break;
			case GX_AGG_MAX:
			case GX_AGG_FMAX:
				GX_G_MAX64(&p[a].val, q[a].val);
				break;
			case GX_AGG_FSUM:
				GX_G_ADDF64(&p[a].val, gx_bitsd(q[a].val));
				break;
			case GX_AGG_FVAR:
				/* (q is not shared any more: its shift is set, as cnt > 0) */
				gx_fvar_add(&p[a], gx_bitsd(q[a].val), gx_bitsd(q[a + 1].val),
							gx_bitsd(q[a + 2].val), (double) q[a].cnt, gx_bitsd(q[a + 1].cnt));
				break;
			case GX_AGG_SUM128:
				gx_add128(&p[a].val, &p[a + 1].val, (uint64_t) q[a].val, q[a + 1].val);
				break;
			default:
				break;
		}
		if (aggs[a].cnt_of == 0)
			GX_G_ADD64(&p[a].cnt, n);
	}
}

/*
 * Merge the states of a READY slot src of another table (of t's layout,
 * which no task adds into any more) into its group of table t: found, or
 * made when create and t has room.  1 when merged, 0 when the group is not
 * in t (and no room to make it).
 */
GX_HD int
gx_group_merge_slot(const gx_gtab *t, const char *src, const gx_agg *aggs, int create)
{
	gx_gkey		key;
	char	   *dst;

	key.nulls = ((const uint32_t *) src)[1];
	for (uint32_t k = 0; k < t->nkeys; k++)
		key.k[k] = ((const int64_t *) (src + 8))[k];
	key.hash = gx_gkey_hash(&key, t->nkeys);
	dst = gx_group_find(t, &key, aggs, create);
	if (dst == NULL)
		return 0;
	gx_group_merge(dst, src, t->nkeys, t->nagg, aggs);
	return 1;
}

/*
 * Merge a local table's groups into the global table, where each exists
 * (gx_group_slot); slots i = first, first + step, ... (a GPU block's
 * threads, or one CPU thread).  Returns the groups not found (none, unless
 * the tables were corrupted).
 */
GX_HD uint32_t
gx_group_merge_table(const gx_gtab *local, const gx_gtab *global, const gx_agg *aggs,
					 uint32_t first, uint32_t step)
{
	uint32_t	lost = 0;

	for (uint32_t i = first; i <= local->mask; i += step)
	{
		const char *src = local->slots + (uint64_t) i * local->slot_bytes;

		if (*(const uint32_t *) src == GX_GSLOT_READY &&
			!gx_group_merge_slot(global, src, aggs, 0))
			lost++;
	}
	return lost;
}

/*
 * gx_group_add_out: the row went into its group, found no room, is the
 * host's, or is of another pass's partition (neither added nor selected)
 */
#define GX_GROUP_ADDED 1
#define GX_GROUP_NO_ROOM 0
#define GX_GROUP_HOST (-1)
#define GX_GROUP_OTHER_PASS 2

/*
 * The input of aggregate a from a row's outputs into *v (floats: the
 * double's bits, or its gx_float_ord for FMIN / FMAX); 1 for NULL (or a
 * row its FILTER leaves out, which adds nothing, as a NULL), -1 for a NaN
 * or infinite input of a float sum (the row is the host's), else 0
 */
GX_HD int
gx_group_agg_input(const gx_agg *g, const gx_reg *out, int64_t *v)
{
	*v = 0;
	if (!GX_AGG_FILTER_PASSES(g, out))
		return 1;
	if (g->col < 0)
		return 0;
	if (out[g->col].isnull)
		return 1;
	*v = out[g->col].v.i;
	if (g->op == GX_AGG_FMIN || g->op == GX_AGG_FMAX)
		*v = gx_float_ord(out[g->col].v.d);
	else if ((g->op == GX_AGG_FSUM || g->op == GX_AGG_FVAR) &&
			 (*v & 0x7FFFFFFFFFFFFFFFll) >= 0x7FF0000000000000ll)
		return -1;				/* NaN or +-Infinity */
	return 0;
}

/*
 * Add a passing row into its group: its key and the aggregates' inputs are
 * the program's outputs (x->gkey_col, x->agg[].col: output indexes; -1:
 * count(*)); an aggregate with a FILTER (agg[].filt) takes the row only
 * where its filter output is true.  GX_GROUP_NO_ROOM when the global table
 * has no room for its group, GX_GROUP_HOST for a row with a non-finite
 * input to a float sum: either goes to the host, not added anywhere.
 * GX_GROUP_OTHER_PASS: a pass (x->gpart_mask) whose partition the group
 * is not in.  (Host rows are of no partition: the caller selects them in
 * the pass that takes them, GX_GROUP_SKIP_HOST.)
 */
GX_HD int
gx_group_add_out(const gx_chunk_ext *x, const gx_agg *aggs, const gx_reg *out,
				 const gx_gtab *local, const gx_gtab *global)
{
	gx_gkey		key;
	int64_t		val[GX_MAX_AGGS];
	uint32_t	vnulls = 0;
	char	   *slot;

	key.nulls = 0;
	for (uint32_t i = 0; i < x->ngkeys; i++)
	{
		const gx_reg *r = &out[x->gkey_col[i]];

		key.k[i] = r->isnull ? 0 : r->v.i;
		if (r->isnull)
			key.nulls |= 1u << i;
	}
	key.hash = gx_gkey_hash(&key, x->ngkeys);
	for (uint32_t a = 0; a < x->nagg; a++)
	{
		const int	in = gx_group_agg_input(&aggs[a], out, &val[a]);

		if (in < 0)
			return GX_GROUP_HOST;
		if (in > 0)
			vnulls |= 1u << a;
	}
	/* the high word picks the partition, the low one the slot */
	if (((uint32_t) (key.hash >> 32) & x->gpart_mask) != x->gpart_value)
		return GX_GROUP_OTHER_PASS;
	slot = gx_group_slot(local, global, &key, aggs);
	if (slot == NULL)
		return GX_GROUP_NO_ROOM;
	gx_group_add_row(slot, x->ngkeys, x->nagg, aggs, val, vnulls);
	return GX_GROUP_ADDED;
}

#ifdef __CUDACC__
/*
 * A GPU block's tables in group mode (every thread of the block calls
 * it): *gtab the global table of the group object, *stab the block's own
 * in shared memory smem (GX_GROUP_SMEM bytes of dynamic shared memory; no
 * slot with GX_GROUP_NO_LOCAL), emptied
 */
__device__ __forceinline__ void
gx_group_block_tables(char *group, const gx_chunk_ext *x, char *smem, gx_gtab *gtab,
					  gx_gtab *stab)
{
	*gtab = gx_gtab_global(group, x);
	*stab = *gtab;
	stab->used = (uint32_t *) smem;
	stab->slots = smem + 16;
	stab->mask = (x->gflags & GX_GROUP_NO_LOCAL) ? 0 : gx_group_smem_cap(gtab->slot_bytes) - 1;
	stab->limit = (stab->mask + 1) / 2;
	if (threadIdx.x == 0)
		*stab->used = 0;
	for (uint32_t i = threadIdx.x; i <= stab->mask; i += blockDim.x)
		*gx_gslot_state(stab->slots + (uint64_t) i * stab->slot_bytes) = GX_GSLOT_EMPTY;
	__syncthreads();
}
#endif

#endif							/* GX_GROUP_CUH */
