/*
 * gx_program.h - the chunk and opcode-program format shared by the
 * PostgreSQL side (src/), the CPU interpreter and the CUDA kernels (cuda/).
 *
 * Design note
 * -----------
 * A chunk is one fixed-size region of the shared staging area.  It begins
 * with a gx_chunk header (plain data, no pointers: only offsets relative to
 * the header) that carries the filter program, its constant table and the
 * column directory.  Column values follow, column-major, each column
 * padded to 16 bytes, with an optional null bitmap (bit set = NULL).  The
 * result area (gx_result, then per-tile segment offsets/counts, then the
 * selected row indexes) follows the input, so the input region is one
 * contiguous host-to-device copy.
 *
 * A chunk may instead carry raw heap pages (deform_off != 0): a
 * gx_deform_hdr with the attribute layout of the relation, the page
 * images, and a row map (page index << 16 | line pointer offset) of the
 * visible tuples, in scan order.  The device then deforms the needed
 * attributes of those tuples into the column area itself (gx_deform.cuh)
 * before running the program; the column area and the result area follow
 * the input and are not copied to the device.
 *
 * Transfer modes (gx_chunk.flags): by default the GPU copies the input to
 * its own memory and the result back (copy).  With GX_CHUNK_MAPPED the
 * kernels read the input straight from the (mapped, pinned) staging area
 * over PCIe and write the result area into it: no copies (zero-copy); the
 * columns a page chunk is deformed into stay in device memory.  The
 * result records the mode that ran (gx_result.flags); the CPU device
 * ignores the mode.
 *
 * This header includes no PostgreSQL header and is valid C and C++.
 */
#ifndef GX_PROGRAM_H
#define GX_PROGRAM_H

#ifdef __CUDACC_RTC__
/* NVRTC (gx_jit.cu) has no C library headers: the LP64 types of glibc */
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long uint64_t;
#ifndef INT64_MIN
#define INT64_MIN (-9223372036854775807L - 1)
#endif
#ifndef INT64_MAX
#define INT64_MAX 9223372036854775807L
#endif
#else
#include <stdint.h>
#endif

/*
 * The inline helpers below are host code, and device code for nvcc (the
 * kernels call gx_type_width) and NVRTC (which compiles with
 * -default-device).
 */
#if defined(__CUDACC__) && !defined(__CUDACC_RTC__)
#define GX_INLINE static inline __host__ __device__
#else
#define GX_INLINE static inline
#endif

/* host and device code the kernels inline (gx_eval.cuh, gx_deform.cuh ...) */
#ifdef __CUDACC__
#define GX_HD __host__ __device__ __forceinline__
#else
#define GX_HD static inline
#endif

#define GX_MAX_COLS 64
#define GX_MAX_INSTR 512
#define GX_MAX_CONSTS 256
#define GX_MAX_REGS 64
#define GX_TILE_ROWS 1024		/* rows per block-local compaction tile */
#define GX_ALIGN 16
#define GX_MAX_DEFORM_ATTS 256	/* attributes walked when deforming pages */
#define GX_CACHE_MAX_COLS 32	/* columns of one cache entry */
#define GX_MAX_AGGS 16			/* aggregates computed on the device */
#define GX_MAX_GKEYS 8			/* GROUP BY keys of a device group table */
#define GX_MAX_OUTS (GX_MAX_GKEYS + GX_MAX_AGGS)	/* outputs of a program (GX_OP_OUT) */

/* value types of registers, columns and constants */
enum gx_type
{
	GX_BOOL = 0,				/* 1 byte */
	GX_INT2,					/* 2 bytes */
	GX_INT4,					/* 4 bytes (also date) */
	GX_INT8,					/* 8 bytes (also timestamp, timestamptz) */
	GX_FLOAT4,					/* 4 bytes */
	GX_FLOAT8,					/* 8 bytes */
	GX_NUMERIC,					/* 8 bytes: numeric(p <= 18, s) as an int64
								 * fixed-point value (value * 10^scale); the
								 * scale is the column's (gx_column.scale), or
								 * the compiler's for a register */
	GX_CHAR8,					/* 8 bytes: bpchar(n) of at most 8 bytes (n *
								 * the encoding's longest character <= 8):
								 * an int64 of the value's bytes without its
								 * trailing spaces, byte i at bits 8i .. 8i+7,
								 * zero-padded (gx_char8_pack); equal values
								 * are equal int64s (bpchareq under a
								 * deterministic collation); = <> only */
	GX_NTYPES
};

/*
 * numeric NaN as a GX_NUMERIC value: PostgreSQL sorts NaN above every
 * number and NaN = NaN, so int64 comparisons of values of one scale are
 * PostgreSQL's; arithmetic with a NaN operand gives NaN, and a result that
 * would be INT64_MAX (or INT64_MIN) as a number needs the host
 * (GX_ERR_HOST): device numbers are those of |v| < INT64_MAX.
 */
#define GX_NUMERIC_NAN INT64_MAX
#define GX_NUMERIC_MAX_SCALE 18	/* largest scale of a value or shift */

/*
 * Unconstrained numeric (no typmod): a column of gx_column.scale
 * GX_NUMERIC_FREE holds, per row, value * 10^GX_NUMERIC_FREE_SCALE (the
 * scale its registers get) times 8 plus the value's dscale (0 .. 6), for
 * values of dscale <= 6 and |value| < 10^12, i.e. those numeric(18,6)
 * holds (gx_numeric_free_encode); NaN is GX_NUMERIC_NAN and every other
 * value (more digits, larger, an infinity, compressed or stored out of
 * line) is GX_NUMERIC_UNFIT, which GX_OP_LDCOL turns into GX_ERR_HOST:
 * PostgreSQL evaluates that row.  GX_OP_DSCALE reads the dscale, so that
 * sum/avg can give PostgreSQL's result scale (the largest dscale).
 */
#define GX_NUMERIC_FREE 64		/* gx_column.scale of such a column */
#define GX_NUMERIC_FREE_SCALE 6 /* the scale of its values in registers */
#define GX_NUMERIC_FREE_LIMIT 1000000000000000000LL /* |value * 10^6| < 10^18 */
#define GX_NUMERIC_UNFIT INT64_MIN	/* a stored value the device cannot hold */

/*
 * bytes of a value of gx_type t (also its alignment), 0 for an unknown
 * type: the one definition of the device types' widths
 */
GX_INLINE uint32_t
gx_type_width(uint32_t t)
{
	switch (t)
	{
		case GX_BOOL:
			return 1;
		case GX_INT2:
			return 2;
		case GX_INT4:
		case GX_FLOAT4:
			return 4;
		case GX_INT8:
		case GX_FLOAT8:
		case GX_NUMERIC:
		case GX_CHAR8:
			return 8;
		default:
			return 0;
	}
}

/* bytes of a validity bitmap of n rows: 32-bit words, bit set = NULL */
GX_INLINE uint64_t
gx_bitmap_bytes(uint64_t n)
{
	return (n + 31) / 32 * 4;
}

/* opcodes; "a", "b" are source registers, "dst" the destination */
enum gx_op
{
	GX_OP_LDCOL = 0,			/* dst = column[arg] of type 'type' */
	GX_OP_LDCONST,				/* dst = const[arg] */
	GX_OP_ADD,					/* dst = a + b  (type) strict; numeric: see
								 * below */
	GX_OP_SUB,
	GX_OP_MUL,
	GX_OP_DIV,
	GX_OP_MOD,
	GX_OP_NEG,					/* dst = -a */
	GX_OP_CAST,					/* dst(type) = a(arg = source type) */
	GX_OP_EQ,					/* dst(bool) = a cmp b, comparing as 'type' */
	GX_OP_NE,
	GX_OP_LT,
	GX_OP_LE,
	GX_OP_GT,
	GX_OP_GE,
	GX_OP_SETBOOL,				/* dst = arg (0/1), not null */
	GX_OP_ANDSTEP,				/* acc=dst: a false -> dst=false, jump; a null -> dst null */
	GX_OP_ORSTEP,				/* acc=dst: a true -> dst=true, jump; a null -> dst null */
	GX_OP_NOT,					/* dst = NOT a (strict) */
	GX_OP_ISNULL,				/* dst = a IS NULL */
	GX_OP_ISNOTNULL,
	GX_OP_ISTRUE,
	GX_OP_ISNOTTRUE,
	GX_OP_ISFALSE,
	GX_OP_ISNOTFALSE,
	GX_OP_QUAL,					/* a null or false -> row rejected */
	GX_OP_CMPDT,				/* dst(bool) = date a <arg> timestamp b, arg an
								 * op GX_OP_EQ..GX_OP_GE (date_cmp_timestamp) */
	GX_OP_INSET,				/* dst(bool) = a = ANY (the set run at const[arg]),
								 * comparing as 'type' */
	GX_OP_INRANGES,				/* dst(bool) = a lies in the ranges run at
								 * const[arg] (integers) */
	GX_OP_OUT,					/* output arg (0 .. GX_MAX_OUTS - 1) = a, a
								 * value of 'type' (the program's tail: a
								 * passing row's group keys and aggregate
								 * inputs in group mode) */
	GX_OP_EXTRACT,				/* dst(type) = field of date / timestamp a:
								 * arg = GX_DT_* field | GX_DT_TS (a is a
								 * timestamp, else a date); type GX_NUMERIC
								 * (extract: scale 6 for a timestamp's
								 * second and epoch, else 0) or GX_FLOAT8
								 * (date_part) */
	GX_OP_DATETRUNC,			/* dst(INT8) = date_trunc(arg field, timestamp a) */
	GX_OP_DATE2TS,				/* dst(INT8) = date a as a timestamp (date2timestamp) */
	GX_OP_DSCALE,				/* dst(INT8) = the dscale of the value of
								 * column[arg], a GX_NUMERIC column of scale
								 * GX_NUMERIC_FREE (0 for NaN) */
	GX_OP_INBIGSET,				/* dst(bool) = a = ANY (a big set: its header
								 * at const[arg], its values in the task's
								 * sets object), comparing as 'type' */
	GX_OP_COUNT
};

/*
 * Fields of GX_OP_EXTRACT and GX_OP_DATETRUNC (PostgreSQL's units).  An
 * infinite input, or a result PostgreSQL raises an error for (a date past
 * the timestamp range, a truncation below the first timestamp), makes the
 * row GX_ERR_HOST: the host evaluates it (the NULL / +-Infinity results of
 * infinities differ between versions and are no device numeric).
 */
enum gx_dt_field
{
	GX_DT_YEAR = 0,
	GX_DT_QUARTER,
	GX_DT_MONTH,
	GX_DT_DAY,
	GX_DT_DOW,
	GX_DT_ISODOW,
	GX_DT_DOY,
	GX_DT_EPOCH,
	GX_DT_HOUR,					/* timestamp only from here on */
	GX_DT_MINUTE,
	GX_DT_SECOND,
	GX_DT_NFIELDS
};

#define GX_DT_TS 0x100			/* GX_OP_EXTRACT: the source is a timestamp */
#define GX_POSTGRES_EPOCH_JDATE 2451545	/* date2j(2000, 1, 1) */
#define GX_MIN_TIMESTAMP (-211813488000000000LL)	/* 4714-11-24 BC 00:00 */
#define GX_UNIX_EPOCH_USECS (-946684800000000LL)	/* 1970-01-01 as a timestamp */

/*
 * GX_NUMERIC instructions (values at scales the compiler tracks):
 *  - ADD, SUB and the comparisons EQ .. GE: arg is the shift between the
 *    operands' scales: arg > 0 scales b up by 10^arg, arg < 0 scales a up
 *    by 10^-arg (|arg| <= GX_NUMERIC_MAX_SCALE); ADD/SUB give the larger
 *    scale.  A comparison is exact even where the shift overflows.
 *  - MUL: a * b at the sum of the scales (arg 0).
 *  - NEG: -a.  CAST to GX_NUMERIC from an integer type (arg): scale 0.
 *  A result (or shifted operand) that does not fit an int64 makes the row
 *  GX_ERR_HOST; DIV, MOD and casts from GX_NUMERIC are not device code.
 */
/*
 * Runs of constants (GX_OP_INSET, GX_OP_INRANGES): a two-entry header,
 * then the run's values, sorted ascending, in the constant table.
 *   const[arg]:      v.i = n, the number of values (a device reads at most
 *                    nconsts - arg - 2 of them); isnull = the result is
 *                    NULL for every row (a NULL array, a NULL bound)
 *   const[arg + 1]:  v.i = GX_RUN_* flags
 *   const[arg + 2 ...]: the values
 * INSET: distinct non-NULL elements of an array (floats ordered as
 * gx_float_cmp orders them); an array without elements gives false, even
 * for a NULL a, a NULL a otherwise NULL, a miss NULL when the array has a
 * NULL element (GX_RUN_HAS_NULL): ScalarArrayOpExpr's rules for = ANY.
 * INRANGES: bounds b0 <= b1 <= ...; a is in the ranges when an odd number
 * of bounds is <= a (so [b0, b1) U [b2, b3) ..., a last bound open ended);
 * a NULL a gives NULL.  The backend fills a run at scan start when it
 * depends on a Param or the session (time zone).
 */
#define GX_RUN_HEADER 2
#define GX_RUN_HAS_NULL 0x1		/* INSET: the array has a NULL element */

/*
 * Big sets (GX_OP_INBIGSET): a set of any size, kept in device memory, not
 * in the constant table.  A FILTER or CACHE_SCAN task names the object
 * that holds its program's big sets as obj[GX_TASK_OBJ_SETS]: int64
 * values, each set a sorted run of distinct values (the encodings of
 * INSET's values: integers, dates, timestamps, numerics at their scale,
 * packed bpchar; a float as its double's bits, ordered as gx_float_cmp
 * orders them).  Its header, in the constant table, is a run header and
 * one more entry:
 *   const[arg]:      v.i = n, the number of values; isnull = NULL array
 *   const[arg + 1]:  v.i = GX_RUN_* flags
 *   const[arg + 2]:  v.i = where its first value is in the object (values)
 * The rules are INSET's.  The values may be followed by the set's top
 * keys: T = gx_bigset_top(flags) (0, or a power of 2 up to 8192, at most
 * n; n < 2^31), top[i] = value gx_bigset_seg(i, n, T), so that a search first finds
 * a key's segment among the top keys (shared memory on the GPU) and then
 * searches the segment (gx_sets.cuh); GX_BIGSET_PARY asks for the p-ary
 * search.  The validator checks every header against the object's bytes
 * (values and top keys) and refuses a flag it does not know; the device
 * that runs the task writes the object's address into ext.sets (a task
 * never carries an address of its own).
 */
#define GX_BIGSET_HEADER 3
#define GX_BIGSET_PARY 0x2		/* search it p-ary (a warp's lanes a row) */
#define GX_BIGSET_TOP_SHIFT 8	/* bits 8..15: log2(T) + 1, 0 = no top keys */
#define GX_BIGSET_TOP_MASK ((int64_t) 0xff << GX_BIGSET_TOP_SHIFT)
#define GX_BIGSET_TOP_MAX_LOG2 13	/* T <= 8192 */
#define GX_BIGSET_MAX 0x7fffffff	/* values of a big set, at most */
#define GX_TASK_OBJ_SETS 3		/* FILTER / CACHE_SCAN: the big sets object */

/* date_cmp_timestamp: the first date (days from 2000-01-01) that has no timestamp */
#define GX_DATE_TS_END 106751983	/* TIMESTAMP_END_JULIAN - POSTGRES_EPOCH_JDATE */
#define GX_USECS_PER_DAY 86400000000LL

/* errors a program can raise; code values are stable (stored in results) */
enum gx_error
{
	GX_ERR_NONE = 0,
	GX_ERR_INT2_RANGE,			/* 22003 smallint out of range */
	GX_ERR_INT4_RANGE,			/* 22003 integer out of range */
	GX_ERR_INT8_RANGE,			/* 22003 bigint out of range */
	GX_ERR_DIV_ZERO,			/* 22012 division by zero */
	GX_ERR_FLOAT_OVERFLOW,		/* 22003 value out of range: overflow */
	GX_ERR_FLOAT_UNDERFLOW,		/* 22003 value out of range: underflow */
	GX_ERR_BAD_PROGRAM,			/* internal: malformed program */
	GX_ERR_BAD_PAGE,			/* internal: a heap page fails its checks */
	GX_ERR_HOST					/* not an error: the device cannot evaluate
								 * this row exactly (a numeric result beyond
								 * int64); the row is selected, the result
								 * says GX_RESULT_HOST and the host evaluates
								 * the device quals of the selected rows */
};

typedef struct gx_instr
{
	uint8_t		op;				/* enum gx_op */
	uint8_t		type;			/* enum gx_type */
	uint8_t		dst;
	uint8_t		a;
	uint8_t		b;
	uint8_t		pad;
	int16_t		jump;			/* absolute target for ANDSTEP/ORSTEP */
	int32_t		arg;			/* column / constant index, source type */
} gx_instr;

/*
 * The operands of the opcodes that read more than their registers: a
 * comparison of CMPDT, a constant run of INSET / INRANGES (its header in
 * the table; a device reads no value past nconsts).  Shared by the
 * validator and the JIT generator.
 */
GX_INLINE int
gx_instr_args_ok(const gx_instr *in, uint32_t nconsts)
{
	if (in->type == GX_NUMERIC)
	{
		switch (in->op)
		{
			case GX_OP_ADD:
			case GX_OP_SUB:
			case GX_OP_EQ:
			case GX_OP_NE:
			case GX_OP_LT:
			case GX_OP_LE:
			case GX_OP_GT:
			case GX_OP_GE:
				return in->arg >= -GX_NUMERIC_MAX_SCALE && in->arg <= GX_NUMERIC_MAX_SCALE;
			case GX_OP_CAST:
				return in->arg == GX_INT2 || in->arg == GX_INT4 || in->arg == GX_INT8;
			case GX_OP_DIV:
			case GX_OP_MOD:
				return 0;
			default:
				break;
		}
	}
	if (in->type == GX_CHAR8)
	{
		/* bpchar: loads, = <>, = ANY; no order, arithmetic or cast */
		switch (in->op)
		{
			case GX_OP_LDCOL:
			case GX_OP_LDCONST:
			case GX_OP_EQ:
			case GX_OP_NE:
			case GX_OP_INSET:
			case GX_OP_INBIGSET:
			case GX_OP_OUT:
				break;
			default:
				return 0;
		}
	}
	if (in->op == GX_OP_CAST && in->arg == GX_CHAR8)
		return 0;				/* no cast from bpchar */
	if (in->op == GX_OP_CAST && in->arg == GX_NUMERIC && in->type != GX_NUMERIC)
		return 0;				/* numeric to another type: host only */
	switch (in->op)
	{
		case GX_OP_EXTRACT:
			{
				int			f = in->arg & ~GX_DT_TS;

				if ((in->arg & ~(GX_DT_TS | 0xFF)) != 0 || f < 0 || f >= GX_DT_NFIELDS ||
					(in->type != GX_NUMERIC && in->type != GX_FLOAT8))
					return 0;
				return (in->arg & GX_DT_TS) != 0 || f < GX_DT_HOUR;
			}
		case GX_OP_DATETRUNC:
			return in->type == GX_INT8 && in->arg >= 0 && in->arg < GX_DT_NFIELDS &&
				in->arg != GX_DT_DOW && in->arg != GX_DT_ISODOW && in->arg != GX_DT_DOY &&
				in->arg != GX_DT_EPOCH;
		case GX_OP_DATE2TS:
		case GX_OP_DSCALE:
			return in->type == GX_INT8;
		case GX_OP_CMPDT:
			return in->arg >= GX_OP_EQ && in->arg <= GX_OP_GE;
		case GX_OP_INSET:
			return in->arg >= 0 && (uint32_t) in->arg + GX_RUN_HEADER <= nconsts &&
				in->type < GX_NTYPES;
		case GX_OP_INBIGSET:
			return in->arg >= 0 && (uint32_t) in->arg + GX_BIGSET_HEADER <= nconsts &&
				in->type < GX_NTYPES;
		case GX_OP_INRANGES:
			return in->arg >= 0 && (uint32_t) in->arg + GX_RUN_HEADER <= nconsts;
		case GX_OP_OUT:
			return in->arg >= 0 && in->arg < GX_MAX_OUTS;
		default:
			return 1;
	}
}

typedef struct gx_const
{
	union
	{
		int64_t		i;
		double		d;
	}			v;
	int32_t		isnull;
	int32_t		type;
} gx_const;

typedef struct gx_column
{
	uint64_t	values_off;		/* from chunk start */
	uint64_t	nulls_off;		/* 0 when the chunk holds no NULL */
	uint32_t	type;			/* enum gx_type */
	uint32_t	scale;			/* GX_NUMERIC: the values' scale (digits
								 * after the point, <= GX_NUMERIC_MAX_SCALE),
								 * or GX_NUMERIC_FREE */
} gx_column;

/*
 * Task kinds: the operator a task runs (gx_chunk.kind).  The engine's
 * operator table (cuda/include/gx_ops.h) has one entry per kind, with one
 * validator shared by both devices and one implementation per device.
 * Session objects need no task of their own: a backend reserves one in the
 * session (shared memory), and the service allocates its memory when the
 * first task that names it runs.
 */
enum gx_task_kind
{
	GX_TASK_FILTER = 0,			/* filter (and aggregate) the task's own rows:
								 * columns, or heap pages to deform */
	GX_TASK_CACHE_LOAD,			/* deform heap pages, append rows to a cache entry */
	GX_TASK_CACHE_SCAN,			/* filter (and aggregate) the columns of a cache entry */
	GX_TASK_AGG_READ,			/* copy an aggregate state object's totals into
								 * the result (agg_val/agg_cnt), then zero it */
	GX_TASK_GROUP_READ,			/* copy the groups of a range of a group
								 * table's slots into the result */
	GX_TASK_JOIN_BUILD,			/* append the task's (inner) rows that pass
								 * its program to a join table: keys and a
								 * payload (gx_join.cuh) */
	GX_TASK_JOIN_FINISH_BUILD,	/* place a join table's appended rows into
								 * one run per distinct key (prefix sum,
								 * scatter): the table is then probed */
	GX_TASK_JOIN_PROBE,			/* probe a finished join table with the
								 * task's (outer) rows: count, prefix sum,
								 * write pairs (or semi / anti rows), in
								 * passes when the result area is too small */
	GX_TASK_JOIN_UNMATCHED,		/* after the probes (RIGHT / FULL): the
								 * payloads of a range of a join table's
								 * placed rows whose key no probe matched */
	GX_TASK_SEARCH,				/* batched lookups in a sorted projection (a
								 * range join's sealed table): each probe
								 * key's (or range's) run of the sorted keys,
								 * binary or p-ary search (gx_search.cuh) */
	GX_TASK_OBJ_WRITE,			/* copy bytes the task carries into a session
								 * object (ext.write): a program's big sets */
	GX_TASK_TREE_LOOKUP,		/* batched lookups in a prefix-tree index's
								 * device image (gx_ptree.h): each key's run
								 * of TIDs, sequential or speculative
								 * partitioned traversal (gx_ptree.cuh) */
	GX_TASK_GROUP_MERGE,		/* merge the groups of a range of one group
								 * table's slots (obj[1], read only: another
								 * device's, through peer access) into
								 * another table (obj[0]); the groups
								 * without room come back as records */
	GX_TASK_OBJ_COPY,			/* copy byte ranges of a session object
								 * (obj[1], on the task's device or a peer)
								 * into another (obj[0]; ext.copy): a sealed
								 * join table's replica on another device */
	GX_TASK_NKINDS
};

/* every kind runs on a device (kinds from here on would be the service's) */
#define GX_TASK_NDEVICE GX_TASK_NKINDS

/* gx_chunk.follow: what a task must run after */
#define GX_FOLLOW_NONE 0
#define GX_FOLLOW_SESSION 1		/* every task of its session in flight when
								 * it is submitted (a pipeline step, or a
								 * read of a state they add into) */
#define GX_FOLLOW_DEVICE 2		/* ... those of them on the device it runs on
								 * (a merge probe's scratch: one object per
								 * device, the devices' probes run at once) */

/* compatibility names of the first kinds (chunk = a task carrying rows) */
#define GX_CHUNK_FILTER GX_TASK_FILTER
#define GX_CHUNK_CACHE_LOAD GX_TASK_CACHE_LOAD
#define GX_CHUNK_CACHE_SCAN GX_TASK_CACHE_SCAN

/*
 * Session objects a task may name (gx_chunk.obj): 4, and two more for
 * each level past the first of a multi-level group probe
 * (GX_JOIN_OBJ_LEVEL), and a merge probe's scratch (GX_JOIN_OBJ_MSCRATCH)
 */
#define GX_JOIN_MAX_LEVELS 4	/* tables a group probe joins in one pass */
#define GX_TASK_MAX_OBJS (5 + 2 * (GX_JOIN_MAX_LEVELS - 1))

/*
 * Faults injected by gpuext.debug_fault (superuser, tests) into the next
 * task a backend submits (gx_chunk.fault); handled by the service.
 */
enum gx_fault
{
	GX_FAULT_NONE = 0,
	GX_FAULT_TASK_ERROR,		/* the task fails with a device error */
	GX_FAULT_SERVICE_EXIT,		/* the service exits while the task runs */
	GX_FAULT_DEVICE_ERROR		/* the device fails: every task in flight
								 * fails and the service restarts */
};

/*
 * Aggregate state object (GX_TASK_FILTER / CACHE_SCAN with ext.nagg > 0
 * name it as obj[0]): GX_AGG_STRIPES stripes of GX_MAX_AGGS {sum, count}
 * pairs; a kernel block (or CPU thread) adds into the stripe of its index
 * modulo GX_AGG_STRIPES, so that atomics of many blocks do not contend on
 * one address.  AGG_READ sums the stripes.
 */
#define GX_AGG_STRIPES 64

typedef struct gx_agg_pair
{
	int64_t		val;			/* sum (GX_AGG_SUM) */
	int64_t		cnt;			/* non-NULL values aggregated */
} gx_agg_pair;

#define GX_AGG_STATE_BYTES ((uint64_t) GX_AGG_STRIPES * GX_MAX_AGGS * sizeof(gx_agg_pair))

/*
 * Cache part of a chunk header (device-resident column cache, see
 * src/cache.cpp).  An entry is one fixed-size unit of the cache pool the
 * service owns; its columns lie at entry-relative offsets, each with a
 * null bitmap of 32-bit words, and its row map (uint32 per row: block
 * delta from the entry's first block << 16 | line pointer offset) tells
 * which heap tuple each row is.
 *  - LOAD: the device deforms the chunk's pages (deform_off != 0), then
 *    appends rows [0, nrows) as entry rows [row0, row0 + nrows): values to
 *    values_off[i], NULL bits to nulls_off[i], and the row map with
 *    block0 added to the page index.
 *  - SCAN: cols[i] offsets are entry-relative; the filter reads the entry
 *    and writes row map values, not row numbers, into the selection (the
 *    map is increasing, so row order is kept); error_key is the map value
 *    of the erroring row.  With skip_blocks > 0 the task carries a bitmap
 *    (skip_off, task-relative, a bit per entry block): rows of a block
 *    whose bit is set (stale: changed since it was loaded; the scan reads
 *    it from the heap) and padding rows (line pointer 0: what a refreshed
 *    block no longer fills) are not the entry's rows, and are neither
 *    evaluated nor selected (gx_row_skipped).
 *  A LOAD's row map may hold padding rows (line pointer 0): every column
 *  NULL, appended like any row.
 */
/* aggregates over the selected rows (gx_chunk_ext.agg) */
enum gx_agg_op
{
	GX_AGG_COUNT = 1,			/* non-NULL values of col (group table: col
								 * -1 counts rows) */
	GX_AGG_SUM,					/* sum of an integer col (int64), and count */
	GX_AGG_MIN,					/* group table: least integer value, and count */
	GX_AGG_MAX,					/* group table: greatest integer value, and count */
	GX_AGG_SUM128,				/* group table: exact 128-bit sum of int64 values
								 * (numeric at their scale, int8, int2/int4:
								 * GX_NUMERIC_NAN = INT64_MAX is counted
								 * apart), and count; the next
								 * aggregate, GX_AGG_HI, holds the high word */
	GX_AGG_HI,					/* group table: {high word, NaN count} of the
								 * GX_AGG_SUM128 before it */
	/*
	 * Floats (group table, float4 / float8 outputs, held as double): a row
	 * with a NaN or infinite input to FSUM / FVAR is not added to its group
	 * but goes to the host (gx_group_add_out), so that these sums are of
	 * finite values only and a non-finite sum is an overflow.
	 */
	GX_AGG_FSUM,				/* sum of float values (val: a double), and count */
	GX_AGG_FMIN,				/* least float value as gx_float_ord orders it
								 * (PostgreSQL's order: NaN above all), and count */
	GX_AGG_FMAX,				/* greatest, likewise */
	GX_AGG_FVAR,				/* {sum x (a double), count}; the next two
								 * aggregates, GX_AGG_FPART, hold
								 * {sum (x - c), c} and {sum (x - c)^2, unused}:
								 * sums shifted by c, the first value added
								 * into the slot (GX_FSHIFT_UNSET before) */
	GX_AGG_FPART				/* the parts of the GX_AGG_FVAR before it */
};

/* gx_agg_pair.cnt of an FVAR's first FPART before the shift is set (a NaN) */
#define GX_FSHIFT_UNSET ((int64_t) 0x7FF8DEADBEEF0001ll)

/* the bits of a double, and back */
GX_INLINE int64_t
gx_dbits(double d)
{
	union
	{
		double		d;
		int64_t		i;
	}			u;

	u.d = d;
	return u.i;
}

GX_INLINE double
gx_bitsd(int64_t i)
{
	union
	{
		double		d;
		int64_t		i;
	}			u;

	u.i = i;
	return u.d;
}

/*
 * The int64 whose order is PostgreSQL's order of float values (float8_cmp):
 * every NaN is one value above +Infinity; -0 sorts just below +0 (PostgreSQL
 * holds them equal: min / max of both may give either, as PostgreSQL's own
 * do depending on the rows' order).  GX_AGG_FMIN / FMAX hold these.
 */
GX_INLINE int64_t
gx_float_ord(double d)
{
	int64_t		i = gx_dbits(d);

	if ((i & 0x7FFFFFFFFFFFFFFFll) > 0x7FF0000000000000ll)
		return 0x7FFFFFFFFFFFFFFFll;	/* NaN */
	return i < 0 ? i ^ 0x7FFFFFFFFFFFFFFFll : i;
}

/* the double of a gx_float_ord value */
GX_INLINE double
gx_float_unord(int64_t v)
{
	if (v == 0x7FFFFFFFFFFFFFFFll)
		return gx_bitsd(0x7FF8000000000000ll);	/* NaN */
	return gx_bitsd(v < 0 ? v ^ 0x7FFFFFFFFFFFFFFFll : v);
}

typedef struct gx_agg
{
	uint16_t	op;				/* enum gx_agg_op */
	int16_t		col;			/* chunk column (group mode: program output) */
	uint16_t	filt;			/* group mode: 1 + the program output (GX_BOOL)
								 * of the aggregate's FILTER: a row adds only
								 * where it is true (not NULL, not false);
								 * 0 = none (zeroed aggregates have none) */
	uint16_t	cnt_of;			/* group mode: 1 + an earlier aggregate of the
								 * same input and FILTER (GX_AGG_COUNT, SUM,
								 * MIN or MAX, itself with cnt_of = 0) whose
								 * count is this one's too: this one's count
								 * is not kept (one atomic less a row), its
								 * readers take that one's (gx_agg_count);
								 * 0 = its own */
} gx_agg;

/* the count of aggregate a in a group's states p (its own, or cnt_of's) */
#define gx_agg_count(aggs, p, a) \
	((aggs)[a].cnt_of != 0 ? (p)[(aggs)[a].cnt_of - 1].cnt : (p)[a].cnt)

/* does a row with outputs 'out' pass aggregate g's FILTER? */
#define GX_AGG_FILTER_PASSES(g, out) \
	((g)->filt == 0 || (!(out)[(g)->filt - 1].isnull && (out)[(g)->filt - 1].v.i != 0))

/*
 * Join tasks (GX_TASK_JOIN_*; the algorithm and the guarantees are in
 * cuda/kernels/gx_join.cuh).  obj[0] is the join table, a session object
 * of gx_join_table_bytes(cap, kcap) bytes (a range join's, alg
 * GX_JOIN_RANGE: gx_jrange_table_bytes(cap), kcap 0; zeroed memory is an
 * empty table), whose geometry every task that names it repeats here.  The keys
 * (1 or 2, integer-like: bool, int2/4/8, date, timestamp(tz), char8; or,
 * in a hash or merge table, floats: kfloat) and
 * the BUILD payload are outputs of the task's program (GX_OP_OUT), so the
 * quals of either side run in the same pass.
 */
#define GX_JOIN_MAX_KEYS 2
#define GX_JOIN_MAX_COLS 8		/* inner columns a join table carries */
#define GX_JOIN_MAX_GATHER 16	/* columns a gathering probe writes per entry */

enum gx_join_mode
{
	GX_JOIN_INNER = 0,			/* a pair per (outer row, matching inner row) */
	GX_JOIN_SEMI,				/* an outer row once if it has a match (EXISTS) */
	GX_JOIN_ANTI,				/* an outer row once if it has none, a NULL key
								 * included (NOT EXISTS; NOT IN's NULL rules
								 * are the executor's) */
	GX_JOIN_LEFT,				/* INNER's pairs, and an outer row with none
								 * (or a NULL key) once, GX_JOIN_PAIR_NO_INNER */
	GX_JOIN_RIGHT,				/* INNER's pairs; the keys matched are marked
								 * (kmatched) for JOIN_UNMATCHED */
	GX_JOIN_FULL				/* LEFT's entries, and the keys marked */
};

/* does a probe of mode m write pairs with an inner payload (runs read)? */
#define GX_JOIN_MODE_PAIRS(m) \
	((m) == GX_JOIN_INNER || (m) == GX_JOIN_LEFT || (m) == GX_JOIN_RIGHT || (m) == GX_JOIN_FULL)
/* does a probe of mode m mark the keys it matches (RIGHT / FULL)? */
#define GX_JOIN_MODE_MARKS(m) ((m) == GX_JOIN_RIGHT || (m) == GX_JOIN_FULL)
/* does a probe of mode m return an outer row without a match (ANTI / LEFT / FULL)? */
#define GX_JOIN_MODE_KEEPS_OUTER(m) \
	((m) == GX_JOIN_ANTI || (m) == GX_JOIN_LEFT || (m) == GX_JOIN_FULL)

/*
 * Level l >= 1 of a multi-level group PROBE: a sealed hash table of the
 * geometry (cap, kcap) in obj[GX_JOIN_OBJ_LEVEL(l)], its inner column
 * store (ncols columns, of a BUILD with ext.join.ncols > 0) in
 * obj[GX_JOIN_OBJ_LEVEL_COLS(l)]; its keys are entries key_ref[k] of the
 * joined output vector (an outer output or an earlier level's column),
 * floats where kfloat says; its columns go to jv[icol_base + c]
 */
typedef struct gx_join_level
{
	uint32_t	cap;
	uint32_t	kcap;
	uint16_t	nkeys;			/* 1 .. GX_JOIN_MAX_KEYS */
	uint16_t	kfloat;
	int16_t		key_ref[GX_JOIN_MAX_KEYS];
	uint16_t	ncols;			/* 0 .. GX_JOIN_MAX_COLS */
	uint16_t	icol_base;
	uint8_t		col_type[GX_JOIN_MAX_COLS];
} gx_join_level;

typedef struct gx_join_ext
{
	uint32_t	mode;			/* PROBE: enum gx_join_mode */
	uint32_t	nkeys;			/* 1 .. GX_JOIN_MAX_KEYS */
	int16_t		key_out[GX_JOIN_MAX_KEYS];	/* the program output of each key */
	int16_t		payload_out;	/* BUILD: the output holding a row's payload
								 * (integer-like), -1: row_base + the row
								 * (with ncols > 0: -1, the staged index) */
	int16_t		jflags;			/* FINISH: GX_JOIN_NO_RUNS; PROBE: GX_JOIN_MSCRATCH */
	/*
	 * A hash join's table partitioned over part_n devices (2 ..
	 * GX_MAX_DEVICES; 0 or 1: not): this BUILD stages, and this PROBE
	 * answers, only the rows whose keys are part part_d's
	 * (gx_join_part_of: the hash's top bits; a row with a NULL key is part
	 * 0's), so every row meets its key's inner rows on exactly one device
	 */
	uint16_t	part_n;
	uint16_t	part_d;
	uint32_t	cap;			/* table: rows it holds (<= GX_JOIN_MAX_CAP) */
	uint32_t	kcap;			/* table: key slots, a power of 2 >= 2 * cap */
	uint64_t	row_base;		/* BUILD: the payload of row r is row_base + r */
	uint32_t	first_row;		/* PROBE: the pass starts at this outer row,
								 * UNMATCHED: the range at this placed row */
	uint32_t	first_match;	/* PROBE: skipping its first matches (INNER,
								 * LEFT, RIGHT, FULL, pairs written: the
								 * next_match of the pass before) */
	uint32_t	max_pairs;		/* PROBE: entries the result area holds */
	uint32_t	alg;			/* enum gx_join_alg: the table's algorithm */
	/*
	 * GX_JOIN_RANGE (a band or inequality join, gx_join.cuh): the table
	 * holds one key (nkeys 1; key_out[0] on BUILD); a PROBE's outer row
	 * matches the inner rows whose key lies between its bounds, outputs of
	 * its program: lo_out (key >= lo, > lo without GX_JOIN_LO_INCL) and
	 * hi_out (key <= hi, < hi without GX_JOIN_HI_INCL), -1 = unbounded on
	 * that side (not both); a NULL bound matches nothing
	 */
	int16_t		lo_out;
	int16_t		hi_out;
	uint32_t	bflags;			/* GX_JOIN_LO_INCL, GX_JOIN_HI_INCL */
	uint32_t	kfloat;			/* hash / merge join: bit k set, key k is a float
								 * (float4 / float8 output, held as a
								 * double), compared as float8eq: -0 = 0,
								 * NaN = NaN (gx_join_float_key) */
	/*
	 * Inner columns (aggregation over a join, GX_JOIN_GROUP below): a
	 * BUILD with ncols > 0 writes outputs col_out[c] of each row it
	 * stages into the inner column store obj[1]
	 * (gx_join_cols_bytes(cap, ncols)) at the row's staged index, which is
	 * then its payload; a group PROBE reads them from there
	 */
	uint32_t	ncols;			/* 0 .. GX_JOIN_MAX_COLS */
	int16_t		col_out[GX_JOIN_MAX_COLS];	/* BUILD: the program output of column c */
	uint8_t		col_type[GX_JOIN_MAX_COLS];	/* its gx_type (BUILD: the output's) */
	uint32_t	icol_base;		/* group PROBE: j[icol_base + c] = inner column c */
	/*
	 * A multi-level group PROBE (nlevels > 1, "Multi-level group probe"
	 * below): level[l - 1] describes the table of level l
	 */
	uint32_t	nlevels;		/* 0 or 1: one table; 2 .. GX_JOIN_MAX_LEVELS */
	gx_join_level level[GX_JOIN_MAX_LEVELS - 1];
	/*
	 * Gathered output (a PROBE that writes entries; "Gathered output"
	 * below): each entry also carries ngather column values, gather[g] >=
	 * 0 the outer row's program output gather[g], < 0 inner column -1 -
	 * gather[g] of the inner column store obj[GX_JOIN_OBJ_COLS]
	 */
	uint32_t	ngather;		/* 0 .. GX_JOIN_MAX_GATHER */
	int16_t		gather[GX_JOIN_MAX_GATHER];
} gx_join_ext;

enum gx_join_alg
{
	GX_JOIN_HASH = 0,			/* equi-join: key directory and runs */
	GX_JOIN_RANGE,				/* band / inequality join: sorted keys */
	GX_JOIN_MERGE				/* equi-join: both sides sorted, merged
								 * (gx_jmerge.cuh) */
};

#define GX_JOIN_LO_INCL 0x1u	/* range probe: key >= lo (else key > lo) */
#define GX_JOIN_HI_INCL 0x2u	/* range probe: key <= hi (else key < hi) */

#define GX_JOIN_MAX_CAP (1u << 29)	/* (kcap <= 2^30: an int for CUB) */

/*
 * gx_join_ext.jflags of a FINISH: the table is probed for counts only
 * (count(*), SEMI, ANTI): no runs are made (no prefix sum, no scatter); a
 * probe takes a key's count from kcount, and an INNER probe that writes
 * pairs gets no payloads (the node never asks for them)
 */
#define GX_JOIN_NO_RUNS 0x1
/*
 * ... of a merge PROBE: its scratch (gx_jmerge_probe_layout of its rows)
 * is the object obj[GX_JOIN_OBJ_MSCRATCH], not in its result area, whose
 * layout is then a hash probe's (gx_join_res_alg): a cached batch's rows
 * need more scratch than a staging slot has
 */
#define GX_JOIN_MSCRATCH 0x2

/*
 * SEARCH tasks (gx_search.cuh): obj[0] is the sorted projection, a range
 * join's table (alg GX_JOIN_RANGE: gx_jrange_table_bytes(cap)) built by
 * JOIN_BUILD (payload_out -1: a row's position, row_base + row) and sealed
 * by JOIN_FINISH_BUILD; its geometry cap is repeated here.  The probes are
 * the task's own columns (ext.entry -1), no program: column 0 the keys
 * (GX_SEARCH_EQ), or columns 0 and 1 the lower and upper bounds
 * (GX_SEARCH_RANGE; an unbounded side is INT64_MIN / INT64_MAX with its
 * INCL flag); integer-like int64 values (int2/4/8, char8, numeric at the
 * projection's scale); a NULL key or bound matches nothing.  The result area: the gx_result
 * header (ntiles 0, nsel = nrows, join_count = the sum of the counts),
 * then a gx_search_run per probe (gx_search_runs_off).
 */
enum gx_search_op
{
	GX_SEARCH_EQ = 0,			/* the run of keys equal to the probe key */
	GX_SEARCH_RANGE				/* the run of keys between the probe's bounds
								 * (bflags: GX_JOIN_LO_INCL, GX_JOIN_HI_INCL) */
};

enum gx_search_alg
{
	GX_SEARCH_BINARY = 0,		/* a thread a probe: binary search */
	GX_SEARCH_PARY				/* a group of 'lanes' threads a probe: p-ary
								 * search (Kaldewey et al.) */
};

#define GX_SEARCH_MAX_LANES 32	/* a warp */

typedef struct gx_search_ext
{
	uint32_t	op;				/* enum gx_search_op */
	uint32_t	alg;			/* enum gx_search_alg */
	uint32_t	lanes;			/* PARY: p, a power of 2 in 2 .. 32; BINARY: 0 or 1 */
	uint32_t	bflags;			/* RANGE: GX_JOIN_LO_INCL, GX_JOIN_HI_INCL; EQ: 0 */
	uint32_t	cap;			/* the projection's geometry (its table's cap) */
	uint32_t	pad;
} gx_search_ext;

/*
 * TREE_LOOKUP tasks (gx_ptree.cuh): obj[0] is a prefix-tree image
 * (gx_ptree.h) of the geometry repeated here; the keys are the task's
 * column 0 (int8), no program; the result area is SEARCH's (a
 * gx_search_run per key: its run of the image's TID array)
 */
enum gx_tree_alg
{
	GX_TREE_SEQ = 0,			/* a thread a key, root to leaf */
	GX_TREE_SPEC				/* speculative partitioned traversal: 'parts'
								 * threads a key, then a parallel resolve */
};

typedef struct gx_tree_ext
{
	uint32_t	alg;			/* enum gx_tree_alg */
	uint32_t	parts;			/* SPEC: 2, 4, 8 or 16 partitions; SEQ: 0 or 1 */
	uint32_t	nnodes;			/* the image's geometry (gx_pt_geom) */
	uint32_t	nleaves;
	uint32_t	ntids;
	uint32_t	nlevel;
} gx_tree_ext;

/*
 * OBJ_WRITE: ext.write.bytes bytes at task offset ext.write.src (after the
 * header, inside the input) go to obj[0] at ext.write.dst
 */
typedef struct gx_write_ext
{
	uint64_t	src;			/* task-relative */
	uint64_t	dst;			/* object-relative */
	uint64_t	bytes;
} gx_write_ext;

/*
 * OBJ_COPY: nranges ranges, range[i].bytes bytes at range[i].src of obj[1]
 * (the source, of the task's device or a peer) go to range[i].dst of
 * obj[0] (the destination); the two objects differ.  GPU: one copy a range
 * on the slot's stream (unified addressing: a peer's source is a peer
 * copy); CPU: memcpy on the pool's threads.  A join table's replica takes
 * the ranges of gx_join_probe_ranges.
 */
#define GX_COPY_MAX_RANGES 4

typedef struct gx_copy_range
{
	uint64_t	src;			/* obj[1]-relative */
	uint64_t	dst;			/* obj[0]-relative */
	uint64_t	bytes;
} gx_copy_range;

typedef struct gx_copy_ext
{
	uint32_t	nranges;		/* 1 .. GX_COPY_MAX_RANGES */
	uint32_t	pad;
	gx_copy_range range[GX_COPY_MAX_RANGES];
} gx_copy_ext;

typedef struct gx_chunk_ext
{
	uint32_t	count_only;		/* 1: the selection is not copied back */
	int32_t		entry;			/* cache entry (its memory: gx_task_ctx.entry), or -1 */
	uint32_t	row0;			/* LOAD: first entry row this chunk fills */
	uint32_t	block0;			/* LOAD: block delta of the chunk's first page */
	uint32_t	map_sel;		/* SCAN: selection holds row map values */
	uint64_t	rowmap_off;		/* entry-relative row map */
	uint64_t	entry_rows;		/* LOAD: entry row capacity */
	uint32_t	skip_blocks;	/* SCAN: bits of the skip bitmap, 0 = none */
	uint32_t	pad1;
	uint64_t	skip_off;		/* SCAN: the skip bitmap, task-relative */
	uint64_t	values_off[GX_CACHE_MAX_COLS];	/* LOAD: entry-relative */
	uint64_t	nulls_off[GX_CACHE_MAX_COLS];	/* LOAD: entry-relative */
	uint32_t	nagg;			/* aggregates of the selected rows, added */
	uint32_t	pad;			/* into the state object obj[0] */
	gx_agg		agg[GX_MAX_AGGS];
	/*
	 * Group table mode (ngroup_cap > 0): obj[0] is a group table (below);
	 * every selected row is added into its group's states, and only the
	 * rows the table has no room for are selected (the host aggregates
	 * them).  The keys (gkey_col) and the aggregates' inputs (agg[].col,
	 * -1: count(*)) are then the program's outputs (GX_OP_OUT), not
	 * columns.  GROUP_READ: the same fields describe the table.
	 *
	 * A pass (gpart_mask != 0) takes only the groups of one partition: the
	 * rows whose key hash's high word h has (h & gpart_mask) == gpart_value;
	 * the others are neither added nor selected (gx_group_add_out).  The
	 * rows for the host (a row the device cannot evaluate, GX_ERR_HOST, or
	 * a non-finite float input) are of no partition: the pass that takes
	 * them selects them all, the others (GX_GROUP_SKIP_HOST) none.  A
	 * group JOIN_PROBE (aggregation over a join, gx_join_cols_bytes) uses
	 * the same fields, its group table obj[GX_JOIN_OBJ_GROUP], its keys
	 * and inputs indexing its joined output vector.
	 */
	uint32_t	ngroup_cap;		/* slots of the table (a power of 2), 0 = off */
	uint32_t	ngroup_limit;	/* groups (and reservations) it may hold */
	uint32_t	ngkeys;			/* key columns: 0 .. GX_MAX_GKEYS */
	uint32_t	gflags;			/* GX_GROUP_* */
	uint32_t	gpart_mask;		/* 2^d - 1: this pass's partition bits, 0 = all */
	uint32_t	gpart_value;	/* the partition: h & gpart_mask == gpart_value */
	int16_t		gkey_col[GX_MAX_GKEYS];	/* chunk column of each key */
	gx_join_ext join;			/* JOIN_* tasks: the table and the pass */
	gx_search_ext search;		/* SEARCH tasks: the operation and algorithm */
	gx_write_ext write;			/* OBJ_WRITE tasks: what goes where */
	gx_tree_ext tree;			/* TREE_LOOKUP tasks: algorithm, image geometry */
	gx_copy_ext copy;			/* OBJ_COPY tasks: what goes where */
	uint64_t	sets;			/* FILTER / CACHE_SCAN: the address of
								 * obj[GX_TASK_OBJ_SETS] (big sets), written
								 * by the device that runs the task after
								 * validation; the backend's value is
								 * ignored */
} gx_chunk_ext;

/*
 * Group table (a session object; zeroed memory is an empty table): a
 * gx_group_hdr, then ngroup_cap slots of gx_group_slot_bytes():
 *   uint32 state (GX_GSLOT_*), uint32 NULL mask of the keys,
 *   int64 keys[ngkeys], gx_agg_pair states[nagg]
 * The open-addressing algorithm is in cuda/kernels/gx_group.cuh.
 * GROUP_READ copies the READY slots among [row0, row0 + nrows) into the
 * result area after the gx_result header (ntiles = 0), nsel of them, and
 * empties them; the read that ends at the last slot also resets the
 * header, so a table read in order from slot 0 to the end is empty again.
 * With GX_GROUP_DISCARD it copies nothing (nsel = 0): it only empties.
 *
 * GROUP_MERGE (several devices: each adds into a table of its own, and the
 * node merges the others' into its home device's): obj[0] the destination,
 * on the task's device; obj[1] the source, of the same layout (ngroup_cap,
 * ngkeys, nagg, agg[]), on that device or a peer, only read.  Every READY
 * slot among the source's [row0, row0 + nrows) is found in the destination,
 * or made there when a reservation under ngroup_limit can be had, and its
 * states merged (gx_group_merge_slot); a group without room is copied
 * after the result header as GROUP_READ copies it (nsel records; none with
 * ext.count_only).  join_count counts the groups merged, join_noroom those
 * without room (GX_RESULT_FULL): none is ever lost.
 */
/* gx_chunk_ext.gflags */
#define GX_GROUP_NO_LOCAL 0x1u	/* many groups: rows go straight to the global
								 * table, not through a block's (thread's) own */
#define GX_GROUP_SKIP_HOST 0x2u	/* rows for the host are another pass's: not
								 * selected (and not added) */
#define GX_GROUP_DISCARD 0x4u	/* GROUP_READ: empty the slots, copy nothing
								 * (a pass that is run again) */
typedef struct gx_group_hdr
{
	uint32_t	used;			/* groups plus reservations (an upper bound) */
	uint32_t	full;			/* a row found no room: it went to the host */
	uint32_t	pad[2];
} gx_group_hdr;

#define GX_GSLOT_EMPTY 0u
#define GX_GSLOT_BUSY 1u
#define GX_GSLOT_READY 2u

/* bytes of one slot of a group table */
GX_INLINE uint64_t
gx_group_slot_bytes(uint32_t nkeys, uint32_t naggs)
{
	return 8 + 8 * (uint64_t) nkeys + sizeof(gx_agg_pair) * (uint64_t) naggs;
}

/* bytes of a group table of cap slots */
GX_INLINE uint64_t
gx_group_table_bytes(uint64_t cap, uint32_t nkeys, uint32_t naggs)
{
	return sizeof(gx_group_hdr) + cap * gx_group_slot_bytes(nkeys, naggs);
}

/*
 * SCAN with skip_blocks > 0: is entry row 'row' not one of the entry's
 * rows?  (Its block's bit is set in the skip bitmap, or it is padding.)
 */
GX_HD int
gx_row_skipped(const uint32_t *skip_bits, uint32_t skip_blocks, const uint32_t *rowmap,
			   uint32_t row)
{
	uint32_t	m = rowmap[row];
	uint32_t	b = m >> 16;

	return (m & 0xFFFFu) == 0 ||
		(b < skip_blocks && ((skip_bits[b >> 5] >> (b & 31)) & 1u) != 0);
}

/*
 * Header at the start of every task (a staging slot).  A task that carries
 * rows is a chunk: the opcode program, its constants and the column
 * directory follow.
 */
typedef struct gx_chunk
{
	uint32_t	magic;
	uint32_t	kind;			/* enum gx_task_kind */
	uint32_t	session;		/* engine session that submitted it */
	uint32_t	fault;			/* enum gx_fault (tests) */
	uint32_t	obj[GX_TASK_MAX_OBJS];	/* session objects (handles), 0 = none */
	uint32_t	follow;			/* GX_FOLLOW_*: ordering on the device */
	uint32_t	pad0;
	uint32_t	nrows;
	uint32_t	ncols;
	uint32_t	ninstr;
	uint32_t	nconsts;
	uint32_t	nregs;
	uint32_t	flags;			/* GX_CHUNK_*: transfer mode requested */
	uint32_t	pad;
	uint64_t	input_bytes;	/* header + columns: the host-to-device copy */
	uint64_t	result_off;		/* gx_result offset */
	uint64_t	deform_off;		/* gx_deform_hdr offset, 0: columns are given */
	gx_chunk_ext ext;			/* cache operation, selection options */
	gx_column	cols[GX_MAX_COLS];
	gx_const	consts[GX_MAX_CONSTS];
	gx_instr	code[GX_MAX_INSTR];
} gx_chunk;

/*
 * Does task c read the columns of a cache entry (ext.entry)?  CACHE_SCAN,
 * and a JOIN_BUILD / JOIN_PROBE whose rows are an entry's (gx_join.cuh)
 */
GX_INLINE int
gx_task_reads_entry(const gx_chunk *c)
{
	return c->kind == GX_TASK_CACHE_SCAN ||
		((c->kind == GX_TASK_JOIN_BUILD || c->kind == GX_TASK_JOIN_PROBE) && c->ext.entry >= 0);
}

#define GX_CHUNK_MAGIC 0x67707865u

/* gx_chunk.flags */
#define GX_CHUNK_MAPPED 0x1u	/* GPU: zero-copy through the mapped staging area */
#define GX_CHUNK_JIT 0x2u		/* GPU: run the program's compiled kernel once
								 * there is one (gx_jit.cu) */
#define GX_CHUNK_JIT_WAIT 0x4u	/* GPU: ... compiling it first if need be */

/* one attribute of the relation, as the page deformer walks it */
typedef struct gx_attr
{
	int16_t		attlen;			/* > 0 fixed, -1 varlena, -2 cstring */
	uint8_t		attalign;		/* 1, 2, 4 or 8 */
	uint8_t		has_missing;	/* value for tuples with fewer attributes */
	int16_t		col;			/* chunk column it fills, or -1 */
	int16_t		fixed_off;		/* offset in a tuple without NULLs, or -1 */
	int64_t		missing;		/* the missing value (fixed width, by value) */
} gx_attr;

/* raw heap pages to deform: at chunk->deform_off */
typedef struct gx_deform_hdr
{
	uint32_t	npages;
	uint32_t	page_size;		/* BLCKSZ */
	uint32_t	natts;			/* attributes walked: 1 .. natts */
	uint32_t	pad;
	uint64_t	pages_off;		/* page images, from chunk start */
	uint64_t	rowmap_off;		/* uint32 per row: page << 16 | offset */
	gx_attr		atts[GX_MAX_DEFORM_ATTS];
} gx_deform_hdr;

GX_INLINE gx_deform_hdr *
gx_chunk_deform(gx_chunk *c)
{
	return (gx_deform_hdr *) ((char *) c + c->deform_off);
}

/* result area; followed by seg_off[ntiles], seg_cnt[ntiles], sel[nrows] */
typedef struct gx_result
{
	uint64_t	error;			/* (row << 8 | code) of the first error, or ~0 */
	uint32_t	nsel;			/* rows selected */
	uint32_t	ntiles;
	uint32_t	flags;			/* GX_RESULT_*: how the chunk ran */
	uint32_t	pad;
	/*
	 * statistics filled by the executor of the chunk; in mapped mode there
	 * is no copy: h2d_ns = d2h_ns = 0, kernel_ns spans the kernels,
	 * bytes_h2d is the input the kernels read over PCIe, bytes_d2h the
	 * result they wrote
	 */
	uint64_t	h2d_ns;
	uint64_t	kernel_ns;
	uint64_t	d2h_ns;
	uint64_t	bytes_h2d;
	uint64_t	bytes_d2h;
	uint32_t	error_key;		/* SCAN with map_sel: map value of the error row */
	uint32_t	pad3;
	int64_t		agg_val[GX_MAX_AGGS];	/* AGG_READ: per ext.agg: sum (SUM) */
	int64_t		agg_cnt[GX_MAX_AGGS];	/* AGG_READ: non-NULL values aggregated */
	uint32_t	next_row;		/* JOIN_PROBE with GX_RESULT_MORE: the next pass */
	uint32_t	next_match;		/* starts here (ext.join.first_row / first_match) */
	uint64_t	join_count;		/* JOIN_BUILD: rows added; FINISH: rows in the
								 * table; PROBE: matches (INNER, RIGHT: pairs;
								 * SEMI / ANTI: outer rows; LEFT / FULL: pairs
								 * and unmatched outer rows) of this pass,
								 * counted whether written or not
								 * (count_only); UNMATCHED: the range's
								 * unmatched rows (written or not); a group
								 * PROBE: pairs (rows) added to the group
								 * table; GROUP_MERGE: groups merged */
	uint64_t	join_noroom;	/* group PROBE: pairs (rows) its group table
								 * had no room for (GX_RESULT_FULL);
								 * GROUP_MERGE: groups without room */
	uint64_t	join_host;		/* group PROBE: the host's: outer rows the
								 * device cannot evaluate, and pairs with a
								 * non-finite float input (GX_RESULT_HOST) */
} gx_result;

#define GX_NO_ERROR (~(uint64_t) 0)

/* gx_result.flags */
#define GX_RESULT_GPU 0x1u		/* ran on the GPU (else the CPU device) */
#define GX_RESULT_MAPPED 0x2u	/* ran on the GPU in mapped (zero-copy) mode */
#define GX_RESULT_JIT 0x4u		/* ran the program's compiled kernel */
#define GX_RESULT_HOST 0x8u		/* some selected rows need the host to
								 * evaluate the device quals (GX_ERR_HOST) */
#define GX_RESULT_FULL 0x10u	/* group mode: some selected rows found no room
								 * in the group table (GROUP_MERGE: groups) */
#define GX_RESULT_MORE 0x20u	/* JOIN_PROBE: the result area is full; the
								 * next pass starts at next_row / next_match */
#define GX_RESULT_KERNEL_FLAGS (GX_RESULT_HOST | GX_RESULT_FULL | GX_RESULT_MORE)	/* set by
																					 * the
																					 * kernels */

#define GX_ALIGN_UP(x) (((x) + (GX_ALIGN - 1)) & ~((uint64_t) (GX_ALIGN - 1)))

GX_INLINE uint32_t
gx_ntiles(uint32_t nrows)
{
	return (nrows + GX_TILE_ROWS - 1) / GX_TILE_ROWS;
}

/* the top keys of a big set whose header flags are flags (gx_program.h: Big sets) */
GX_INLINE uint32_t
gx_bigset_top(int64_t flags)
{
	uint32_t	code = (uint32_t) ((flags & GX_BIGSET_TOP_MASK) >> GX_BIGSET_TOP_SHIFT);

	return code == 0 || code > GX_BIGSET_TOP_MAX_LOG2 + 1 ? 0 : 1u << (code - 1);
}

/*
 * the first value of segment i (0 .. T) of a big set of n values and T
 * top keys (T a power of 2): i n / T
 */
GX_INLINE uint32_t
gx_bigset_seg(uint32_t i, uint32_t n, uint32_t T)
{
#if defined(__CUDA_ARCH__)
	const int	shift = __ffs((int) T) - 1;
#else
	const int	shift = __builtin_ctz(T);
#endif

	return (uint32_t) (((uint64_t) i * n) >> shift);
}

/* bytes of the result area for nrows rows */
GX_INLINE uint64_t
gx_result_bytes(uint32_t nrows)
{
	return GX_ALIGN_UP(sizeof(gx_result)) +
		GX_ALIGN_UP((uint64_t) gx_ntiles(nrows) * 8) +
		GX_ALIGN_UP((uint64_t) nrows * 4);
}

GX_INLINE gx_result *
gx_chunk_result(gx_chunk *c)
{
	return (gx_result *) ((char *) c + c->result_off);
}

GX_INLINE uint32_t *
gx_result_seg_off(gx_result *r)
{
	return (uint32_t *) ((char *) r + GX_ALIGN_UP(sizeof(gx_result)));
}

GX_INLINE uint32_t *
gx_result_seg_cnt(gx_result *r)
{
	return gx_result_seg_off(r) + r->ntiles;
}

GX_INLINE uint32_t *
gx_result_sel(gx_result *r)
{
	return (uint32_t *) ((char *) gx_result_seg_off(r) +
						 GX_ALIGN_UP((uint64_t) r->ntiles * 8));
}

/*
 * The join table object (JOIN_* tasks' obj[0]; the algorithm is in
 * cuda/kernels/gx_join.cuh).  Zeroed memory is an empty table:
 *   gx_join_hdr                         64 bytes
 *   gx_join_kslot kslot[kcap]           a distinct key each (open addressing)
 *   uint32 kcount[kcap]                 rows of each key (BUILD)
 *   uint32 kstart[kcap]                 where its run starts (FINISH_BUILD:
 *                                       the exclusive prefix sum of kcount)
 *   uint32 kmatched[kcap]               a RIGHT / FULL probe matched the key
 *                                       (0: none; set, never cleared)
 *   gx_join_staged staged[cap]          appended rows, in arrival order
 *   int64 run[cap]                      payloads, one run per key (FINISH)
 *   scan scratch                        GPU prefix sum (cub::DeviceScan)
 */
typedef struct gx_join_hdr
{
	uint32_t	nrows;			/* rows reserved by BUILD (an atomic add; it
								 * may pass cap: those rows found no room) */
	uint32_t	full;			/* a BUILD row found no room */
	uint32_t	built;			/* FINISH_BUILD ran: PROBE may read, BUILD may
								 * not append */
	uint32_t	rows;			/* rows placed by FINISH_BUILD */
	uint32_t	noruns;			/* FINISH_BUILD made no runs (GX_JOIN_NO_RUNS) */
	uint32_t	keys;			/* GX_JOIN_MERGE: distinct keys (FINISH_BUILD) */
	uint32_t	pad[10];
} gx_join_hdr;

#define GX_JSLOT_EMPTY 0u
#define GX_JSLOT_BUSY 1u
#define GX_JSLOT_READY 2u

typedef struct gx_join_kslot
{
	uint32_t	state;			/* GX_JSLOT_* */
	uint32_t	pad;
	int64_t		key[GX_JOIN_MAX_KEYS];
} gx_join_kslot;

typedef struct gx_join_staged
{
	uint32_t	kslot;			/* its key's slot */
	uint32_t	rank;			/* its place in its key's run */
	int64_t		payload;
} gx_join_staged;

/* where the parts of a join table lie (bytes from its start) */
typedef struct gx_join_offs
{
	uint64_t	kslot,
				kcount,
				kstart,
				kmatched,
				staged,
				run,
				scratch,
				scratch_bytes,
				total;
} gx_join_offs;

/*
 * bytes reserved for the GPU's prefix sum over n counts: CUB's
 * decoupled look-back needs a status word (at most 16 bytes) per tile of
 * hundreds of counts; this reserves a byte per count and 64 kB, and the
 * GPU checks CUB's own figure against it before it runs
 */
GX_INLINE uint64_t
gx_join_scan_scratch_bytes(uint64_t n)
{
	return 65536 + n;
}

/* the layout of a join table of cap rows and kcap key slots; its bytes */
GX_INLINE uint64_t
gx_join_layout(uint64_t cap, uint64_t kcap, gx_join_offs *o)
{
	uint64_t	off = sizeof(gx_join_hdr);

	o->kslot = off;
	off = GX_ALIGN_UP(off + kcap * sizeof(gx_join_kslot));
	o->kcount = off;
	off = GX_ALIGN_UP(off + kcap * 4);
	o->kstart = off;
	off = GX_ALIGN_UP(off + kcap * 4);
	o->kmatched = off;
	off = GX_ALIGN_UP(off + kcap * 4);
	o->staged = off;
	off = GX_ALIGN_UP(off + cap * sizeof(gx_join_staged));
	o->run = off;
	off = GX_ALIGN_UP(off + cap * 8);
	o->scratch = (off + 255) & ~(uint64_t) 255;
	o->scratch_bytes = gx_join_scan_scratch_bytes(kcap);
	o->total = o->scratch + o->scratch_bytes;
	return o->total;
}

/* bytes of a join table of cap rows and kcap key slots */
GX_INLINE uint64_t
gx_join_table_bytes(uint64_t cap, uint64_t kcap)
{
	gx_join_offs o;

	return gx_join_layout(cap, kcap, &o);
}

/*
 * The range join's table (ext.join.alg GX_JOIN_RANGE; gx_join.cuh).
 * Zeroed memory is an empty table:
 *   gx_join_hdr                         64 bytes (nrows, full, built, rows)
 *   int64 key[cap]                      appended keys, in arrival order
 *   int64 pay[cap]                      ... and their payloads (BUILD)
 *   int64 skey[cap]                     the keys sorted (FINISH_BUILD)
 *   int64 run[cap]                      ... and their payloads, the same order
 *   sort scratch                        GPU sort (cub::DeviceRadixSort)
 */
typedef struct gx_jrange_offs
{
	uint64_t	key,
				pay,
				skey,
				run,
				scratch,
				scratch_bytes,
				total;
} gx_jrange_offs;

/*
 * bytes reserved for the GPU's radix sort of n pairs (the double-buffer
 * form: digit histograms and the look-back state of a pass, under a byte
 * a row): 64 kB and 2 bytes a row; the GPU checks CUB's own figure
 * against it before it runs
 */
GX_INLINE uint64_t
gx_jrange_sort_scratch_bytes(uint64_t n)
{
	return 65536 + 2 * n;
}

/*
 * Lay out from off np arrays of n entries (part p: width[p] bytes an
 * entry, its offset into *parts[p], each aligned), then a scratch of
 * scratch_bytes on a 256-byte boundary (CUB's temporary storage: its
 * offset into *scratch); the total bytes
 */
GX_INLINE uint64_t
gx_layout_arrays(uint64_t off, uint64_t n, uint64_t *const *parts, const uint32_t *width,
				 uint32_t np, uint64_t scratch_bytes, uint64_t *scratch)
{
	for (uint32_t p = 0; p < np; p++)
	{
		*parts[p] = off;
		off = GX_ALIGN_UP(off + n * width[p]);
	}
	*scratch = (off + 255) & ~(uint64_t) 255;
	return *scratch + scratch_bytes;
}

/* the layout of a range join table of cap rows; its bytes */
GX_INLINE uint64_t
gx_jrange_layout(uint64_t cap, gx_jrange_offs *o)
{
	uint64_t   *const parts[] = {&o->key, &o->pay, &o->skey, &o->run};
	const uint32_t width[] = {8, 8, 8, 8};

	o->scratch_bytes = gx_jrange_sort_scratch_bytes(cap);
	o->total = gx_layout_arrays(sizeof(gx_join_hdr), cap, parts, width, 4, o->scratch_bytes,
								&o->scratch);
	return o->total;
}

/* bytes of a range join table of cap rows */
GX_INLINE uint64_t
gx_jrange_table_bytes(uint64_t cap)
{
	gx_jrange_offs o;

	return gx_jrange_layout(cap, &o);
}

/*
 * The merge join's table (ext.join.alg GX_JOIN_MERGE; gx_jmerge.cuh).
 * Zeroed memory is an empty table:
 *   gx_join_hdr                         64 bytes (nrows, full, built, rows, keys)
 *   int64 key0[cap], key1[cap]          appended keys (key1 0 for one key) ...
 *   int64 pay[cap]                      ... and payloads, in arrival order (BUILD)
 *   int64 kx[cap], ky[cap]              the GPU sort's key buffers
 *   uint32 vx[cap], vy[cap]             ... its index buffers
 *   int64 skey0[cap], skey1[cap]        the keys sorted (FINISH_BUILD)
 *   int64 run[cap]                      ... and their payloads, the same order
 *   uint32 urow[cap]                    the distinct key of each sorted row
 *   int64 ukey0[cap], ukey1[cap]        the distinct keys, ascending ...
 *   uint32 ustart[cap]                  ... where each one's run starts (the
 *                                       last one's ends at the placed rows)
 *   uint32 umatched[cap]                a RIGHT / FULL probe matched the key
 *   sort scratch                        GPU sort and scan (CUB)
 */
typedef struct gx_jmerge_offs
{
	uint64_t	key0,
				key1,
				pay,
				kx,
				ky,
				vx,
				vy,
				skey0,
				skey1,
				run,
				urow,
				ukey0,
				ukey1,
				ustart,
				umatched,
				scratch,
				scratch_bytes,
				total;
} gx_jmerge_offs;

/* the layout of a merge join table of cap rows; its bytes */
GX_INLINE uint64_t
gx_jmerge_layout(uint64_t cap, gx_jmerge_offs *o)
{
	uint64_t   *const parts[] = {&o->key0, &o->key1, &o->pay, &o->kx, &o->ky, &o->vx, &o->vy,
		&o->skey0, &o->skey1, &o->run, &o->urow, &o->ukey0, &o->ukey1, &o->ustart,
	&o->umatched};
	const uint32_t width[] = {8, 8, 8, 8, 8, 4, 4, 8, 8, 8, 4, 8, 8, 4, 4};

	o->scratch_bytes = gx_jrange_sort_scratch_bytes(cap);
	o->total = gx_layout_arrays(sizeof(gx_join_hdr), cap, parts, width, 15, o->scratch_bytes,
								&o->scratch);
	return o->total;
}

/* bytes of a merge join table of cap rows */
GX_INLINE uint64_t
gx_jmerge_table_bytes(uint64_t cap)
{
	gx_jmerge_offs o;

	return gx_jmerge_layout(cap, &o);
}

/*
 * The parts of a sealed join table of geometry j (alg, cap, kcap) that a
 * PROBE without marks (not RIGHT / FULL) and without inner columns reads,
 * as copy ranges (src = dst: the same offsets in a table of the same
 * geometry), into r (GX_COPY_MAX_RANGES); their count.  runs: the table
 * has runs (a FINISH without GX_JOIN_NO_RUNS).  A replica of the table on
 * another device (OBJ_COPY) takes only these: the header, then
 *  - hash: the key directory and its counts, and (runs) the run starts and
 *    the runs (not the marks, the staged rows nor the prefix sum's scratch);
 *  - range: the sorted keys and their payloads;
 *  - merge: the runs, each sorted row's distinct key, the distinct keys
 *    and their starts (not the appended rows, the sort's buffers, the
 *    marks nor the scratch).
 * The rest of the replica stays zeroed, as its memory was given.
 */
GX_INLINE uint32_t
gx_join_probe_ranges(const gx_join_ext *j, int runs, gx_copy_range *r)
{
	uint64_t	a,
				b;

	if (j->alg == GX_JOIN_RANGE)
	{
		gx_jrange_offs o;

		gx_jrange_layout(j->cap, &o);
		a = o.skey;
		b = o.run + 8 * (uint64_t) j->cap;
	}
	else if (j->alg == GX_JOIN_MERGE)
	{
		gx_jmerge_offs o;

		gx_jmerge_layout(j->cap, &o);
		a = o.run;
		b = o.umatched;
	}
	else
	{
		gx_join_offs o;

		gx_join_layout(j->cap, j->kcap, &o);
		/* the header, the key directory, its counts (and the run starts) at once */
		r[0].src = r[0].dst = 0;
		r[0].bytes = runs ? o.kmatched : o.kstart;
		a = o.run;
		b = o.run + 8 * (uint64_t) j->cap;
		if (!runs)
			return 1;
		r[1].src = r[1].dst = a;
		r[1].bytes = b - a;
		return 2;
	}
	r[0].src = r[0].dst = 0;
	r[0].bytes = sizeof(gx_join_hdr);
	r[1].src = r[1].dst = a;
	r[1].bytes = b - a;
	return 2;
}

/*
 * A merge probe's outer rows (gx_jmerge.cuh), one entry a row of the
 * task: what the row gives (GX_JM_*) and, for a keyed row, its run of
 * the table's sorted rows
 */
typedef struct gx_jmerge_row
{
	uint32_t	state;			/* GX_JM_* */
	uint32_t	start;			/* GX_JM_KEYED: its run [start, start + count) */
	uint32_t	count;
} gx_jmerge_row;

#define GX_JM_NONE 0u			/* not probed: before first_row, skipped, failed
								 * its quals, or an error */
#define GX_JM_KEYED 1u			/* passed, its keys not NULL: merged */
#define GX_JM_NULLKEY 2u		/* passed, a NULL key: no match */
#define GX_JM_HOST 3u			/* the device cannot evaluate it */

/*
 * A merge probe's scratch (after the tiles' scratch in its result area,
 * not copied back), for n outer rows: their keys (ok0, ok1), the sort's
 * buffers (kx, ky, vx, vy), the rows (gx_jmerge_row), the sort's
 * temporary storage (CUB's figure checked against it on the GPU)
 */
typedef struct gx_jmerge_probe_offs
{
	uint64_t	ok0,
				ok1,
				kx,
				ky,
				vx,
				vy,
				mrow,
				scratch,
				scratch_bytes,
				total;
} gx_jmerge_probe_offs;

/* the layout of a merge probe's scratch of n rows (from its start); its bytes */
GX_INLINE uint64_t
gx_jmerge_probe_layout(uint64_t n, gx_jmerge_probe_offs *o)
{
	uint64_t   *const parts[] = {&o->ok0, &o->ok1, &o->kx, &o->ky, &o->vx, &o->vy, &o->mrow};
	const uint32_t width[] = {8, 8, 8, 8, 4, 4, (uint32_t) sizeof(gx_jmerge_row)};

	o->scratch_bytes = gx_jrange_sort_scratch_bytes(n);
	o->total = gx_layout_arrays(0, n, parts, width, 7, o->scratch_bytes, &o->scratch);
	return o->total;
}

/*
 * JOIN_PROBE's result area: the gx_result header (ntiles =
 * gx_ntiles(nrows)), then two arrays of ntiles uint64, the device's
 * scratch (the entries of each tile, then their offset; its matches, then
 * their prefix; not copied back), a merge probe's scratch (alg
 * GX_JOIN_MERGE: gx_jmerge_probe_layout; not copied back), then
 * max_pairs entries (nsel of them written), in the order of the outer
 * rows and, for a row, of its matches.
 */
typedef struct gx_join_pair
{
	uint32_t	outer;			/* the outer row (in the task) */
	uint32_t	flags;			/* GX_JOIN_PAIR_* */
	int64_t		inner;			/* INNER, LEFT, RIGHT, FULL: the matching inner
								 * row's payload */
} gx_join_pair;

#define GX_JOIN_PAIR_HOST 0x1u	/* the device could not evaluate this outer
								 * row (GX_ERR_HOST): the host joins it */
#define GX_JOIN_PAIR_NO_INNER 0x2u	/* LEFT / FULL: the outer row has no match
									 * (or a NULL key): the inner columns are
									 * NULL (inner = 0) */

GX_INLINE uint64_t
gx_join_tiles_off(void)
{
	return GX_ALIGN_UP(sizeof(gx_result));
}

/* where a merge probe's scratch lies in its result area */
GX_INLINE uint64_t
gx_join_scratch_off(uint32_t nrows)
{
	return gx_join_tiles_off() + GX_ALIGN_UP((uint64_t) gx_ntiles(nrows) * 16);
}

/* where the entries lie in the result area of a probe of nrows rows of algorithm alg */
GX_INLINE uint64_t
gx_join_pairs_off(uint32_t nrows, uint32_t alg)
{
	gx_jmerge_probe_offs o;

	return gx_join_scratch_off(nrows) +
		(alg == GX_JOIN_MERGE ? GX_ALIGN_UP(gx_jmerge_probe_layout(nrows, &o)) : 0);
}

/*
 * The algorithm whose result area a probe of ext j has: a merge probe
 * with its scratch in an object (GX_JOIN_MSCRATCH) has a hash probe's
 */
GX_INLINE uint32_t
gx_join_res_alg(const gx_join_ext *j)
{
	return j->alg == GX_JOIN_MERGE && (j->jflags & GX_JOIN_MSCRATCH) ? (uint32_t) GX_JOIN_HASH :
		j->alg;
}

/* bytes of a JOIN_PROBE result area */
GX_INLINE uint64_t
gx_join_probe_result_bytes(uint32_t nrows, uint32_t max_pairs, uint32_t alg)
{
	return gx_join_pairs_off(nrows, alg) + (uint64_t) max_pairs * sizeof(gx_join_pair);
}

/*
 * Gathered output (GpuJoin returning rows without reading them back from
 * the host: gx_join.cuh, gx_join_gather_row).  A JOIN_PROBE that writes
 * entries (not count_only, no group table, one level) with
 * ext.join.ngather = G > 0 also writes, for entry i of the pass, the
 * values of its G columns, after the entries:
 *   int64 gval[G][max_pairs]   column g of entry i at g * max_pairs + i
 *                              (gx_reg.v.i: an integer, a float as its
 *                              double's bits; 0 when NULL)
 *   uint8 gnull[G][max_pairs]  1: NULL
 * at gx_join_gather_off(nrows, max_pairs, alg) (alg: gx_join_res_alg)
 * and gx_join_gather_nulls_off, gx_join_gather_result_bytes in all; the
 * entries [0, nsel) of each column are written (and come back from a GPU
 * with the entries), the rest of the area is left as it was.  Column g is:
 *  - gather[g] >= 0: output gather[g] of the entry's outer row (its
 *    program, evaluated again when the entry is written; it passed);
 *  - gather[g] < 0: inner column c = -1 - gather[g] (c < ext.join.ncols)
 *    of the inner column store obj[GX_JOIN_OBJ_COLS] (the table built with
 *    those columns: gx_join_cols_bytes(cap, ncols)) at the entry's
 *    payload, its staged index; NULL for an entry without an inner row
 *    (GX_JOIN_PAIR_NO_INNER, SEMI, ANTI), a payload outside the store, or
 *    a table sealed without runs (GX_JOIN_NO_RUNS: no payloads).
 * A host entry (GX_JOIN_PAIR_HOST) has every column NULL (the host joins
 * that row itself).  The entries themselves are written as without.  The
 * store (of a BUILD with ext.join.ncols >= the columns read) is needed,
 * and validated, only when some gather[g] < 0; a BUILD, FINISH or
 * UNMATCHED task has ngather 0.
 */
GX_INLINE uint64_t
gx_join_gather_off(uint32_t nrows, uint32_t max_pairs, uint32_t alg)
{
	return GX_ALIGN_UP(gx_join_probe_result_bytes(nrows, max_pairs, alg));
}

/* where gnull lies in a gathering probe's result area (gval at gx_join_gather_off) */
GX_INLINE uint64_t
gx_join_gather_nulls_off(uint32_t nrows, uint32_t max_pairs, uint32_t alg, uint32_t ngather)
{
	return gx_join_gather_off(nrows, max_pairs, alg) + GX_ALIGN_UP((uint64_t) max_pairs * 8 * ngather);
}

/* bytes of a gathering JOIN_PROBE's result area (ngather columns an entry) */
GX_INLINE uint64_t
gx_join_gather_result_bytes(uint32_t nrows, uint32_t max_pairs, uint32_t alg, uint32_t ngather)
{
	if (ngather == 0)
		return gx_join_probe_result_bytes(nrows, max_pairs, alg);
	return gx_join_gather_nulls_off(nrows, max_pairs, alg, ngather) +
		(uint64_t) max_pairs * ngather;
}

/* an entry's bytes in a gathering probe's result area (for sizing max_pairs) */
#define GX_JOIN_GATHER_ENTRY_BYTES(ngather) (sizeof(gx_join_pair) + 9 * (uint64_t) (ngather))

/*
 * Aggregation over a join (GpuJoin's GROUP BY; gx_join.cuh, "Group
 * probe"): a JOIN_PROBE with ext.ngroup_cap > 0 adds every joined pair
 * into a group table instead of writing entries.
 *
 * The inner column store (a session object, zeroed memory), of a table of
 * cap rows and ncols inner columns:
 *   int64 val[ncols][cap]               column c of staged row i at c * cap + i
 *                                       (a float as its double's bits)
 *   uint8 nulls[cap]                    bit c set: column c of row i is NULL
 * A BUILD with ext.join.ncols > 0 names it as obj[1]: each row it stages
 * (the index its atomic add on hdr.nrows reserved, in every algorithm)
 * writes its outputs col_out[c] there, and its payload is that index
 * (payload_out must be -1), which FINISH moves into the runs unchanged.
 *
 * The group PROBE's objects: obj[0] the join table, obj[1] the inner
 * column store (when ncols > 0, of the table's geometry), obj[2] the group
 * table (ngroup_cap ... of gx_chunk_ext, as a FILTER in group mode).  Its
 * result area is a probe's of max_pairs 0 (gx_join_probe_result_bytes:
 * the header, the tiles' and a merge probe's scratch); no entry is
 * written, nsel is 0, there are no passes (first_row, first_match,
 * max_pairs 0, GX_RESULT_MORE never), and join_count, join_noroom and
 * join_host say what happened to the pairs.
 */
#define GX_JOIN_OBJ_COLS 1		/* obj[] of the inner column store */
#define GX_JOIN_OBJ_GROUP 2		/* obj[] of a group probe's group table */
#define GX_JOIN_OBJ_MSCRATCH (GX_TASK_MAX_OBJS - 1)	/* obj[] of a merge probe's scratch (GX_JOIN_MSCRATCH) */

/*
 * Multi-level group probe (ext.join.nlevels L > 1; gx_join.cuh,
 * gx_join_group_levels): the pipeline of a left-deep chain of INNER hash
 * joins under an aggregating join, in one pass over the outer rows.
 * Level 0 is the task's own table (obj[0], obj[1], any algorithm, mode
 * INNER); level l >= 1 is ext.join.level[l - 1] with its table and store
 * in obj[GX_JOIN_OBJ_LEVEL(l)] and obj[GX_JOIN_OBJ_LEVEL_COLS(l)].  Each
 * outer row's outputs fill jv[0 .. icol_base); each of its level 0
 * matches fills level 0's columns and looks its level 1 keys up, each of
 * those matches fills level 1's columns, and so on; every combination
 * that reaches level L - 1 goes into its group (join_count counts them).
 * A NULL key at any level joins nothing.  The validator checks every
 * level's geometry against its objects and that the levels' columns
 * follow each other in jv, each key reading an entry before its level's.
 */
#define GX_JOIN_OBJ_LEVEL(l) (GX_TASK_OBJ_SETS + 1 + 2 * ((l) - 1))
#define GX_JOIN_OBJ_LEVEL_COLS(l) (GX_JOIN_OBJ_LEVEL(l) + 1)

/* the objects of levels 1 .. GX_JOIN_MAX_LEVELS - 1 where a device holds them (a kernel argument) */
typedef struct gx_jlevel_objs
{
	char	   *tab[GX_JOIN_MAX_LEVELS - 1];	/* level l's table at [l - 1] */
	char	   *cols[GX_JOIN_MAX_LEVELS - 1];	/* ... and its column store */
} gx_jlevel_objs;

/* bytes of an inner column store of cap rows and ncols columns */
GX_INLINE uint64_t
gx_join_cols_bytes(uint64_t cap, uint32_t ncols)
{
	return GX_ALIGN_UP(cap * 8 * ncols) + GX_ALIGN_UP(cap);
}

/*
 * JOIN_UNMATCHED's result area: the gx_result header (ntiles 0), then
 * (unless count_only) nsel int64 payloads, in no order, of the placed
 * rows [ext.join.first_row, + nrows) whose key no RIGHT / FULL probe
 * matched.  The task has no program and no column; each range is read
 * once, so the ranges of [0, placed rows) give every unmatched row once.
 */
GX_INLINE uint64_t
gx_join_unmatched_off(void)
{
	return GX_ALIGN_UP(sizeof(gx_result));
}

/* bytes of a JOIN_UNMATCHED result area for a range of nrows rows */
GX_INLINE uint64_t
gx_join_unmatched_result_bytes(uint32_t nrows, uint32_t count_only)
{
	return gx_join_unmatched_off() + (count_only ? 0 : (uint64_t) nrows * 8);
}

/*
 * SEARCH's result area: the gx_result header (ntiles 0), then a run per
 * probe row, in row order: [start, start + count) of the projection's
 * sorted keys (and of its positions, the table's run[]); for an empty run
 * start is where the lower bound falls (0 for a NULL key or bound)
 */
typedef struct gx_search_run
{
	uint32_t	start;
	uint32_t	count;
} gx_search_run;

/* where the runs lie in a SEARCH result area */
GX_INLINE uint64_t
gx_search_runs_off(void)
{
	return GX_ALIGN_UP(sizeof(gx_result));
}

/* bytes of a SEARCH result area of nrows probes */
GX_INLINE uint64_t
gx_search_result_bytes(uint32_t nrows)
{
	return gx_search_runs_off() + (uint64_t) nrows * sizeof(gx_search_run);
}

#endif							/* GX_PROGRAM_H */
