/*
 * bench/duckdb/gx_duckdb_bench.c - time the Tablet-paper filter queries on
 * DuckDB (in-memory table), as the bar for gpuext to beat.
 *
 *   gx_duckdb_bench --threads 16 --csv-glob '/tmp/x/part*.csv' \
 *                   --queries q1.sql,q2.sql,... --reps 3
 *
 * Opens an in-memory DuckDB with the given number of threads, creates
 *   tablet(id INTEGER, ui INTEGER, ni5 INTEGER, ni20 INTEGER,
 *          uf REAL, nf5 REAL, nf20 REAL)
 * (the PostgreSQL int4 / float4 types), loads the CSV files (PostgreSQL
 * COPY text format: tab-separated, no header, \N for NULL), then runs each
 * query once to warm up and --reps times measured.  Prints on stdout:
 *
 *   version=v1.5.6
 *   threads=16
 *   load_ms=1234.567 rows=100000000
 *   query=q1 ms=<mean> min_ms=<min> max_ms=<max> result=<result>
 *   ...
 *
 * <result> is what `psql -At` prints, as bench/run.sh flattens it: columns
 * separated by '|', rows by ' ', NULL as an empty string.  The query name is
 * the file name without directory and ".sql".
 *
 * --exec SQL (repeatable) runs a statement after the load and prints
 * "exec=<n> result=<result>" (for tests).  Without --csv-glob nothing is
 * loaded (and no table is created).
 *
 * Every DuckDB error is printed on stderr and makes the exit status 1.
 *
 * No duckdb.h needed: the npm package that carries libduckdb.so has no
 * header, so the few C API functions used here are declared below, with the
 * ABI of DuckDB 1.x (src/include/duckdb.h; the duckdb_result layout has been
 * the same six 8-byte fields since 0.3.2).
 *
 * Build: gcc -O2 -o gx_duckdb_bench gx_duckdb_bench.c -L<dir> -lduckdb \
 *            -Wl,-rpath,<dir>
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------ DuckDB C API */
typedef uint64_t idx_t;
typedef enum { DuckDBSuccess = 0, DuckDBError = 1 } duckdb_state;
typedef struct _duckdb_database { void *internal_ptr; } *duckdb_database;
typedef struct _duckdb_connection { void *internal_ptr; } *duckdb_connection;
typedef struct _duckdb_config { void *internal_ptr; } *duckdb_config;
typedef struct {
    idx_t deprecated_column_count;
    idx_t deprecated_row_count;
    idx_t deprecated_rows_changed;
    void *deprecated_columns;
    char *deprecated_error_message;
    void *internal_data;
} duckdb_result;

extern const char *duckdb_library_version(void);
extern duckdb_state duckdb_create_config(duckdb_config *out_config);
extern duckdb_state duckdb_set_config(duckdb_config config, const char *name, const char *option);
extern void duckdb_destroy_config(duckdb_config *config);
extern duckdb_state duckdb_open_ext(const char *path, duckdb_database *out_database,
                                    duckdb_config config, char **out_error);
extern void duckdb_close(duckdb_database *database);
extern duckdb_state duckdb_connect(duckdb_database database, duckdb_connection *out_connection);
extern void duckdb_disconnect(duckdb_connection *connection);
extern duckdb_state duckdb_query(duckdb_connection connection, const char *query, duckdb_result *out_result);
extern void duckdb_destroy_result(duckdb_result *result);
extern const char *duckdb_result_error(duckdb_result *result);
extern idx_t duckdb_column_count(duckdb_result *result);
extern idx_t duckdb_row_count(duckdb_result *result);
extern bool duckdb_value_is_null(duckdb_result *result, idx_t col, idx_t row);
extern char *duckdb_value_varchar(duckdb_result *result, idx_t col, idx_t row);
extern void duckdb_free(void *ptr);

/*
 * Room for the result struct, with slack in case a future version grows it
 * (the library only writes into what the caller passes).
 */
typedef union {
    duckdb_result r;
    char pad[256];
} gx_result;

/* ---------------------------------------------------------------- helpers */
static duckdb_database db;
static duckdb_connection con;
static bool have_db, have_con;

static void finish(int rc)
{
    if (have_con)
        duckdb_disconnect(&con);
    if (have_db)
        duckdb_close(&db);
    fflush(stdout);
    exit(rc);
}

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void die(const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "gx_duckdb_bench: ERROR: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    finish(1);
}

static double now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n);

    if (p == NULL)
        die("out of memory");
    return p;
}

/* Runs sql; on error prints it (with label) and exits 1. */
static void run_sql(const char *label, const char *sql, gx_result *res)
{
    memset(res, 0, sizeof(*res));
    if (duckdb_query(con, sql, &res->r) != DuckDBSuccess) {
        const char *err = duckdb_result_error(&res->r);

        fprintf(stderr, "gx_duckdb_bench: ERROR in %s: %s\n  statement: %s\n", label,
                err ? err : "(no message)", sql);
        duckdb_destroy_result(&res->r);
        finish(1);
    }
}

/* The result as psql -At | tr '\n' ' ' prints it: a|b rows joined by ' '. */
static char *result_text(gx_result *res)
{
    idx_t ncol = duckdb_column_count(&res->r), nrow = duckdb_row_count(&res->r);
    size_t cap = 256, len = 0;
    char *out = xmalloc(cap);

    out[0] = '\0';
    for (idx_t r = 0; r < nrow; r++) {
        for (idx_t c = 0; c < ncol; c++) {
            const char *sep = c > 0 ? "|" : (r > 0 ? " " : "");
            char *v = NULL;
            const char *s = "";
            size_t need;

            if (!duckdb_value_is_null(&res->r, c, r)) {
                v = duckdb_value_varchar(&res->r, c, r);
                if (v != NULL)
                    s = v;
            }
            need = len + strlen(sep) + strlen(s) + 1;
            if (need > cap) {
                while (need > cap)
                    cap *= 2;
                out = realloc(out, cap);
                if (out == NULL)
                    die("out of memory");
            }
            len += sprintf(out + len, "%s%s", sep, s);
            if (v != NULL)
                duckdb_free(v);
        }
    }
    /* psql output ends with a newline that run.sh turns into a trailing
     * blank and strips: nothing to do here */
    return out;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    size_t cap = 4096, len = 0, n;
    char *buf;

    if (f == NULL)
        die("cannot open %s", path);
    buf = xmalloc(cap);
    while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (cap - len - 1 == 0) {
            cap *= 2;
            buf = realloc(buf, cap);
            if (buf == NULL)
                die("out of memory");
        }
    }
    if (ferror(f))
        die("cannot read %s", path);
    fclose(f);
    buf[len] = '\0';
    return buf;
}

/* "dir/q10.sql" -> "q10" */
static char *query_name(const char *path)
{
    const char *b = strrchr(path, '/');
    size_t n;
    char *s;

    b = b ? b + 1 : path;
    n = strlen(b);
    if (n > 4 && strcmp(b + n - 4, ".sql") == 0)
        n -= 4;
    s = xmalloc(n + 1);
    memcpy(s, b, n);
    s[n] = '\0';
    return s;
}

/* SQL string literal of s ('...' with quotes doubled) */
static char *sql_literal(const char *s)
{
    char *out = xmalloc(2 * strlen(s) + 3), *p = out;

    *p++ = '\'';
    for (; *s; s++) {
        if (*s == '\'')
            *p++ = '\'';
        *p++ = *s;
    }
    *p++ = '\'';
    *p = '\0';
    return out;
}

static void usage(void)
{
    fprintf(stderr,
            "usage: gx_duckdb_bench [--threads N] [--memory-limit SIZE] [--csv-glob GLOB]\n"
            "                       [--queries a.sql,b.sql,...] [--reps N] [--exec SQL]...\n");
    exit(2);
}

int main(int argc, char **argv)
{
    const char *threads = "16", *memory_limit = NULL, *csv_glob = NULL, *queries = NULL;
    const char **execs = xmalloc(sizeof(char *) * (size_t) argc);
    int nexec = 0, reps = 3;
    duckdb_config config;
    char *err = NULL;
    gx_result res;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];

        if (i + 1 >= argc)
            usage();
        if (strcmp(a, "--threads") == 0)
            threads = argv[++i];
        else if (strcmp(a, "--memory-limit") == 0)
            memory_limit = argv[++i];
        else if (strcmp(a, "--csv-glob") == 0)
            csv_glob = argv[++i];
        else if (strcmp(a, "--queries") == 0)
            queries = argv[++i];
        else if (strcmp(a, "--reps") == 0)
            reps = atoi(argv[++i]);
        else if (strcmp(a, "--exec") == 0)
            execs[nexec++] = argv[++i];
        else
            usage();
    }
    if (reps < 1)
        reps = 1;
    setvbuf(stdout, NULL, _IOLBF, 0);

    printf("version=%s\n", duckdb_library_version());

    if (duckdb_create_config(&config) != DuckDBSuccess)
        die("duckdb_create_config failed");
    if (duckdb_set_config(config, "threads", threads) != DuckDBSuccess)
        die("cannot set threads=%s", threads);
    if (memory_limit && duckdb_set_config(config, "memory_limit", memory_limit) != DuckDBSuccess)
        die("cannot set memory_limit=%s", memory_limit);
    if (duckdb_open_ext(NULL, &db, config, &err) != DuckDBSuccess) {
        fprintf(stderr, "gx_duckdb_bench: ERROR: duckdb_open_ext: %s\n", err ? err : "(no message)");
        if (err)
            duckdb_free(err);
        duckdb_destroy_config(&config);
        return 1;
    }
    have_db = true;
    duckdb_destroy_config(&config);
    if (duckdb_connect(db, &con) != DuckDBSuccess)
        die("duckdb_connect failed");
    have_con = true;

    run_sql("settings", "SELECT current_setting('threads')", &res);
    {
        char *t = result_text(&res);

        printf("threads=%s\n", t);
        free(t);
    }
    duckdb_destroy_result(&res.r);

    if (csv_glob != NULL) {
        const char *fmt =
            "INSERT INTO tablet SELECT * FROM read_csv(%s, delim = '\t', header = false, "
            "quote = '', escape = '', nullstr = '\\N', auto_detect = false, "
            "columns = {'id': 'INTEGER', 'ui': 'INTEGER', 'ni5': 'INTEGER', 'ni20': 'INTEGER', "
            "'uf': 'REAL', 'nf5': 'REAL', 'nf20': 'REAL'})";
        char *lit = sql_literal(csv_glob);
        char *sql = xmalloc(strlen(fmt) + strlen(lit) + 1);
        double t0;
        char *rows;

        sprintf(sql, fmt, lit);
        run_sql("create", "CREATE TABLE tablet (id INTEGER, ui INTEGER, ni5 INTEGER, ni20 INTEGER, "
                "uf REAL, nf5 REAL, nf20 REAL)", &res);
        duckdb_destroy_result(&res.r);
        t0 = now_ms();
        run_sql("load", sql, &res);
        duckdb_destroy_result(&res.r);
        run_sql("load", "SELECT count(*) FROM tablet", &res);
        rows = result_text(&res);
        duckdb_destroy_result(&res.r);
        printf("load_ms=%.3f rows=%s\n", now_ms() - t0, rows);
        free(rows);
        free(sql);
        free(lit);
    }

    for (int i = 0; i < nexec; i++) {
        char *t;

        run_sql("exec", execs[i], &res);
        t = result_text(&res);
        duckdb_destroy_result(&res.r);
        printf("exec=%d result=%s\n", i + 1, t);
        free(t);
    }

    if (queries != NULL) {
        char *list = strdup(queries), *save = NULL;

        for (char *path = strtok_r(list, ",", &save); path; path = strtok_r(NULL, ",", &save)) {
            char *name = query_name(path), *sql = read_file(path), *first;
            double sum = 0, mn = 0, mx = 0;

            /* warm-up run: its result is the one reported */
            run_sql(name, sql, &res);
            first = result_text(&res);
            duckdb_destroy_result(&res.r);
            for (int r = 0; r < reps; r++) {
                double t0 = now_ms(), t;

                run_sql(name, sql, &res);
                t = now_ms() - t0;
                duckdb_destroy_result(&res.r);
                sum += t;
                if (r == 0 || t < mn)
                    mn = t;
                if (r == 0 || t > mx)
                    mx = t;
            }
            printf("query=%s ms=%.3f min_ms=%.3f max_ms=%.3f result=%s\n", name, sum / reps, mn, mx,
                   first);
            free(first);
            free(sql);
            free(name);
        }
        free(list);
    }
    finish(0);
    return 0;
}
