-- bench/sql/create.sql: the Tablet paper's test table (primary key added
-- after the parallel load by finish.sql).
DROP TABLE IF EXISTS tablet;
CREATE TABLE tablet (
    id   int NOT NULL,
    ui   int4,      -- uniform integer on [-100, 100]
    ni5  int4,      -- normal, sigma 5, rounded
    ni20 int4,      -- normal, sigma 20, rounded
    uf   float4,    -- uniform on [-100, 100)
    nf5  float4,    -- normal, sigma 5
    nf20 float4     -- normal, sigma 20
);
