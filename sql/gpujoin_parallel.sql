-- gpujoin_parallel: Parallel Custom Scan (GpuJoin) under Gather: the inner
-- side built once by the leader and probed by every process (INNER, LEFT,
-- SEMI, ANTI; hash, merge and range joins), count(*) per process under
-- Finalize Aggregate, the outer side through its partial child or the
-- outer device input over one shared heap scan, the fallback in every
-- process, rescans of the Gather (a parameter of the outer side: the
-- table kept; of the inner side: built again), leader participation off.
-- Every query is compared with gpuext off (gx_check); gx_pjcheck adds
-- whether the forced plan holds a parallel GpuJoin.

SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;

-- 60000 outer rows (about 300 pages), 3000 inner rows: duplicate keys,
-- NULL keys on both sides, keys without a match on both sides
CREATE TABLE gx_po (id int4, k int4, k2 int8, a int4, f float8);
INSERT INTO gx_po
SELECT g, CASE WHEN g % 97 = 0 THEN NULL ELSE g % 4000 END, g % 7,
       g % 100, CASE WHEN g % 89 = 0 THEN NULL ELSE (g % 300) / 4.0 END
FROM generate_series(1, 60000) g;
CREATE TABLE gx_pi (id int4, k int4, k2 int8, v int4, f float8);
INSERT INTO gx_pi
SELECT g, CASE WHEN g % 31 = 0 THEN NULL ELSE (g * 7) % 3500 END, g % 7,
       g % 10, CASE WHEN g % 23 = 0 THEN NULL ELSE (g % 200) / 4.0 END
FROM generate_series(1, 3000) g;
CREATE TABLE gx_pempty (id int4, k int4);
VACUUM ANALYZE gx_po, gx_pi, gx_pempty;

-- does q's plan, with gpuext forced, hold a parallel GpuJoin?
CREATE FUNCTION gx_par_join(q text) RETURNS text LANGUAGE plpgsql
    SET gpuext.enabled = on SET gpuext.force = on AS $$
DECLARE
    line text;
    found text := 'no GpuJoin';
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        IF line LIKE '%Parallel Custom Scan (GpuJoin)%' THEN
            RETURN 'parallel GpuJoin';
        ELSIF line LIKE '%Custom Scan (GpuJoin)%' THEN
            found := 'serial GpuJoin';
        END IF;
    END LOOP;
    RETURN found;
END $$;
CREATE FUNCTION gx_pjcheck(q text) RETURNS text LANGUAGE sql AS $$
    SELECT gx_check(q) || ', ' || gx_par_join(q)
$$;
-- EXPLAIN ANALYZE with what depends on how the blocks were shared out
-- masked (per-process rows and loops, tasks, chunks, workers)
CREATE FUNCTION gx_pjexplain(q text) RETURNS SETOF text LANGUAGE sql AS $$
    SELECT regexp_replace(regexp_replace(l, '\(actual rows=\d+ loops=\d+\)', '(actual rows=N loops=N)'),
                          '(Tasks|Chunks|Probing|Workers Launched): \d+$', '\1: N')
    FROM gx_explain(q, 'ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF') l
    WHERE l !~ '^\s*(Buckets|Worker \d+): '
$$;

-- the plans
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT o.id, i.v FROM gx_po o JOIN gx_pi i ON o.k = i.k');
SELECT * FROM gx_explain('SELECT count(*) FROM gx_po o JOIN gx_pi i ON o.k = i.k');
SELECT * FROM gx_explain('SELECT o.id FROM gx_po o WHERE NOT EXISTS (SELECT 1 FROM gx_pi i WHERE i.k = o.k)');
-- the table built once (the leader's figures and the workers' summed)
SELECT * FROM gx_pjexplain('SELECT o.id, i.v FROM gx_po o JOIN gx_pi i ON o.k = i.k WHERE o.a < 50');
SELECT * FROM gx_pjexplain('SELECT count(*) FROM gx_po o WHERE EXISTS (SELECT 1 FROM gx_pi i WHERE i.k = o.k)');
-- RIGHT and FULL are not parallel (their unmatched inner rows need every probe)
SELECT * FROM gx_explain('SELECT o.id, i.id FROM gx_po o FULL JOIN gx_pi i ON o.k = i.k');
RESET gpuext.force;

-- every parallel join type, rows and counts
SELECT gx_pjcheck('SELECT o.id, i.id, i.v FROM gx_po o JOIN gx_pi i ON o.k = i.k');
SELECT gx_pjcheck('SELECT o.id, i.v FROM gx_po o JOIN gx_pi i ON o.k = i.k WHERE o.a < 30 AND i.v > 2');
SELECT gx_pjcheck('SELECT o.id, i.id FROM gx_po o LEFT JOIN gx_pi i ON o.k = i.k');
SELECT gx_pjcheck('SELECT o.id FROM gx_po o WHERE EXISTS (SELECT 1 FROM gx_pi i WHERE i.k = o.k AND i.v < 5)');
SELECT gx_pjcheck('SELECT o.id FROM gx_po o WHERE NOT EXISTS (SELECT 1 FROM gx_pi i WHERE i.k = o.k)');
SELECT gx_pjcheck('SELECT count(*) FROM gx_po o JOIN gx_pi i ON o.k = i.k');
SELECT gx_pjcheck('SELECT count(*) FROM gx_po o LEFT JOIN gx_pi i ON o.k = i.k');
SELECT gx_pjcheck('SELECT count(*) FROM gx_po o WHERE EXISTS (SELECT 1 FROM gx_pi i WHERE i.k = o.k)');
SELECT gx_pjcheck('SELECT count(*), count(*) FROM gx_po o WHERE NOT EXISTS (SELECT 1 FROM gx_pi i WHERE i.k = o.k)');
-- two keys, float keys, host quals, an aggregate over the rows
SELECT gx_pjcheck('SELECT o.id, i.id FROM gx_po o JOIN gx_pi i ON o.k = i.k AND o.k2 = i.k2');
SELECT gx_pjcheck('SELECT o.id, i.id FROM gx_po o JOIN gx_pi i ON o.f = i.f WHERE o.a < 5');
SELECT gx_pjcheck('SELECT o.id, i.id FROM gx_po o JOIN gx_pi i ON o.k = i.k AND o.a > i.v * 5');
SELECT gx_pjcheck('SELECT i.v, sum(o.a), count(*) FROM gx_po o JOIN gx_pi i ON o.k = i.k GROUP BY i.v');
-- an empty inner side
SELECT gx_pjcheck('SELECT o.id FROM gx_po o JOIN gx_pempty e ON o.k = e.k');
SELECT gx_pjcheck('SELECT count(*) FROM gx_po o LEFT JOIN gx_pempty e ON o.k = e.k');
SELECT gx_pjcheck('SELECT o.id FROM gx_po o WHERE NOT EXISTS (SELECT 1 FROM gx_pempty e WHERE e.k = o.k)');
-- the merge join, and the range join (a band)
SET gpuext.enable_hashjoin = off;
SELECT gx_pjcheck('SELECT o.id, i.id FROM gx_po o JOIN gx_pi i ON o.k = i.k');
SELECT gx_pjcheck('SELECT count(*) FROM gx_po o WHERE EXISTS (SELECT 1 FROM gx_pi i WHERE i.k = o.k)');
RESET gpuext.enable_hashjoin;
SELECT gx_pjcheck('SELECT o.id, i.id FROM gx_po o JOIN gx_pi i ON i.k BETWEEN o.k AND o.k + 2 WHERE o.a = 7');
SELECT gx_pjcheck('SELECT count(*) FROM gx_po o WHERE EXISTS (SELECT 1 FROM gx_pi i WHERE i.k >= o.k AND i.k < o.k + 3)');
-- a parallel GpuJoin under a Gather in another GpuJoin's outer side:
-- its leader reads the outer side through the partial child (nested), and
-- so do its workers (not nested there: the device input is theirs to
-- turn off, else each would read the whole table)
CREATE TABLE gx_pn (n int4, r int4, name text);
INSERT INTO gx_pn SELECT g, g % 5, 'n' || g FROM generate_series(0, 24) g;
CREATE TABLE gx_pr (r int4, name text);
INSERT INTO gx_pr SELECT g, 'r' || g FROM generate_series(0, 4) g;
CREATE TABLE gx_pz (id int4, k int4);
INSERT INTO gx_pz SELECT g, g % 25 FROM generate_series(1, 50000) g;
VACUUM ANALYZE gx_pn, gx_pr, gx_pz;
SET max_parallel_workers_per_gather = 4;
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT count(*) FROM gx_pz z JOIN (SELECT n FROM gx_pn JOIN gx_pr ON gx_pn.r = gx_pr.r WHERE gx_pr.name = ''r2'') s ON z.k = s.n');
RESET gpuext.force;
SELECT gx_pjcheck('SELECT count(*) FROM gx_pz z JOIN (SELECT n FROM gx_pn JOIN gx_pr ON gx_pn.r = gx_pr.r WHERE gx_pr.name = ''r2'') s ON z.k = s.n');
SELECT gx_pjcheck('SELECT z.id, s.n FROM gx_pz z JOIN (SELECT n FROM gx_pn JOIN gx_pr ON gx_pn.r = gx_pr.r WHERE gx_pr.name = ''r2'') s ON z.k = s.n');
RESET max_parallel_workers_per_gather;
SET max_parallel_workers_per_gather = 2;
DROP TABLE gx_pn, gx_pr, gx_pz;
-- the outer side through its partial child (no device input)
SET gpuext.join_device_inputs = off;
SELECT gx_pjcheck('SELECT o.id, i.id FROM gx_po o JOIN gx_pi i ON o.k = i.k');
SELECT gx_pjcheck('SELECT count(*) FROM gx_po o WHERE NOT EXISTS (SELECT 1 FROM gx_pi i WHERE i.k = o.k)');
RESET gpuext.join_device_inputs;
-- the leader does not probe
SET parallel_leader_participation = off;
SELECT gx_pjcheck('SELECT o.id, i.v FROM gx_po o JOIN gx_pi i ON o.k = i.k');
SELECT gx_pjcheck('SELECT count(*) FROM gx_po o JOIN gx_pi i ON o.k = i.k');
RESET parallel_leader_participation;
-- no table (gpuext.session_memory): every process runs the fallback Hash Join
SET gpuext.session_memory = 64;
SELECT gx_pjcheck('SELECT o.id, i.id FROM gx_po o JOIN gx_pi i ON o.k = i.k');
SELECT gx_pjcheck('SELECT count(*) FROM gx_po o JOIN gx_pi i ON o.k = i.k');
SET gpuext.force = on;
SELECT * FROM gx_pjexplain('SELECT count(*) FROM gx_po o JOIN gx_pi i ON o.k = i.k');
RESET gpuext.force;
RESET gpuext.session_memory;

-- rescans of the Gather (a correlated subplan whose parameter is used
-- only above it, a nested loop): the leader keeps the table (Table
-- Builds: 1 over the loops) and shares it again, rows and counts
SET enable_material = off;
SELECT gx_pjcheck('SELECT x, (SELECT count(*) FROM gx_po o JOIN gx_pi i ON o.k = i.k HAVING count(*) > x * 10000) FROM generate_series(1, 4) x');
SELECT gx_pjcheck('SELECT x, (SELECT sum(o.id) FROM gx_po o JOIN gx_pi i ON o.k = i.k HAVING sum(o.id) > x) FROM generate_series(1, 3) x');
SELECT gx_pjcheck('SELECT x, (SELECT count(*) FROM gx_po o WHERE NOT EXISTS (SELECT 1 FROM gx_pi i WHERE i.k = o.k) HAVING count(*) > x) FROM generate_series(1, 3) x');
SELECT gx_pjcheck('SELECT * FROM (SELECT count(*) FROM gx_po o JOIN gx_pi i ON o.k = i.k) ss RIGHT JOIN (VALUES (1), (2), (3)) v(x) ON true');
SET gpuext.force = on;
SELECT * FROM gx_pjexplain('SELECT x, (SELECT sum(o.id) FROM gx_po o JOIN gx_pi i ON o.k = i.k HAVING sum(o.id) > x) FROM generate_series(1, 3) x');
RESET gpuext.force;
SET parallel_leader_participation = off;
SELECT gx_pjcheck('SELECT x, (SELECT sum(o.id) FROM gx_po o JOIN gx_pi i ON o.k = i.k HAVING sum(o.id) > x) FROM generate_series(1, 3) x');
RESET parallel_leader_participation;
RESET enable_material;

-- gpuext.enable_parallel_join off: serial GpuJoins only
SET gpuext.enable_parallel_join = off;
SELECT gx_pjcheck('SELECT o.id, i.v FROM gx_po o JOIN gx_pi i ON o.k = i.k');
RESET gpuext.enable_parallel_join;

DROP TABLE gx_po, gx_pi, gx_pempty;
DROP FUNCTION gx_pjcheck(text);
DROP FUNCTION gx_par_join(text);
DROP FUNCTION gx_pjexplain(text);
