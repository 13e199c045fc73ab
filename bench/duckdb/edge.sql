-- bench/duckdb/edge.sql: rows near the thresholds of the float queries, where
-- float4 and float8 arithmetic give different answers, and negative int4
-- division (for bench/duckdb/check.sh; appended to a tablet made by
-- bench/sql/create.sql + insert.sql with ids 1 .. 200000).
-- q4: uf * 2 + nf5 ~ 195
INSERT INTO tablet
SELECT 200000 + g, (g % 201) - 100, (g % 21) - 10, (g % 81) - 40,
       u, (195 - 2 * u::float8 + k * 2 ^ (-20))::float4, (40 + (g % 7) * 0.001 + k * 2 ^ (-18))::float4
FROM (SELECT g, (90 + random() * 10)::float4 AS u, (g % 9) - 4 AS k FROM generate_series(1, 100000) g) s;
-- q6: nf20 * 3 - nf5 ~ 75
INSERT INTO tablet
SELECT 300000 + g, (g % 201) - 100, (g % 21) - 10, (g % 81) - 40,
       (random() * 200 - 100)::float4, (3 * n20::float8 - 75 + k * 2 ^ (-19))::float4, n20
FROM (SELECT g, (20 + random() * 20)::float4 AS n20, (g % 9) - 4 AS k FROM generate_series(1, 100000) g) s;
-- q8: uf + nf20 / 2 ~ 0
INSERT INTO tablet
SELECT 400000 + g, (g % 201) - 100, (g % 21) - 10, (g % 81) - 40,
       (-(n20::float8 / 2) + k * 2 ^ (-26))::float4, (random() * 10 - 5)::float4, n20
FROM (SELECT g, (random() * 80 - 40)::float4 AS n20, (g % 9) - 4 AS k FROM generate_series(1, 100000) g) s;
-- q10: nf20 * nf20 ~ 400
INSERT INTO tablet
SELECT 500000 + g, (g % 201) - 100, (g % 21) - 10, (g % 81) - 40,
       (random() * 200 - 100)::float4, (random() * 30 - 15)::float4,
       ((CASE WHEN g % 2 = 0 THEN 1 ELSE -1 END) * (20 + k * 2 ^ (-20)))::float4
FROM (SELECT g, (g % 9) - 4 AS k FROM generate_series(1, 100000) g) s;
-- negative int4 division (q7) and the literal thresholds themselves
INSERT INTO tablet
SELECT 600000 + g, (g % 201) - 100, (g % 21) - 10, -(g % 81),
       (ARRAY[41.5, 42.5, 97.5, -97.5, -90, 0, 41.49999, 42.50001])[1 + g % 8]::float4,
       (ARRAY[-0.5, 0.5, 2.5, 3.5, -10, 10, 2.4999998, 3.4999998])[1 + (g / 8) % 8]::float4,
       (ARRAY[0, 20, -20, 1e-3, -1e-3, 20.000002, 19.999998])[1 + (g / 64) % 7]::float4
FROM generate_series(1, 50000) g;
-- q8 with subnormals: float4 nf20 / 2 rounds (3 -> 2 units, ties to even),
-- float8 does not: uf + nf20 / 2 is -0.5 units in PostgreSQL, 0 in float4
-- (nf5 = 0 and uf > -90 keep q10 from multiplying nf20 * nf20, which
-- PostgreSQL reports as an underflow)
INSERT INTO tablet
SELECT 700000 + g, 0, 0, 0, (-2 * 1.4e-45::float4::float8)::float4, 0, (3 * 1.4e-45::float4::float8)::float4
FROM generate_series(1, 10) g;
