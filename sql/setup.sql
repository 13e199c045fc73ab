--
-- setup: helpers of the differential regression suite, and shared tables.
--
-- Every data query of the suite goes through gx_check() (= gx_error()),
-- which runs it three ways: gpuext off (PostgreSQL's own plan), GpuScan
-- forced on the CPU device, and GpuScan forced on the configured device
-- (gpuext.device of the cluster: cpu in CI, gpu on the GPU host).  The
-- three results must be the same multiset of rows (or the same error);
-- the output says how many rows and whether the forced plan used GpuScan,
-- so the same expected files hold on every device.
--

-- the result of q as a sorted array of row texts (EXECUTE goes through CTAS)
CREATE FUNCTION gx_rows(q text) RETURNS text[] LANGUAGE plpgsql AS $$
DECLARE
    r text[];
BEGIN
    IF q ~* '^\s*EXECUTE\s' THEN
        EXECUTE 'CREATE TEMP TABLE gx_rows_tmp AS ' || q;
        SELECT coalesce(array_agg(t::text ORDER BY t::text), '{}') INTO r FROM gx_rows_tmp t;
        DROP TABLE gx_rows_tmp;
    ELSE
        EXECUTE format('SELECT coalesce(array_agg(t::text ORDER BY t::text), ''{}'') FROM (%s) t', q)
            INTO r;
    END IF;
    RETURN r;
END $$;

-- the gpuext node of q's plan: GpuPreAgg (GROUP BY on the device) if it
-- has one, else GpuScan if it has one, else 'no GpuScan'
CREATE FUNCTION gx_device_node(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    line text;
    node text := 'no GpuScan';
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        IF line LIKE '%Custom Scan (GpuPreAgg)%' THEN
            RETURN 'GpuPreAgg';
        ELSIF line LIKE '%Custom Scan (GpuScan)%' THEN
            node := 'GpuScan';
        END IF;
    END LOOP;
    RETURN node;
END $$;

-- does the plan of q run on the device (a GpuScan or a GpuPreAgg)?
CREATE FUNCTION gx_uses_gpuscan(q text) RETURNS bool LANGUAGE sql AS $$
    SELECT gx_device_node(q) <> 'no GpuScan'
$$;

-- how two sorted row arrays differ (first missing and first extra row)
CREATE FUNCTION gx_diff(ref text[], got text[]) RETURNS text LANGUAGE sql AS $$
    SELECT format('expected %s rows, got %s; missing %s; extra %s',
                  cardinality(ref), cardinality(got),
                  (SELECT min(x) FROM (SELECT unnest(ref) EXCEPT ALL SELECT unnest(got)) m(x)),
                  (SELECT min(x) FROM (SELECT unnest(got) EXCEPT ALL SELECT unnest(ref)) e(x)))
$$;

-- the devices q runs on with GpuScan forced: cpu, then the configured one
CREATE FUNCTION gx_devices() RETURNS text[] LANGUAGE sql AS $$
    SELECT CASE WHEN current_setting('gpuext.device') = 'cpu' THEN ARRAY['cpu']
                ELSE ARRAY['cpu', current_setting('gpuext.device')] END
$$;

-- run q: its row count and rows, or its error (SQLSTATE and message)
CREATE FUNCTION gx_try(q text, OUT summary text, OUT r text[]) LANGUAGE plpgsql AS $$
DECLARE
    st text;
    msg text;
BEGIN
    r := gx_rows(q);
    summary := format('%s rows', cardinality(r));
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
    summary := format('ERROR %s: %s', st, msg);
    r := NULL;
END $$;

-- differential check of a query that may fail: same rows or same error.
-- With q_on given, q runs with gpuext off and q_on with GpuScan forced
-- (two prepared statements of the same text: a cached plan keeps its GUCs)
CREATE FUNCTION gx_error(q text, q_on text DEFAULT NULL) RETURNS text LANGUAGE plpgsql
    SET gpuext.enabled = off SET gpuext.force = off AS $$
DECLARE
    configured text := current_setting('gpuext.device');
    ref record;
    got record;
    dev text;
    plan text;
BEGIN
    ref := gx_try(q);
    PERFORM set_config('gpuext.enabled', 'on', true);
    PERFORM set_config('gpuext.force', 'on', true);
    FOREACH dev IN ARRAY gx_devices() LOOP
        PERFORM set_config('gpuext.device', dev, true);
        got := gx_try(coalesce(q_on, q));
        IF got.summary IS DISTINCT FROM ref.summary OR got.r IS DISTINCT FROM ref.r THEN
            PERFORM set_config('gpuext.device', configured, true);
            RETURN format('MISMATCH on %s: off gave "%s", on gave "%s"%s', dev, ref.summary,
                          got.summary, CASE WHEN got.r IS NOT NULL AND ref.r IS NOT NULL
                                            THEN ': ' || gx_diff(ref.r, got.r) END);
        END IF;
    END LOOP;
    PERFORM set_config('gpuext.device', configured, true);
    plan := gx_device_node(coalesce(q_on, q));
    RETURN format('%s, %s', ref.summary, plan);
END $$;

-- differential check of a query: off vs forced GpuScan on each device
-- (an unexpected error is reported the same way, as the query's outcome)
CREATE FUNCTION gx_check(q text) RETURNS text LANGUAGE sql AS $$ SELECT gx_error(q) $$;

-- EXPLAIN q; "Device: GPU|CPU" reads "Device: (configured)" when it is the
-- configured device (auto accepts either), so plans compare across hosts
CREATE FUNCTION gx_explain(q text, opts text DEFAULT 'COSTS OFF') RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
    line text;
    want text := upper(current_setting('gpuext.device'));
    m text[];
    v numeric;
BEGIN
    -- the same lines on PostgreSQL 15 and 18: no buffer counts (18 shows
    -- them with ANALYZE by default), row counts as integers rounded half
    -- to even as 15 prints them (18 prints two decimals), an InitPlan and
    -- its value as 15 names them
    IF opts ~* 'ANALYZE' AND opts !~* 'BUFFERS' THEN
        opts := opts || ', BUFFERS OFF';
    END IF;
    FOR line IN EXECUTE format('EXPLAIN (%s) %s', opts, q) LOOP
        IF line ~ 'Device: (GPU|CPU)$' AND (want = 'AUTO' OR line LIKE '%Device: ' || want) THEN
            line := regexp_replace(line, 'Device: (GPU|CPU)$', 'Device: (configured)');
        END IF;
        WHILE line ~ 'rows=\d+\.\d+' LOOP
            v := (regexp_match(line, 'rows=(\d+\.\d+)'))[1]::numeric;
            v := CASE WHEN v - floor(v) = 0.5 AND floor(v)::bigint % 2 = 0 THEN floor(v)
                      ELSE round(v) END;
            line := regexp_replace(line, 'rows=\d+\.\d+', 'rows=' || v);
        END LOOP;
        CONTINUE WHEN line ~ '^\s*Params Evaluated: ';
        -- several devices (gpuext.cpu_devices, several GPUs): where chunks ran,
        -- a GpuJoin's probes and the copies of its table, and GpuPreAgg's
        -- merges of their group tables
        CONTINUE WHEN line ~ '^\s*Devices: ' OR line ~ '^\s*Device Chunks: ' OR
                      line ~ '^\s*Device Probe Tasks: ' OR line ~ '^\s*Table Replicas: ';
        CONTINUE WHEN line ~ '^\s*(Group Merges|Groups Merged|Groups Merged Without Room): ';
        -- (18: a Materialize's storage with ANALYZE)
        CONTINUE WHEN line ~ '^\s*Storage: \w+  Maximum Storage: ';
        line := regexp_replace(line, '^(\s*)InitPlan (\d+) \(returns [^)]*\)$', '\1InitPlan \2');
        WHILE line ~ '\(InitPlan \d+\)\.col1' LOOP
            m := regexp_match(line, '\(InitPlan (\d+)\)\.col1');
            line := regexp_replace(line, '\(InitPlan \d+\)\.col1', '$' || (m[1]::int - 1));
        END LOOP;
        RETURN NEXT line;
    END LOOP;
END $$;

-- does q (run with GpuScan forced) read cached chunks?  'cached' or 'not cached'
CREATE FUNCTION gx_cached(q text) RETURNS text LANGUAGE plpgsql
    SET gpuext.force = on AS $$
DECLARE
    line text;
    hit text := '0';
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
        IF line ~ 'Cached Chunks: ' THEN hit := substring(line from 'Cached Chunks: (\d+)'); END IF;
    END LOOP;
    RETURN CASE WHEN hit::int > 0 THEN 'cached' ELSE 'not cached' END;
END $$;

-- the shared data table: every device type, NULLs in every column, and
-- the special float and date values; text is for host-only quals
CREATE TABLE gx_num (
    id int4, i2 int2, i4 int4, i8 int8, f4 float4, f8 float8,
    b bool, d date, ts timestamp, tz timestamptz, t text);
INSERT INTO gx_num
SELECT g,
       CASE WHEN g % 17 = 0 THEN NULL ELSE (g * 7 % 201 - 100) END,
       CASE WHEN g % 19 = 0 THEN NULL ELSE (g * 13 % 2001 - 1000) END,
       CASE WHEN g % 23 = 0 THEN NULL ELSE (g::int8 * 7919 % 200001 - 100000) END,
       CASE WHEN g % 29 = 0 THEN NULL ELSE ((g * 37 % 2001 - 1000) / 8.0)::float4 END,
       CASE WHEN g % 31 = 0 THEN NULL ELSE ((g * 41 % 2001 - 1000) / 16.0)::float8 END,
       CASE WHEN g % 7 = 0 THEN NULL ELSE g % 3 = 0 END,
       CASE WHEN g % 11 = 0 THEN NULL ELSE date '2020-01-01' + (g * 3 % 1500) END,
       CASE WHEN g % 13 = 0 THEN NULL
            ELSE timestamp '2020-01-01' + (g * 7919 % 100000) * interval '1 minute' END,
       CASE WHEN g % 37 = 0 THEN NULL
            ELSE timestamptz '2020-01-01 00:00:00+00' + (g * 104729 % 1000000) * interval '1 second' END,
       'r' || g
FROM generate_series(1, 3000) g;
INSERT INTO gx_num VALUES
    (3001, 0, 0, 0, 'NaN', 'NaN', true, 'infinity', 'infinity', 'infinity', 'nan'),
    (3002, 1, 1, 1, 'Infinity', 'Infinity', false, '-infinity', '-infinity', '-infinity', 'inf'),
    (3003, -1, -1, -1, '-Infinity', '-Infinity', NULL, '2021-06-15', '2021-06-15 12:00', '2021-06-15 12:00+00', '-inf'),
    (3004, 2, 2, 2, '-0', '-0', true, '2021-06-15', '2021-06-15 12:00', '2021-06-15 12:00+00', 'minus zero'),
    (3005, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
ANALYZE gx_num;

-- GpuJoin tests (gpujoin, gpujoin_outer): gx_jcheck, gx_jccheck, gx_jexplain
-- does q's plan, with gpuext forced, hold a GpuJoin?
CREATE FUNCTION gx_join_node(q text) RETURNS bool LANGUAGE plpgsql
    SET gpuext.enabled = on SET gpuext.force = on AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        IF line LIKE '%Custom Scan (GpuJoin)%' THEN
            RETURN true;
        END IF;
    END LOOP;
    RETURN false;
END $$;
-- gx_check(q), then the same with setting guc off ('<label> off: ...'),
-- and what q's forced plan says on its EXPLAIN line matching re (its
-- first capture), else dflt (gpujoin_inputs, gpujoin_gather)
CREATE FUNCTION gx_setting_check(q text, guc text, label text, re text, dflt text)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    line text;
    found text := dflt;
    res text;
BEGIN
    res := gx_check(q);
    PERFORM set_config('gpuext.force', 'on', true);
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        IF line ~ re THEN
            found := substring(line from re);
        END IF;
    END LOOP;
    PERFORM set_config('gpuext.force', 'off', true);
    PERFORM set_config(guc, 'off', true);
    res := res || ' / ' || label || ' off: ' || gx_check(q);
    PERFORM set_config(guc, 'on', true);
    RETURN res || ', ' || found;
END $$;
CREATE FUNCTION gx_jcheck(q text) RETURNS text LANGUAGE sql AS $$
    SELECT gx_check(q) || CASE WHEN gx_join_node(q) THEN ', GpuJoin' ELSE ', no GpuJoin' END
$$;
-- how q's plan, with gpuext forced, aggregates in a GpuJoin: 'counts'
-- (the counting join: Device Aggregates among its lines), 'aggregates'
-- (a join that aggregates its pairs: Device Aggregates and a Group
-- Strategy), or NULL
CREATE FUNCTION gx_join_agg(q text) RETURNS text LANGUAGE plpgsql
    SET gpuext.enabled = on SET gpuext.force = on AS $$
DECLARE
    line text;
    injoin bool := false;
    aggs bool := false;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        IF line LIKE '%Custom Scan (GpuJoin)%' THEN
            injoin := true;
        ELSIF line LIKE '%->%' THEN
            EXIT WHEN aggs;
            injoin := false;
        ELSIF injoin AND line LIKE '%Device Aggregates: %' THEN
            aggs := true;
        ELSIF injoin AND aggs AND line LIKE '%Group Strategy: %' THEN
            RETURN 'aggregates';
        END IF;
    END LOOP;
    RETURN CASE WHEN aggs THEN 'counts' END;
END $$;
-- gx_jcheck, and whether the GpuJoin counts or aggregates
CREATE FUNCTION gx_jccheck(q text) RETURNS text LANGUAGE sql AS $$
    SELECT gx_check(q) || coalesce(', GpuJoin ' || gx_join_agg(q),
                                   CASE WHEN gx_join_node(q) THEN ', GpuJoin'
                                        ELSE ', no GpuJoin' END)
$$;
-- EXPLAIN ANALYZE without timing, nor the memory of a fallback's Hash
CREATE FUNCTION gx_jexplain(q text) RETURNS SETOF text LANGUAGE sql AS $$
    SELECT l FROM gx_explain(q, 'ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF') l
    WHERE l !~ '^\s*Buckets: '
$$;

-- several devices (multidevice, multidevice_preagg): md_check(q) runs q on
-- every selection of gpuext.devices, the others read EXPLAIN ANALYZE
-- the labels of the devices of a kind, in device order ('' kind: all)
CREATE FUNCTION md_labels(k text) RETURNS text LANGUAGE sql AS $$
    SELECT string_agg(label, ',' ORDER BY device) FROM gpuext_devices() WHERE k = '' OR kind = k
$$;
-- the kind that holds the cache: the GPUs when the service has one
CREATE FUNCTION md_cache_kind() RETURNS text LANGUAGE sql AS $$
    SELECT CASE WHEN EXISTS (SELECT 1 FROM gpuext_devices() WHERE kind = 'gpu')
                THEN 'gpu' ELSE 'cpu' END
$$;
-- the devices that hold a share of the cache: gpuext.cache_size's 128 MB
-- units are dealt out in turn to the devices of the cache's kind
-- (docs/engine.md 4a), so a small cache leaves the last ones without one
CREATE FUNCTION md_cache_labels() RETURNS text LANGUAGE sql AS $$
    SELECT string_agg(label, ',' ORDER BY device)
    FROM (SELECT label, device FROM gpuext_devices() WHERE kind = md_cache_kind()
          ORDER BY device
          LIMIT pg_size_bytes(current_setting('gpuext.cache_size')) / (128 * 1024 * 1024)) d
$$;

-- q with gpuext off, then forced with gpuext.device = auto on each device
-- selection of gpuext.devices: each device alone, the CPU devices
-- together, the GPUs together, all of them (a plain filter may run on a
-- GPU and the CPU device at once); the same rows each time
CREATE FUNCTION md_check(q text) RETURNS text LANGUAGE plpgsql
    SET gpuext.enabled = off SET gpuext.force = off AS $$
DECLARE
    ref record;
    got record;
    sel text;
    sels text[];
BEGIN
    ref := gx_try(q);
    SELECT array_agg(label ORDER BY device) INTO sels FROM gpuext_devices();
    sels := sels || md_labels('cpu') || md_labels('');
    IF md_labels('gpu') IS NOT NULL THEN
        sels := sels || md_labels('gpu');
    END IF;
    PERFORM set_config('gpuext.enabled', 'on', true);
    PERFORM set_config('gpuext.force', 'on', true);
    PERFORM set_config('gpuext.device', 'auto', true);
    FOREACH sel IN ARRAY sels LOOP
        PERFORM set_config('gpuext.devices', sel, true);
        got := gx_try(q);
        IF got.summary IS DISTINCT FROM ref.summary OR got.r IS DISTINCT FROM ref.r THEN
            RETURN format('MISMATCH with gpuext.devices = %s: off gave "%s", on gave "%s"',
                          sel, ref.summary, got.summary);
        END IF;
    END LOOP;
    RETURN format('%s, %s', ref.summary, gx_device_node(q));
END $$;

-- did q's scan read cache entries (EXPLAIN ANALYZE's Cached Chunks > 0)?
CREATE FUNCTION md_read_cache(q text) RETURNS bool LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
        IF line ~ 'Cached Chunks: [1-9]' THEN
            RETURN true;
        END IF;
    END LOOP;
    RETURN false;
END $$;

-- did the node's work spread?  Every EXPLAIN ANALYZE line "Device Chunks:
-- cpu=3, cpu1=2" of a node with several devices names at least two that
-- ran chunks (true for a node with one).  Not "every device": cached
-- chunks run where their entries lie, and a small cache has shares on
-- only some of the devices (md_cache_labels).
CREATE FUNCTION md_spread(q text) RETURNS bool LANGUAGE plpgsql AS $$
DECLARE
    line text;
    ok bool := true;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
        IF line ~ 'Device Chunks: ' THEN
            ok := ok AND (SELECT count(*) FROM regexp_matches(line, '=[1-9]', 'g')) >= 2;
        END IF;
    END LOOP;
    RETURN ok;
END $$;

-- the helpers themselves: a differential check reports rows and plan
SELECT gx_check('SELECT id FROM gx_num WHERE i4 > 0');
SELECT gx_check('SELECT id FROM gx_num WHERE t LIKE ''r1%''');
SELECT gx_error('SELECT id FROM gx_num WHERE 1 / (i4 - i4) = 0');
SELECT gx_diff('{a,b,b}', '{b,c}');
