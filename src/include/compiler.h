/*
 * compiler.h - compiling quals into device programs (compile.cpp).
 */
#ifndef GX_COMPILER_H
#define GX_COMPILER_H

#include "gpuext.h"

/* ---- compiler (compile.cpp) ---- */
#define GX_MAX_BIGSETS 4		/* big sets of one program (more: host quals) */
#define GX_BIGSET_PARAM_GUESS 1024	/* values of an array Param, for costs */

/*
 * A big set's values at scan start: sorted, distinct int64 device values
 * (gx_program.h, "Big sets"), in the program's memory context; the scan
 * puts every set of its program in one session object (scan_sets.cpp)
 */
typedef struct GxBigSet
{
	int			k;				/* its header in the constant table */
	int64		n;				/* values */
	int64	   *vals;			/* NULL when n = 0 */
	bool		is_const;		/* a Const array's: built once, kept */
} GxBigSet;

typedef struct GxProgram
{
	int			ninstr;
	int			nconsts;
	int			nregs;			/* high-water mark */
	int			inuse;			/* registers in use while compiling */
	int			ncols;
	int			nouts;			/* outputs (GX_OP_OUT), while planning */
	bool		may_error;
	gx_instr	code[GX_MAX_INSTR];
	gx_const	consts[GX_MAX_CONSTS];
	AttrNumber	col_attno[GX_MAX_COLS];
	int			col_type[GX_MAX_COLS];
	Oid			col_typid[GX_MAX_COLS];
	int			col_scale[GX_MAX_COLS];	/* GX_NUMERIC: the values' scale */
	bool		may_host;		/* rows may need the host (GX_ERR_HOST): the
								 * scan rechecks them, so it returns rows */
	bool		may_fallback;	/* a run filled at scan start may not fit: the
								 * scan then runs its device quals on the host */
	List	   *params;			/* Params (and Consts) whose values go in consts */
	List	   *param_idx;		/* integer list: const index of each param */
	List	   *param_kind;		/* integer list: GX_DYN_* of each param */
	/* big sets (GX_OP_INBIGSET), filled at scan start (gx_program_fill) */
	int			nbig;			/* sets filled so far: big[0 .. nbig) */
	GxBigSet	big[GX_MAX_BIGSETS];
	bool		big_changed;	/* a set was (re)built since the scan put
								 * them in device memory */
	double		big_ms;			/* ms building and writing them, every run
								 * (EXPLAIN ANALYZE: Device Sets Time) */
} GxProgram;

/*
 * What a Param (or a session-dependent Const) of a program fills at scan
 * start (gx_program_fill, runs.cpp): kind | aux1 << 8 | aux2 << 16.
 */
#define GX_DYN_VALUE 0			/* its value, one constant */
#define GX_DYN_SET 1			/* an array: a big set (GX_DYN_BIG); aux1 =
								 * the comparison's gx_type */
#define GX_DYN_BOUND 2			/* a date/timestamp/timestamptz the run of an
								 * INRANGES compares with; aux1 = the
								 * comparison (value op it), aux2 = the
								 * value's GX_DOM_* */
#define GX_DYN_NUMERIC 3		/* a numeric value at scale aux1: one
								 * constant; not exact at that scale: the
								 * scan runs its device quals on the host */
#define GX_DYN_NUMSET 4			/* a numeric array: a big set at scale aux1 */
#define GX_DYN_CHAR8 5			/* a bpchar value packed as GX_CHAR8: one
								 * constant; longer than 8 bytes: the scan
								 * runs its device quals on the host */
#define GX_DYN_CHAR8SET 6		/* a bpchar array: a big set of GX_CHAR8
								 * values */
#define GX_DYN_BIG (1 << 24)	/* with a *SET kind: a big set (GX_OP_INBIGSET)
								 * of any size, aux2 = its index in
								 * GxProgram.big */
#define GX_DYN_KIND(k) ((k) & 0xff)
#define GX_DYN_AUX1(k) (((k) >> 8) & 0xff)
#define GX_DYN_AUX2(k) (((k) >> 16) & 0xff)

/* the value side of a GX_DYN_BOUND comparison */
#define GX_DOM_DATE 0
#define GX_DOM_TIMESTAMP 1
#define GX_DOM_TIMESTAMPTZ 2

#define GX_BOUNDS_CAP 8			/* values of a bounds run */

void		gx_program_init(GxProgram *prog);
bool		gx_program_add_qual(GxProgram *prog, Expr *qual, Index scanrelid,
								bool *may_error, bool only_safe);
Const	   *gx_program_to_const(const GxProgram *p);
GxProgram  *gx_program_from_const(Const *c, List *params);
int			gx_program_add_column(GxProgram *prog, AttrNumber attno, Oid typid);
int			gx_program_add_dscale(GxProgram *prog, Var *var, Index scanrelid);
int			gx_program_add_output(GxProgram *prog, Expr *expr, Index scanrelid, int *gxtype,
								  int *scale);
bool		gx_program_const_may_fallback(Const *c);
bool		gx_program_const_may_host(Const *c);
double		gx_program_work(const GxProgram *p);
char	   *gx_program_describe_sets(const GxProgram *p);
bool		gx_program_has_bigsets(const GxProgram *p);
/* runs of constants (runs.cpp) */
int			gx_set_run_build(int64 dyn, Datum array, Oid elemtype, gx_const *vals, int cap,
							 int64 *flags);
bool		gx_program_fill(GxProgram *p, int kind, int k, Datum d, bool isnull, Oid typid);
bool		gx_program_fill_const(GxProgram *p, int kind, int k, Const *c);
/* the type table, PostgreSQL side (types.cpp) */
bool		gx_type_supported(Oid typid, int *gxtype);
bool		gx_type_supported_mod(Oid typid, int32 typmod, int *gxtype, int *scale);
bool		gx_numeric_value(Datum d, int scale, int64 *v, int *dscale);
int64		gx_numeric_free_datum(Datum d);
bool		gx_collation_exact(Oid collid);
bool		gx_char8_value(Datum d, int64 *v);
Datum		gx_char8_datum(int64 packed, int32 typmod);
void		gx_store_datum_scale(char *vals, int gxtype, int scale, uint32 n, Datum d,
								 bool isnull);
void		gx_datum_value(Datum d, Oid typid, int64 *ival, double *dval);
void		gx_store_datum(char *vals, int gxtype, uint32 n, Datum d, bool isnull);
uint8		gx_align_bytes(char attalign);
bool		gx_deform_atts(TupleDesc desc, int ncols, const AttrNumber *attno,
						   const int *gxtype, const int *scale, gx_attr *atts, int *maxatt);

#endif							/* GX_COMPILER_H */
