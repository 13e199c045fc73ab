--
-- engine: sessions, device-resident objects and device memory, and what
-- happens on errors, cancels, backend exits, pool exhaustion and device
-- faults.  The device aggregates are the engine's first stateful
-- operator: their state object lives on the device in the scan's session.
--
CREATE TABLE eng (id int4, a int4, b int8);
INSERT INTO eng SELECT g, g % 100, g FROM generate_series(1, 200000) g;
VACUUM ANALYZE eng;

-- device memory held by sessions, and sessions other than ours, once the
-- service has freed what closed sessions held (it does so right after)
CREATE FUNCTION gx_engine_idle(OUT session_bytes bigint, OUT sessions bigint)
LANGUAGE plpgsql AS $$
BEGIN
    FOR i IN 1 .. 500 LOOP
        SELECT coalesce(sum(bytes), 0) INTO session_bytes FROM gpuext_memory WHERE owner = 'sessions';
        SELECT count(*) INTO sessions FROM gpuext_sessions;
        EXIT WHEN session_bytes = 0 AND sessions = 0;
        PERFORM pg_sleep(0.01);
    END LOOP;
END $$;

-- the views
SELECT owner FROM gpuext_memory WHERE device = 'cpu' ORDER BY owner;
SELECT * FROM gx_engine_idle();

-- an aggregate keeps its state on the device: one object per scan, freed
-- when the scan's session closes
SET gpuext.force = on;
SELECT * FROM gx_explain('SELECT count(*), sum(a), count(b) FROM eng WHERE a > 10');
SELECT gx_check('SELECT count(*), sum(a), count(b) FROM eng WHERE a > 10');
SELECT gx_check('SELECT sum(a) FROM eng WHERE a > 1000');
SELECT * FROM gx_engine_idle();

-- a cursor holds its session, with the object, until it is closed
BEGIN;
DECLARE c CURSOR FOR SELECT sum(a), count(b) FROM eng WHERE a < 50;
FETCH c;
SELECT state, objects, bytes, pid = pg_backend_pid() AS mine FROM gpuext_sessions;
CLOSE c;
COMMIT;
SELECT * FROM gx_engine_idle();

-- a row-returning scan opens a session without objects
BEGIN;
DECLARE r CURSOR FOR SELECT id FROM eng WHERE a = 7 ORDER BY id;
FETCH 2 FROM r;
SELECT state, objects, bytes FROM gpuext_sessions;
COMMIT;
SELECT * FROM gx_engine_idle();

-- an error in a query closes its sessions
SELECT sum(a) FROM eng WHERE 10 / (a - 50) > 0;
SELECT * FROM gx_engine_idle();
-- ... also inside a subtransaction that goes on
DO $$
BEGIN
    PERFORM sum(a) FROM eng WHERE 10 / (a - 50) > 0;
EXCEPTION WHEN division_by_zero THEN
    RAISE NOTICE 'caught: %', SQLERRM;
END $$;
SELECT * FROM gx_engine_idle();
-- an error after the aggregate finished, while its session is still open
SELECT (SELECT sum(a) FROM eng WHERE a > 5) / 0;
SELECT * FROM gx_engine_idle();

-- a cancel
SELECT pg_cancel_backend(pg_backend_pid()), (SELECT sum(a) FROM eng WHERE a > 1);
SELECT * FROM gx_engine_idle();

-- a backend that exits with a session open (a cursor)
BEGIN;
DECLARE x CURSOR FOR SELECT sum(a) FROM eng WHERE a > 3;
FETCH x;
\c
SET gpuext.force = on;
SELECT * FROM gx_engine_idle();

-- device memory exhausted: a clear error, and other queries go on
SET gpuext.session_memory = '4kB';
SELECT sum(a) FROM eng WHERE a > 3;
SELECT gx_check('SELECT id FROM eng WHERE a = 3 AND id < 1000');
RESET gpuext.session_memory;
SELECT gx_check('SELECT sum(a) FROM eng WHERE a > 3');
SELECT * FROM gx_engine_idle();

-- a parallel query: the leader and its workers name one session and one
-- state object; the last process to finish returns the only partial row
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SELECT * FROM gx_explain('SELECT sum(a), count(b), count(*) FROM eng WHERE a > 20');
SELECT line FROM gx_explain('SELECT sum(a), count(b), count(*) FROM eng WHERE a > 20',
                            'ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF') AS line
WHERE line ~ 'Gather|Finalize';
SELECT gx_check('SELECT sum(a), count(b), count(*) FROM eng WHERE a > 20');
SELECT gx_check('SELECT sum(b) FILTER (WHERE true), min(id) FROM eng WHERE a > 20');
-- rescans of a parallel aggregate (a correlated subquery)
SELECT gx_check('SELECT k, (SELECT sum(a) FROM eng WHERE a > k) FROM generate_series(95, 97) k');
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SELECT * FROM gx_engine_idle();

-- faults (gpuext.debug_fault, superuser): the next task fails, the service
-- exits while it runs, or the device fails; the query gets a clean
-- error, the backend stays usable, the next query is right
SET gpuext.debug_fault = task_error;
SELECT count(*) FROM eng WHERE a = 5;
SELECT gx_check('SELECT count(*) FROM eng WHERE a = 5');
SET gpuext.debug_fault = service_exit;
SELECT count(*) FROM eng WHERE a = 6;
SELECT gx_check('SELECT count(*) FROM eng WHERE a = 6');
SET gpuext.debug_fault = device_error;
SELECT sum(a) FROM eng WHERE a = 7;
SELECT gx_check('SELECT sum(a) FROM eng WHERE a = 7');
RESET gpuext.debug_fault;
SELECT * FROM gx_engine_idle();
-- only superusers inject faults
CREATE ROLE gx_engine_user;
SET ROLE gx_engine_user;
SET gpuext.debug_fault = task_error;
RESET ROLE;
DROP ROLE gx_engine_user;

RESET gpuext.force;
DROP TABLE eng;
DROP FUNCTION gx_engine_idle();
