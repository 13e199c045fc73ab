-- gpujoin_band: GpuJoin's range join on the device (INNER, SEMI, ANTI):
-- band and inequality predicates such as r.k <= s.k AND s.k <= r.k + d.
-- Every query is compared with gpuext off (gx_check: PostgreSQL's own
-- plan, then gpuext forced on each device); gx_bcheck adds whether the
-- forced plan joins on the device (GpuJoin, "counts" when it counts,
-- "aggregates" when it aggregates its pairs).

SET max_parallel_workers_per_gather = 0;

-- does q's plan, with gpuext forced, hold a GpuJoin (that counts or aggregates)?
CREATE FUNCTION gx_band_node(q text) RETURNS text LANGUAGE plpgsql
    SET gpuext.enabled = on SET gpuext.force = on AS $$
DECLARE
    line text;
    node text := 'no GpuJoin';
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        IF line LIKE '%Custom Scan (GpuJoin)%' THEN
            node := 'GpuJoin';
        ELSIF node = 'GpuJoin' AND line LIKE '%Algorithm: Hash%' THEN
            node := 'GpuJoin (hash)';
        END IF;
    END LOOP;
    -- (counts, or aggregates its pairs: setup.sql)
    IF node = 'GpuJoin' THEN
        node := coalesce('GpuJoin ' || gx_join_agg(q), node);
    END IF;
    RETURN node;
END $$;
CREATE FUNCTION gx_bcheck(q text) RETURNS text LANGUAGE sql AS $$
    SELECT gx_check(q) || ', ' || gx_band_node(q)
$$;
-- EXPLAIN ANALYZE without timing
CREATE FUNCTION gx_bexplain(q text) RETURNS SETOF text LANGUAGE sql AS $$
    SELECT l FROM gx_explain(q, 'ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF') l
$$;

-- both sides with every key type, NULLs in every key, duplicates
CREATE TABLE gx_br (id int4, k4 int4, k8 int8, kd date, kn numeric(10,2), v int4);
INSERT INTO gx_br
SELECT g,
       CASE WHEN g % 31 = 0 THEN NULL ELSE g % 700 END,
       CASE WHEN g % 23 = 0 THEN NULL ELSE (g % 500)::int8 * 10000000000 END,
       CASE WHEN g % 19 = 0 THEN NULL ELSE date '2024-01-01' + g % 400 END,
       CASE WHEN g % 7 = 0 THEN NULL ELSE (g % 800) / 4.0 END,
       g * 7 % 1000
FROM generate_series(1, 2000) g;
CREATE TABLE gx_bs (id int4, k4 int4, k8 int8, kd date, kn numeric(12,3), v int4);
INSERT INTO gx_bs
SELECT g,
       CASE WHEN g % 37 = 0 THEN NULL ELSE g * 3 % 400 END,
       CASE WHEN g % 43 = 0 THEN NULL ELSE (g * 7 % 900)::int8 * 10000000000 END,
       CASE WHEN g % 47 = 0 THEN NULL ELSE date '2024-03-01' + g % 500 END,
       CASE WHEN g % 67 = 0 THEN NULL ELSE (g % 900) / 8.0 END,
       g % 1000
FROM generate_series(1, 1000) g;
-- 90% of the rows share one key
CREATE TABLE gx_bskew (id int4, k int4);
INSERT INTO gx_bskew SELECT g, CASE WHEN g % 10 = 0 THEN g ELSE 7 END FROM generate_series(1, 1500) g;
-- numeric NaN sorts after every number and equals NaN
CREATE TABLE gx_bnan (id int4, n numeric(6,2), m numeric(6,2));
INSERT INTO gx_bnan VALUES (1, 'NaN', 'NaN'), (2, 1.5, 2), (3, NULL, 1), (4, 'NaN', 0),
    (5, 0.25, 'NaN'), (6, 199.75, 200), (7, -3, NULL), (8, 1.5, 1.5);
-- timestamps: a band of an hour (the bound's + interval runs in the scan)
CREATE TABLE gx_bts (id int4, t timestamp, tz timestamptz);
INSERT INTO gx_bts
SELECT g, CASE WHEN g % 17 = 0 THEN NULL ELSE timestamp '2024-01-01' + (g * 37 % 600) * interval '7 minutes' END,
       CASE WHEN g % 13 = 0 THEN NULL ELSE timestamptz '2024-01-01 00:00+00' + (g * 11 % 500) * interval '5 minutes' END
FROM generate_series(1, 600) g;
CREATE TABLE gx_bempty (id int4, k4 int4);
CREATE TABLE gx_bnull (id int4, k4 int4);
INSERT INTO gx_bnull SELECT g, NULL FROM generate_series(1, 50) g;
-- several chunks of gpuext.chunk_rows = 1024
CREATE TABLE gx_bbig (id int4, k int4);
INSERT INTO gx_bbig SELECT g, g * 7 % 9000 FROM generate_series(1, 9000) g;
VACUUM ANALYZE gx_br, gx_bs, gx_bskew, gx_bempty, gx_bnull, gx_bbig, gx_bnan, gx_bts;

-- the plans: algorithm, join type, bounds, the children, the fallback
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT r.id, s.id FROM gx_br r JOIN gx_bs s ON r.k4 <= s.k4 AND s.k4 <= r.k4 + 10');
SELECT * FROM gx_explain('SELECT r.id, s.id FROM gx_br r JOIN gx_bs s ON s.k4 BETWEEN r.k4 AND r.k4 + 1',
                         'COSTS OFF, VERBOSE');
SELECT * FROM gx_explain('SELECT r.id FROM gx_br r WHERE EXISTS (SELECT 1 FROM gx_bs s WHERE s.k4 > r.k4 - 2 AND s.k4 < r.k4 + 2)');
SELECT * FROM gx_explain('SELECT r.id FROM gx_br r WHERE NOT EXISTS (SELECT 1 FROM gx_bs s WHERE s.kd >= r.kd)');
SELECT * FROM gx_explain('SELECT count(*) FROM gx_br r JOIN gx_bs s ON r.k4 <= s.k4 AND s.k4 <= r.k4 + 10');
SELECT * FROM gx_bexplain('SELECT r.id, s.id FROM gx_br r JOIN gx_bs s ON r.k4 <= s.k4 AND s.k4 <= r.k4 + 10');
RESET gpuext.force;

-- INNER: band widths 0, 1, 10; strict and non-strict bounds; either order
SELECT gx_bcheck('SELECT r.id, s.id FROM gx_br r JOIN gx_bs s ON r.k4 <= s.k4 AND s.k4 <= r.k4 + 0');
SELECT gx_bcheck('SELECT r.id, s.id FROM gx_br r JOIN gx_bs s ON r.k4 <= s.k4 AND s.k4 <= r.k4 + 1');
SELECT gx_bcheck('SELECT r.id, s.id FROM gx_br r JOIN gx_bs s ON r.k4 <= s.k4 AND s.k4 <= r.k4 + 10');
SELECT gx_bcheck('SELECT r.id, s.id FROM gx_br r JOIN gx_bs s ON r.k4 < s.k4 AND s.k4 < r.k4 + 10');
SELECT gx_bcheck('SELECT r.id, s.id FROM gx_br r JOIN gx_bs s ON r.k4 < s.k4 AND s.k4 <= r.k4 + 1');
SELECT gx_bcheck('SELECT r.id, s.id FROM gx_br r JOIN gx_bs s ON s.k4 >= r.k4 - 3 AND r.k4 + 3 > s.k4');
SELECT gx_bcheck('SELECT r.id, s.id FROM gx_br r JOIN gx_bs s ON s.k4 BETWEEN r.k4 - 5 AND r.k4 + 5');
SELECT gx_bcheck('SELECT r.id, s.id FROM gx_br r JOIN gx_bs s ON s.k4 BETWEEN r.k4 + 5 AND r.k4 - 5');
SELECT gx_bcheck('SELECT r.*, s.* FROM gx_br r JOIN gx_bs s ON r.k4 <= s.k4 AND s.k4 <= r.k4 + 2 WHERE r.v < 300 AND s.v > 100');
SELECT gx_bcheck('SELECT r.id, s.id FROM gx_br r JOIN gx_bs s ON s.k4 >= r.v AND s.k4 < r.k4');
-- one-sided inequalities (small tables: most pairs match)
SELECT gx_bcheck('SELECT r.id, s.id FROM gx_bskew r JOIN gx_bs s ON r.k < s.k4 WHERE r.id <= 200');
SELECT gx_bcheck('SELECT r.id, s.id FROM gx_br r JOIN gx_bs s ON s.k4 >= r.k4 WHERE r.id <= 300');
SELECT gx_bcheck('SELECT r.id, s.id FROM gx_br r JOIN gx_bs s ON s.k4 < r.k4 - 350 WHERE s.id <= 500');
-- key types: int8, date, numeric (scale 3 against 2; NaN), timestamp(tz),
-- mixed integer widths
SELECT gx_bcheck('SELECT r.id, s.id FROM gx_br r JOIN gx_bs s ON s.k8 >= r.k8 AND s.k8 <= r.k8 + 20000000000');
SELECT gx_bcheck('SELECT r.id, s.id FROM gx_br r JOIN gx_bs s ON s.kd BETWEEN r.kd AND r.kd + 2');
SELECT gx_bcheck('SELECT r.id, s.id FROM gx_br r JOIN gx_bs s ON s.kn > r.kn AND s.kn <= r.kn');
SELECT gx_bcheck('SELECT r.id, s.id FROM gx_br r JOIN gx_bs s ON s.kn >= r.kn AND s.kn < r.kn');
SELECT gx_bcheck('SELECT r.id, s.id, r.kn, s.kn FROM gx_br r JOIN gx_bs s ON s.kn >= r.kn AND s.kn <= r.kn');
SELECT gx_bcheck('SELECT r.id, s.id FROM gx_br r JOIN gx_bs s ON s.k8 BETWEEN r.k4 AND r.k4 + 1');
SELECT gx_bcheck('SELECT a.id, b.id FROM gx_bnan a JOIN gx_bnan b ON b.n >= a.n');
SELECT gx_bcheck('SELECT a.id, b.id FROM gx_bnan a JOIN gx_bnan b ON b.n > a.n AND b.n <= a.m');
SELECT gx_bcheck('SELECT a.id, b.id FROM gx_bnan a JOIN gx_bnan b ON b.n BETWEEN a.m AND a.n');
SELECT gx_bcheck('SELECT a.id FROM gx_bnan a WHERE NOT EXISTS (SELECT 1 FROM gx_bnan b WHERE b.n < a.m)');
SELECT gx_bcheck('SELECT a.id, b.id FROM gx_bts a JOIN gx_bts b ON b.t BETWEEN a.t AND a.t + interval ''1 hour''');
SELECT gx_bcheck('SELECT a.id, b.id FROM gx_bts a JOIN gx_bts b ON b.tz > a.tz - interval ''10 minutes'' AND b.tz < a.tz');
SELECT gx_bcheck('SELECT r.id, s.id FROM gx_br r JOIN gx_bs s ON s.k4 BETWEEN r.k8 / 10000000000 AND r.k8 / 10000000000 + 1');

-- SEMI (EXISTS with a band) and ANTI (NOT EXISTS, LEFT JOIN ... IS NULL)
SELECT gx_bcheck('SELECT r.id FROM gx_br r WHERE EXISTS (SELECT 1 FROM gx_bs s WHERE s.k4 BETWEEN r.k4 AND r.k4 + 1)');
SELECT gx_bcheck('SELECT r.id FROM gx_br r WHERE EXISTS (SELECT 1 FROM gx_bs s WHERE s.k4 > r.k4)');
SELECT gx_bcheck('SELECT r.id, r.kd FROM gx_br r WHERE EXISTS (SELECT 1 FROM gx_bs s WHERE s.kd > r.kd AND s.kd < r.kd + 3)');
SELECT gx_bcheck('SELECT r.id FROM gx_br r WHERE NOT EXISTS (SELECT 1 FROM gx_bs s WHERE s.k4 BETWEEN r.k4 AND r.k4 + 1)');
SELECT gx_bcheck('SELECT r.id FROM gx_br r WHERE NOT EXISTS (SELECT 1 FROM gx_bs s WHERE s.k4 >= r.k4)');
SELECT gx_bcheck('SELECT r.id FROM gx_br r WHERE NOT EXISTS (SELECT 1 FROM gx_bs s WHERE s.kn > r.kn - 1 AND s.kn < r.kn + 1)');
SELECT gx_bcheck('SELECT r.id FROM gx_br r WHERE NOT EXISTS (SELECT 1 FROM gx_bs s WHERE s.k8 >= r.k8 AND s.k8 < r.k8 + 10000000000)');
SELECT gx_bcheck('SELECT r.id FROM gx_br r LEFT JOIN gx_bs s ON s.k4 BETWEEN r.k4 AND r.k4 + 1 WHERE s.k4 IS NULL');

-- NULL keys on both sides, only NULL keys, empty sides, skew
SELECT gx_bcheck('SELECT r.id, n.id FROM gx_br r JOIN gx_bnull n ON n.k4 BETWEEN r.k4 AND r.k4 + 5');
SELECT gx_bcheck('SELECT n.id FROM gx_bnull n WHERE NOT EXISTS (SELECT 1 FROM gx_bs s WHERE s.k4 BETWEEN n.k4 AND n.k4 + 5)');
SELECT gx_bcheck('SELECT r.id FROM gx_br r WHERE NOT EXISTS (SELECT 1 FROM gx_bnull n WHERE n.k4 >= r.k4)');
SELECT gx_bcheck('SELECT r.id FROM gx_br r JOIN gx_bempty e ON e.k4 BETWEEN r.k4 AND r.k4 + 5');
SELECT gx_bcheck('SELECT e.id FROM gx_bempty e JOIN gx_br r ON r.k4 BETWEEN e.k4 AND e.k4 + 5');
SELECT gx_bcheck('SELECT r.id FROM gx_br r WHERE EXISTS (SELECT 1 FROM gx_bempty e WHERE e.k4 > r.k4)');
SELECT gx_bcheck('SELECT r.id FROM gx_br r WHERE NOT EXISTS (SELECT 1 FROM gx_bempty e WHERE e.k4 > r.k4)');
SELECT gx_bcheck('SELECT a.id, count(*), sum(b.id) FROM gx_bskew a JOIN gx_bskew b ON b.k BETWEEN a.k - 1 AND a.k + 1 GROUP BY a.id');
SELECT gx_bcheck('SELECT a.id FROM gx_bskew a WHERE NOT EXISTS (SELECT 1 FROM gx_bskew b WHERE b.k > a.k AND b.k < a.k + 10)');

-- count(*): counted on the device (count-only probes)
SELECT q, gx_bcheck(q) FROM (VALUES
    ('SELECT count(*) FROM gx_br r JOIN gx_bs s ON r.k4 <= s.k4 AND s.k4 <= r.k4 + 0'),
    ('SELECT count(*) FROM gx_br r JOIN gx_bs s ON r.k4 <= s.k4 AND s.k4 <= r.k4 + 1'),
    ('SELECT count(*) FROM gx_br r JOIN gx_bs s ON r.k4 <= s.k4 AND s.k4 <= r.k4 + 10'),
    ('SELECT count(*) FROM gx_br r JOIN gx_bs s ON r.k4 < s.k4'),
    ('SELECT count(*) FROM gx_br r JOIN gx_bs s ON r.kd > s.kd'),
    ('SELECT count(*) FROM gx_br r JOIN gx_bs s ON s.kn BETWEEN r.kn AND r.kn + 0.5'),
    ('SELECT count(*) FROM gx_br r WHERE EXISTS (SELECT 1 FROM gx_bs s WHERE s.k4 BETWEEN r.k4 AND r.k4 + 1)'),
    ('SELECT count(*) FROM gx_br r WHERE NOT EXISTS (SELECT 1 FROM gx_bs s WHERE s.k4 BETWEEN r.k4 AND r.k4 + 1)'),
    ('SELECT count(*) FROM gx_br r JOIN gx_bempty e ON e.k4 > r.k4'),
    ('SELECT count(*) FROM gx_br r WHERE NOT EXISTS (SELECT 1 FROM gx_bempty e WHERE e.k4 > r.k4)'),
    ('SELECT count(*) FROM gx_bskew a JOIN gx_bskew b ON b.k >= a.k')) v(q);
-- the counts themselves
SELECT count(*) FROM gx_br r JOIN gx_bs s ON r.k4 <= s.k4 AND s.k4 <= r.k4 + 10;
SELECT count(*) FROM gx_bskew a JOIN gx_bskew b ON b.k >= a.k;

-- results larger than a probe pass (1.7M pairs handed back: enable_agg
-- off keeps the count off the device), several chunks on both sides
SET gpuext.enable_agg = off;
SELECT gx_bcheck('SELECT count(*), sum(a.id::int8 * b.id) FROM gx_bskew a JOIN gx_bskew b ON b.k >= a.k');
SET gpuext.force = on;
SELECT * FROM gx_bexplain('SELECT count(*) FROM gx_bskew a JOIN gx_bskew b ON b.k >= a.k');
RESET gpuext.force;
RESET gpuext.enable_agg;
SET gpuext.chunk_rows = 1024;
SELECT gx_bcheck('SELECT a.id, b.id FROM gx_bbig a JOIN gx_bbig b ON b.k BETWEEN a.k - 2 AND a.k + 2');
SELECT gx_bcheck('SELECT count(*) FROM gx_bbig a JOIN gx_bbig b ON b.k > a.k');
SELECT gx_bcheck('SELECT a.id FROM gx_bbig a WHERE NOT EXISTS (SELECT 1 FROM gx_br r WHERE r.k4 BETWEEN a.k AND a.k + 3)');
SET gpuext.force = on;
SELECT * FROM gx_bexplain('SELECT count(*) FROM gx_bbig a JOIN gx_bbig b ON b.k BETWEEN a.k - 2 AND a.k + 2');
RESET gpuext.force;
RESET gpuext.chunk_rows;

-- LIMIT: the node is ended before its last row
SELECT gx_bcheck('SELECT count(*) FROM (SELECT r.id FROM gx_br r JOIN gx_bs s ON s.k4 >= r.k4 LIMIT 10) x');

-- prepared statements: custom plans, then the generic plan
PREPARE bp_off(int4, int4) AS
    SELECT r.id AS rid, s.id AS sid FROM gx_br r JOIN gx_bs s ON s.k4 BETWEEN r.k4 AND r.k4 + $1 WHERE s.v > $2;
PREPARE bp_on(int4, int4) AS
    SELECT r.id AS rid, s.id AS sid FROM gx_br r JOIN gx_bs s ON s.k4 BETWEEN r.k4 AND r.k4 + $1 WHERE s.v > $2;
SELECT args, gx_error(format('EXECUTE bp_off%s', args), format('EXECUTE bp_on%s', args))
FROM (VALUES ('(0, 100)'), ('(3, 0)'), ('(NULL, 1)'), ('(10, 900)')) v(args);
SET plan_cache_mode = force_generic_plan;
SELECT args, gx_error(format('EXECUTE bp_off%s', args), format('EXECUTE bp_on%s', args))
FROM (VALUES ('(0, 100)'), ('(3, 0)'), ('(NULL, 1)'), ('(10, 900)')) v(args);
RESET plan_cache_mode;

-- rescans: a parameter on the outer side keeps the table (Table Builds),
-- on the inner side it is built again for each row
SELECT gx_bcheck('SELECT x, (SELECT count(*) FROM gx_br r JOIN gx_bs s ON s.k4 BETWEEN r.k4 AND r.k4 + 2 WHERE r.v < x) FROM generate_series(0, 1000, 250) x');
SELECT gx_bcheck('SELECT x, (SELECT count(*) FROM gx_br r WHERE NOT EXISTS (SELECT 1 FROM gx_bs s WHERE s.k4 BETWEEN r.k4 AND r.k4 + 2 AND s.v < x)) FROM generate_series(0, 1000, 250) x');
SET gpuext.force = on;
SELECT * FROM gx_bexplain('SELECT x, (SELECT count(*) FROM gx_br r JOIN gx_bs s ON s.k4 BETWEEN r.k4 AND r.k4 + 2 WHERE r.v < x) FROM generate_series(0, 1000, 250) x');
SELECT * FROM gx_bexplain('SELECT x, (SELECT count(*) FROM gx_br r WHERE NOT EXISTS (SELECT 1 FROM gx_bs s WHERE s.k4 BETWEEN r.k4 AND r.k4 + 2 AND s.v < x)) FROM generate_series(0, 1000, 250) x');
RESET gpuext.force;

-- a table that does not fit: the node runs its fallback, PostgreSQL's
-- Nested Loop of the same sides over a Materialize, before it returns a
-- row (a table takes 64kB at least: every non-empty inner side falls back)
SET gpuext.session_memory = '64kB';
SELECT gx_bcheck('SELECT r.id, s.id FROM gx_br r JOIN gx_bs s ON r.k4 <= s.k4 AND s.k4 <= r.k4 + 10');
SELECT gx_bcheck('SELECT r.id FROM gx_br r WHERE EXISTS (SELECT 1 FROM gx_bs s WHERE s.k4 BETWEEN r.k4 AND r.k4 + 1)');
SELECT gx_bcheck('SELECT r.id FROM gx_br r WHERE NOT EXISTS (SELECT 1 FROM gx_bs s WHERE s.k4 >= r.k4)');
SELECT gx_bcheck('SELECT count(*) FROM gx_br r JOIN gx_bs s ON r.k4 <= s.k4 AND s.k4 <= r.k4 + 10');
SELECT gx_bcheck('SELECT count(*) FROM (SELECT r.id FROM gx_br r JOIN gx_bs s ON s.k4 >= r.k4 LIMIT 10) x');
SET gpuext.force = on;
SELECT * FROM gx_bexplain('SELECT r.id, s.id FROM gx_br r JOIN gx_bs s ON r.k4 <= s.k4 AND s.k4 <= r.k4 + 10');
RESET gpuext.force;
-- rescans that change the decision: with 90kB the table of s.v < 1000
-- (about 970 rows) does not fit, those of fewer rows do
SET gpuext.session_memory = '90kB';
SELECT gx_bcheck('SELECT x, (SELECT count(*) FROM gx_br r WHERE NOT EXISTS (SELECT 1 FROM gx_bs s WHERE s.k4 BETWEEN r.k4 AND r.k4 + 2 AND s.v < x)) FROM generate_series(0, 1000, 250) x');
SET gpuext.force = on;
SELECT * FROM gx_bexplain('SELECT x, (SELECT count(*) FROM gx_br r WHERE NOT EXISTS (SELECT 1 FROM gx_bs s WHERE s.k4 BETWEEN r.k4 AND r.k4 + 2 AND s.v < x)) FROM generate_series(0, 1000, 250) x');
RESET gpuext.force;
RESET gpuext.session_memory;

-- what stays with PostgreSQL (or the hash join): an equality, a mix of
-- equality and inequality (the hash join, the inequality its Join
-- Filter), two lower bounds, bounds on two columns of
-- each side, expressions on both sides, volatile bounds, types the device
-- does not compare (date against timestamp, float), an unconstrained
-- numeric bound (r.kn + 0.001 has no typmod), OR
SELECT gx_bcheck('SELECT r.id, s.id FROM gx_br r JOIN gx_bs s ON s.k4 = r.k4');
SELECT gx_bcheck('SELECT r.id, s.id FROM gx_br r JOIN gx_bs s ON s.k4 = r.k4 AND s.k8 > r.k8');
SELECT gx_bcheck('SELECT r.id, s.id FROM gx_br r JOIN gx_bs s ON s.k4 > r.k4 AND s.k4 > r.v');
SELECT gx_bcheck('SELECT r.id, s.id FROM gx_br r JOIN gx_bs s ON s.k4 > r.k4 AND s.v < r.v');
SELECT gx_bcheck('SELECT r.id, s.id FROM gx_br r JOIN gx_bs s ON s.k4 + 1 > r.k4 + 1 AND s.k4 < r.k4');
SELECT gx_bcheck('SELECT count(*) FROM gx_br r JOIN gx_bs s ON s.k4 > r.k4 AND s.k4 < r.k4 + (random() * 0)::int');
SELECT gx_bcheck('SELECT count(*) FROM gx_br r JOIN gx_bs s ON s.kd > r.kd::timestamp');
SELECT gx_bcheck('SELECT count(*) FROM gx_br r JOIN gx_bs s ON s.kn > r.kn + 0.001 AND s.kn < r.kn + 1');
SELECT gx_bcheck('SELECT count(*) FROM gx_br r JOIN gx_bs s ON s.k4 > r.k4 OR s.k4 < r.v');
SELECT gx_bcheck('SELECT count(*) FROM gx_br r JOIN gx_bs s ON s.v::float8 > r.v::float8');
-- the switches: gpuext.enable_nestloop off, gpuext.enable_hashjoin and
-- gpuext.enable_mergejoin (the equi-join algorithms) off
SET gpuext.enable_nestloop = off;
SELECT gx_bcheck('SELECT r.id, s.id FROM gx_br r JOIN gx_bs s ON r.k4 <= s.k4 AND s.k4 <= r.k4 + 10');
SELECT gx_bcheck('SELECT r.id, s.id FROM gx_br r JOIN gx_bs s ON s.k4 = r.k4');
RESET gpuext.enable_nestloop;
SET gpuext.enable_hashjoin = off;
SET gpuext.enable_mergejoin = off;
SELECT gx_bcheck('SELECT r.id, s.id FROM gx_br r JOIN gx_bs s ON r.k4 <= s.k4 AND s.k4 <= r.k4 + 10');
SELECT gx_bcheck('SELECT r.id, s.id FROM gx_br r JOIN gx_bs s ON s.k4 = r.k4');
RESET gpuext.enable_hashjoin;
RESET gpuext.enable_mergejoin;

DROP TABLE gx_br, gx_bs, gx_bskew, gx_bempty, gx_bnull, gx_bbig, gx_bnan, gx_bts;
DROP FUNCTION gx_bcheck(text), gx_band_node(text), gx_bexplain(text);
DEALLOCATE ALL;
