/*
 * ptree_handler.cpp - the gpuext_ptree index access method: its routine
 * (gpuext_ptree_handler, what it can do and its callbacks), its options
 * (none) and the validation of its operator classes.
 *
 * What it can do: one key column; ordered scans forward and backward (a
 * btree's strategy numbers, so the planner derives the sort order from
 * the opfamily's < and >); scans without a key (NULLs are indexed) and
 * IS NULL / IS NOT NULL; index and bitmap scans; no unique indexes, no
 * index-only scans, no parallel scans.
 */
#include "gpuext.h"
#include "ptree.h"

extern "C"
{
#include "access/htup_details.h"
#include "access/reloptions.h"
#include "access/stratnum.h"
#include "catalog/pg_amop.h"
#include "catalog/pg_amproc.h"
#include "catalog/pg_opclass.h"
#include "catalog/pg_type.h"
#include "commands/vacuum.h"
#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/catcache.h"
#include "utils/regproc.h"
#include "utils/syscache.h"
#if PG_VERSION_NUM >= 180000
#include "access/cmptype.h"
#endif

PGDLLEXPORT Datum gpuext_ptree_handler(PG_FUNCTION_ARGS);
PG_FUNCTION_INFO_V1(gpuext_ptree_handler);
}

/* amoptions: gpuext_ptree takes no storage parameters */
bytea *
ptree_options(Datum reloptions, bool validate)
{
	if (validate && DatumGetPointer(reloptions) != NULL)
	{
		List	   *opts = untransformRelOptions(reloptions);

		if (opts != NIL)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("unrecognized parameter \"%s\"", ((DefElem *) linitial(opts))->defname),
					 errdetail("gpuext_ptree indexes take no storage parameters.")));
	}
	return NULL;
}

/* is a type one a gpuext_ptree operator class may compare? */
static bool
ptree_validate_type(Oid typid)
{
	return typid == INT4OID || typid == INT8OID || typid == TEXTOID;
}

/*
 * amvalidate: an operator class's family holds search operators of
 * strategies 1 to 5 returning boolean, on the types gpuext_ptree encodes
 * (integers with integers, text with text), the class has "=", and there
 * are no support functions (gpuext_ptree needs none).
 */
bool
ptree_validate(Oid opclassoid)
{
	HeapTuple	classtup = SearchSysCache1(CLAOID, ObjectIdGetDatum(opclassoid));
	Form_pg_opclass classform;
	Oid			opfamily;
	Oid			opcintype;
	char	   *opclassname;
	CatCList   *oprlist;
	CatCList   *proclist;
	bool		result = true;
	bool		has_eq = false;

	if (!HeapTupleIsValid(classtup))
		elog(ERROR, "cache lookup failed for operator class %u", opclassoid);
	classform = (Form_pg_opclass) GETSTRUCT(classtup);
	opfamily = classform->opcfamily;
	opcintype = classform->opcintype;
	opclassname = NameStr(classform->opcname);

	oprlist = SearchSysCacheList1(AMOPSTRATEGY, ObjectIdGetDatum(opfamily));
	proclist = SearchSysCacheList1(AMPROCNUM, ObjectIdGetDatum(opfamily));

	if (!ptree_validate_type(opcintype))
	{
		ereport(INFO,
				(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
				 errmsg("gpuext_ptree operator class \"%s\" is for type %s, which it cannot index",
						opclassname, format_type_be(opcintype))));
		result = false;
	}
	for (int i = 0; i < proclist->n_members; i++)
	{
		Form_pg_amproc procform = (Form_pg_amproc) GETSTRUCT(&proclist->members[i]->tuple);

		ereport(INFO,
				(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
				 errmsg("gpuext_ptree operator family of class \"%s\" has support function %d, but the access method uses none",
						opclassname, procform->amprocnum)));
		result = false;
	}
	for (int i = 0; i < oprlist->n_members; i++)
	{
		Form_pg_amop oprform = (Form_pg_amop) GETSTRUCT(&oprlist->members[i]->tuple);
		bool		ints = (oprform->amoplefttype == INT4OID || oprform->amoplefttype == INT8OID) ==
			(oprform->amoprighttype == INT4OID || oprform->amoprighttype == INT8OID);

		if (oprform->amopstrategy < 1 || oprform->amopstrategy > PTREE_STRATEGIES ||
			oprform->amoppurpose != AMOP_SEARCH ||
			!ptree_validate_type(oprform->amoplefttype) ||
			!ptree_validate_type(oprform->amoprighttype) || !ints ||
			get_func_rettype(get_opcode(oprform->amopopr)) != BOOLOID)
		{
			ereport(INFO,
					(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
					 errmsg("gpuext_ptree operator family of class \"%s\" has an invalid operator %s (strategy %d)",
							opclassname, format_operator(oprform->amopopr), oprform->amopstrategy)));
			result = false;
		}
		if (oprform->amopstrategy == BTEqualStrategyNumber &&
			oprform->amoplefttype == opcintype && oprform->amoprighttype == opcintype)
			has_eq = true;
	}
	if (!has_eq)
	{
		ereport(INFO,
				(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
				 errmsg("gpuext_ptree operator class \"%s\" has no equality operator",
						opclassname)));
		result = false;
	}

	ReleaseCatCacheList(proclist);
	ReleaseCatCacheList(oprlist);
	ReleaseSysCache(classtup);
	return result;
}

#if PG_VERSION_NUM >= 180000
/* amtranslatestrategy: the strategies are btree's */
static CompareType
ptree_translate_strategy(StrategyNumber strategy, Oid opfamily)
{
	if (strategy >= 1 && strategy <= PTREE_STRATEGIES)
		return (CompareType) strategy;
	return COMPARE_INVALID;
}

/* amtranslatecmptype: the strategies are btree's */
static StrategyNumber
ptree_translate_cmptype(CompareType cmptype, Oid opfamily)
{
	if (cmptype >= COMPARE_LT && cmptype <= COMPARE_GT)
		return (StrategyNumber) cmptype;
	return InvalidStrategy;
}
#endif

/* the access method's handler: what it can do, its callbacks */
Datum
gpuext_ptree_handler(PG_FUNCTION_ARGS)
{
	IndexAmRoutine *amroutine = makeNode(IndexAmRoutine);

	amroutine->amstrategies = PTREE_STRATEGIES;
	amroutine->amsupport = 0;
	amroutine->amoptsprocnum = 0;
	amroutine->amcanorder = true;
	amroutine->amcanorderbyop = false;
	amroutine->amcanbackward = false;	/* no change of direction mid-scan */
	amroutine->amcanunique = false;
	amroutine->amcanmulticol = false;
	amroutine->amoptionalkey = true;	/* NULLs are indexed */
	amroutine->amsearcharray = false;
	amroutine->amsearchnulls = true;
	amroutine->amstorage = false;
	amroutine->amclusterable = false;
	amroutine->ampredlocks = false;
	amroutine->amcanparallel = false;
	amroutine->amcaninclude = false;
	amroutine->amusemaintenanceworkmem = false;
	amroutine->amparallelvacuumoptions = VACUUM_OPTION_NO_PARALLEL;
	amroutine->amkeytype = InvalidOid;
#if PG_VERSION_NUM >= 160000
	amroutine->amsummarizing = false;
#endif
#if PG_VERSION_NUM >= 170000
	amroutine->amcanbuildparallel = false;
	amroutine->aminsertcleanup = NULL;
#endif
#if PG_VERSION_NUM >= 180000
	amroutine->amcanhash = false;
	amroutine->amconsistentequality = true;
	amroutine->amconsistentordering = true;
	amroutine->amgettreeheight = NULL;
	amroutine->amtranslatestrategy = ptree_translate_strategy;
	amroutine->amtranslatecmptype = ptree_translate_cmptype;
#endif

	amroutine->ambuild = ptree_build;
	amroutine->ambuildempty = ptree_buildempty;
	amroutine->aminsert = ptree_insert;
	amroutine->ambulkdelete = ptree_bulkdelete;
	amroutine->amvacuumcleanup = ptree_vacuumcleanup;
	amroutine->amcanreturn = NULL;
	amroutine->amcostestimate = ptree_costestimate;
	amroutine->amoptions = ptree_options;
	amroutine->amproperty = NULL;
	amroutine->ambuildphasename = ptree_buildphasename;
	amroutine->amvalidate = ptree_validate;
	amroutine->amadjustmembers = NULL;
	amroutine->ambeginscan = ptree_beginscan;
	amroutine->amrescan = ptree_rescan;
	amroutine->amgettuple = ptree_gettuple;
	amroutine->amgetbitmap = ptree_getbitmap;
	amroutine->amendscan = ptree_endscan;
	amroutine->ammarkpos = NULL;
	amroutine->amrestrpos = NULL;
	amroutine->amestimateparallelscan = NULL;
	amroutine->aminitparallelscan = NULL;
	amroutine->amparallelrescan = NULL;

	PG_RETURN_POINTER(amroutine);
}
