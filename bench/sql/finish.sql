-- bench/sql/finish.sql: primary key, all-visible pages, statistics
-- (psql -v rows=N records the row count in the table comment).
SET maintenance_work_mem = '1GB';
ALTER TABLE tablet ADD PRIMARY KEY (id);
ALTER TABLE tablet SET (parallel_workers = 8);
VACUUM (FREEZE, ANALYZE) tablet;
\set gx_comment rows= :rows
COMMENT ON TABLE tablet IS :'gx_comment';
