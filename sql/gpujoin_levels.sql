-- gpujoin_levels: an aggregating GpuJoin over another GpuJoin, run as one
-- multi-level group probe (join_levels.cpp, join_levels_path.cpp): the
-- lower join's outer table is probed through its table (level 0) and the
-- upper join's (level 1), every combination added into the group table,
-- no joined row returned to the backend.  Every query is compared with
-- gpuext off (gx_check); gx_lcheck adds whether the forced plan runs the
-- levels ("Levels: 2") or today's aggregating join over the chain.

SET max_parallel_workers_per_gather = 0;
-- the joins in the order written: left-deep chains ((f JOIN o) JOIN c),
-- the shape the levels take (the planner may prefer f JOIN (o JOIN c) on
-- these small tables; TPC-H Q10 is left-deep by cost)
SET join_collapse_limit = 1;

CREATE FUNCTION gx_levels(q text) RETURNS text LANGUAGE plpgsql
    SET gpuext.enabled = on SET gpuext.force = on AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        IF line ~ 'Levels: ' THEN
            RETURN 'levels ' || substring(line FROM 'Levels: (\d+)');
        END IF;
    END LOOP;
    RETURN 'no levels';
END $$;
CREATE FUNCTION gx_lcheck(q text) RETURNS text LANGUAGE sql AS $$
    SELECT gx_jccheck(q) || ', ' || gx_levels(q)
$$;

-- facts (the probe stream), orders (level 0), customers (level 1), and
-- nations: NULL keys at each level, keys without a match, duplicate keys
CREATE TABLE gx_lf (id int4, ok int4, g int4, v int8, n numeric(10,2), f float8, d date);
INSERT INTO gx_lf
SELECT i, CASE WHEN i % 97 = 0 THEN NULL ELSE i % 2100 END,
       CASE WHEN i % 89 = 0 THEN NULL ELSE i % 7 END,
       CASE WHEN i % 83 = 0 THEN NULL ELSE i * 37 % 100000 END,
       CASE WHEN i % 79 = 0 THEN NULL ELSE (i % 1000) / 3.0 END,
       CASE WHEN i % 71 = 0 THEN NULL ELSE (i % 640) / 8.0 END,
       date '2024-01-01' + i % 50
FROM generate_series(1, 40000) i;
CREATE TABLE gx_lo (ok int4, ck int4, st int2, tot numeric(12,2), od date, pri text);
INSERT INTO gx_lo
SELECT CASE WHEN i % 101 = 0 THEN NULL ELSE i % 2000 END,
       CASE WHEN i % 53 = 0 THEN NULL ELSE i % 310 END,
       (i % 3)::int2, (i % 977) / 4.0, date '2023-06-01' + i % 9, 'p' || (i % 5)
FROM generate_series(1, 2300) i;
CREATE TABLE gx_lc (ck int4, nk int4, name text, bal numeric(10,2), seg varchar(10));
INSERT INTO gx_lc
SELECT CASE WHEN i % 61 = 0 THEN NULL ELSE i % 300 END,
       CASE WHEN i % 17 = 0 THEN NULL ELSE i % 25 END,
       'Customer#' || lpad((i % 300)::text, 5, '0'), (i % 1000) / 2.0 - 100,
       (ARRAY['AUTO', 'BUILD', 'FURN', 'MACH'])[1 + i % 4]
FROM generate_series(1, 330) i;
CREATE TABLE gx_ln (nk int4, nname text, rk int4);
INSERT INTO gx_ln SELECT i, 'NATION' || i, CASE WHEN i = 7 THEN NULL ELSE i % 5 END
FROM generate_series(0, 24) i;
INSERT INTO gx_ln VALUES (3, 'NATION3b', 1), (NULL, 'NOWHERE', 2);
CREATE TABLE gx_lr (rk int4, rname text);
INSERT INTO gx_lr VALUES (0, 'AFRICA'), (1, 'AMERICA'), (2, 'ASIA'), (3, 'EUROPE'),
    (3, 'EUROPE2'), (NULL, 'NONE');
CREATE TABLE gx_le (ck int4, x int4);
VACUUM ANALYZE gx_lf, gx_lo, gx_lc, gx_ln, gx_lr, gx_le;

-- the plan: the upper GpuJoin shows its levels and their keys; the lower
-- one is level 0 (it returns no row)
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT c.nk, count(*), sum(f.v) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_lc c ON o.ck = c.ck GROUP BY c.nk');
SELECT * FROM gx_jexplain('SELECT c.nk, count(*), sum(f.v) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_lc c ON o.ck = c.ck GROUP BY c.nk')
    WHERE gx_jexplain ~ 'Custom Scan|Levels|Level |Joined|Rows From Device|Device Groups|Multi';
RESET gpuext.force;

-- two levels: group keys of each table, count/sum/avg/min/max of each
SELECT gx_lcheck('SELECT c.nk, count(*), sum(f.v), avg(f.v), min(f.n), max(f.n), sum(o.tot), max(c.bal) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_lc c ON o.ck = c.ck GROUP BY c.nk');
SELECT gx_lcheck('SELECT f.g, o.st, c.nk, count(*), sum(f.n), avg(o.tot), min(o.od), max(f.d) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_lc c ON o.ck = c.ck GROUP BY 1, 2, 3');
SELECT gx_lcheck('SELECT o.od, count(f.v), sum(f.f), min(f.f), max(c.bal), avg(c.bal) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_lc c ON o.ck = c.ck GROUP BY 1');
-- no GROUP BY; HAVING; expressions of the probe table; FILTER
SELECT gx_lcheck('SELECT count(*), sum(f.v), sum(o.tot), min(c.bal), avg(f.n) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_lc c ON o.ck = c.ck');
SELECT gx_lcheck('SELECT c.nk, sum(f.v) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_lc c ON o.ck = c.ck GROUP BY 1 HAVING sum(f.v) > 10000000 OR count(*) < 50');
SELECT gx_lcheck('SELECT f.g % 3, c.nk, sum(f.n * (1 - f.g * 0.01)), count(*) FILTER (WHERE f.v > 50000) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_lc c ON o.ck = c.ck WHERE f.id < 30000 GROUP BY 1, 2');
-- the upper key from the probe table (level 1 keyed by an outer output)
SELECT gx_lcheck('SELECT c.nk, o.st, count(*), sum(f.v) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_lc c ON f.g = c.nk GROUP BY 1, 2');
-- string group keys of either level (dictionary ids), a varchar too
SELECT gx_lcheck('SELECT c.name, o.pri, count(*), sum(f.v) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_lc c ON o.ck = c.ck GROUP BY 1, 2');
SELECT gx_lcheck('SELECT c.seg, sum(f.n), max(o.od) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_lc c ON o.ck = c.ck GROUP BY 1');
-- quals on every table; no combination; an empty level (no group; one row without GROUP BY)
SELECT gx_lcheck('SELECT c.nk, sum(f.v) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_lc c ON o.ck = c.ck WHERE f.d > date ''2024-01-20'' AND o.st = 1 AND c.bal > 0 GROUP BY 1');
SELECT gx_lcheck('SELECT c.nk, sum(f.v) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_lc c ON o.ck = c.ck WHERE c.bal < -1000 GROUP BY 1');
SELECT gx_lcheck('SELECT o.st, sum(e.x), count(*) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_le e ON o.ck = e.ck GROUP BY 1');
SELECT gx_lcheck('SELECT count(*), sum(f.v), max(e.x) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_le e ON o.ck = e.ck');
SELECT gx_lcheck('SELECT c.nk, count(*) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok AND o.st > 5 JOIN gx_lc c ON o.ck = c.ck GROUP BY 1');
-- three levels (orders, customers, nations) and four (regions too):
-- NULL and duplicate keys at each, group keys and arguments of every table
SELECT gx_lcheck('SELECT n.nname, count(*), sum(f.v), max(o.tot), min(c.bal) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_lc c ON o.ck = c.ck JOIN gx_ln n ON c.nk = n.nk GROUP BY 1');
SELECT gx_lcheck('SELECT f.g, o.st, n.rk, c.seg, count(*), avg(f.n), sum(c.bal) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_lc c ON o.ck = c.ck JOIN gx_ln n ON c.nk = n.nk WHERE f.d < date ''2024-02-10'' GROUP BY 1, 2, 3, 4');
SELECT gx_lcheck('SELECT count(*), sum(f.v), min(n.nk), max(o.od) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_lc c ON o.ck = c.ck JOIN gx_ln n ON c.nk = n.nk');
SELECT gx_lcheck('SELECT r.rname, n.nname, count(*), sum(f.v), avg(o.tot), max(c.bal) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_lc c ON o.ck = c.ck JOIN gx_ln n ON c.nk = n.nk JOIN gx_lr r ON n.rk = r.rk GROUP BY 1, 2');
SELECT gx_lcheck('SELECT r.rk, sum(f.n), count(f.f) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_lc c ON o.ck = c.ck JOIN gx_ln n ON c.nk = n.nk JOIN gx_lr r ON n.rk = r.rk GROUP BY 1');
-- a level keyed by a column of a level two below, and by the probe table
SELECT gx_lcheck('SELECT n.nname, o.st, count(*), sum(f.v) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_lc c ON o.ck = c.ck JOIN gx_ln n ON o.st = n.nk GROUP BY 1, 2');
SELECT gx_lcheck('SELECT n.nname, count(*), sum(f.v) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_lc c ON o.ck = c.ck JOIN gx_ln n ON f.g = n.nk GROUP BY 1');
-- two keys at a level (one from the level below, one from the table:
-- TPC-H Q5's c_nationkey = s_nationkey), the last level's inner side a
-- join (its rows read by the build)
SELECT gx_lcheck('SELECT o.st, c.seg, count(*), sum(f.v) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_lc c ON o.ck = c.ck AND f.g = c.nk GROUP BY 1, 2');
SELECT gx_lcheck('SELECT r.rname, count(*), sum(f.v), max(c.bal) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_lc c ON o.ck = c.ck JOIN (gx_ln n JOIN gx_lr r ON n.rk = r.rk) ON c.nk = n.nk GROUP BY 1');
-- an empty middle level
SELECT gx_lcheck('SELECT n.nname, count(*) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_le e ON o.ck = e.ck JOIN gx_ln n ON e.x = n.nk GROUP BY 1');
SET gpuext.force = on;
SELECT * FROM gx_jexplain('SELECT r.rname, count(*), sum(f.v) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_lc c ON o.ck = c.ck JOIN gx_ln n ON c.nk = n.nk JOIN gx_lr r ON n.rk = r.rk GROUP BY 1')
    WHERE gx_jexplain ~ 'Custom Scan|Levels|Level |Joined|Rows From Device|Device Groups|Multi|Table Rows';
RESET gpuext.force;
-- the right-deep shape (TPC-H Q3's lineitem JOIN (orders JOIN customer)):
-- level 0 built from the inner join's outer side, keyed by the upper
-- join's inner keys; level 1 the inner join's table (gpuext.join_levels_right:
-- off by default, level 0 being built from rows)
SET gpuext.join_levels_right = on;
SELECT gx_lcheck('SELECT c.nk, count(*), sum(f.v), max(o.tot), min(c.bal) FROM gx_lf f JOIN (gx_lo o JOIN gx_lc c ON o.ck = c.ck) ON f.ok = o.ok GROUP BY 1');
SELECT gx_lcheck('SELECT o.od, o.pri, c.name, f.g, count(*), avg(f.n), sum(o.tot) FROM gx_lf f JOIN (gx_lo o JOIN gx_lc c ON o.ck = c.ck) ON f.ok = o.ok WHERE f.id % 3 = 0 GROUP BY 1, 2, 3, 4');
SELECT gx_lcheck('SELECT count(*), sum(f.v) FROM gx_lf f JOIN (gx_lo o JOIN gx_le e ON o.ck = e.ck) ON f.ok = o.ok');
SELECT gx_lcheck('SELECT r.x, s.cnt, s.sv FROM generate_series(0, 3) r(x), LATERAL (SELECT count(*) AS cnt, sum(f.v) AS sv FROM gx_lf f JOIN (gx_lo o JOIN gx_lc c ON o.ck = c.ck) ON f.ok = o.ok WHERE c.nk = r.x AND o.st < 2) s');
SET gpuext.force = on;
SELECT * FROM gx_jexplain('SELECT c.nk, count(*), sum(f.v) FROM gx_lf f JOIN (gx_lo o JOIN gx_lc c ON o.ck = c.ck) ON f.ok = o.ok GROUP BY 1')
    WHERE gx_jexplain ~ 'Custom Scan|Levels|Level |Joined|Rows From Device|Device Groups|Multi|Table Rows|Seq Scan';
RESET gpuext.force;
RESET gpuext.join_levels_right;
-- (by default the right-deep query is not taken in that shape: here the
-- join swapped to left-deep, orders the probe stream, lineitem the last level)
SET gpuext.force = on;
SELECT * FROM gx_jexplain('SELECT c.nk, count(*), sum(f.v) FROM gx_lf f JOIN (gx_lo o JOIN gx_lc c ON o.ck = c.ck) ON f.ok = o.ok GROUP BY 1')
    WHERE gx_jexplain ~ 'Levels|Level . Keys|Multi-Level';
RESET gpuext.force;
SELECT gx_lcheck('SELECT c.nk, count(*), sum(f.v), max(o.tot), min(c.bal) FROM gx_lf f JOIN (gx_lo o JOIN gx_lc c ON o.ck = c.ck) ON f.ok = o.ok GROUP BY 1');
-- finalizing on the device and off (PostgreSQL's Finalize above)
SET gpuext.enable_preagg_final = off;
SELECT gx_lcheck('SELECT c.nk, o.st, count(*), avg(f.n), sum(o.tot) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_lc c ON o.ck = c.ck GROUP BY 1, 2');
RESET gpuext.enable_preagg_final;

-- shapes that keep today's plan: a LEFT join in the chain, a join qual
-- other than the keys, an expression of a level's column, the switch off
SELECT gx_lcheck('SELECT c.nk, o.st, count(*), sum(f.v) FROM gx_lf f LEFT JOIN gx_lo o ON f.ok = o.ok JOIN gx_lc c ON f.g = c.nk GROUP BY 1, 2');
SELECT gx_lcheck('SELECT n.nname, count(*), sum(f.v) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok LEFT JOIN gx_lc c ON o.ck = c.ck JOIN gx_ln n ON o.st = n.nk GROUP BY 1');
SELECT gx_lcheck('SELECT c.nk, count(*), sum(f.v) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok AND f.g < o.st + 3 JOIN gx_lc c ON o.ck = c.ck GROUP BY 1');
SELECT gx_lcheck('SELECT c.nk, sum(o.tot * 2) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_lc c ON o.ck = c.ck GROUP BY 1');
SET gpuext.enable_join_levels = off;
SELECT gx_lcheck('SELECT c.nk, count(*), sum(f.v) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_lc c ON o.ck = c.ck GROUP BY 1');
RESET gpuext.enable_join_levels;
-- (the probe stream is a device input: none without them)
SET gpuext.join_device_inputs = off;
SELECT gx_lcheck('SELECT c.nk, count(*), sum(f.v) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_lc c ON o.ck = c.ck GROUP BY 1');
RESET gpuext.join_device_inputs;

-- exactness: a combination the device leaves to the host (a product
-- beyond int64), a group table without room: the fallback plan's rows
SELECT gx_lcheck('SELECT c.nk, sum(f.n * 100000000000000000) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_lc c ON o.ck = c.ck GROUP BY 1');
SET gpuext.force = on;
SELECT * FROM gx_jexplain('SELECT c.nk, sum(f.n * 100000000000000000) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_lc c ON o.ck = c.ck GROUP BY 1')
    WHERE gx_jexplain ~ 'Joined|Custom Scan|Levels';
SET gpuext.preagg_memory = 1;
SELECT gx_lcheck('SELECT f.id, c.nk, sum(f.v) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_lc c ON o.ck = c.ck GROUP BY 1, 2');
SELECT * FROM gx_jexplain('SELECT f.id, c.nk, sum(f.v) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_lc c ON o.ck = c.ck GROUP BY 1, 2')
    WHERE gx_jexplain ~ 'Joined|Custom Scan|Levels';
RESET gpuext.preagg_memory;
RESET gpuext.force;

-- a rescan: the levels inside a correlated subquery's lateral join (the
-- results only: PostgreSQL 18 plans it without levels, 15 with two)
SELECT gx_check('SELECT r.x, s.cnt FROM generate_series(0, 2) r(x), LATERAL (SELECT count(*) AS cnt, sum(f.v) FROM gx_lf f JOIN gx_lo o ON f.ok = o.ok JOIN gx_lc c ON o.ck = c.ck WHERE c.nk = r.x GROUP BY c.nk) s');

-- TPC-H Q10's shape, hand-made rows: revenue per customer of the returned
-- lineitems of a quarter's orders, with the customer's nation
CREATE TABLE gx_tl (l_orderkey int8, l_extendedprice numeric(15,2), l_discount numeric(15,2), l_returnflag char(1));
CREATE TABLE gx_to (o_orderkey int8, o_custkey int8, o_orderdate date);
CREATE TABLE gx_tc (c_custkey int8, c_name varchar(25), c_address varchar(40), c_nationkey int4, c_phone char(15), c_acctbal numeric(15,2), c_comment varchar(117));
CREATE TABLE gx_tn (n_nationkey int4, n_name char(25));
INSERT INTO gx_tn SELECT i, 'NATION' || i FROM generate_series(0, 9) i;
INSERT INTO gx_tc SELECT i, 'Customer#' || i, 'addr' || i, i % 10, '10-' || i, (i % 500) - 50.25, 'c' || (i % 7) FROM generate_series(1, 150) i;
INSERT INTO gx_to SELECT i, 1 + i % 149, date '1993-08-01' + i % 200 FROM generate_series(1, 1500) i;
INSERT INTO gx_tl SELECT 1 + i % 1500, (i % 900) + 0.5, (i % 10) / 100.0, (ARRAY['R', 'A', 'N'])[1 + i % 3] FROM generate_series(1, 6000) i;
VACUUM ANALYZE gx_tl, gx_to, gx_tc, gx_tn;
SELECT gx_lcheck('SELECT c_custkey, c_name, sum(l_extendedprice * (1 - l_discount)) AS revenue, c_acctbal, n_name, c_address, c_phone, c_comment FROM gx_tc, gx_to, gx_tl, gx_tn WHERE c_custkey = o_custkey AND l_orderkey = o_orderkey AND o_orderdate >= date ''1993-10-01'' AND o_orderdate < date ''1994-01-01'' AND l_returnflag = ''R'' AND c_nationkey = n_nationkey GROUP BY c_custkey, c_name, c_acctbal, c_phone, n_name, c_address, c_comment ORDER BY revenue DESC, c_custkey LIMIT 20');
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT c_custkey, c_name, sum(l_extendedprice * (1 - l_discount)) AS revenue, c_acctbal, n_name, c_address, c_phone, c_comment FROM gx_tc, gx_to, gx_tl, gx_tn WHERE c_custkey = o_custkey AND l_orderkey = o_orderkey AND o_orderdate >= date ''1993-10-01'' AND o_orderdate < date ''1994-01-01'' AND l_returnflag = ''R'' AND c_nationkey = n_nationkey GROUP BY c_custkey, c_name, c_acctbal, c_phone, n_name, c_address, c_comment ORDER BY revenue DESC, c_custkey LIMIT 20')
    WHERE gx_explain ~ 'GpuJoin|Levels|Level |Multi|Group Keys';
RESET gpuext.force;
-- its two-level part: lineitem through orders and customer
SELECT gx_lcheck('SELECT c_custkey, c_name, sum(l_extendedprice * (1 - l_discount)) AS revenue, c_acctbal FROM gx_tc, gx_to, gx_tl WHERE c_custkey = o_custkey AND l_orderkey = o_orderkey AND o_orderdate >= date ''1993-10-01'' AND o_orderdate < date ''1994-01-01'' AND l_returnflag = ''R'' GROUP BY c_custkey, c_name, c_acctbal ORDER BY revenue DESC, c_custkey LIMIT 20');

-- a LEFT join inside an aggregating join's side, statistics on two of the
-- three tables: PostgreSQL 16 on planned the swapped aggregating join,
-- whose inner column o.st lacked the LEFT join's nulling mark ("wrong
-- varnullingrels"); the same rows now, with gpuext on and off
CREATE TABLE gx_vf AS SELECT * FROM gx_lf;
CREATE TABLE gx_vo AS SELECT * FROM gx_lo;
CREATE TABLE gx_vc AS SELECT * FROM gx_lc;
ALTER TABLE gx_vf SET (autovacuum_enabled = off);
ALTER TABLE gx_vo SET (autovacuum_enabled = off);
ALTER TABLE gx_vc SET (autovacuum_enabled = off);
ANALYZE gx_vf, gx_vc;
SELECT split_part(gx_check('SELECT c.nk, o.st, count(*), sum(f.v) FROM gx_vf f LEFT JOIN gx_vo o ON f.ok = o.ok JOIN gx_vc c ON f.g = c.nk GROUP BY 1, 2'), ',', 1) AS same;
DROP TABLE gx_vf, gx_vo, gx_vc;

DROP TABLE gx_lf, gx_lo, gx_lc, gx_ln, gx_lr, gx_le, gx_tl, gx_to, gx_tc, gx_tn;
DROP FUNCTION gx_lcheck(text), gx_levels(text);
