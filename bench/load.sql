-- bench/load.sql: single-session load of the tablet table.
--   psql -v rows=1000000 -f bench/load.sql
-- (bench/run.sh and bench/demo.sh load in parallel sessions instead,
--  through gx_load_tablet in test/lib.sh, with the same three files.)
\if :{?rows}
\else
\set rows 1000000
\endif
\set lo 1
\set hi :rows
\ir sql/create.sql
\ir sql/insert.sql
\ir sql/finish.sql
