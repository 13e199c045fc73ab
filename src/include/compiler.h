/*
 * compiler.h - compiling quals into device programs (compile.cpp).
 */
#ifndef GX_COMPILER_H
#define GX_COMPILER_H

#include "gpuext.h"

/* ---- compiler (compile.cpp) ---- */
typedef struct GxProgram
{
	int			ninstr;
	int			nconsts;
	int			nregs;			/* high-water mark */
	int			inuse;			/* registers in use while compiling */
	int			ncols;
	bool		may_error;
	gx_instr	code[GX_MAX_INSTR];
	gx_const	consts[GX_MAX_CONSTS];
	AttrNumber	col_attno[GX_MAX_COLS];
	int			col_type[GX_MAX_COLS];
	Oid			col_typid[GX_MAX_COLS];
	List	   *params;			/* list of Param* whose value goes in consts */
	List	   *param_idx;		/* integer list: const index of each param */
} GxProgram;

void		gx_program_init(GxProgram *prog);
bool		gx_program_add_qual(GxProgram *prog, Expr *qual, Index scanrelid,
								bool *may_error, bool only_safe);
Const	   *gx_program_to_const(const GxProgram *p);
GxProgram  *gx_program_from_const(Const *c, List *params);
int			gx_program_add_column(GxProgram *prog, AttrNumber attno, Oid typid);
/* the type table, PostgreSQL side (types.cpp) */
bool		gx_type_supported(Oid typid, int *gxtype);
void		gx_datum_value(Datum d, Oid typid, int64 *ival, double *dval);
void		gx_store_datum(char *vals, int gxtype, uint32 n, Datum d, bool isnull);
uint8		gx_align_bytes(char attalign);
bool		gx_deform_atts(TupleDesc desc, int ncols, const AttrNumber *attno,
						   const int *gxtype, gx_attr *atts, int *maxatt);

#endif							/* GX_COMPILER_H */
