-- bench/tpch/schema.sql - the two TPC-H tables of bench/tpch.sh (Q1, Q6),
-- with the spec's column types; no keys or indexes (the queries scan).
-- (Re)created by bench/tpch/gen.sh before it loads them.
SET client_min_messages = warning;   -- no NOTICE for the first DROP
DROP TABLE IF EXISTS lineitem;
DROP TABLE IF EXISTS orders;

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
