/*
 * gx_sets.cuh - the search of a big set (GX_OP_INBIGSET: a = ANY over a
 * sorted set of int64 values in device memory, gx_program.h "Big sets"),
 * shared by the CPU device, the GPU interpreter and compiled (JIT)
 * kernels.  Included by gx_eval.cuh where GX_OP_INBIGSET is defined (it
 * uses gx_reg, gx_float_cmp and gx_isint from there).
 *
 * Design note
 * -----------
 * A filter is one large batch of probes (a row each) against one set, so
 * the search is made cheap per row, not per batch:
 *
 *  - Top keys: the backend stores T = a power of 2 (at most 8192, at most
 *    n / 8) keys after the set's n values, top[i] = the first value of
 *    segment i, values [i n / T, (i + 1) n / T) (gx_bigset_seg).  A search
 *    first finds the last top key <= a (log2 T steps, a fixed number, so
 *    a warp does not diverge), then searches that segment of about n / T
 *    values (log2(n / T) + 1 steps).  On the GPU every block of the filter
 *    kernel copies the top keys of its program's sets into shared memory
 *    once (gx_sets_stage: at most GX_SETS_SMEM_KEYS keys a block, sets in
 *    program order while they fit), so for a 1M-value set with 4096 top
 *    keys 12 of 21 steps read shared memory and only the segment's steps
 *    read global memory (L2: 8 MB).  The block marks a staged set in its
 *    own copy of the constants (GX_BIGSET_STAGED and the place, bits the
 *    backend may not set: the validator refuses them), and the search of
 *    a staged set reads the keys there (the same keys: same steps, same
 *    result).  The CPU device reads the top keys in the object.
 *  - p-ary (GX_BIGSET_PARY, gpuext.search = pary): the lanes of a warp
 *    search each of their rows' keys in turn, together (Kaldewey et al.;
 *    gx_search.cuh's steps with a run-time p): the p lanes that evaluate
 *    the instruction (__activemask: a row past the chunk, or one an AND
 *    skipped, is not there; __match_any_sync: only those of this set, as
 *    the interpreter may run two INBIGSETs of a program together, so
 *    every lane of the group takes the same steps and ballots) read p
 *    pivots of the candidate range, the ballot's count of pivots before
 *    the bound narrows it to one of p + 1 parts: log_{p+1} steps over the
 *    top keys, then over the segment.  The CPU device runs the same steps
 *    with the 32 lanes of a full warp in a loop (gx_sets_lanes).
 *
 * Indices are 32-bit (a set has at most GX_BIGSET_MAX values: the
 * validator), pivots exact in 32-bit arithmetic.  Every index read lies
 * in [0, T) of the top keys or [0, n) of the values for any contents (an
 * unsorted set gives a wrong answer, never a read out of bounds); for a
 * sorted set every search gives exactly std::binary_search's answer.
 *
 * Device and host code; valid under nvcc, NVRTC and g++ (no PostgreSQL
 * header).
 */
#ifndef GX_SETS_CUH
#define GX_SETS_CUH

/* top keys staged in a filter block's shared memory, all its sets together */
#define GX_SETS_SMEM_KEYS 8192
/* device-only header flags (the block's own copy of the constants) */
#define GX_BIGSET_STAGED ((int64_t) 1 << 16)	/* its top keys are staged */
#define GX_BIGSET_STAGED_SHIFT 32	/* where: keys from the dynamic smem's start */
/* lanes of the CPU device's p-ary search (a full warp's) */
#define GX_SETS_PARY_LANES 32

#if defined(__CUDACC__)
#define GX_SETS_MHD __host__ __device__ __forceinline__	/* member functions */
#else
#define GX_SETS_MHD inline
#endif

/* set value *v against a (as INSET: integers, or a float's bits as gx_float_cmp orders them) */
GX_HD int
gx_sets_cmp(int isint, const int64_t *v, const gx_reg *a)
{
	if (isint)
		return *v < a->v.i ? -1 : (*v > a->v.i ? 1 : 0);
	return gx_float_cmp(*(const double *) v, a->v.d);
}

/*
 * Binary search: is a among the n sorted values vals (n > 0), with T top
 * keys top (0: none)?  Fixed trip counts: the last top key <= a, then the
 * last value <= a of its segment, compared.
 */
GX_HD int
gx_sets_find_binary(int isint, const int64_t *vals, uint32_t n, const int64_t *top, uint32_t T,
					const gx_reg *a)
{
	uint32_t	base = 0,
				len = n;

	if (T > 0)
	{
		uint32_t	j = 0;

		if (gx_sets_cmp(isint, &top[0], a) > 0)
			return 0;			/* below the first value */
		for (uint32_t half = T >> 1; half > 0; half >>= 1)
			if (gx_sets_cmp(isint, &top[j + half], a) <= 0)
				j += half;
		base = gx_bigset_seg(j, n, T);
		len = gx_bigset_seg(j + 1, n, T) - base;
	}
	else if (gx_sets_cmp(isint, &vals[0], a) > 0)
		return 0;
	/* vals[base] <= a: the last value <= a lies in [base, base + len) */
	while (len > 1)
	{
		uint32_t	half = len >> 1;

		if (gx_sets_cmp(isint, &vals[base + half], a) <= 0)
			base += half;
		len -= half;
	}
	return gx_sets_cmp(isint, &vals[base], a) == 0;
}

/* the CPU device's lanes of a p-ary step: p lanes in a loop */
struct gx_sets_lanes
{
	uint32_t	p;

	template <class F>
	GX_SETS_MHD uint32_t count(F f) const
	{
		uint32_t	m = 0;

		for (uint32_t j = 0; j < p; j++)
			m += f(j) ? 1u : 0u;
		return m;
	}
};

#if defined(__CUDA_ARCH__)
/* the GPU's: the lanes of a warp in mask, lane j the one of rank j */
struct gx_sets_warp
{
	uint32_t	p;
	uint32_t	mask;
	uint32_t	rank;

	template <class F>
	__device__ __forceinline__ uint32_t count(F f) const
	{
		return (uint32_t) __popc(__ballot_sync(mask, f(rank)));
	}
};
#endif

/*
 * pivot j (< p) of a step over [lo, hi): p pivots cut it into p + 1
 * parts, lo + floor((j + 1) (hi - lo) / (p + 1)) in 32-bit arithmetic
 * (hi - lo = q (p + 1) + r)
 */
GX_HD uint32_t
gx_sets_pivot(uint32_t lo, uint32_t hi, uint32_t j, uint32_t p)
{
	const uint32_t len = hi - lo,
				q = len / (p + 1),
				r = len % (p + 1);

	return lo + (j + 1) * q + ((j + 1) * r) / (p + 1);
}

/*
 * The first index of k[lo, hi) whose key is > a (after) or >= a, hi if
 * none, in log_{p+1}(hi - lo) steps of the lanes l (gx_search_bound with
 * a run-time p)
 */
template <class L>
GX_HD uint32_t
gx_sets_pbound(const L &l, int isint, const int64_t *k, uint32_t lo, uint32_t hi, const gx_reg *a,
			   int after)
{
	const uint32_t p = l.p;

	while (lo < hi)
	{
		const uint32_t x = lo,
					y = hi;
		uint32_t	m = l.count([&](uint32_t j) {
			int			c = gx_sets_cmp(isint, &k[gx_sets_pivot(x, y, j, p)], a);

			return after ? c <= 0 : c < 0;
		});

		lo = m > 0 ? gx_sets_pivot(x, y, m - 1, p) + 1 : x;
		hi = m < p ? gx_sets_pivot(x, y, m, p) : y;
	}
	return lo;
}

/* p-ary search with lanes l: as gx_sets_find_binary (every lane gets the answer) */
template <class L>
GX_HD int
gx_sets_find_pary(const L &l, int isint, const int64_t *vals, uint32_t n, const int64_t *top,
				  uint32_t T, const gx_reg *a)
{
	uint32_t	lo = 0,
				hi = n,
				at;

	if (T > 0)
	{
		uint32_t	j = gx_sets_pbound(l, isint, top, 0, T, a, 1);	/* first top > a */

		if (j == 0)
			return 0;
		lo = gx_bigset_seg(j - 1, n, T);
		hi = gx_bigset_seg(j, n, T);
	}
	at = gx_sets_pbound(l, isint, vals, lo, hi, a, 0);	/* first value >= a */
	return at < hi && gx_sets_cmp(isint, &vals[at], a) == 0;
}

#if defined(__CUDA_ARCH__)
/*
 * The GPU's p-ary search of a = ANY (vals, n > 0, T top keys top), a
 * collective of the lanes here whose instruction has the same key (the
 * set's header and type): each active row's key in turn, every lane
 * reading one pivot a step.  Returns whether this lane's a was found (0
 * for a NULL a).  (Its registers would take the interpreter's filter
 * kernel from 64 to 80 a thread: that kernel's launch bounds keep it at
 * 64, 4 blocks a SM; called instead of inlined it took 128.)
 */
static __device__ __forceinline__ int
gx_sets_find_warp(int isint, unsigned key, const int64_t *vals, uint32_t n, const int64_t *top,
				  uint32_t T, const gx_reg *a)
{
	/*
	 * the lanes here that search this set: in the interpreter, lanes at
	 * two instructions (two sets) may run this code together
	 */
	const uint32_t mask = __match_any_sync(__activemask(), key);
	const uint32_t lane = threadIdx.x & 31;
	gx_sets_warp w;
	uint32_t	todo = __ballot_sync(mask, !a->isnull);
	int			found = 0;

	w.p = (uint32_t) __popc(mask);
	w.mask = mask;
	w.rank = (uint32_t) __popc(mask & ((1u << lane) - 1u));
	while (todo != 0)
	{
		const int	src = __ffs(todo) - 1;
		gx_reg		b;
		int			f;

		todo &= todo - 1;
		b.v.i = __shfl_sync(mask, (long long) a->v.i, src);
		b.isnull = 0;
		f = gx_sets_find_pary(w, isint, vals, n, top, T, &b);
		if ((int) lane == src)
			found = f;
	}
	return found;
}
#endif

/*
 * GX_OP_INBIGSET: a = ANY (the big set whose header is at const[k], its
 * values in the sets object at ext.sets; gx_program.h) into d, with
 * INSET's NULL rules.  The validator checked the header against the
 * object.  A p-ary search on the GPU is a warp's collective: every lane
 * that reaches it takes part, whatever its own row needs.
 */
GX_HD void
gx_in_bigset(int type, int k, const gx_chunk *c, gx_reg *d, const gx_reg *a)
{
	const gx_const *h = &c->consts[k];
	const int64_t flags = h[1].v.i;
	const int	has_null = (flags & GX_RUN_HAS_NULL) != 0;
	const int	isint = gx_isint(type) || type == GX_NUMERIC || type == GX_CHAR8;
	uint32_t	n = h[0].v.i > 0 && h[0].v.i <= GX_BIGSET_MAX ? (uint32_t) h[0].v.i : 0;
	const int64_t *vals = (const int64_t *) c->ext.sets;
	const int64_t *top;
	uint32_t	T = gx_bigset_top(flags);
	int			found = 0;

	if (h[0].isnull)
	{
		d->isnull = 1;			/* a NULL array */
		return;
	}
	if (vals == NULL)
		n = 0;					/* (the validator refuses it) */
	else
		vals += h[2].v.i;
	if (n == 0 && !has_null)
	{
		d->v.i = 0;				/* no element: false, even for a NULL a */
		d->isnull = 0;
		return;
	}
	if (T > n)
		T = 0;					/* (the validator refuses it) */
	top = vals + n;
#if defined(__CUDA_ARCH__)
	if (flags & GX_BIGSET_STAGED)
	{
		extern __shared__ __align__(16) char gx_smem[];

		top = (const int64_t *) gx_smem + ((uint64_t) flags >> GX_BIGSET_STAGED_SHIFT);
	}
	if ((flags & GX_BIGSET_PARY) && n > 0)
		found = gx_sets_find_warp(isint, (unsigned) k * 16u + (unsigned) type, vals, n, top, T, a);
	else if (!a->isnull && n > 0)
		found = gx_sets_find_binary(isint, vals, n, top, T, a);
#else
	if (!a->isnull && n > 0)
	{
		gx_sets_lanes l;		/* p-ary: a full warp's lanes in a loop */

		l.p = GX_SETS_PARY_LANES;
		found = (flags & GX_BIGSET_PARY) ? gx_sets_find_pary(l, isint, vals, n, top, T, a) :
			gx_sets_find_binary(isint, vals, n, top, T, a);
	}
#endif
	if (a->isnull)
	{
		d->isnull = 1;
		return;
	}
	d->v.i = found;
	d->isnull = found ? 0 : has_null;
}

/*
 * The top keys of program (code, ninstr, consts) that a filter block
 * stages in shared memory, placed after base keys: each big set that has
 * top keys, in program order, while GX_SETS_SMEM_KEYS are not exceeded.
 * mark (the block's copy of the constants, or NULL) gets each staged
 * set's GX_BIGSET_STAGED and place.  Returns the keys staged: the host
 * sizes the kernel's dynamic shared memory with it (mark NULL, base 0).
 */
GX_HD uint32_t
gx_sets_plan(const gx_instr *code, uint32_t ninstr, const gx_const *consts, gx_const *mark,
			 uint32_t base)
{
	uint32_t	used = 0;

	for (uint32_t pc = 0; pc < ninstr; pc++)
	{
		const gx_const *h;
		uint32_t	T;

		if (code[pc].op != GX_OP_INBIGSET)
			continue;
		h = &consts[code[pc].arg];
		T = gx_bigset_top(h[1].v.i);
		if (h[0].isnull || h[0].v.i <= 0 || T == 0 || T > (uint64_t) h[0].v.i ||
			used + T > GX_SETS_SMEM_KEYS)
			continue;
		if (mark != NULL)
			mark[code[pc].arg + 1].v.i = (h[1].v.i & ~((int64_t) 0xffffffff << 32)) |
				GX_BIGSET_STAGED | ((int64_t) (base + used) << GX_BIGSET_STAGED_SHIFT);
		used += T;
	}
	return used;
}

#if defined(__CUDACC__)
/*
 * A filter block: stage the top keys of its program (prog: the block's
 * copy in shared memory, its constants marked here) from the sets object
 * into the dynamic shared memory smem after base keys; every thread of
 * the block calls it (nthreads of them, this one tid), after the program
 * is staged.
 */
__device__ __forceinline__ void
gx_sets_stage(gx_chunk *prog, int64_t *smem, uint32_t base, uint32_t tid, uint32_t nthreads)
{
	const int64_t *sets = (const int64_t *) prog->ext.sets;

	if (sets == NULL)
		return;					/* (no set has values: the validator) */
	if (tid == 0)
		gx_sets_plan(prog->code, prog->ninstr, prog->consts, prog->consts, base);
	__syncthreads();
	for (uint32_t pc = 0; pc < prog->ninstr; pc++)
	{
		const gx_const *h;

		if (prog->code[pc].op != GX_OP_INBIGSET)
			continue;
		h = &prog->consts[prog->code[pc].arg];
		if (h[1].v.i & GX_BIGSET_STAGED)
		{
			const int64_t *src = sets + h[2].v.i + h[0].v.i;	/* its top keys */
			int64_t    *dst = smem + ((uint64_t) h[1].v.i >> GX_BIGSET_STAGED_SHIFT);
			const uint32_t T = gx_bigset_top(h[1].v.i);

			for (uint32_t i = tid; i < T; i += nthreads)
				dst[i] = src[i];
		}
	}
	__syncthreads();
}
#endif

#endif							/* GX_SETS_CUH */
