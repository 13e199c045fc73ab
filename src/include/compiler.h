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
								bool *may_error);
int			gx_program_add_column(GxProgram *prog, AttrNumber attno, Oid typid);
bool		gx_type_supported(Oid typid, int *gxtype);

#endif							/* GX_COMPILER_H */
