/*
 * join_dict.cpp - dictionaries of string values, so that a GpuJoin that
 * aggregates its pairs (join_agg.cpp) can group by text, varchar and
 * bpchar columns of rows it lays out itself (the inner child's, or an
 * outer child's that is a join).
 *
 * Design note
 * -----------
 * The device groups by int64 values.  A string column the node reads
 * from a child's rows on the host is put in its batch as the value's id
 * in the column's dictionary: equal strings (under a deterministic
 * collation, which the planner requires: bytewise equality, bpchar's
 * trailing blanks ignored as bpchareq does) get one id, their first
 * value is kept, and a group's key comes back as that value
 * (gx_dict_datum), as PostgreSQL's own grouping returns the first value
 * of a group.  The table is open addressing over the values' hashes
 * (hash_bytes), grown at half load; the values are copied (detoasted)
 * into the dictionary's memory context, which lives as long as the node,
 * so a rescan's ids are the same.  A NULL has no id (the batch's NULL
 * bit).
 */
#include "gpuext.h"
#include "join_state.h"

extern "C"
{
#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "utils/datum.h"
#include "utils/memutils.h"
}

struct GxDict
{
	MemoryContext cxt;
	bool		bpchar;			/* trailing blanks do not count */
	Datum	   *vals;			/* id -> the first value met */
	uint32	   *hashes;			/* id -> its hash */
	uint32		n,
				alloc;
	int64	   *slots;			/* open addressing: id + 1, 0 = empty */
	uint32		mask;
};

/* a dictionary of values of type typid (text, varchar, bpchar) in cxt */
GxDict *
gx_dict_create(MemoryContext cxt, Oid typid)
{
	GxDict	   *d = (GxDict *) MemoryContextAllocZero(cxt, sizeof(GxDict));

	d->cxt = cxt;
	d->bpchar = typid == BPCHAROID;
	d->alloc = 1024;
	d->vals = (Datum *) MemoryContextAlloc(cxt, sizeof(Datum) * d->alloc);
	d->hashes = (uint32 *) MemoryContextAlloc(cxt, sizeof(uint32) * d->alloc);
	d->mask = 2047;
	d->slots = (int64 *) MemoryContextAllocZero(cxt, sizeof(int64) * (d->mask + 1));
	return d;
}

/* the bytes that decide a value's equality (bpchar: without trailing blanks) */
static const char *
gx_dict_bytes(const GxDict *d, Datum v, int *len)
{
	struct varlena *t = (struct varlena *) DatumGetPointer(v);
	const char *p = VARDATA_ANY(t);
	int			n = (int) VARSIZE_ANY_EXHDR(t);

	if (d->bpchar)
		while (n > 0 && p[n - 1] == ' ')
			n--;
	*len = n;
	return p;
}

/* double the slots and place every id again */
static void
gx_dict_grow(GxDict *d)
{
	uint32		mask = d->mask * 2 + 1;
	int64	   *slots = (int64 *) MemoryContextAllocExtended(d->cxt, sizeof(int64) * (mask + 1),
															 MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);

	for (uint32 id = 0; id < d->n; id++)
	{
		uint32		s = d->hashes[id] & mask;

		while (slots[s] != 0)
			s = (s + 1) & mask;
		slots[s] = (int64) id + 1;
	}
	pfree(d->slots);
	d->slots = slots;
	d->mask = mask;
}

/* the id of value v (a new one for a value not met before) */
int64
gx_dict_id(GxDict *d, Datum v)
{
	struct varlena *t = PG_DETOAST_DATUM_PACKED(v);
	int			len;
	const char *p = gx_dict_bytes(d, PointerGetDatum(t), &len);
	uint32		h = hash_bytes((const unsigned char *) p, len);
	uint32		s = h & d->mask;
	MemoryContext old;

	for (; d->slots[s] != 0; s = (s + 1) & d->mask)
	{
		uint32		id = (uint32) (d->slots[s] - 1);
		int			olen;
		const char *o;

		if (d->hashes[id] != h)
			continue;
		o = gx_dict_bytes(d, d->vals[id], &olen);
		if (olen == len && memcmp(o, p, len) == 0)
		{
			if ((Pointer) t != DatumGetPointer(v))
				pfree(t);
			return id;
		}
	}
	if (d->n == d->alloc)
	{
		d->alloc *= 2;
		d->vals = (Datum *) repalloc_huge(d->vals, sizeof(Datum) * d->alloc);
		d->hashes = (uint32 *) repalloc_huge(d->hashes, sizeof(uint32) * d->alloc);
	}
	old = MemoryContextSwitchTo(d->cxt);
	d->vals[d->n] = datumCopy(PointerGetDatum(t), false, -1);
	MemoryContextSwitchTo(old);
	d->hashes[d->n] = h;
	d->slots[s] = (int64) d->n + 1;
	if ((Pointer) t != DatumGetPointer(v))
		pfree(t);
	if ((uint64) ++d->n * 2 > (uint64) d->mask)
		gx_dict_grow(d);
	return d->n - 1;
}

/* the value of id (a group key read back from the device) */
Datum
gx_dict_datum(const GxDict *d, int64 id)
{
	if (id < 0 || id >= (int64) d->n)
		elog(ERROR, "gpuext: dictionary id " INT64_FORMAT " of %u values", id, d->n);
	return d->vals[id];
}
