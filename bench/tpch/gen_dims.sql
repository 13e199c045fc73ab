-- bench/tpch/gen_dims.sql - the small TPC-H tables of bench/tpch/gen.sh:
-- region and nation (fixed, TPC-H spec 4.2.3), customer (:custs rows,
-- SF x 150000) and supplier (:supps rows, SF x 10000), in one session
-- beside the sessions of gen_batch.sql.  psql variables (set by gen.sh):
-- custs, supps.
--
-- As in gen_batch.sql every value is a deterministic pseudo-random
-- function of the key: r(k, s) = hashint8extended(k, s) & 0x7fffffff,
-- with seeds 31.. (customer) and 51.. (supplier).  Distributions (spec
-- 4.2.3; "text" and v-strings are not the spec's grammar, only its
-- lengths):
--   c_custkey      1..custs (unique); c_name 'Customer#' + 9 digits
--   c_address      v-string of 10..40 characters (base64 of a hash)
--   c_nationkey    uniform in 0..24
--   c_phone        'CC-LLL-LLL-LLLL': CC = nationkey + 10, the local
--                  parts uniform in 100..999, 100..999, 1000..9999
--   c_acctbal      uniform in -999.99 .. 9999.99
--   c_mktsegment   uniform of AUTOMOBILE, BUILDING, FURNITURE, MACHINERY,
--                  HOUSEHOLD
--   c_comment      29..116 characters of a fixed text of TPC-H words
--   s_suppkey      1..supps; s_name 'Supplier#' + 9 digits; s_address,
--                  s_nationkey, s_phone, s_acctbal as the customer's;
--                  s_comment 25..100 characters
--   n_nationkey, n_name, n_regionkey; r_regionkey, r_name: the spec's 25
--                  nations and 5 regions; n_comment / r_comment a slice of
--                  the text (31..114 / 31..115 characters)
-- (Customers whose key is a multiple of 3 have no orders: gen_batch.sql's
-- o_custkey never takes those keys.)
\set words 'furiously regular deposits sleep carefully quickly final ideas haggle blithely ironic packages among the slyly even accounts nag fluffily bold requests cajole pending theodolites use above the express pinto beans boost dependencies wake silent instructions detect unusual foxes integrate according to the special asymptotes '

INSERT INTO region
SELECT k, name, substr(:'words', 1 + k::int * 17, 31 + k::int * 19)
FROM (VALUES (0, 'AFRICA'), (1, 'AMERICA'), (2, 'ASIA'), (3, 'EUROPE'), (4, 'MIDDLE EAST')) AS r(k, name);

INSERT INTO nation
SELECT k, name, rk, substr(:'words', 1 + k::int * 7, 31 + (k::int * 37) % 84)
FROM (VALUES (0, 'ALGERIA', 0), (1, 'ARGENTINA', 1), (2, 'BRAZIL', 1), (3, 'CANADA', 1),
             (4, 'EGYPT', 4), (5, 'ETHIOPIA', 0), (6, 'FRANCE', 3), (7, 'GERMANY', 3),
             (8, 'INDIA', 2), (9, 'INDONESIA', 2), (10, 'IRAN', 4), (11, 'IRAQ', 4),
             (12, 'JAPAN', 2), (13, 'JORDAN', 4), (14, 'KENYA', 0), (15, 'MOROCCO', 0),
             (16, 'MOZAMBIQUE', 0), (17, 'PERU', 1), (18, 'CHINA', 2), (19, 'ROMANIA', 3),
             (20, 'SAUDI ARABIA', 4), (21, 'VIETNAM', 2), (22, 'RUSSIA', 3),
             (23, 'UNITED KINGDOM', 3), (24, 'UNITED STATES', 1)) AS n(k, name, rk);

INSERT INTO customer
SELECT k,
       'Customer#' || lpad(k::text, 9, '0'),
       substr(encode(sha256(int8send(k)), 'base64'), 1, 10 + ((hashint8extended(k, 31) & 2147483647) % 31)::int),
       nk,
       (nk + 10) || '-' || (100 + (hashint8extended(k, 32) & 2147483647) % 900)
                 || '-' || (100 + (hashint8extended(k, 33) & 2147483647) % 900)
                 || '-' || (1000 + (hashint8extended(k, 34) & 2147483647) % 9000),
       (((hashint8extended(k, 35) & 2147483647) % 1099999 - 99999) / 100.0)::numeric(15,2),
       (ARRAY['AUTOMOBILE', 'BUILDING', 'FURNITURE', 'MACHINERY', 'HOUSEHOLD'])[1 + (hashint8extended(k, 36) & 2147483647) % 5],
       substr(:'words', 1 + ((hashint8extended(k, 37) & 2147483647) % 180)::int,
              29 + ((hashint8extended(k, 38) & 2147483647) % 88)::int)
FROM (SELECT k, (hashint8extended(k, 30) & 2147483647) % 25 AS nk
      FROM generate_series(1, :custs::int8) AS k) AS c;

INSERT INTO supplier
SELECT k,
       'Supplier#' || lpad(k::text, 9, '0'),
       substr(encode(sha256(int8send(-k)), 'base64'), 1, 10 + ((hashint8extended(k, 51) & 2147483647) % 31)::int),
       nk,
       (nk + 10) || '-' || (100 + (hashint8extended(k, 52) & 2147483647) % 900)
                 || '-' || (100 + (hashint8extended(k, 53) & 2147483647) % 900)
                 || '-' || (1000 + (hashint8extended(k, 54) & 2147483647) % 9000),
       (((hashint8extended(k, 55) & 2147483647) % 1099999 - 99999) / 100.0)::numeric(15,2),
       substr(:'words', 1 + ((hashint8extended(k, 57) & 2147483647) % 180)::int,
              25 + ((hashint8extended(k, 58) & 2147483647) % 76)::int)
FROM (SELECT k, (hashint8extended(k, 50) & 2147483647) % 25 AS nk
      FROM generate_series(1, :supps::int8) AS k) AS s;
