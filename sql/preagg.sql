-- preagg: GpuPreAgg, GROUP BY and aggregates in a group table on the device.
-- The node returns one row of partial states per group (a serial scan
-- whose table is too small runs passes, a partition of the groups each; a
-- parallel one returns a row per row its table had no room for);
-- PostgreSQL's Finalize (Hash|Group)Aggregate combines them.  Every result is compared with gpuext off (gx_check:
-- PostgreSQL's own plan, then GpuPreAgg forced on each device).

SET max_parallel_workers_per_gather = 0;
-- keys of every device key type, NULLs in every column
CREATE TABLE gx_pa (
    id int4, k4 int4, k2 int2, k8 int8, kb bool, kd date, kts timestamp, ktz timestamptz,
    v4 int4, v2 int2, v8 int8, f8 float8, ok bool, t text);
INSERT INTO gx_pa
SELECT g,
       CASE WHEN g % 97 = 0 THEN NULL ELSE g % 10 END,
       CASE WHEN g % 89 = 0 THEN NULL ELSE (g % 7 - 3)::int2 END,
       CASE WHEN g % 83 = 0 THEN NULL ELSE (g % 5)::int8 * 10000000000 END,
       CASE WHEN g % 79 = 0 THEN NULL ELSE g % 3 = 0 END,
       CASE WHEN g % 73 = 0 THEN NULL ELSE date '2024-01-01' + g % 12 END,
       CASE WHEN g % 71 = 0 THEN NULL ELSE timestamp '2024-01-01' + (g % 4) * interval '1 hour' END,
       CASE WHEN g % 67 = 0 THEN NULL ELSE timestamptz '2024-01-01 00:00+00' + (g % 3) * interval '1 day' END,
       CASE WHEN g % 13 = 0 THEN NULL ELSE g * 7 % 1000 - 500 END,
       CASE WHEN g % 11 = 0 THEN NULL ELSE (g % 200 - 100)::int2 END,
       CASE WHEN g % 17 = 0 THEN NULL ELSE g::int8 * 1000003 END,
       CASE WHEN g % 19 = 0 THEN NULL ELSE g / 4.0 END,
       CASE WHEN g % 23 = 0 THEN NULL ELSE g % 50 <> 0 END,
       'x' || g % 10
FROM generate_series(1, 60000) g;
INSERT INTO gx_pa (id, k4, kd, kts, ktz, v4, v8) VALUES
    (60001, 1, 'infinity', 'infinity', 'infinity', 2147483647, 9223372036854775807),
    (60002, 1, '-infinity', '-infinity', '-infinity', -2147483648, -9223372036854775808);
VACUUM (FREEZE, ANALYZE) gx_pa;
CREATE TABLE gx_pa_empty (k4 int4, v4 int4);
-- 30000 groups of 3 rows
CREATE TABLE gx_pa_many AS SELECT g % 30000 AS k, g AS v FROM generate_series(1, 90000) g;
ANALYZE gx_pa_many;
-- EXPLAIN ANALYZE without the lines that depend on memory
CREATE FUNCTION gx_pa_explain(q text) RETURNS SETOF text LANGUAGE sql AS $$
    SELECT l FROM gx_explain(q, 'ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF') l
    WHERE l !~ '(Sort Method|Memory Usage|Batches):'
$$;

-- the plans: Finalize HashAggregate (or GroupAggregate over a Sort) over
-- GpuPreAgg, with the keys and the device aggregates
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT k4, count(*), sum(v4), min(v4), max(v4), avg(v4) FROM gx_pa WHERE id > 10 GROUP BY k4');
SELECT * FROM gx_explain('SELECT k4, k2, count(v8), max(v8) FROM gx_pa GROUP BY k4, k2 HAVING count(*) > 100', 'VERBOSE, COSTS OFF');
SET enable_hashagg = off;
SELECT * FROM gx_explain('SELECT kd, min(kts), max(ktz) FROM gx_pa GROUP BY kd ORDER BY kd');
RESET enable_hashagg;
SELECT * FROM gx_pa_explain('SELECT k4, count(*), sum(v4) FROM gx_pa WHERE id > 10 GROUP BY k4');
RESET gpuext.force;

-- every aggregate and key type
SELECT gx_check('SELECT k4, count(*), count(v4), sum(v4), min(v4), max(v4), avg(v4) FROM gx_pa GROUP BY k4');
SELECT gx_check('SELECT k2, count(v2), sum(v2), min(v2), max(v2), avg(v2) FROM gx_pa GROUP BY k2');
SELECT gx_check('SELECT k8, count(v8), min(v8), max(v8), count(f8) FROM gx_pa GROUP BY k8');
SELECT gx_check('SELECT kb, bool_and(ok), bool_or(ok), every(ok), count(ok) FROM gx_pa GROUP BY kb');
SELECT gx_check('SELECT kd, min(kd), max(kd), min(kts), max(kts), min(ktz), max(ktz) FROM gx_pa GROUP BY kd');
SELECT gx_check('SELECT kts, count(*), min(kd) FROM gx_pa GROUP BY kts');
SELECT gx_check('SELECT ktz, count(*), max(v4) FROM gx_pa GROUP BY ktz');
-- several keys, keys not in the output, expressions over the aggregates, HAVING, ORDER BY
SELECT gx_check('SELECT k4, k2, kb, count(*), sum(v4) FROM gx_pa GROUP BY k4, k2, kb');
SELECT gx_check('SELECT count(*), sum(v2) FROM gx_pa GROUP BY k4, kd');
SELECT gx_check('SELECT k4, sum(v4) * 2 + count(*), max(v2) - min(v2) FROM gx_pa GROUP BY k4 HAVING sum(v4) > 0 AND max(v2) > 90 ORDER BY 2 DESC');
SELECT gx_check('SELECT k4 FROM gx_pa WHERE v4 > 0 GROUP BY k4');
-- the extremes of int4, int8, dates and timestamps
SELECT gx_check('SELECT k4, sum(v4), min(v4), max(v4), avg(v4), min(v8), max(v8), min(kd), max(kts) FROM gx_pa WHERE id > 59990 GROUP BY k4');
-- no aggregate-free column outside the keys; no row; one group; a group per row
SELECT gx_check('SELECT k4, count(*), sum(v4) FROM gx_pa WHERE v4 > 100000 GROUP BY k4');
SELECT gx_check('SELECT k4, count(*), sum(v4) FROM gx_pa_empty GROUP BY k4');
SELECT gx_check('SELECT count(*), sum(v4), min(v4), max(v4), avg(v4) FROM gx_pa_empty');
SELECT gx_check('SELECT min(v4), max(v4), avg(v4), bool_and(ok) FROM gx_pa WHERE id > 100');
SELECT gx_check('SELECT min(v4), max(v4), avg(v2) FROM gx_pa WHERE v4 IS NULL');
SELECT gx_check('SELECT id, count(*), sum(v4), max(kd) FROM gx_pa GROUP BY id');
-- NULL keys are one group, NULL values are left out
SELECT gx_check('SELECT k4 IS NULL, count(*), count(v4), sum(v4) FROM gx_pa WHERE k4 IS NULL OR k4 = 3 GROUP BY k4');
-- device errors are PostgreSQL's
SELECT gx_error('SELECT k4, count(*) FROM gx_pa WHERE 100 / (v4 - 2) > 0 GROUP BY k4');
SELECT gx_error('SELECT k4, sum(v4) FROM gx_pa WHERE v4 * 100000000 > 0 GROUP BY k4');

-- expressions as keys and arguments: the program computes them for each
-- passing row (its outputs); their errors are PostgreSQL's
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT k4 + 1, count(*), sum(v4 + 1), max(v2 * 2) FROM gx_pa GROUP BY k4 + 1', 'VERBOSE, COSTS OFF');
RESET gpuext.force;
SELECT gx_check('SELECT k4 + 1, count(*), sum(v4 + 1), max(v2 * 2), min(-v8) FROM gx_pa WHERE id <= 60000 GROUP BY k4 + 1');
SELECT gx_check('SELECT id % 1000, count(*), sum(v4 - v2), avg(v2 + 1) FROM gx_pa WHERE id > 100 GROUP BY id % 1000');
SELECT gx_check('SELECT k2 * 2, kb, count(v4 * 2) FROM gx_pa WHERE id <= 60000 GROUP BY k2 * 2, kb');
SELECT gx_check('SELECT sum(v4 * 2), min(v4 + v2), max(v8 - 1) FROM gx_pa WHERE id < 500');
SELECT gx_error('SELECT k4, sum(v4 * 10000000) FROM gx_pa GROUP BY k4');
SELECT gx_error('SELECT k4 * 1000000000, count(*) FROM gx_pa GROUP BY k4 * 1000000000');

-- what stays with PostgreSQL: other types, FILTERs the device does not
-- compute, grouping sets, host quals, keys or arguments the device does not
-- compute (DISTINCT: below; FILTER the device computes: preagg_more)
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT t, count(*) FROM gx_pa GROUP BY t');
SELECT * FROM gx_explain('SELECT k4 / 0.5, count(*) FROM gx_pa GROUP BY k4 / 0.5');
SELECT * FROM gx_explain('SELECT k4, sum(length(t)) FROM gx_pa GROUP BY k4');
SELECT * FROM gx_explain('SELECT k4, sum(v8), bit_or(v4) FROM gx_pa GROUP BY k4');
SELECT * FROM gx_explain('SELECT k4, count(*) FILTER (WHERE t LIKE ''x1%'') FROM gx_pa GROUP BY k4');
SELECT * FROM gx_explain('SELECT k4, count(*) FROM gx_pa GROUP BY ROLLUP (k4)');
SELECT * FROM gx_explain('SELECT k4, count(*) FROM gx_pa WHERE t LIKE ''x1%'' GROUP BY k4');
SET client_min_messages = debug1;
EXPLAIN (COSTS OFF) SELECT k4, bit_and(v4) FROM gx_pa GROUP BY k4;
RESET client_min_messages;
SET gpuext.enable_preagg = off;
SELECT * FROM gx_explain('SELECT k4, count(*) FROM gx_pa GROUP BY k4');
RESET gpuext.enable_preagg;
RESET gpuext.force;
SELECT gx_check('SELECT t, count(*), sum(v4) FROM gx_pa GROUP BY t');
SELECT gx_check('SELECT k4, count(DISTINCT v4), count(*) FILTER (WHERE v4 > 0) FROM gx_pa GROUP BY k4');

-- a table too small for the groups (8192 slots, 4096 groups): a pass that
-- fills it runs again with its groups split by their hash into partitions
-- of a table's worth, each a pass over the input; every group is in one
-- pass's table, so the node still finalizes (one chunk a pass: the counts
-- are the same on every device)
SET gpuext.preagg_memory = '1MB';
SET gpuext.force = on;
SELECT * FROM gx_pa_explain('SELECT id, count(*), sum(v4), min(v2) FROM gx_pa GROUP BY id');
RESET gpuext.force;
SELECT gx_check('SELECT id, count(*), sum(v4), min(v2), max(kd) FROM gx_pa GROUP BY id');
SELECT gx_check('SELECT k, count(*), sum(v), min(v), max(v) FROM gx_pa_many GROUP BY k');
SELECT gx_check('SELECT k4, id, count(*), max(v8) FROM gx_pa GROUP BY k4, id');
-- rows for the host (non-finite float inputs) in a run of passes: the
-- first pass kept takes them all, the others none; finalizing falls back
-- to the plan below, whose GpuPreAgg runs the passes
CREATE TABLE gx_pa_nan AS
SELECT g AS k, CASE WHEN g % 1000 = 0 THEN 'NaN'::float8
                    WHEN g % 1001 = 0 THEN '-Infinity'::float8 ELSE g / 8.0 END AS f
FROM generate_series(1, 60000) g;
ANALYZE gx_pa_nan;
SET gpuext.force = on;
SELECT * FROM gx_pa_explain('SELECT k, count(*), sum(f), max(f) FROM gx_pa_nan GROUP BY k');
RESET gpuext.force;
SELECT gx_check('SELECT k, count(*), sum(f), max(f) FROM gx_pa_nan GROUP BY k');
SELECT gx_check('SELECT k % 7000, count(*), sum(f), avg(f), min(f) FROM gx_pa_nan GROUP BY 1');
SET gpuext.enable_preagg_final = off;
SELECT gx_check('SELECT k, count(*), sum(f), max(f) FROM gx_pa_nan GROUP BY k');
RESET gpuext.enable_preagg_final;
-- passes in a rescanned GpuPreAgg (a subquery with a parameter)
SELECT gx_check('SELECT s.x, (SELECT count(*) FROM (SELECT k, count(*) FROM gx_pa_many WHERE k % 3 = s.x GROUP BY k) q) FROM generate_series(0, 2) s(x)');
RESET gpuext.preagg_memory;
-- an estimate far too low (statistics of an older table): a serial scan
-- whose table fills up runs again with a table sized from the share of
-- the input read by then (at least four times as large)
CREATE TABLE gx_pa_grow (k int4, v int4) WITH (autovacuum_enabled = off);
INSERT INTO gx_pa_grow SELECT g % 10, g FROM generate_series(1, 1000) g;
ANALYZE gx_pa_grow;
-- (keys all distinct: how many rows find room is the same on every device)
DELETE FROM gx_pa_grow;
INSERT INTO gx_pa_grow SELECT g, g FROM generate_series(1, 60000) g;
SET gpuext.chunk_rows = 4096;
SET gpuext.force = on;
-- (how many chunks are in flight when the table fills up depends on
-- timing: only that the pass ran again is shown)
SELECT count(*) FILTER (WHERE l ~ 'Group Passes Run Again: [1-9]') AS ran_again,
       count(*) FILTER (WHERE l ~ 'Rows Aggregated by Host: [1-9]') AS host_rows
FROM gx_pa_explain('SELECT k, count(*), sum(v) FROM gx_pa_grow GROUP BY k') l;
RESET gpuext.force;
SELECT gx_check('SELECT k, count(*), sum(v), min(v), max(v) FROM gx_pa_grow GROUP BY k');
RESET gpuext.chunk_rows;

-- prepared statements, with a generic plan's Params in the device filter
PREPARE gx_pa_q(int) AS SELECT k4, count(*), sum(v4), max(kd) FROM gx_pa WHERE id > $1 GROUP BY k4 ORDER BY k4;
SET gpuext.force = on;
SET plan_cache_mode = force_generic_plan;
EXECUTE gx_pa_q(59000);
EXECUTE gx_pa_q(59990);
SET gpuext.enabled = off;
EXECUTE gx_pa_q(59990);
RESET gpuext.enabled;
RESET plan_cache_mode;
RESET gpuext.force;
DEALLOCATE gx_pa_q;

-- rescans: a correlated subquery's GpuPreAgg runs once per outer row
CREATE TABLE gx_pa_outer AS SELECT g AS x FROM generate_series(1, 5) g;
SELECT gx_check('SELECT x, (SELECT max(v4) FROM gx_pa WHERE k4 = x), (SELECT count(*) FROM (SELECT k2 FROM gx_pa WHERE k4 = x GROUP BY k2) s) FROM gx_pa_outer');

-- parallel: every process adds into the leader's table; the last one to
-- finish returns the groups
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT k4, count(*), sum(v4), min(kd) FROM gx_pa GROUP BY k4');
RESET gpuext.force;
SELECT gx_check('SELECT k4, count(*), sum(v4), min(kd), max(v8), avg(v2) FROM gx_pa GROUP BY k4');
SELECT gx_check('SELECT k, count(*), sum(v), min(v), max(v) FROM gx_pa_many GROUP BY k');
SELECT gx_check('SELECT k2, kb, bool_or(ok), count(*) FROM gx_pa WHERE id % 3 = 0 GROUP BY k2, kb');
SET gpuext.preagg_memory = '1MB';
SELECT gx_check('SELECT id, count(*), sum(v4) FROM gx_pa GROUP BY id');
RESET gpuext.preagg_memory;
RESET min_parallel_table_scan_size;
RESET parallel_tuple_cost;
RESET parallel_setup_cost;
SET max_parallel_workers_per_gather = 0;

-- cached columns, and cached columns under writes (stale blocks come from the heap)
SELECT gpuext_cache_load('gx_pa');
SET gpuext.force = on;
SELECT * FROM gx_pa_explain('SELECT k4, count(*), sum(v4) FROM gx_pa GROUP BY k4');
RESET gpuext.force;
SELECT gx_check('SELECT k4, count(*), sum(v4), min(v2), max(kd) FROM gx_pa GROUP BY k4');
UPDATE gx_pa SET v4 = v4 + 1, k4 = k4 + 100 WHERE id % 1000 = 1 AND id < 60000;
DELETE FROM gx_pa WHERE id % 1000 = 2;
INSERT INTO gx_pa (id, k4, v4) VALUES (70000, 5, 5), (70001, NULL, 7);
SET gpuext.force = on;
SELECT * FROM gx_pa_explain('SELECT k4, count(*), sum(v4) FROM gx_pa GROUP BY k4');
RESET gpuext.force;
SELECT gx_check('SELECT k4, count(*), sum(v4), min(v2), max(kd) FROM gx_pa GROUP BY k4');
BEGIN;
UPDATE gx_pa SET v4 = 0 WHERE k4 = 3;
SELECT gx_check('SELECT k4, count(*), sum(v4) FROM gx_pa GROUP BY k4');
ROLLBACK;
SELECT gx_check('SELECT k4, count(*), sum(v4) FROM gx_pa GROUP BY k4');
SELECT gpuext_cache_evict('gx_pa');

-- numeric: 64-bit fixed point at the expression's scale, sums exact in 128
-- bits; NaN counted apart; a value the device cannot hold (a product past
-- 64 bits) is the host's
CREATE TABLE gx_pa_num (id int4, k int4, price numeric(15,2), disc numeric(15,2),
                        qty numeric(5,0), big numeric(18,0), code numeric(4,1));
INSERT INTO gx_pa_num
SELECT g, g % 7,
       CASE WHEN g % 41 = 0 THEN NULL ELSE (g * 7919 % 10000000) / 100.0 - 20000 END,
       (g % 11) / 100.0,
       CASE WHEN g % 43 = 0 THEN NULL ELSE g % 50 END,
       CASE WHEN g % 5 = 0 THEN 999999999999999999 - g ELSE -(g::numeric * 1000000000000) END,
       CASE WHEN g % 13 = 0 THEN 'NaN' ELSE (g % 9) / 2.0 END
FROM generate_series(1, 20000) g;
INSERT INTO gx_pa_num (id, k, price, code) VALUES (20001, 100, 'NaN', 'NaN'), (20002, 100, 'NaN', 'NaN'),
    (20003, 101, NULL, NULL);
VACUUM (FREEZE, ANALYZE) gx_pa_num;
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT k, sum(price), avg(price * (1 - disc)), min(code), max(code), count(code) FROM gx_pa_num GROUP BY k');
SELECT * FROM gx_explain('SELECT sum(price * disc) FROM gx_pa_num WHERE disc BETWEEN 0.05 AND 0.07 AND qty < 24');
RESET gpuext.force;
SELECT gx_check('SELECT k, sum(price), avg(price), min(price), max(price), count(price) FROM gx_pa_num GROUP BY k');
SELECT gx_check('SELECT k, sum(price * (1 - disc)), avg(price * (1 - disc) * (1 + disc)), sum(qty), avg(qty) FROM gx_pa_num GROUP BY k');
SELECT gx_check('SELECT sum(price * disc), count(*) FROM gx_pa_num WHERE disc BETWEEN 0.05 AND 0.07 AND qty < 24');
SELECT gx_check('SELECT code, count(*), sum(price), min(qty), max(big) FROM gx_pa_num GROUP BY code');
-- sums past 64 bits, and their averages
SELECT gx_check('SELECT k, sum(big), avg(big), min(big), max(big) FROM gx_pa_num GROUP BY k');
SELECT gx_check('SELECT sum(big), avg(big) FROM gx_pa_num');
-- NaN: in sums, averages, min and max; groups of NaN only, of NULL only
SELECT gx_check('SELECT k, sum(code), avg(code), min(code), max(code) FROM gx_pa_num GROUP BY k');
SELECT gx_check('SELECT k, sum(price), avg(price), min(price), max(price) FROM gx_pa_num WHERE k >= 100 GROUP BY k');
-- products past 64 bits: those rows are evaluated by the host
SET gpuext.force = on;
SELECT * FROM gx_pa_explain('SELECT k, sum(big * qty) FROM gx_pa_num GROUP BY k');
RESET gpuext.force;
SELECT gx_check('SELECT k, sum(big * qty), max(big * qty), count(big * qty) FROM gx_pa_num GROUP BY k');
-- numeric keys (an expression's scale), with NaN and NULL as groups
SELECT gx_check('SELECT code * 2, count(*), sum(price) FROM gx_pa_num GROUP BY code * 2');
-- parallel and cached
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SELECT gx_check('SELECT k, sum(price * (1 - disc)), avg(qty), max(code) FROM gx_pa_num GROUP BY k');
RESET min_parallel_table_scan_size;
RESET parallel_tuple_cost;
RESET parallel_setup_cost;
SET max_parallel_workers_per_gather = 0;
SELECT gpuext_cache_load('gx_pa_num');
SELECT gx_check('SELECT k, sum(price * (1 - disc)), avg(qty), max(code), sum(big) FROM gx_pa_num GROUP BY k');
SELECT gpuext_cache_evict('gx_pa_num');

-- TPC-H Q1 and Q6 (bench/tpch/): every qual, key and aggregate on the device
CREATE TABLE gx_pa_li (
    l_quantity numeric(15,2), l_extendedprice numeric(15,2), l_discount numeric(15,2),
    l_tax numeric(15,2), l_returnflag char(1), l_linestatus char(1), l_shipdate date);
INSERT INTO gx_pa_li
SELECT 1 + g % 50, (g * 7919 % 10000000) / 100.0 + 900, (g % 11) / 100.0, (g % 9) / 100.0,
       substr('ANR', 1 + g % 3, 1), substr('FO', 1 + g % 2, 1),
       date '1992-01-01' + g % 2500
FROM generate_series(1, 30000) g;
VACUUM (FREEZE, ANALYZE) gx_pa_li;
SET gpuext.force = on;
SELECT * FROM gx_explain('select l_returnflag, l_linestatus, sum(l_quantity) as sum_qty, sum(l_extendedprice) as sum_base_price, sum(l_extendedprice * (1 - l_discount)) as sum_disc_price, sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) as sum_charge, avg(l_quantity) as avg_qty, avg(l_extendedprice) as avg_price, avg(l_discount) as avg_disc, count(*) as count_order from gx_pa_li where l_shipdate <= date ''1998-12-01'' - interval ''90'' day group by l_returnflag, l_linestatus order by l_returnflag, l_linestatus');
SELECT * FROM gx_explain('select sum(l_extendedprice * l_discount) as revenue from gx_pa_li where l_shipdate >= date ''1994-01-01'' and l_shipdate < date ''1994-01-01'' + interval ''1'' year and l_discount between 0.06 - 0.01 and 0.06 + 0.01 and l_quantity < 24');
RESET gpuext.force;
SELECT gx_check('select l_returnflag, l_linestatus, sum(l_quantity) as sum_qty, sum(l_extendedprice) as sum_base_price, sum(l_extendedprice * (1 - l_discount)) as sum_disc_price, sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) as sum_charge, avg(l_quantity) as avg_qty, avg(l_extendedprice) as avg_price, avg(l_discount) as avg_disc, count(*) as count_order from gx_pa_li where l_shipdate <= date ''1998-12-01'' - interval ''90'' day group by l_returnflag, l_linestatus order by l_returnflag, l_linestatus');
SELECT gx_check('select sum(l_extendedprice * l_discount) as revenue from gx_pa_li where l_shipdate >= date ''1994-01-01'' and l_shipdate < date ''1994-01-01'' + interval ''1'' year and l_discount between 0.06 - 0.01 and 0.06 + 0.01 and l_quantity < 24');
