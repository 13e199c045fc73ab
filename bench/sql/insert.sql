-- bench/sql/insert.sql: rows :lo .. :hi of tablet (psql -v lo=.. -v hi=..).
-- Normal values by Box-Muller from random(); 1 - random() is in (0, 1].
INSERT INTO tablet
SELECT g,
       floor(random() * 201)::int4 - 100,
       round(5 * z1)::int4,
       round(20 * z2)::int4,
       (random() * 200 - 100)::float4,
       (5 * z3)::float4,
       (20 * z4)::float4
FROM (SELECT g,
             sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()) AS z1,
             sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()) AS z2,
             sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()) AS z3,
             sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()) AS z4
      FROM generate_series(:lo::int, :hi::int) AS g) AS s;
