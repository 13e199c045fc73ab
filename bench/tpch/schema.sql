-- bench/tpch/schema.sql - the TPC-H tables of bench/tpch.sh (Q1, Q6:
-- lineitem) and bench/tpch_join.sh (Q3, Q5, Q10, Q12: customer, orders,
-- lineitem, supplier, nation, region), with the spec's column types
-- (identifiers int8, fixed text char(n), variable text varchar(n), decimals
-- numeric(15,2)); no keys or indexes (the queries scan; the joins hash).
-- part and partsupp are not generated (no query here reads them).
-- (Re)created by bench/tpch/gen.sh before it loads them.
SET client_min_messages = warning;   -- no NOTICE for the first DROP
DROP TABLE IF EXISTS lineitem;
DROP TABLE IF EXISTS orders;
DROP TABLE IF EXISTS customer;
DROP TABLE IF EXISTS supplier;
DROP TABLE IF EXISTS nation;
DROP TABLE IF EXISTS region;

CREATE TABLE orders (
    o_orderkey      int8          NOT NULL,
    o_custkey       int8          NOT NULL,
    o_orderstatus   char(1)       NOT NULL,
    o_totalprice    numeric(15,2) NOT NULL,
    o_orderdate     date          NOT NULL,
    o_orderpriority char(15)      NOT NULL,
    o_clerk         char(15)      NOT NULL,
    o_shippriority  int4          NOT NULL,
    o_comment       varchar(79)   NOT NULL
);

CREATE TABLE lineitem (
    l_orderkey      int8          NOT NULL,
    l_partkey       int8          NOT NULL,
    l_suppkey       int8          NOT NULL,
    l_linenumber    int4          NOT NULL,
    l_quantity      numeric(15,2) NOT NULL,
    l_extendedprice numeric(15,2) NOT NULL,
    l_discount      numeric(15,2) NOT NULL,
    l_tax           numeric(15,2) NOT NULL,
    l_returnflag    char(1)       NOT NULL,
    l_linestatus    char(1)       NOT NULL,
    l_shipdate      date          NOT NULL,
    l_commitdate    date          NOT NULL,
    l_receiptdate   date          NOT NULL,
    l_shipinstruct  char(25)      NOT NULL,
    l_shipmode      char(10)      NOT NULL,
    l_comment       varchar(44)   NOT NULL
);

CREATE TABLE customer (
    c_custkey       int8          NOT NULL,
    c_name          varchar(25)   NOT NULL,
    c_address       varchar(40)   NOT NULL,
    c_nationkey     int8          NOT NULL,
    c_phone         char(15)      NOT NULL,
    c_acctbal       numeric(15,2) NOT NULL,
    c_mktsegment    char(10)      NOT NULL,
    c_comment       varchar(117)  NOT NULL
);

CREATE TABLE supplier (
    s_suppkey       int8          NOT NULL,
    s_name          char(25)      NOT NULL,
    s_address       varchar(40)   NOT NULL,
    s_nationkey     int8          NOT NULL,
    s_phone         char(15)      NOT NULL,
    s_acctbal       numeric(15,2) NOT NULL,
    s_comment       varchar(101)  NOT NULL
);

CREATE TABLE nation (
    n_nationkey     int8          NOT NULL,
    n_name          char(25)      NOT NULL,
    n_regionkey     int8          NOT NULL,
    n_comment       varchar(152)  NOT NULL
);

CREATE TABLE region (
    r_regionkey     int8          NOT NULL,
    r_name          char(25)      NOT NULL,
    r_comment       varchar(152)  NOT NULL
);
