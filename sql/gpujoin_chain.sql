-- gpujoin_chain: chains of GpuJoins (a side that is itself a join) and
-- an INNER join's other join quals evaluated on the host (Join Filter).
-- Every query is compared with gpuext off (gx_check: PostgreSQL's own
-- plan, then gpuext forced on each device); gx_jcheck adds whether the
-- forced plan joins on the device (GpuJoin), gx_jccheck whether the
-- GpuJoin counts (both, and gx_jexplain, from setup.sql).

SET max_parallel_workers_per_gather = 0;

-- a small order schema: nations, customers, orders, line items, parts,
-- NULLs in every key and in the columns the host quals read; customers
-- and orders without orders and line items, orders and line items whose
-- customer and order do not exist
CREATE TABLE gx_cn (id int4, region int4, name text);
INSERT INTO gx_cn SELECT g, g % 5, 'n' || g FROM generate_series(0, 24) g;
CREATE TABLE gx_cc (id int4, nation int4, seg int2, bal int4, name text);
INSERT INTO gx_cc
SELECT g, CASE WHEN g % 53 = 0 THEN NULL ELSE g % 25 END, (g % 5)::int2,
       CASE WHEN g % 11 = 0 THEN NULL ELSE g * 37 % 1000 END, 'c' || g
FROM generate_series(1, 600) g;
CREATE TABLE gx_co (id int4, cust int4, odate date, prio int4, total numeric(12,2), note text);
INSERT INTO gx_co
SELECT g, CASE WHEN g % 47 = 0 THEN NULL WHEN g * 7 % 650 % 8 = 5 THEN g * 7 % 650 + 1
              ELSE g * 7 % 650 END,
       date '2024-01-01' + g % 365, CASE WHEN g % 17 = 0 THEN NULL ELSE g % 5 END,
       CASE WHEN g % 13 = 0 THEN NULL ELSE (g * 31 % 100000) / 100.0 END,
       CASE WHEN g % 9 = 0 THEN NULL ELSE 'o' || (g % 40) END
FROM generate_series(1, 4000) g;
CREATE TABLE gx_cl (id int4, ord int4, part int4, qty int4, ship date, price numeric(12,2), flag text,
                    supp int4);
INSERT INTO gx_cl
SELECT g, CASE WHEN g % 61 = 0 THEN NULL WHEN g % 4100 % 10 = 2 THEN g % 4100 + 2
              ELSE g % 4100 + 1 END,
       CASE WHEN g % 43 = 0 THEN NULL ELSE g * 13 % 900 END,
       CASE WHEN g % 29 = 0 THEN NULL ELSE g % 50 + 1 END,
       date '2024-01-01' + (g * 3) % 400,
       (g * 17 % 50000) / 100.0,
       CASE WHEN g % 7 = 0 THEN NULL WHEN g % 3 = 0 THEN 'o1' ELSE 'o2' END,
       g * 13 % 199 + 1
FROM generate_series(1, 16000) g;
CREATE TABLE gx_cp (id int4, size int4, brand text);
INSERT INTO gx_cp
SELECT g, CASE WHEN g % 19 = 0 THEN NULL ELSE g % 40 END, 'b' || (g % 12)
FROM generate_series(1, 800) g;
CREATE TABLE gx_cs (id int4, nation int4);
INSERT INTO gx_cs SELECT g, g % 25 FROM generate_series(1, 200) g;
CREATE TABLE gx_cempty (id int4, k int4);
VACUUM ANALYZE gx_cn, gx_cc, gx_co, gx_cl, gx_cp, gx_cs, gx_cempty;

-- the plans: a GpuJoin whose side is a GpuJoin (its keys read from the
-- child's target list), the fallback Hash Join over the same children
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT c.name, o.id, l.id FROM gx_cc c JOIN gx_co o ON o.cust = c.id JOIN gx_cl l ON l.ord = o.id');
SELECT * FROM gx_explain('SELECT c.name, o.id, l.price FROM gx_cc c JOIN gx_co o ON o.cust = c.id JOIN gx_cl l ON l.ord = o.id',
                         'COSTS OFF, VERBOSE');
SELECT * FROM gx_jexplain('SELECT c.name, o.id, l.id FROM gx_cc c JOIN gx_co o ON o.cust = c.id JOIN gx_cl l ON l.ord = o.id WHERE c.seg = 1');
-- a GpuJoin in another's inner side (drained before the one above
-- probes) reads its outer table by the device; in an outer side, through
-- its child (its batch's staging slot would be held while the one above
-- waits for a slot)
SELECT * FROM gx_explain('SELECT c.id FROM gx_cc c WHERE EXISTS (SELECT 1 FROM gx_co o JOIN gx_cl l ON l.ord = o.id WHERE o.cust = c.id AND l.qty = 50)');
-- host quals: Join Filter, the rows it removed
SELECT * FROM gx_explain('SELECT o.id, l.id FROM gx_co o JOIN gx_cl l ON l.ord = o.id AND l.qty < o.prio * 10');
SELECT * FROM gx_jexplain('SELECT o.id, l.id FROM gx_co o JOIN gx_cl l ON l.ord = o.id AND l.qty < o.prio * 10 AND l.flag <> o.note');
RESET gpuext.force;

-- chains of three and four tables: linear, star (the line items' orders
-- and parts), with quals on every table, every column returned
SELECT gx_jcheck('SELECT c.id, o.id, l.id FROM gx_cc c JOIN gx_co o ON o.cust = c.id JOIN gx_cl l ON l.ord = o.id');
SELECT gx_jcheck('SELECT n.name, c.id, o.id FROM gx_cn n JOIN gx_cc c ON c.nation = n.id JOIN gx_co o ON o.cust = c.id WHERE n.region = 2');
SELECT gx_jcheck('SELECT * FROM gx_cn n JOIN gx_cc c ON c.nation = n.id JOIN gx_co o ON o.cust = c.id JOIN gx_cl l ON l.ord = o.id WHERE o.prio = 1');
SELECT gx_jcheck('SELECT l.id, o.odate, p.brand FROM gx_cl l JOIN gx_co o ON l.ord = o.id JOIN gx_cp p ON l.part = p.id WHERE p.size < 10');
SELECT gx_jcheck('SELECT l.id, o.id, p.id, c.name FROM gx_cl l JOIN gx_co o ON l.ord = o.id JOIN gx_cp p ON l.part = p.id JOIN gx_cc c ON o.cust = c.id WHERE l.qty > 40');
SELECT gx_jcheck('SELECT a.id, b.id, c.id FROM gx_co a JOIN gx_co b ON a.cust = b.cust JOIN gx_co c ON b.id = c.cust WHERE a.id < 300');
-- shaped as TPC-H Q3, Q5 (its supplier joined on two keys, one from each
-- of two tables of the join below) and Q10
SELECT gx_jcheck('SELECT o.id, o.odate, sum(l.price) AS rev FROM gx_cc c JOIN gx_co o ON o.cust = c.id JOIN gx_cl l ON l.ord = o.id WHERE c.seg = 2 AND o.odate < date ''2024-05-01'' AND l.ship > date ''2024-05-01'' GROUP BY o.id, o.odate ORDER BY rev DESC, o.id LIMIT 10');
SELECT gx_jcheck('SELECT n.name, sum(l.price) FROM gx_cc c JOIN gx_co o ON o.cust = c.id JOIN gx_cl l ON l.ord = o.id JOIN gx_cs s ON l.supp = s.id AND c.nation = s.nation JOIN gx_cn n ON s.nation = n.id WHERE n.region < 3 AND o.odate >= date ''2024-03-01'' GROUP BY n.name');
SELECT gx_jcheck('SELECT c.id, c.name, n.name, sum(l.price) AS rev FROM gx_cc c JOIN gx_co o ON o.cust = c.id JOIN gx_cl l ON l.ord = o.id JOIN gx_cn n ON c.nation = n.id WHERE l.flag = ''o1'' AND o.odate < date ''2024-06-01'' GROUP BY c.id, c.name, n.name ORDER BY rev DESC, c.id LIMIT 20');
-- two keys between a join and a table, a key on each side of the lower join
SELECT gx_jcheck('SELECT o.id, l.id, x.id FROM gx_co o JOIN gx_cl l ON l.ord = o.id JOIN gx_cl x ON x.ord = l.ord AND x.part = l.part');
SELECT gx_jcheck('SELECT c.id, o.id, l.id FROM gx_cc c JOIN gx_co o ON o.cust = c.id JOIN gx_cl l ON l.ord = o.id AND l.qty = c.seg + 1');
-- an empty table anywhere in the chain
SELECT gx_jcheck('SELECT c.id, o.id FROM gx_cc c JOIN gx_co o ON o.cust = c.id JOIN gx_cempty e ON e.k = o.id');
SELECT gx_jcheck('SELECT c.id, o.id FROM gx_cempty e JOIN gx_cc c ON e.k = c.id JOIN gx_co o ON o.cust = c.id');

-- chains mixing INNER with LEFT, RIGHT, FULL, SEMI and ANTI
SELECT gx_jcheck('SELECT c.id, o.id, l.id FROM gx_cc c LEFT JOIN gx_co o ON o.cust = c.id LEFT JOIN gx_cl l ON l.ord = o.id');
SELECT gx_jcheck('SELECT c.id, o.id, l.id FROM gx_cc c JOIN gx_co o ON o.cust = c.id LEFT JOIN gx_cl l ON l.ord = o.id AND l.qty > 45');
SELECT gx_jcheck('SELECT c.id, o.id, l.id FROM gx_cl l RIGHT JOIN (gx_cc c JOIN gx_co o ON o.cust = c.id) ON l.ord = o.id WHERE c.seg = 2');
SELECT gx_jcheck('SELECT c.id, o.id, l.id FROM gx_cc c FULL JOIN gx_co o ON o.cust = c.id FULL JOIN gx_cl l ON l.ord = o.id');
SELECT gx_jcheck('SELECT n.id, c.id FROM gx_cn n LEFT JOIN (gx_cc c JOIN gx_co o ON o.cust = c.id) ON c.nation = n.id');
SELECT gx_jcheck('SELECT c.id, o.id FROM gx_cc c JOIN gx_co o ON o.cust = c.id WHERE EXISTS (SELECT 1 FROM gx_cl l WHERE l.ord = o.id AND l.qty > 45)');
SELECT gx_jcheck('SELECT c.id, o.id FROM gx_cc c JOIN gx_co o ON o.cust = c.id WHERE NOT EXISTS (SELECT 1 FROM gx_cl l WHERE l.ord = o.id)');
SELECT gx_jcheck('SELECT c.id FROM gx_cc c WHERE EXISTS (SELECT 1 FROM gx_co o JOIN gx_cl l ON l.ord = o.id WHERE o.cust = c.id AND l.qty = 50)');
SELECT gx_jcheck('SELECT c.id FROM gx_cc c WHERE c.id IN (SELECT o.cust FROM gx_co o JOIN gx_cl l ON l.ord = o.id WHERE l.flag = ''o1'')');
SELECT gx_jcheck('SELECT c.id FROM gx_cc c WHERE NOT EXISTS (SELECT 1 FROM gx_co o JOIN gx_cl l ON l.ord = o.id WHERE o.cust = c.id)');

-- host quals of INNER joins: comparisons across the sides, text, NULLs
-- in their columns (a NULL result removes the row), a third key, a key of
-- a type the device does not compare, OR, over a chain
SELECT gx_jcheck('SELECT o.id, l.id FROM gx_co o JOIN gx_cl l ON l.ord = o.id AND l.qty < o.prio * 10');
SELECT gx_jcheck('SELECT o.id, l.id FROM gx_co o JOIN gx_cl l ON l.ord = o.id WHERE l.flag <> o.note');
SELECT gx_jcheck('SELECT o.id, l.id, o.note, l.flag FROM gx_co o JOIN gx_cl l ON l.ord = o.id AND l.flag = o.note');
SELECT gx_jcheck('SELECT o.id, l.id FROM gx_co o JOIN gx_cl l ON l.ord = o.id AND (l.price > o.total OR o.total IS NULL)');
SELECT gx_jcheck('SELECT o.id, l.id FROM gx_co o JOIN gx_cl l ON l.ord = o.id AND l.ship > o.odate + 30');
SELECT gx_jcheck('SELECT a.id, b.id FROM gx_co a JOIN gx_co b ON a.cust = b.cust AND a.prio = b.prio AND a.odate <= b.odate + 10 AND a.id <> b.id');
SELECT gx_jcheck('SELECT a.id, b.id FROM gx_co a JOIN gx_co b ON a.cust = b.cust AND a.prio = b.prio AND a.total = b.total');
SELECT gx_jcheck('SELECT o.id, l.id FROM gx_co o JOIN gx_cl l ON l.ord = o.id AND l.ship = o.odate::timestamp');
SELECT gx_jcheck('SELECT o.id, l.id FROM gx_co o JOIN gx_cl l ON l.ord = o.id AND l.price::text LIKE o.prio || ''%''');
SELECT gx_jcheck('SELECT c.id, o.id, l.id FROM gx_cc c JOIN gx_co o ON o.cust = c.id AND o.prio <> c.seg JOIN gx_cl l ON l.ord = o.id AND l.qty > c.bal / 20');
-- (no key equality left: PostgreSQL's join)
SELECT gx_jcheck('SELECT o.id, l.id FROM gx_co o JOIN gx_cl l ON l.flag = o.note WHERE o.id < 20');
-- SEMI, ANTI and LEFT joins run such quals over each pair (join_filter.cpp;
-- gpujoin_filter.sql)
SELECT gx_jcheck('SELECT o.id FROM gx_co o WHERE EXISTS (SELECT 1 FROM gx_cl l WHERE l.ord = o.id AND l.qty > o.prio * 10)');
SELECT gx_jcheck('SELECT o.id FROM gx_co o WHERE NOT EXISTS (SELECT 1 FROM gx_cl l WHERE l.ord = o.id AND l.flag = o.note)');
SELECT gx_jcheck('SELECT o.id, l.id FROM gx_co o LEFT JOIN gx_cl l ON l.ord = o.id AND l.qty > o.prio * 10');

-- count(*) over chains: the top GpuJoin counts; host quals: the rows are
-- formed and PostgreSQL's Aggregate counts them
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT count(*) FROM gx_cc c JOIN gx_co o ON o.cust = c.id JOIN gx_cl l ON l.ord = o.id');
SELECT * FROM gx_explain('SELECT count(*) FROM gx_co o JOIN gx_cl l ON l.ord = o.id AND l.qty < o.prio * 10');
SELECT * FROM gx_jexplain('SELECT count(*) FROM gx_cc c JOIN gx_co o ON o.cust = c.id JOIN gx_cl l ON l.ord = o.id');
RESET gpuext.force;
SELECT q, gx_jccheck(q) FROM (VALUES
    ('SELECT count(*) FROM gx_cc c JOIN gx_co o ON o.cust = c.id JOIN gx_cl l ON l.ord = o.id'),
    ('SELECT count(*) FROM gx_cn n JOIN gx_cc c ON c.nation = n.id JOIN gx_co o ON o.cust = c.id JOIN gx_cl l ON l.ord = o.id'),
    ('SELECT count(*) FROM gx_cl l JOIN gx_co o ON l.ord = o.id JOIN gx_cp p ON l.part = p.id WHERE p.size < 10'),
    ('SELECT count(*) FROM gx_cc c JOIN gx_co o ON o.cust = c.id JOIN gx_cl l ON l.ord = o.id JOIN gx_cs s ON l.supp = s.id AND c.nation = s.nation JOIN gx_cn n ON s.nation = n.id WHERE n.region < 3'),
    ('SELECT count(*) FROM gx_cc c LEFT JOIN gx_co o ON o.cust = c.id LEFT JOIN gx_cl l ON l.ord = o.id'),
    ('SELECT count(*) FROM gx_cc c JOIN gx_co o ON o.cust = c.id WHERE NOT EXISTS (SELECT 1 FROM gx_cl l WHERE l.ord = o.id)'),
    ('SELECT count(*) FROM gx_co o JOIN gx_cl l ON l.ord = o.id AND l.qty < o.prio * 10'),
    ('SELECT count(*) FROM gx_cc c JOIN gx_co o ON o.cust = c.id JOIN gx_cl l ON l.ord = o.id AND l.flag <> o.note')) v(q);

-- LIMIT, subqueries, CTEs, UNION, aggregates above the chain
SELECT gx_jcheck('SELECT count(*) FROM (SELECT c.id, l.id FROM gx_cc c JOIN gx_co o ON o.cust = c.id JOIN gx_cl l ON l.ord = o.id LIMIT 25) s');
SELECT gx_jcheck('SELECT * FROM (SELECT o.id, l.id FROM gx_co o JOIN gx_cl l ON l.ord = o.id AND l.qty < o.prio * 10 ORDER BY l.id LIMIT 7) s');
SELECT gx_jcheck('SELECT c.nation, count(*), sum(l.price) FROM gx_cc c JOIN gx_co o ON o.cust = c.id JOIN gx_cl l ON l.ord = o.id GROUP BY c.nation');
SELECT gx_jcheck('SELECT s.cid, p.brand FROM (SELECT c.id AS cid, l.part FROM gx_cc c JOIN gx_co o ON o.cust = c.id JOIN gx_cl l ON l.ord = o.id WHERE l.qty = 7) s JOIN gx_cp p ON p.id = s.part');
SELECT gx_jcheck('WITH big AS MATERIALIZED (SELECT o.id, o.cust FROM gx_co o JOIN gx_cl l ON l.ord = o.id WHERE l.qty > 48) SELECT c.id, b.id FROM big b JOIN gx_cc c ON c.id = b.cust JOIN gx_cn n ON n.id = c.nation');
SELECT gx_jcheck('WITH j AS (SELECT o.id, c.seg FROM gx_cc c JOIN gx_co o ON o.cust = c.id) SELECT j.seg, count(*) FROM j JOIN gx_cl l ON l.ord = j.id GROUP BY j.seg');
SELECT gx_jcheck('SELECT c.id FROM gx_cc c JOIN gx_co o ON o.cust = c.id JOIN gx_cl l ON l.ord = o.id WHERE l.qty = 1 UNION SELECT o.id FROM gx_co o JOIN gx_cl l ON l.ord = o.id AND l.qty < o.prio');

-- rescans: a correlated subquery whose chain reads the parameter in its
-- lowest join (the nested GpuJoins rescanned), in the top join's inner
-- side, in the inner side of a nested GpuJoin (its table built for each
-- row, the top one's kept: Table Builds) or in a host qual
SELECT gx_jcheck('SELECT x, (SELECT count(*) FROM gx_cc c JOIN gx_co o ON o.cust = c.id JOIN gx_cl l ON l.ord = o.id WHERE l.qty < x) FROM generate_series(0, 50, 10) x');
SELECT gx_jcheck('SELECT x, (SELECT count(*) FROM gx_cc c JOIN gx_co o ON o.cust = c.id JOIN gx_cl l ON l.ord = o.id WHERE c.bal < x * 20) FROM generate_series(0, 50, 10) x');
SELECT gx_jcheck('SELECT x, (SELECT count(*) FROM gx_cl l JOIN gx_co o ON l.ord = o.id JOIN gx_cc c ON o.cust = c.id WHERE c.bal < x * 20 AND o.prio = 1) FROM generate_series(0, 50, 10) x');
SELECT gx_jcheck('SELECT x, (SELECT count(*) FROM gx_co o JOIN gx_cl l ON l.ord = o.id AND l.qty < o.prio * x) FROM generate_series(0, 12, 3) x');
SET gpuext.force = on;
SELECT * FROM gx_jexplain('SELECT x, (SELECT count(*) FROM gx_cl l JOIN gx_co o ON l.ord = o.id JOIN gx_cc c ON o.cust = c.id WHERE c.bal < x * 20 AND o.prio = 1) FROM generate_series(0, 50, 25) x');
RESET gpuext.force;
-- under a nested loop without Materialize: the chain rescanned whole
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SET enable_material = off;
SELECT gx_jcheck('SELECT n.id, count(*), sum(p.size) FROM gx_cn n LEFT JOIN (gx_cn m JOIN gx_cc c ON c.nation = m.id JOIN gx_cp p ON p.size - c.bal / 25 = 0) ON n.id * 100 < c.bal WHERE n.id < 4 GROUP BY n.id');
SET gpuext.force = on;
SELECT * FROM gx_jexplain('SELECT count(*) FROM gx_cn n LEFT JOIN (gx_cn m JOIN gx_cc c ON c.nation = m.id JOIN gx_cp p ON p.size - c.bal / 25 = 0) ON n.id * 100 < c.bal WHERE n.id < 4');
RESET gpuext.force;
RESET enable_hashjoin;
RESET enable_mergejoin;
RESET enable_material;
-- LATERAL: a subquery's chain rescanned with the parameter; a join
-- relation parameterized by another (the function's) keeps PostgreSQL's
-- join, a join of the function with its table is a side like any
SELECT gx_jcheck('SELECT c.id, s.n FROM gx_cc c, LATERAL (SELECT count(*) AS n FROM gx_co o JOIN gx_cl l ON l.ord = o.id WHERE o.cust = c.id) s WHERE c.seg = 3');
SELECT gx_jcheck('SELECT c.id, s.lid FROM gx_cc c JOIN LATERAL (SELECT l.id AS lid, o.cust FROM gx_co o JOIN gx_cl l ON l.ord = o.id WHERE o.cust = c.id AND l.qty > c.seg * 10 LIMIT 3) s ON true WHERE c.seg = 3');
SELECT gx_jcheck('SELECT c.id, g, o.id FROM gx_cc c, LATERAL generate_series(0, c.seg) g, gx_co o WHERE o.prio = g AND c.id < 40');
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT c.id, g, o.id FROM gx_cc c, LATERAL generate_series(0, c.seg) g, gx_co o WHERE o.prio = g AND c.id < 40');
RESET gpuext.force;

-- a table that does not fit: every GpuJoin of the chain falls back
SET gpuext.session_memory = '64kB';
SELECT gx_jcheck('SELECT c.id, o.id, l.id FROM gx_cc c JOIN gx_co o ON o.cust = c.id JOIN gx_cl l ON l.ord = o.id');
SELECT gx_jcheck('SELECT o.id, l.id FROM gx_co o JOIN gx_cl l ON l.ord = o.id AND l.qty < o.prio * 10');
SELECT gx_jccheck('SELECT count(*) FROM gx_cc c JOIN gx_co o ON o.cust = c.id JOIN gx_cl l ON l.ord = o.id');
RESET gpuext.session_memory;

-- prepared statements: custom plans, then the generic plan (6+ runs)
PREPARE cp_off(int4, int4) AS
    SELECT c.id AS cid, o.id AS oid, l.id AS lid FROM gx_cc c JOIN gx_co o ON o.cust = c.id
    JOIN gx_cl l ON l.ord = o.id AND l.qty < o.prio * $2 WHERE c.bal < $1;
PREPARE cp_on(int4, int4) AS
    SELECT c.id AS cid, o.id AS oid, l.id AS lid FROM gx_cc c JOIN gx_co o ON o.cust = c.id
    JOIN gx_cl l ON l.ord = o.id AND l.qty < o.prio * $2 WHERE c.bal < $1;
PREPARE cc_off(int4) AS
    SELECT count(*) FROM gx_cc c JOIN gx_co o ON o.cust = c.id JOIN gx_cl l ON l.ord = o.id WHERE l.qty < $1;
PREPARE cc_on(int4) AS
    SELECT count(*) FROM gx_cc c JOIN gx_co o ON o.cust = c.id JOIN gx_cl l ON l.ord = o.id WHERE l.qty < $1;
SELECT args, gx_error(format('EXECUTE cp_off%s', args), format('EXECUTE cp_on%s', args))
FROM (VALUES ('(500, 10)'), ('(1000, 3)'), ('(0, 10)'), ('(NULL, 1)'), ('(300, NULL)'),
             ('(700, 5)'), ('(900, 12)'), ('(100, 20)')) v(args);
SELECT args, gx_error(format('EXECUTE cc_off%s', args), format('EXECUTE cc_on%s', args))
FROM (VALUES ('(10)'), ('(20)'), ('(0)'), ('(NULL)'), ('(51)'), ('(30)'), ('(40)')) v(args);
SET plan_cache_mode = force_generic_plan;
SELECT args, gx_error(format('EXECUTE cp_off%s', args), format('EXECUTE cp_on%s', args))
FROM (VALUES ('(500, 10)'), ('(0, 10)'), ('(NULL, 1)'), ('(900, 12)'), ('(100, 20)'),
             ('(1000, 1)')) v(args);
SELECT args, gx_error(format('EXECUTE cc_off%s', args), format('EXECUTE cc_on%s', args))
FROM (VALUES ('(10)'), ('(0)'), ('(NULL)'), ('(51)'), ('(30)'), ('(45)')) v(args);
SET gpuext.force = on;
SELECT * FROM gx_explain('EXECUTE cp_on(500, 10)');
RESET gpuext.force;
RESET plan_cache_mode;

-- joins over cached tables: a table of the top join read by the device
-- from its cached columns (counting: the line items, its inner side), the
-- rest of the chain through the children; after changes to both tables
CREATE FUNCTION gx_cread(q text) RETURNS text LANGUAGE plpgsql
    SET gpuext.force = on AS $$
DECLARE
    line text;
    reads text := 'children';
    cached bool := false;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
        IF line ~ 'Read By The Device: ' AND reads = 'children' THEN
            reads := substring(line from 'Read By The Device: (.*)$');
        END IF;
        cached := cached OR line ~ 'Cached Chunks: [1-9]';
    END LOOP;
    RETURN reads || CASE WHEN cached THEN ', cached' ELSE ', not cached' END;
END $$;
-- (VACUUM again right before loading: a snapshot held elsewhere while the
-- first VACUUM ran, an autovacuum's ANALYZE, leaves blocks not all-visible)
VACUUM gx_cl, gx_co;
SELECT gpuext_cache_load('gx_cl') > 0 AS loaded, gpuext_cache_load('gx_co') > 0 AS loaded;
SELECT q, gx_jccheck(q), gx_cread(q) FROM (VALUES
    ('SELECT count(*) FROM gx_cl l JOIN gx_co o ON l.ord = o.id JOIN gx_cc c ON o.cust = c.id WHERE c.seg = 1 AND o.prio = 3'),
    ('SELECT count(*) FROM gx_cc c JOIN gx_co o ON o.cust = c.id JOIN gx_cl l ON l.ord = o.id')) v(q);
SELECT gx_jcheck('SELECT c.id, o.id, l.id FROM gx_cc c JOIN gx_co o ON o.cust = c.id JOIN gx_cl l ON l.ord = o.id');
SELECT gx_jcheck('SELECT o.id, l.id FROM gx_co o JOIN gx_cl l ON l.ord = o.id AND l.qty < o.prio * 10');
UPDATE gx_cl SET qty = qty + 1, ord = ord + 1 WHERE id % 97 = 0;
DELETE FROM gx_co WHERE id % 101 = 0;
SELECT q, gx_jccheck(q), gx_cread(q) FROM (VALUES
    ('SELECT count(*) FROM gx_cl l JOIN gx_co o ON l.ord = o.id JOIN gx_cc c ON o.cust = c.id WHERE c.seg = 1 AND o.prio = 3'),
    ('SELECT count(*) FROM gx_cc c JOIN gx_co o ON o.cust = c.id JOIN gx_cl l ON l.ord = o.id')) v(q);
SELECT gx_jcheck('SELECT o.id, l.id FROM gx_co o JOIN gx_cl l ON l.ord = o.id AND l.qty < o.prio * 10');
SELECT gpuext_cache_evict('gx_cl') >= 0 AS evicted, gpuext_cache_evict('gx_co') >= 0 AS evicted;
DROP FUNCTION gx_cread(text);

-- what keeps PostgreSQL's plans: row marks, a WHERE clause above an
-- outer join, a PlaceHolderVar in a join's target (the subquery's
-- constant, NULL above the outer join), the switches
SELECT gx_jcheck('SELECT c.id, o.id FROM gx_cc c JOIN gx_co o ON o.cust = c.id JOIN gx_cl l ON l.ord = o.id FOR UPDATE OF c');
SELECT gx_jcheck('SELECT c.id, o.id FROM gx_cc c LEFT JOIN gx_co o ON o.cust = c.id WHERE o.id IS NULL OR EXISTS (SELECT 1 FROM gx_cl l WHERE l.ord = o.id)');
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT c.id, s.one FROM gx_cc c LEFT JOIN (SELECT o.cust, 1 AS one FROM gx_co o JOIN gx_cl l ON l.ord = o.id) s ON s.cust = c.id');
RESET gpuext.force;
SET gpuext.enable_gpujoin = off;
SELECT gx_jcheck('SELECT c.id, o.id, l.id FROM gx_cc c JOIN gx_co o ON o.cust = c.id JOIN gx_cl l ON l.ord = o.id');
RESET gpuext.enable_gpujoin;

DROP TABLE gx_cn, gx_cc, gx_co, gx_cl, gx_cp, gx_cs, gx_cempty;
DEALLOCATE ALL;
