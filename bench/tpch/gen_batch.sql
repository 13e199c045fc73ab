-- bench/tpch/gen_batch.sql - one batch of the TPC-H-style generator of
-- bench/tpch/gen.sh: the orders of index :lo .. :hi (1-based order
-- numbers) and their lineitems, in one statement.  psql variables (set by
-- gen.sh): lo, hi, parts (SF x 200000), supps (SF x 10000), custs
-- (SF x 150000), clerks (SF x 1000).  customer, supplier, nation and
-- region: gen_dims.sql.
--
-- Every value is a deterministic pseudo-random function of the row
-- number: r(k, s) = hashint8extended(k, s) & 0x7fffffff, k the order
-- number (order columns) or order number x 8 + line number (lineitem
-- columns), s a fixed seed per column; so the data is the same whatever
-- the batches and sessions.  Distributions (TPC-H spec 4.2.3):
--   o_orderkey     sparse: of each 32 keys the first 8 are used
--   o_custkey      uniform over the keys of 1..custs that are not a
--                  multiple of 3 (the j-th of them, j uniform in
--                  0..custs - custs/3 - 1: 3 (j / 2) + j mod 2 + 1)
--   o_orderdate    uniform in [1992-01-01, 1998-12-31 - 151 days]
--   lineitems      1..7 per order (uniform)
--   l_partkey      uniform in 1..parts; l_suppkey from it as the spec's
--                  PARTSUPP formula, corr 0..3 uniform
--   l_quantity     1..50, l_discount 0.00..0.10, l_tax 0.00..0.08
--   l_extendedprice l_quantity x the part's retail price,
--                  (90000 + ((partkey/10) mod 20001) + 100 (partkey mod 1000)) / 100
--   l_shipdate     o_orderdate + 1..121, l_commitdate o_orderdate + 30..90,
--   l_receiptdate  l_shipdate + 1..30
--   l_returnflag   R or A (50/50) when l_receiptdate <= 1995-06-17, else N
--   l_linestatus   O when l_shipdate > 1995-06-17, else F
--   o_orderstatus  F when all its lineitems are F, O when all are O, else P
--   o_totalprice   sum(l_extendedprice x (1 + l_tax) x (1 - l_discount)),
--                  rounded to cents
--   comments       a slice of a fixed text of TPC-H words (orders 19..78
--                  characters, lineitem 10..43), not the spec's grammar
-- The lineitems are materialized once (CTE li): the INSERT into lineitem
-- (a data-modifying CTE) and the aggregate for orders read them.
WITH o AS (
    SELECT i,
           ((i - 1) / 8) * 32 + (i - 1) % 8 + 1 AS okey,
           date '1992-01-01'
             + ((hashint8extended(i, 1) & 2147483647)
                % (date '1998-12-31' - 151 - date '1992-01-01' + 1))::int AS odate,
           1 + (hashint8extended(i, 2) & 2147483647) % 7 AS nlines
    FROM generate_series(:lo::int8, :hi::int8) AS i
), b AS (
    SELECT o.i, o.okey, o.odate, l.ln,
           1 + (hashint8extended(o.i * 8 + l.ln, 11) & 2147483647) % :parts AS pk,
           (hashint8extended(o.i * 8 + l.ln, 12) & 2147483647) % 4 AS corr,
           1 + (hashint8extended(o.i * 8 + l.ln, 13) & 2147483647) % 50 AS qty,
           (hashint8extended(o.i * 8 + l.ln, 14) & 2147483647) % 11 AS disc,
           (hashint8extended(o.i * 8 + l.ln, 15) & 2147483647) % 9 AS tax,
           o.odate + 1 + ((hashint8extended(o.i * 8 + l.ln, 16) & 2147483647) % 121)::int AS sdate,
           o.odate + 30 + ((hashint8extended(o.i * 8 + l.ln, 17) & 2147483647) % 61)::int AS cdate,
           1 + ((hashint8extended(o.i * 8 + l.ln, 18) & 2147483647) % 30)::int AS rdays,
           (hashint8extended(o.i * 8 + l.ln, 19) & 2147483647) % 2 AS ra,
           (hashint8extended(o.i * 8 + l.ln, 20) & 2147483647) AS r21,
           (hashint8extended(o.i * 8 + l.ln, 21) & 2147483647) AS r22
    FROM o CROSS JOIN LATERAL generate_series(1, o.nlines::int) AS l(ln)
), li AS MATERIALIZED (
    SELECT b.i, b.okey, b.odate,
           b.okey AS l_orderkey,
           b.pk AS l_partkey,
           (b.pk + b.corr * (:supps / 4 + (b.pk - 1) / :supps)) % :supps + 1 AS l_suppkey,
           b.ln AS l_linenumber,
           b.qty::numeric(15,2) AS l_quantity,
           (b.qty * (90000 + (b.pk / 10) % 20001 + 100 * (b.pk % 1000)) / 100.0)::numeric(15,2) AS l_extendedprice,
           (b.disc / 100.0)::numeric(15,2) AS l_discount,
           (b.tax / 100.0)::numeric(15,2) AS l_tax,
           CASE WHEN b.sdate + b.rdays <= date '1995-06-17'
                THEN (CASE WHEN b.ra = 0 THEN 'R' ELSE 'A' END)
                ELSE 'N' END AS l_returnflag,
           CASE WHEN b.sdate > date '1995-06-17' THEN 'O' ELSE 'F' END AS l_linestatus,
           b.sdate AS l_shipdate,
           b.cdate AS l_commitdate,
           b.sdate + b.rdays AS l_receiptdate,
           (ARRAY['DELIVER IN PERSON', 'COLLECT COD', 'NONE', 'TAKE BACK RETURN'])[1 + b.r21 % 4] AS l_shipinstruct,
           (ARRAY['REG AIR', 'AIR', 'RAIL', 'SHIP', 'TRUCK', 'MAIL', 'FOB'])[1 + (b.r21 / 4) % 7] AS l_shipmode,
           substr('furiously regular deposits sleep carefully quickly final ideas haggle blithely ironic packages '
                  'among the slyly even accounts nag fluffily bold requests cajole pending theodolites use above the '
                  'express pinto beans boost dependencies wake silent instructions detect unusual foxes',
                  1 + (b.r22 % 200)::int, 10 + ((b.r22 / 200) % 34)::int) AS l_comment
    FROM b
), ins AS (
    INSERT INTO lineitem
    SELECT l_orderkey, l_partkey, l_suppkey, l_linenumber, l_quantity, l_extendedprice,
           l_discount, l_tax, l_returnflag, l_linestatus, l_shipdate, l_commitdate,
           l_receiptdate, l_shipinstruct, l_shipmode, l_comment
    FROM li
)
INSERT INTO orders
SELECT li.okey,
       3 * (c.cj / 2) + c.cj % 2 + 1,
       CASE WHEN bool_and(li.l_linestatus = 'F') THEN 'F'
            WHEN bool_and(li.l_linestatus = 'O') THEN 'O'
            ELSE 'P' END,
       round(sum(li.l_extendedprice * (1 + li.l_tax) * (1 - li.l_discount)), 2),
       li.odate,
       (ARRAY['1-URGENT', '2-HIGH', '3-MEDIUM', '4-NOT SPECIFIED', '5-LOW'])[1 + (hashint8extended(li.i, 4) & 2147483647) % 5],
       'Clerk#' || lpad((1 + (hashint8extended(li.i, 5) & 2147483647) % :clerks)::text, 9, '0'),
       0,
       substr('carefully final requests sleep slyly ironic deposits wake blithely among the pending accounts '
              'haggle furiously regular packages cajole quickly even theodolites nag bold ideas integrate '
              'express foxes use silent instructions boost unusual dependencies detect above the pinto beans',
              1 + ((hashint8extended(li.i, 6) & 2147483647) % 180)::int,
              19 + ((hashint8extended(li.i, 7) & 2147483647) % 60)::int)
FROM li
CROSS JOIN LATERAL (SELECT (hashint8extended(li.i, 3) & 2147483647) % (:custs - :custs / 3) AS cj) AS c
GROUP BY li.i, li.okey, li.odate, c.cj;
