/*
 * ptree_cost.cpp - amcostestimate of gpuext_ptree: PostgreSQL's generic
 * estimate (pages and tuples by selectivity, as btree and bloom use), plus
 * the descent: about one node per 4-bit span of the distinct part of a
 * key, log16 of the index's tuples, each a comparison.
 */
#include "gpuext.h"
#include "ptree.h"

#include <math.h>

extern "C"
{
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "utils/selfuncs.h"
}

/* amcostestimate */
void
ptree_costestimate(PlannerInfo *root, IndexPath *path, double loop_count,
				   Cost *indexStartupCost, Cost *indexTotalCost,
				   Selectivity *indexSelectivity, double *indexCorrelation,
				   double *indexPages)
{
	IndexOptInfo *index = path->indexinfo;
	GenericCosts costs;
	Cost		descent = 0;

	memset(&costs, 0, sizeof(costs));
	genericcostestimate(root, path, loop_count, &costs);

	if (index->tuples > 1)
		descent = ceil(log(index->tuples) / log((double) PTREE_FANOUT)) * cpu_operator_cost;
	costs.indexStartupCost += descent;
	costs.indexTotalCost += costs.num_sa_scans * descent;

	*indexStartupCost = costs.indexStartupCost;
	*indexTotalCost = costs.indexTotalCost;
	*indexSelectivity = costs.indexSelectivity;
	*indexCorrelation = costs.indexCorrelation;
	*indexPages = costs.numIndexPages;
}
