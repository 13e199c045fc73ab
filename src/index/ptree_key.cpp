/*
 * ptree_key.cpp - gpuext_ptree's keys as order-preserving byte strings:
 * an integer (int4, int8) is its int64 value with the sign bit flipped,
 * big-endian, so unsigned byte order is numeric order and one tree (and a
 * search of either type) serves both; a text is its bytes (byte order:
 * text_pattern_ops' ranges; equality under a deterministic collation).
 */
#include "gpuext.h"
#include "ptree.h"

extern "C"
{
#include "catalog/pg_type.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
}

/* the key kind of an index, from its operator class's input type */
uint32
ptree_key_kind(Relation index)
{
	Oid			typid = index->rd_opcintype[0];

	if (typid == INT4OID || typid == INT8OID)
		return PTREE_KEY_INT;
	if (typid == TEXTOID)
		return PTREE_KEY_TEXT;
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("gpuext_ptree does not index type %s", format_type_be(typid))));
	return 0;					/* not reached */
}

/*
 * A value of type typid as a key of an index of key_kind: a palloc'd byte
 * string, its length in *len.
 */
uint8 *
ptree_encode(Datum value, Oid typid, uint32 key_kind, int *len)
{
	uint8	   *out;

	if (key_kind == PTREE_KEY_INT)
	{
		int64		v;
		uint64		u;

		if (typid == INT4OID)
			v = DatumGetInt32(value);
		else if (typid == INT8OID)
			v = DatumGetInt64(value);
		else
			elog(ERROR, "gpuext_ptree: an integer key of type %u", typid);
		u = ((uint64) v) ^ (UINT64CONST(1) << 63);
		out = (uint8 *) palloc(8);
		for (int i = 7; i >= 0; i--)
		{
			out[i] = (uint8) (u & 0xFF);
			u >>= 8;
		}
		*len = 8;
	}
	else
	{
		text	   *t = DatumGetTextPP(value);

		*len = VARSIZE_ANY_EXHDR(t);
		out = (uint8 *) palloc(*len + 1);
		memcpy(out, VARDATA_ANY(t), *len);
		if ((Pointer) t != DatumGetPointer(value))
			pfree(t);
	}
	return out;
}

/* byte order of two keys; a key sorts before the longer keys it begins */
int
ptree_key_cmp(const uint8 *a, int alen, const uint8 *b, int blen)
{
	int			c = memcmp(a, b, Min(alen, blen));

	if (c != 0)
		return c;
	return (alen > blen) - (alen < blen);
}

/* how many nibbles from nibble from on two keys share */
int
ptree_common_nibbles(const uint8 *a, int alen, const uint8 *b, int blen, int from)
{
	int			n = 2 * Min(alen, blen);
	int			i = from;

	/* whole bytes first, then the half byte where they differ */
	if (i < n && (i & 1))
	{
		if (ptree_nibble(a, i) != ptree_nibble(b, i))
			return 0;
		i++;
	}
	while (i + 1 < n && a[i >> 1] == b[i >> 1])
		i += 2;
	while (i < n && ptree_nibble(a, i) == ptree_nibble(b, i))
		i++;
	return i - from;
}

/* ERROR if a key is too long for an entry */
void
ptree_check_key_length(Relation index, int len)
{
	if (len > PTREE_MAX_KEY)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("index row size %d exceeds gpuext_ptree maximum %d for index \"%s\"",
						len, PTREE_MAX_KEY, RelationGetRelationName(index)),
				 errhint("Values larger than a page cannot be indexed.")));
}
