--
-- mvcc: GpuScan sees exactly what the snapshot sees: rows inserted,
-- updated and deleted by committed, aborted, in-progress (prepared)
-- transactions and by the same transaction, its subtransactions and
-- cursors.  Concurrent sessions (REPEATABLE READ, EvalPlanQual) are in
-- the isolation spec specs/mvcc_concurrent.spec.
--

CREATE TABLE gx_vis (id int4, v int4, f float8);
INSERT INTO gx_vis SELECT g, g % 100, g / 8.0 FROM generate_series(1, 10000) g;
-- half of the pages all-visible, half not
VACUUM gx_vis;
INSERT INTO gx_vis SELECT g, g % 100, g / 8.0 FROM generate_series(10001, 20000) g;
SELECT gx_check('SELECT id FROM gx_vis WHERE v = 7');

-- committed changes
UPDATE gx_vis SET v = -v WHERE id % 10 = 7;
DELETE FROM gx_vis WHERE id % 10 = 3;
INSERT INTO gx_vis SELECT g, 7, 0 FROM generate_series(20001, 20100) g;
SELECT gx_check('SELECT id, v FROM gx_vis WHERE v = 7 OR v = -7');

-- aborted changes are invisible, and so are rows of aborted subtransactions
BEGIN;
INSERT INTO gx_vis SELECT g, 7, 1 FROM generate_series(30001, 30500) g;
UPDATE gx_vis SET v = 7 WHERE id % 10 = 1;
DELETE FROM gx_vis WHERE v = -7;
ROLLBACK;
SELECT gx_check('SELECT id, v FROM gx_vis WHERE v = 7 OR v = -7');
BEGIN;
SAVEPOINT a;
UPDATE gx_vis SET v = 1000 WHERE id % 10 = 1;
ROLLBACK TO SAVEPOINT a;
SAVEPOINT b;
DELETE FROM gx_vis WHERE id % 10 = 2;
RELEASE SAVEPOINT b;
SELECT gx_check('SELECT id, v FROM gx_vis WHERE v = 1000 OR id % 10 = 2 OR id % 100 = 1');
ROLLBACK;

-- changes of the same transaction are visible to it
BEGIN;
INSERT INTO gx_vis SELECT g, 5000, 2 FROM generate_series(40001, 40300) g;
UPDATE gx_vis SET v = 5000 WHERE id % 1000 = 1;
DELETE FROM gx_vis WHERE id % 1000 = 5 AND v = 5;
SELECT gx_check('SELECT id FROM gx_vis WHERE v = 5000');
SELECT gx_check('SELECT id FROM gx_vis WHERE v = 5');
-- a cursor keeps the snapshot (command id) it was opened with
SET LOCAL gpuext.force = on;
DECLARE c CURSOR FOR SELECT count(*) FROM gx_vis WHERE v = 5000;
UPDATE gx_vis SET v = 5000 WHERE id % 1000 = 2;
FETCH ALL FROM c;
SELECT count(*) FROM gx_vis WHERE v = 5000;
SET LOCAL gpuext.enabled = off;
SELECT count(*) FROM gx_vis WHERE v = 5000;
ROLLBACK;

-- an in-progress transaction (prepared, so it outlives this session's
-- statements) hides its inserts and still shows the rows it deletes
BEGIN;
INSERT INTO gx_vis SELECT g, 6000, 3 FROM generate_series(50001, 50200) g;
UPDATE gx_vis SET v = 6000 WHERE id % 1000 = 9;
DELETE FROM gx_vis WHERE v = 8;
PREPARE TRANSACTION 'gx_mvcc';
SELECT gx_check('SELECT id FROM gx_vis WHERE v = 6000');
SELECT gx_check('SELECT id FROM gx_vis WHERE v = 8');
SELECT gx_check('SELECT id FROM gx_vis WHERE v = 9 OR id % 1000 = 9');
COMMIT PREPARED 'gx_mvcc';
SELECT gx_check('SELECT id FROM gx_vis WHERE v = 6000');
SELECT gx_check('SELECT id FROM gx_vis WHERE v = 8');

-- the same with the prepared transaction rolled back
BEGIN;
DELETE FROM gx_vis WHERE v = 9;
UPDATE gx_vis SET f = -f WHERE v = 11;
PREPARE TRANSACTION 'gx_mvcc2';
SELECT gx_check('SELECT id FROM gx_vis WHERE v = 9 OR f < 0');
ROLLBACK PREPARED 'gx_mvcc2';
SELECT gx_check('SELECT id FROM gx_vis WHERE v = 9 OR f < 0');

-- REPEATABLE READ and SERIALIZABLE snapshots of this session
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT gx_check('SELECT id FROM gx_vis WHERE v = 6000');
UPDATE gx_vis SET v = 6001 WHERE v = 6000 AND id % 2 = 0;
SELECT gx_check('SELECT id, v FROM gx_vis WHERE v >= 6000');
COMMIT;
BEGIN ISOLATION LEVEL SERIALIZABLE;
SELECT gx_check('SELECT id, v FROM gx_vis WHERE v >= 6000');
COMMIT;

-- after VACUUM (all pages all-visible) and after VACUUM FULL
VACUUM gx_vis;
SELECT gx_check('SELECT id, v FROM gx_vis WHERE v >= 6000 OR v = -7');
VACUUM FULL gx_vis;
SELECT gx_check('SELECT id, v FROM gx_vis WHERE v >= 6000 OR v = -7');
TRUNCATE gx_vis;
SELECT gx_check('SELECT id FROM gx_vis WHERE v > 0');
