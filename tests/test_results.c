/* test_results.c -- results files (host/results/results.c): layout and contents read back with the
 * HDF5 API, the .part file and its rename, the CSV summary, resume after an interruption,
 * merging shards, reading one instance, quantiles and the ensemble statistics (on the host,
 * and for backend gpu through hs_gpu_quantiles or its host fallback: quantiles_on), and the
 * checksums: bytes flipped in a piece or in a .part's finished chunk fail merge and resume,
 * naming the dataset and the chunk. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hdf5.h>

#include "engine/backend.h"
#include "gpu/backend_gpu.h"
#include "hs/results.h"
#include "test_util.h"

#define NT 10 /* instances of the sweep */
#define CH 3  /* chunk */
#define NP 2
#define NS 3
#define NTR 2
#define NTIME 5

static const char *const pnames[NP] = {"cylinders[0].d_piston", "valves[0].tau"};
static const char *const punits[NP] = {"m", "s"};
static const char *const snames[NS] = {"crank_angle", "p_piston", "F_lift"};
static const char *const tnames[NTR] = {"crank_angle", "p_rod"};
static const double ttime[NTIME] = {0.0, 0.1, 0.2, 0.3, 0.35};
static const char *const sunits[NS] = {"rad", "Pa", "N"};
static const char *const tunits[NTR] = {"rad", "Pa"};
static const char *const jnames[2] = {"crank_angle", "slider"};
static const char *const jkinds[2] = {"revolute", "prismatic"};
/* stored columns: min, max, mean, t_max (final and rms left out) */
static const unsigned int STATS =
    (1u << HS_STAT_MIN) | (1u << HS_STAT_MAX) | (1u << HS_STAT_MEAN) | (1u << HS_STAT_TMAX);
static const int cols[4] = {HS_STAT_MIN, HS_STAT_MAX, HS_STAT_MEAN, HS_STAT_TMAX};
#define NC 4

static char dir[64];
static const char *run_backend = "cpu"; /* meta backend of make_layout */

/* ---- fabricated per-instance results (global index i) ---- */

static int f_status(long i)
{
    switch (i) {
    case 3: return 1;     /* maxiter */
    case 4: return 2 | 4; /* nonfinite, singular */
    case 8: return 1;
    case 9: return 128; /* invalid */
    case 5: return 512; /* warnings: finished, in the quantiles */
    case 7: return 512 | 1024;
    default: return 0;
    }
}
static long f_steps(long i)
{
    return 1000 + 37 * i;
}

static long f_rejected(long i)
{
    return 3 * i + 1;
}
static double f_nmean(long i)
{
    return 1.5 + 0.25 * (double)i;
}
static int f_nmax(long i)
{
    return 2 + (int)(i % 4);
}
static double f_param(long i, int j)
{
    return 0.01 * (double)(i + 1) * (j + 1) + j;
}
static double f_stat(long i, int k, int q)
{
    if (i == 4 && q == HS_STAT_MEAN) return NAN;
    if (i == 6 && k == 0 && q == HS_STAT_TMAX) return NAN; /* a finished instance with a NaN */
    if (k == 2 && q == HS_STAT_MEAN) return -1.27626e-95 * (double)(i + 1); /* decay residue */
    return sin((double)i * 1.3 + k * 0.7 + q * 0.11) * (k + 1) * 10.0;
}
static double f_traj(long i, int k, int j)
{
    if (i == 9) return NAN;
    return cos((double)i * 0.3 + k + j * 0.05);
}

typedef struct batch {
    hs_batch_out bo;
    double params[CH * NP];
} batch;

/* The batch of chunk c of a run over [i0, i1) with chunk ch. */
static void make_batch(batch *b, long i0, long i1, long ch, long c)
{
    static int st[64];
    static long steps[64], rej[64];
    static double nmean[64], stats[NS * HS_NSTAT * 64], traj[NTR * NTIME * 64];
    static int nmax[64];
    long a = i0 + c * ch, n = (i1 - a) < ch ? (i1 - a) : ch, r;
    int k, q, j;
    memset(b, 0, sizeof *b);
    b->bo.n = n;
    b->bo.status = st;
    b->bo.steps = steps;
    b->bo.rejected = rej;
    b->bo.iters_mean = nmean;
    b->bo.iters_max = nmax;
    b->bo.stats = stats;
    b->bo.traj = traj;
    b->bo.ntime = NTIME;
    for (r = 0; r < n; ++r) {
        long i = a + r;
        st[r] = f_status(i);
        steps[r] = f_steps(i);
        rej[r] = f_rejected(i);
        nmean[r] = f_nmean(i);
        nmax[r] = f_nmax(i);
        for (j = 0; j < NP; ++j) b->params[r * NP + j] = f_param(i, j);
        for (k = 0; k < NS; ++k)
            for (q = 0; q < HS_NSTAT; ++q) stats[(k * HS_NSTAT + q) * n + r] = f_stat(i, k, q);
        for (k = 0; k < NTR; ++k)
            for (j = 0; j < NTIME; ++j) traj[(k * NTIME + j) * n + r] = f_traj(i, k, j);
    }
}

static void make_layout(hs_results_layout *L, hs_results_meta *M, long i0, long i1, long ch,
                        unsigned long long seed)
{
    memset(L, 0, sizeof *L);
    L->n_total = NT;
    L->i_begin = i0;
    L->i_end = i1;
    L->chunk = ch;
    L->nparam = NP;
    L->param_names = pnames;
    L->param_units = punits;
    L->nsig = NS;
    L->sig_names = snames;
    L->sig_units = sunits;
    L->stats = STATS;
    L->ntraj = NTR;
    L->traj_names = tnames;
    L->traj_units = tunits;
    L->ntime = NTIME;
    L->traj_time = ttime;
    memset(M, 0, sizeof *M);
    M->model_text = "model:\n  name: fourbar\n";
    M->sweep_text = "sweep:\n  instances: 10\n";
    M->model_path = "models/fourbar.yaml";
    M->sweep_path = "sweeps/s.yaml";
    M->seed = seed;
    M->method = "monte_carlo";
    M->backend = run_backend;
    M->device = "test CPU";
    M->version = "0.1.0";
    M->commit = "abc";
    M->model_name = "fourbar";
    M->njoint = 2;
    M->joint_names = jnames;
    M->joint_kinds = jkinds;
}

static void path_in(char *buf, size_t n, const char *name)
{
    snprintf(buf, n, "%s/%s", dir, name);
}

static int exists(const char *p)
{
    struct stat s;
    return stat(p, &s) == 0;
}

static void show_err(const hs_error *e)
{
    char b[1024];
    hs_error_format(e, b, sizeof b);
    printf("  error: %s\n", b);
}

/* Runs [i0, i1) with chunk ch, writing the chunks in the order given (all if order NULL). */
static int run_range(const char *path, long i0, long i1, long ch, unsigned long long seed,
                     int finish, FILE *report)
{
    hs_results_layout L;
    hs_results_meta M;
    hs_results *r = NULL;
    hs_error e;
    long c, nc;
    int rc;
    batch b;
    make_layout(&L, &M, i0, i1, ch, seed);
    if ((rc = hs_results_create(path, &L, &M, &r, &e))) {
        show_err(&e);
        return rc;
    }
    nc = hs_results_nchunk(r);
    for (c = 0; c < nc && !rc; ++c) {
        make_batch(&b, i0, i1, ch, c);
        rc = hs_results_write_chunk(r, c, b.params, &b.bo, &e);
    }
    if (!rc && finish) rc = hs_results_finish(r, report, &e);
    if (rc) show_err(&e);
    hs_results_close(r);
    return rc;
}

/* Chunks c0, c0 + step, ... below c1 of the run [0, NT) written into r (each write checked);
 * with skip_done the chunks already done are left as they are. */
static void write_chunks(hs_results *r, long c0, long c1, long step, int skip_done)
{
    hs_error e;
    batch b;
    long c;
    for (c = c0; c < c1; c += step) {
        if (skip_done && hs_results_chunk_done(r, c)) continue;
        make_batch(&b, 0, NT, CH, c);
        CHECK(hs_results_write_chunk(r, c, b.params, &b.bo, &e) == 0, "write chunk %ld: %s", c, e.msg);
    }
}

/* ---- reading back ---- */

static int read_ds(hid_t f, const char *name, hid_t mtype, void *buf)
{
    hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
    herr_t st;
    if (d < 0) return -1;
    st = H5Dread(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
    H5Dclose(d);
    return st < 0 ? -1 : 0;
}

static long ds_points(hid_t f, const char *name, int *rank, hsize_t *dims)
{
    hid_t d = H5Dopen2(f, name, H5P_DEFAULT), s;
    hssize_t n;
    if (d < 0) return -1;
    s = H5Dget_space(d);
    *rank = H5Sget_simple_extent_ndims(s);
    H5Sget_simple_extent_dims(s, dims, NULL);
    n = H5Sget_simple_extent_npoints(s);
    H5Sclose(s);
    H5Dclose(d);
    return (long)n;
}

static long attr_long(hid_t loc, const char *name)
{
    long v = -999;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    if (a < 0) return -999;
    if (H5Aread(a, H5T_NATIVE_LONG, &v) < 0) v = -998;
    H5Aclose(a);
    return v;
}

/* Fixed-length string attribute element k into buf. */
static int attr_str(hid_t loc, const char *name, int k, char *buf, size_t n)
{
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT), t, mt;
    size_t sz;
    hssize_t np;
    char *tmp;
    int rc = -1;
    if (a < 0) return -1;
    t = H5Aget_type(a);
    sz = H5Tget_size(t);
    {
        hid_t s = H5Aget_space(a);
        np = H5Sget_simple_extent_npoints(s);
        H5Sclose(s);
    }
    mt = H5Tcopy(H5T_C_S1);
    H5Tset_size(mt, sz);
    tmp = (char *)calloc((size_t)(np > 0 ? np : 1), sz + 1);
    if (tmp && k < np && H5Aread(a, mt, tmp) >= 0) {
        size_t l = strnlen(tmp + (size_t)k * sz, sz);
        if (l < n) {
            memcpy(buf, tmp + (size_t)k * sz, l);
            buf[l] = '\0';
            rc = 0;
        }
    }
    free(tmp);
    H5Tclose(mt);
    H5Tclose(t);
    H5Aclose(a);
    return rc;
}

/* Same shape, type and bytes of dataset name in two files. */
static int ds_same(hid_t f1, hid_t f2, const char *name)
{
    hid_t d1 = H5Dopen2(f1, name, H5P_DEFAULT), d2 = H5Dopen2(f2, name, H5P_DEFAULT);
    hid_t t1 = -1, t2 = -1, s1 = -1, s2 = -1;
    int same = 0;
    if (d1 >= 0 && d2 >= 0) {
        hsize_t a[2] = {0, 0}, b[2] = {0, 0};
        t1 = H5Dget_type(d1);
        t2 = H5Dget_type(d2);
        s1 = H5Dget_space(d1);
        s2 = H5Dget_space(d2);
        if (H5Tequal(t1, t2) > 0 &&
            H5Sget_simple_extent_ndims(s1) == H5Sget_simple_extent_ndims(s2)) {
            hssize_t np = H5Sget_simple_extent_npoints(s1);
            size_t sz = H5Tget_size(t1);
            H5Sget_simple_extent_dims(s1, a, NULL);
            H5Sget_simple_extent_dims(s2, b, NULL);
            if (a[0] == b[0] && a[1] == b[1]) {
                char *x = (char *)calloc((size_t)np + 1, sz),
                     *y = (char *)calloc((size_t)np + 1, sz);
                if (x && y &&
                    (np == 0 || (H5Dread(d1, t1, H5S_ALL, H5S_ALL, H5P_DEFAULT, x) >= 0 &&
                                 H5Dread(d2, t2, H5S_ALL, H5S_ALL, H5P_DEFAULT, y) >= 0)))
                    same = memcmp(x, y, (size_t)np * sz) == 0;
                free(x);
                free(y);
            }
        }
    }
    if (t1 >= 0) H5Tclose(t1);
    if (t2 >= 0) H5Tclose(t2);
    if (s1 >= 0) H5Sclose(s1);
    if (s2 >= 0) H5Sclose(s2);
    if (d1 >= 0) H5Dclose(d1);
    if (d2 >= 0) H5Dclose(d2);
    return same;
}

/* Every dataset of two results files equal, byte for byte. */
static void check_same_datasets(const char *p1, const char *p2, const char *what)
{
    hid_t f1 = H5Fopen(p1, H5F_ACC_RDONLY, H5P_DEFAULT),
          f2 = H5Fopen(p2, H5F_ACC_RDONLY, H5P_DEFAULT);
    const char *fixed[] = {"/instance",   "/params",    "/status", "/steps",      "/newton_mean",
                           "/newton_max", "/traj/time", "/done",   "/model_text", "/sweep_text"};
    char name[128];
    int k, ndiff = 0, ncmp = 0;
    CHECK(f1 >= 0 && f2 >= 0, "%s: open %s and %s", what, p1, p2);
    if (f1 < 0 || f2 < 0) return;
    for (k = 0; k < (int)(sizeof fixed / sizeof fixed[0]); ++k, ++ncmp)
        if (!ds_same(f1, f2, fixed[k])) {
            printf("  %s: %s differs\n", what, fixed[k]);
            ++ndiff;
        }
    for (k = 0; k < NS; ++k) {
        snprintf(name, sizeof name, "/stats/%s", snames[k]);
        ndiff += !ds_same(f1, f2, name);
        snprintf(name, sizeof name, "/ensemble/%s", snames[k]);
        ndiff += !ds_same(f1, f2, name);
        ncmp += 2;
    }
    for (k = 0; k < NTR; ++k, ++ncmp) {
        snprintf(name, sizeof name, "/traj/%s", tnames[k]);
        ndiff += !ds_same(f1, f2, name);
    }
    CHECK(ndiff == 0, "%s: %d of %d datasets differ", what, ndiff, ncmp);
    {
        const char *at[] = {"n_total", "i_begin", "i_end", "chunk", "complete"};
        for (k = 0; k < 5; ++k)
            CHECK(attr_long(f1, at[k]) == attr_long(f2, at[k]), "%s: attribute %s %ld vs %ld", what,
                  at[k], attr_long(f1, at[k]), attr_long(f2, at[k]));
    }
    H5Fclose(f1);
    H5Fclose(f2);
}

static char *slurp(const char *p, long *n)
{
    FILE *f = fopen(p, "rb");
    char *b;
    long k;
    *n = 0;
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    k = ftell(f);
    fseek(f, 0, SEEK_SET);
    b = (char *)malloc((size_t)k + 1);
    if (b && fread(b, 1, (size_t)k, f) != (size_t)k) {
        free(b);
        b = NULL;
    }
    fclose(f);
    if (b) {
        b[k] = '\0';
        *n = k;
    }
    return b;
}

static void check_same_files(const char *p1, const char *p2, const char *what)
{
    long n1, n2;
    char *a = slurp(p1, &n1), *b = slurp(p2, &n2);
    CHECK(a && b && n1 == n2 && !memcmp(a, b, (size_t)n1), "%s: %s and %s differ", what, p1, p2);
    free(a);
    free(b);
}

/* R type 7 by sorting (reference for the ensemble). */
static int cmpd(const void *a, const void *b)
{
    double u = *(const double *)a, v = *(const double *)b;
    return (u > v) - (u < v);
}
static double ref_quantile(const double *x, long n, double q)
{
    double s[NT], h, lo;
    long m = 0, k;
    for (k = 0; k < n; ++k)
        if (!isnan(x[k])) s[m++] = x[k];
    if (m == 0) return NAN;
    qsort(s, (size_t)m, sizeof *s, cmpd);
    h = (double)(m - 1) * q;
    lo = floor(h);
    if ((long)lo + 1 >= m || h == lo || s[(long)lo] == s[(long)lo + 1]) return s[(long)lo];
    return (1.0 - (h - lo)) * s[(long)lo] + (h - lo) * s[(long)lo + 1];
}

/* ---- tests ---- */

static void test_quantile(void)
{
    double one[1] = {7.5};
    double qs[5] = {0.0, 0.05, 0.5, 0.95, 1.0};
    double two_want[5] = {1.0, 1.05, 1.5, 1.95, 2.0};
    double five_want[5] = {1.0, 1.2, 3.0, 4.8, 5.0};
    double x[7];
    int k;
    for (k = 0; k < 5; ++k) CHECK(hs_quantile(one, 1, qs[k]) == 7.5, "n=1 q=%g", qs[k]);
    for (k = 0; k < 5; ++k) {
        double two[2] = {2.0, 1.0};
        CHECK_CLOSE(hs_quantile(two, 2, qs[k]), two_want[k], 1e-15, "n=2");
    }
    for (k = 0; k < 5; ++k) {
        double five[7] = {4.0, NAN, 1.0, 3.0, NAN, 2.0, 5.0};
        CHECK_CLOSE(hs_quantile(five, 7, qs[k]), five_want[k], 1e-15, "n=5 with two NaNs");
    }
    /* all NaN, empty, bad q */
    x[0] = x[1] = NAN;
    CHECK(isnan(hs_quantile(x, 2, 0.5)), "all NaN -> NaN");
    CHECK(isnan(hs_quantile(x, 0, 0.5)), "empty -> NaN");
    x[0] = 1.0;
    CHECK(isnan(hs_quantile(x, 1, 1.5)), "q > 1 -> NaN");
    /* equal values and infinities */
    {
        double e[4] = {3, 3, 3, 3}, inf[3] = {INFINITY, INFINITY, 1.0};
        CHECK(hs_quantile(e, 4, 0.37) == 3.0, "equal values");
        CHECK(hs_quantile(inf, 3, 0.9) == INFINITY, "between two infinities");
    }
    /* against sorting, many sizes and duplicates */
    {
        double a[NT], b[NT];
        int n, t, bad = 0;
        for (t = 0; t < 200; ++t) {
            n = 1 + t % NT;
            for (k = 0; k < n; ++k) a[k] = floor(tu_rand(0, 6)); /* many ties */
            if (t % 3 == 0) a[t % n] = NAN;
            for (k = 0; k < 5; ++k) {
                double want = ref_quantile(a, n, qs[k]), got;
                memcpy(b, a, sizeof a);
                got = hs_quantile(b, n, qs[k]);
                if (!(got == want || (isnan(got) && isnan(want)))) ++bad;
            }
        }
        CHECK(bad == 0, "quickselect vs sort: %d mismatches", bad);
    }
    /* against sorting: infinities of both signs, duplicates and NaNs together */
    {
        static const double fixed[][NT] = {
            {INFINITY, 1.0, NAN, 1.0, -INFINITY, 2.0, 2.0, NAN, 1.0, INFINITY},
            {-INFINITY, -INFINITY, 3.0, NAN, 3.0, 3.0, -1.0, 0.5, 0.5, 8.0},
            {NAN, INFINITY, INFINITY, INFINITY, NAN, NAN, 4.0, 4.0, 4.0, 4.0},
            {-INFINITY, INFINITY, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN}, /* -Inf .. Inf: NaN */
            {2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, -INFINITY}};
        const double qf[7] = {0.0, 0.05, 0.1, 0.5, 0.9, 0.95, 1.0};
        double a[NT], b[NT];
        int n, t, bad = 0, ncmp = 0;
        for (t = 0; t < (int)(sizeof fixed / sizeof fixed[0]); ++t)
            for (k = 0; k < 7; ++k, ++ncmp) {
                double want = ref_quantile(fixed[t], NT, qf[k]), got;
                memcpy(b, fixed[t], sizeof b);
                got = hs_quantile(b, NT, qf[k]);
                if (!(got == want || (isnan(got) && isnan(want)))) {
                    printf("  array %d q %g: %.17g, want %.17g\n", t, qf[k], got, want);
                    ++bad;
                }
            }
        for (t = 0; t < 300; ++t) {
            n = 1 + t % NT;
            for (k = 0; k < n; ++k) {
                double u = tu_rand(0, 1);
                a[k] = u < 0.1 ? -INFINITY : u < 0.2 ? INFINITY : u < 0.3 ? NAN
                                                                          : floor(tu_rand(-3, 3));
            }
            for (k = 0; k < 7; ++k, ++ncmp) {
                double want = ref_quantile(a, n, qf[k]), got;
                memcpy(b, a, sizeof a);
                got = hs_quantile(b, n, qf[k]);
                if (!(got == want || (isnan(got) && isnan(want)))) ++bad;
            }
        }
        CHECK(bad == 0, "with +-Inf, duplicates and NaNs: %d of %d mismatches", bad, ncmp);
    }
}

/* hs_gpu_quantiles: with a device, hs_quantile's bits (-0 and +0 aside: compared with ==);
 * without one (or without CUDA) an error, never made-up values. */
static void test_gpu_quantiles(void)
{
    static const double arr[][NT] = {
        {4.0, NAN, 1.0, 3.0, NAN, 2.0, 5.0, 5.0, 5.0, -1.0},
        {INFINITY, 1.0, NAN, 1.0, -INFINITY, 2.0, 2.0, NAN, 1.0, INFINITY},
        {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN},
        {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0}};
    const double q[3] = {0.05, 0.5, 0.95};
    char name[128];
    int have = hs_gpu_available(name, sizeof name), t, k, rc, bad = 0;
    for (t = 0; t < (int)(sizeof arr / sizeof arr[0]); ++t) {
        double out[3] = {-7.0, -7.0, -7.0}, b[NT];
        rc = hs_gpu_quantiles(arr[t], NT, q, 3, out);
        if (!have) {
            bad += rc == HS_OK;
            continue;
        }
        if (rc != HS_OK) {
            ++bad;
            continue;
        }
        for (k = 0; k < 3; ++k) {
            double want;
            memcpy(b, arr[t], sizeof b);
            want = hs_quantile(b, NT, q[k]);
            if (!(out[k] == want || (isnan(out[k]) && isnan(want)))) {
                printf("  array %d q %g: gpu %.17g, host %.17g\n", t, q[k], out[k], want);
                ++bad;
            }
        }
    }
    CHECK(bad == 0, "hs_gpu_quantiles %s: %d bad", have ? "vs hs_quantile" : "without a device fails",
          bad);
    CHECK(hs_gpu_quantiles(NULL, 3, q, 3, NULL) != HS_OK, "hs_gpu_quantiles: NULL arrays");
}

/* A full run read back with the HDF5 API. */
/* The status bits of the file (root attributes status_bit_*) are every entry of the one table
 * kernels/hs_status.h, in its order, and /ensemble counts each of them: a bit added to the
 * table but not to the writer fails here (the Python reader reads the same attributes:
 * tests/cli_python.sh). */
static void check_status_table(hid_t f, const char *path)
{
#define HS_ST_ROW_(N, v, name, warn, desc) {(v), name, (warn), desc},
    static const struct {
        int v;
        const char *name;
        int warn;
        const char *desc;
    } want[] = {HS_STATUS_BITS(HS_ST_ROW_)};
#undef HS_ST_ROW_
    int k, nb = (int)(sizeof want / sizeof want[0]), vals[64];
    char s[256];
    hid_t a = H5Aopen(f, "status_bit_values", H5P_DEFAULT), sp;
    CHECK(nb == HS_ST_NBITS && nb >= 12, "%d status bits", nb);
    CHECK(a >= 0, "%s: attribute status_bit_values", path);
    if (a < 0) return;
    sp = H5Aget_space(a);
    CHECK(H5Sget_simple_extent_npoints(sp) == nb && H5Aread(a, H5T_NATIVE_INT, vals) >= 0,
          "status_bit_values holds %d values", nb);
    H5Sclose(sp);
    H5Aclose(a);
    for (k = 0; k < nb; ++k) {
        hid_t g = H5Gopen2(f, "/ensemble", H5P_DEFAULT);
        char cnt[64];
        CHECK(vals[k] == want[k].v && want[k].v == 1 << k, "status bit %d: value %d", k, vals[k]);
        CHECK(attr_str(f, "status_bit_names", k, s, sizeof s) == 0 && !strcmp(s, want[k].name),
              "status bit %d: name %s", k, s);
        CHECK(attr_str(f, "status_bit_kinds", k, s, sizeof s) == 0 &&
                  !strcmp(s, want[k].warn ? "warning" : "failure") &&
                  (((HS_ST_WARNINGS & want[k].v) != 0) == (want[k].warn != 0)),
              "status bit %d: kind %s", k, s);
        CHECK(attr_str(f, "status_bit_descriptions", k, s, sizeof s) == 0 && !strcmp(s, want[k].desc),
              "status bit %d: description", k);
        snprintf(cnt, sizeof cnt, "%s_%s", want[k].warn ? "warned" : "failed", want[k].name);
        CHECK(attr_long(g, cnt) >= 0, "/ensemble counts %s", cnt);
        H5Gclose(g);
    }
}

static void test_full_run(void)
{
    char path[128], part[128], csv[128], line[4096];
    char *table = NULL;
    size_t tn = 0;
    FILE *rep = open_memstream(&table, &tn);
    hs_results_layout L;
    hs_results_meta M;
    hs_results *r = NULL;
    hs_error e;
    hid_t f;
    long c, i, n;
    int k, q, j, rc;
    batch b;
    path_in(path, sizeof path, "a.h5");
    path_in(part, sizeof part, "a.h5.part");
    path_in(csv, sizeof csv, "a.csv");
    make_layout(&L, &M, 0, NT, CH, 42);
    rc = hs_results_create(path, &L, &M, &r, &e);
    CHECK(rc == 0, "create");
    if (rc) {
        show_err(&e);
        return;
    }
    CHECK(hs_results_nchunk(r) == 4, "4 chunks, got %ld", hs_results_nchunk(r));
    CHECK(exists(part) && !exists(path), "the .part file exists before finish, the final one not");
    /* a wrong batch size is refused */
    make_batch(&b, 0, NT, CH, 3);
    CHECK(hs_results_write_chunk(r, 2, b.params, &b.bo, &e) == HS_ERR_ARG,
          "batch of 1 for chunk 2");
    for (c = 0; c < 4; ++c) {
        make_batch(&b, 0, NT, CH, c);
        rc = hs_results_write_chunk(r, c, b.params, &b.bo, &e);
        CHECK(rc == 0, "write chunk %ld", c);
        CHECK(hs_results_chunk_done(r, c), "chunk %ld done", c);
    }
    rc = hs_results_finish(r, rep, &e);
    CHECK(rc == 0, "finish");
    if (rc) show_err(&e);
    hs_results_close(r);
    fclose(rep);
    CHECK(!exists(part) && exists(path) && exists(csv),
          "after finish: no .part, final file and CSV");
    /* the table: failures and a signal row */
    /* an instance may carry several bits (instance 4: nonfinite and singular): the bit
     * counts (5) are not the failures (4), and the line says so */
    CHECK(table && strstr(table,
                          "10 instances, 6 finished, 4 failed (status bits: maxiter 2, "
                          "nonfinite 1, singular 1, invalid 1; an instance may carry several)\n"
                          "  WARNING: 2 of the finished instances carry warnings (cavitation 2, "
                          "implausible 1); see /status and docs/results-format.md\n"),
          "ensemble table header:\n%s", table ? table : "");
    /* F_lift's mean is ~1e-95, far below 1e-12 of its scale (its min/max, ~30): printed as 0,
     * where the file keeps it (checked below against f_stat) */
    {
        char row[128];
        snprintf(row, sizeof row, "\n  %-11s %-6s %13.6g %13.6g %13.6g  N\n", "", "mean", 0.0, 0.0, 0.0);
        CHECK(table && strstr(table, row) && !strstr(table, "e-95") && !strstr(table, "e-94"),
              "round-off-sized quantiles print as 0:\n%s", table ? table : "");
    }
    CHECK(table && strstr(table, "crank_angle") && strstr(table, "t_max") && !strstr(table, "rms"),
          "ensemble table rows");
    /* every row in its own unit: the signal's in the units of the field (rad as deg, Pa as
     * MPa; N stays), s for t_max (a time); the values are checked against /ensemble below */
    CHECK(table && strstr(table, "  unit  ") && strstr(table, "  deg\n") && strstr(table, "  MPa\n") &&
              strstr(table, "  N\n") && strstr(table, "  s\n") && !strstr(table, "  rad\n") &&
              !strstr(table, "  Pa\n"),
          "ensemble table rows name their units:\n%s", table ? table : "");
    CHECK(table && strstr(table, "95%  unit  quantiles on host\n"),
          "ensemble table column header says where the quantiles were computed:\n%s",
          table ? table : "");

    f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    CHECK(f >= 0, "open the finished file");
    if (f < 0) {
        free(table);
        return;
    }
    {
        long inst[NT], steps[NT], rej[NT];
        int st[NT], nmax[NT];
        double nmean[NT], par[NT * NP], tt[NTIME];
        unsigned char done[4];
        int bad = 0, rank;
        hsize_t dims[2] = {0, 0};
        CHECK(read_ds(f, "/instance", H5T_NATIVE_LONG, inst) == 0 &&
                  read_ds(f, "/status", H5T_NATIVE_INT, st) == 0 &&
                  read_ds(f, "/steps", H5T_NATIVE_LONG, steps) == 0 &&
                  read_ds(f, "/newton_mean", H5T_NATIVE_DOUBLE, nmean) == 0 &&
                  read_ds(f, "/newton_max", H5T_NATIVE_INT, nmax) == 0 &&
                  read_ds(f, "/rejected_steps", H5T_NATIVE_LONG, rej) == 0 &&
                  read_ds(f, "/params", H5T_NATIVE_DOUBLE, par) == 0 &&
                  read_ds(f, "/traj/time", H5T_NATIVE_DOUBLE, tt) == 0 &&
                  read_ds(f, "/done", H5T_NATIVE_UCHAR, done) == 0,
              "read the row datasets");
        for (i = 0; i < NT; ++i) {
            bad += inst[i] != i || st[i] != f_status(i) || steps[i] != f_steps(i) ||
                   nmax[i] != f_nmax(i) || rej[i] != f_rejected(i);
            bad += memcmp(&nmean[i], &(double){f_nmean(i)}, sizeof(double)) != 0;
            for (j = 0; j < NP; ++j)
                bad += memcmp(&par[i * NP + j], &(double){f_param(i, j)}, sizeof(double)) != 0;
        }
        CHECK(bad == 0, "row datasets: %d mismatches", bad);
        CHECK(!memcmp(tt, ttime, sizeof tt), "/traj/time");
        CHECK(done[0] && done[1] && done[2] && done[3], "/done all ones");
        CHECK(ds_points(f, "/params", &rank, dims) == NT * NP && rank == 2 && dims[1] == NP,
              "/params shape");
        CHECK(ds_points(f, "/done", &rank, dims) == 4, "/done shape");
        /* statistics: only the selected columns, transposed */
        for (k = 0; k < NS; ++k) {
            double s[NT * NC], en[NC * 3], vals[NT];
            char name[64], cn[16];
            hid_t d;
            bad = 0;
            snprintf(name, sizeof name, "/stats/%s", snames[k]);
            CHECK(read_ds(f, name, H5T_NATIVE_DOUBLE, s) == 0 &&
                      ds_points(f, name, &rank, dims) == NT * NC,
                  "read %s", name);
            for (i = 0; i < NT; ++i)
                for (q = 0; q < NC; ++q) {
                    double w = f_stat(i, k, cols[q]);
                    bad += memcmp(&s[i * NC + q], &w, sizeof w) != 0;
                }
            CHECK(bad == 0, "%s: %d mismatches", name, bad);
            d = H5Dopen2(f, name, H5P_DEFAULT);
            for (q = 0; q < NC; ++q) {
                static const char *const want[NC] = {"min", "max", "mean", "t_max"};
                CHECK(attr_str(d, "columns", q, cn, sizeof cn) == 0 && !strcmp(cn, want[q]),
                      "%s columns[%d]", name, q);
            }
            H5Dclose(d);
            /* ensemble: quantiles over status 0, NaN ignored */
            snprintf(name, sizeof name, "/ensemble/%s", snames[k]);
            CHECK(read_ds(f, name, H5T_NATIVE_DOUBLE, en) == 0 &&
                      ds_points(f, name, &rank, dims) == NC * 3 && dims[0] == NC && dims[1] == 3,
                  "read %s", name);
            bad = 0;
            for (q = 0; q < NC; ++q) {
                const double qq[3] = {0.05, 0.5, 0.95};
                for (n = 0, i = 0; i < NT; ++i)
                    if ((f_status(i) & ~HS_ST_WARNINGS) == 0) vals[n++] = f_stat(i, k, cols[q]);
                for (j = 0; j < 3; ++j) {
                    double w = ref_quantile(vals, n, qq[j]);
                    if (!(en[q * 3 + j] == w)) {
                        printf("  %s[%d][%d] = %.17g, want %.17g\n", name, q, j, en[q * 3 + j], w);
                        ++bad;
                    }
                }
            }
            CHECK(bad == 0, "%s quantiles", name);
            if (k < 2) { /* the table's min row: the file's quantiles times 180/pi or 1e-6 */
                const double fk = k == 0 ? 180.0 / 3.14159265358979323846 : 1e-6;
                char row[160];
                snprintf(row, sizeof row, "  %-11s %-6s %13.6g %13.6g %13.6g  %s\n", snames[k], "min", fk * en[0],
                         fk * en[1], fk * en[2], k == 0 ? "deg" : "MPa");
                CHECK(table && strstr(table, row), "table row in the units of the field:\n%s\nin\n%s", row,
                      table ? table : "");
            }
            d = H5Dopen2(f, name, H5P_DEFAULT);
            CHECK(attr_long(d, "failed_total") == 4 && attr_long(d, "finished") == 6 &&
                      attr_long(d, "failed_maxiter") == 2 &&
                      attr_long(d, "failed_nonfinite") == 1 &&
                      attr_long(d, "failed_singular") == 1 && attr_long(d, "failed_invalid") == 1 &&
                      attr_long(d, "failed_stroke") == 0 && attr_long(d, "warned_total") == 2 &&
                      attr_long(d, "warned_cavitation") == 2 && attr_long(d, "warned_implausible") == 1,
                  "%s failure and warning counts", name);
            H5Dclose(d);
        }
        for (k = 0; k < NTR; ++k) {
            double t[NT * NTIME];
            char name[64];
            snprintf(name, sizeof name, "/traj/%s", tnames[k]);
            CHECK(read_ds(f, name, H5T_NATIVE_DOUBLE, t) == 0, "read %s", name);
            bad = 0;
            for (i = 0; i < NT; ++i)
                for (j = 0; j < NTIME; ++j) {
                    double w = f_traj(i, k, j);
                    bad += memcmp(&t[i * NTIME + j], &w, sizeof w) != 0;
                }
            CHECK(bad == 0, "%s: %d mismatches", name, bad);
        }
        {
            hid_t g = H5Gopen2(f, "/ensemble", H5P_DEFAULT);
            CHECK(attr_long(g, "failed_total") == 4 && attr_long(g, "failed_invalid") == 1,
                  "/ensemble counts");
            H5Gclose(g);
        }
        check_status_table(f, path);
        {
            char s[128];
            hid_t d = H5Dopen2(f, "/params", H5P_DEFAULT);
            CHECK(attr_str(d, "names", 1, s, sizeof s) == 0 && !strcmp(s, pnames[1]),
                  "/params names");
            CHECK(attr_str(d, "units", 0, s, sizeof s) == 0 && !strcmp(s, "m"), "/params units");
            H5Dclose(d);
            CHECK(attr_str(f, "model_path", 0, s, sizeof s) == 0 &&
                      !strcmp(s, "models/fourbar.yaml"),
                  "model_path");
            CHECK(attr_str(f, "method", 0, s, sizeof s) == 0 && !strcmp(s, "monte_carlo"),
                  "method");
            CHECK(attr_str(f, "device", 0, s, sizeof s) == 0 && !strcmp(s, "test CPU"), "device");
            CHECK(attr_str(f, "commit", 0, s, sizeof s) == 0 && !strcmp(s, "abc"), "commit");
            /* what a reader needs of the model, stored */
            CHECK(attr_str(f, "model_name", 0, s, sizeof s) == 0 && !strcmp(s, "fourbar"), "model_name");
            CHECK(attr_str(f, "signal_units", 1, s, sizeof s) == 0 && !strcmp(s, "Pa") &&
                      attr_str(f, "signal_units", 2, s, sizeof s) == 0 && !strcmp(s, "N"),
                  "signal_units");
            CHECK(attr_str(f, "traj_units", 0, s, sizeof s) == 0 && !strcmp(s, "rad"), "traj_units");
            CHECK(attr_str(f, "joint_names", 1, s, sizeof s) == 0 && !strcmp(s, "slider") &&
                      attr_str(f, "joint_kinds", 1, s, sizeof s) == 0 && !strcmp(s, "prismatic") &&
                      attr_str(f, "joint_kinds", 0, s, sizeof s) == 0 && !strcmp(s, "revolute"),
                  "joint_names, joint_kinds");
            CHECK(attr_long(f, "seed") == 42 && attr_long(f, "n_total") == NT &&
                      attr_long(f, "i_begin") == 0 && attr_long(f, "i_end") == NT &&
                      attr_long(f, "chunk") == CH && attr_long(f, "complete") == 1,
                  "numeric root attributes");
        }
        {
            hid_t d = H5Dopen2(f, "/sweep_text", H5P_DEFAULT), t = H5Dget_type(d),
                  mt = H5Tcopy(H5T_C_S1);
            char s[256] = {0};
            H5Tset_size(mt, H5Tget_size(t));
            CHECK(H5Tget_size(t) < sizeof s &&
                      H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, s) >= 0 &&
                      !strcmp(s, "sweep:\n  instances: 10\n"),
                  "/sweep_text");
            H5Tclose(mt);
            H5Tclose(t);
            H5Dclose(d);
        }
    }
    H5Fclose(f);

    /* CSV: header, first row, row count */
    {
        FILE *fc = fopen(csv, "r");
        char want[4096];
        int lines = 0;
        CHECK(fc != NULL, "open %s", csv);
        if (!fc) return;
        CHECK(fgets(line, sizeof line, fc) != NULL &&
                  !strcmp(line,
                          "instance,status,steps,newton_mean,newton_max,rejected_steps,cylinders[0].d_piston,"
                          "valves[0].tau,"
                          "crank_angle_min,crank_angle_max,crank_angle_mean,crank_angle_t_max,"
                          "p_piston_min,p_piston_max,p_piston_mean,p_piston_t_max,"
                          "F_lift_min,F_lift_max,F_lift_mean,F_lift_t_max\n"),
              "CSV header: %s", line);
        /* instance 4: failed, a NaN mean */
        for (k = 0; k < 5; ++k) CHECK(fgets(line, sizeof line, fc) != NULL, "CSV row %d", k);
        {
            size_t w =
                (size_t)snprintf(want, sizeof want, "4,6,%ld,%.17g,%d,%ld,%.17g,%.17g", f_steps(4),
                                 f_nmean(4), f_nmax(4), f_rejected(4), f_param(4, 0), f_param(4, 1));
            for (k = 0; k < NS; ++k)
                for (q = 0; q < NC; ++q) {
                    double v = f_stat(4, k, cols[q]);
                    w += (size_t)(isnan(v) ? snprintf(want + w, sizeof want - w, ",nan")
                                           : snprintf(want + w, sizeof want - w, ",%.17g", v));
                }
            snprintf(want + w, sizeof want - w, "\n");
        }
        CHECK(!strcmp(line, want), "CSV row of instance 4:\n  got  %s  want %s", line, want);
        lines = 6;
        while (fgets(line, sizeof line, fc)) ++lines;
        CHECK(lines == NT + 1, "CSV has %d lines, want %d", lines, NT + 1);
        fclose(fc);
    }
    free(table);
}

/* Interrupted after 2 of 4 chunks, resumed: the same datasets as the uninterrupted run. */
static void test_resume(void)
{
    char path[128], part[128], ref[128], csv[128], refcsv[128];
    hs_results_layout L;
    hs_results_meta M;
    hs_results *r = NULL;
    hs_error e;
    int rc, np = 0;
    char names[4][112], mp[256];
    double vals[4];
    path_in(path, sizeof path, "b.h5");
    path_in(part, sizeof part, "b.h5.part");
    path_in(ref, sizeof ref, "a.h5");
    path_in(csv, sizeof csv, "b.csv");
    path_in(refcsv, sizeof refcsv, "a.csv");
    make_layout(&L, &M, 0, NT, CH, 42);
    rc = hs_results_create(path, &L, &M, &r, &e);
    CHECK(rc == 0, "create b");
    if (rc) return;
    write_chunks(r, 0, 4, 2, 0);
    rc = hs_results_finish(r, NULL, &e);
    CHECK(rc == HS_ERR_ARG && strstr(e.msg, "chunks 1, 3"), "finish with chunks missing: %s",
          e.msg);
    hs_results_close(r); /* the interruption */
    r = NULL;
    CHECK(exists(part) && !exists(path), "interrupted: only the .part file");

    /* reading an instance of the .part file: written chunk yes, missing chunk no */
    rc = hs_results_read_instance(path, 7, 4, names, vals, &np, mp, sizeof mp, &e);
    CHECK(rc == 0 && np == NP && vals[0] == f_param(7, 0) && vals[1] == f_param(7, 1),
          "read instance 7 of the .part");
    rc = hs_results_read_instance(part, 4, 4, names, vals, &np, mp, sizeof mp, &e);
    CHECK(rc == HS_ERR_ARG && strstr(e.msg, "chunk 1"), "instance 4 not written yet: %s", e.msg);
    /* /status of the rows never written reads -1 (not run), never 0 (finished) */
    {
        int st[NT], k, ok = 1;
        hid_t f = H5Fopen(part, H5F_ACC_RDONLY, H5P_DEFAULT);
        CHECK(f >= 0 && read_ds(f, "/status", H5T_NATIVE_INT, st) == 0, "read /status of the .part");
        for (k = 0; f >= 0 && k < NT; ++k) {
            int written = (k / CH) % 2 == 0; /* chunks 0 and 2 */
            if (written ? st[k] == -1 : st[k] != -1) ok = 0;
        }
        CHECK(ok, "unwritten rows' status -1, written rows' their own");
        if (f >= 0) H5Fclose(f);
    }

    /* a different seed is a different sweep */
    make_layout(&L, &M, 0, NT, CH, 43);
    rc = hs_results_resume(path, &L, &M, &r, &e);
    CHECK(rc != 0 && r == NULL && strstr(e.msg, "was made by a different sweep") &&
              strstr(e.msg, "seed 42 vs 43"),
          "resume with another seed: %s", e.msg);
    make_layout(&L, &M, 0, NT, 2, 42);
    rc = hs_results_resume(path, &L, &M, &r, &e);
    CHECK(rc != 0 && strstr(e.msg, "chunk 3 vs 2"), "resume with another chunk: %s", e.msg);
    make_layout(&L, &M, 0, NT, CH, 42);
    M.sweep_text = "sweep:\n  instances: 11\n";
    rc = hs_results_resume(path, &L, &M, &r, &e);
    CHECK(rc != 0 && strstr(e.msg, "sweep text differs"), "resume with another sweep text: %s",
          e.msg);

    make_layout(&L, &M, 0, NT, CH, 42);
    M.device = "another machine"; /* the run's description may differ */
    rc = hs_results_resume(path, &L, &M, &r, &e);
    CHECK(rc == 0, "resume");
    if (rc) {
        show_err(&e);
        return;
    }
    CHECK(hs_results_chunk_done(r, 0) && !hs_results_chunk_done(r, 1) &&
              hs_results_chunk_done(r, 2) && !hs_results_chunk_done(r, 3),
          "done chunks after resume");
    write_chunks(r, 0, 4, 1, 1);
    rc = hs_results_finish(r, NULL, &e);
    CHECK(rc == 0, "finish the resumed run");
    hs_results_close(r);
    check_same_datasets(ref, path, "resumed vs uninterrupted");
    check_same_files(refcsv, csv, "resumed vs uninterrupted CSV");
    rc = hs_results_resume(path, &L, &M, &r, &e);
    CHECK(rc != 0 && strstr(e.msg, "nothing to resume"), "resume a finished run: %s", e.msg);
}

/* A real interruption: a child process writes two chunks and is killed (no close, no
 * flush at exit); the parent resumes the file it left. */
static hs_results *crash_r; /* reachable at the kill: valgrind sees no leak of the child */
static void test_crash(void)
{
    char path[128], ref[128];
    hs_results_layout L;
    hs_results_meta M;
    hs_results *r = NULL;
    hs_error e;
    pid_t pid;
    int status = 0, rc;
    long c;
    batch b;
    path_in(path, sizeof path, "k.h5");
    path_in(ref, sizeof ref, "a.h5");
    make_layout(&L, &M, 0, NT, CH, 42);
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        if (hs_results_create(path, &L, &M, &crash_r, &e)) _exit(3);
        for (c = 0; c < 2; ++c) {
            make_batch(&b, 0, NT, CH, c);
            if (hs_results_write_chunk(crash_r, c, b.params, &b.bo, &e)) _exit(4);
        }
        raise(SIGKILL); /* between two chunks, the file open for writing */
        _exit(5);
    }
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) &&
              WTERMSIG(status) == SIGKILL,
          "child killed (status %d)", status);
    rc = hs_results_resume(path, &L, &M, &r, &e);
    CHECK(rc == 0, "resume after a kill");
    if (rc) {
        show_err(&e);
        return;
    }
    CHECK(hs_results_chunk_done(r, 0) && hs_results_chunk_done(r, 1) &&
              !hs_results_chunk_done(r, 2) && !hs_results_chunk_done(r, 3),
          "chunks 0 and 1 survived the kill");
    write_chunks(r, 2, 4, 1, 0);
    rc = hs_results_finish(r, NULL, &e);
    CHECK(rc == 0, "finish after the kill");
    if (rc) show_err(&e);
    hs_results_close(r);
    check_same_datasets(ref, path, "killed and resumed vs uninterrupted");
}

static void test_merge(void)
{
    char s[5][128], out[128], ref[128], csv[128], refcsv[128];
    const char *pieces[5];
    hs_error e;
    int rc;
    path_in(s[0], sizeof s[0], "s0.h5");
    path_in(s[1], sizeof s[1], "s1.h5");
    path_in(s[2], sizeof s[2], "s2.h5");
    path_in(s[3], sizeof s[3], "s3.h5");
    path_in(s[4], sizeof s[4], "s4.h5");
    path_in(out, sizeof out, "m.h5");
    path_in(ref, sizeof ref, "a.h5");
    path_in(csv, sizeof csv, "m.csv");
    path_in(refcsv, sizeof refcsv, "a.csv");
    CHECK(run_range(s[0], 0, 3, CH, 42, 1, NULL) == 0, "shard [0, 3)");
    CHECK(run_range(s[1], 3, 7, CH, 42, 1, NULL) == 0, "shard [3, 7)");
    CHECK(run_range(s[2], 7, 10, CH, 42, 1, NULL) == 0, "shard [7, 10)");
    CHECK(run_range(s[3], 7, 7, CH, 42, 1, NULL) == 0, "empty shard [7, 7)");
    CHECK(run_range(s[4], 3, 7, CH, 99, 1, NULL) == 0, "shard [3, 7) of another seed");
    /* any order, with an empty shard */
    pieces[0] = s[2];
    pieces[1] = s[0];
    pieces[2] = s[3];
    pieces[3] = s[1];
    rc = hs_results_merge(out, pieces, 4, &e);
    CHECK(rc == 0, "merge");
    if (rc) show_err(&e);
    check_same_datasets(ref, out, "merged vs single run");
    check_same_files(refcsv, csv, "merged vs single run CSV");
    { /* the model's description and the units go through a merge */
        hid_t f = H5Fopen(out, H5F_ACC_RDONLY, H5P_DEFAULT);
        char v[64];
        CHECK(f >= 0 && attr_str(f, "signal_units", 2, v, sizeof v) == 0 && !strcmp(v, "N") &&
                  attr_str(f, "traj_units", 1, v, sizeof v) == 0 && !strcmp(v, "Pa") &&
                  attr_str(f, "joint_kinds", 1, v, sizeof v) == 0 && !strcmp(v, "prismatic") &&
                  attr_str(f, "model_name", 0, v, sizeof v) == 0 && !strcmp(v, "fourbar"),
              "merged file: units, joints, model name");
        if (f >= 0) check_status_table(f, out);
        if (f >= 0) H5Fclose(f);
    }
    /* gap, overlap, mismatch */
    pieces[0] = s[0];
    pieces[1] = s[2];
    rc = hs_results_merge(out, pieces, 2, &e);
    CHECK(rc == HS_ERR_ARG && strstr(e.msg, "instances [3, 7) are in no shard"), "gap: %s", e.msg);
    pieces[0] = s[0];
    pieces[1] = s[1];
    pieces[2] = s[1];
    pieces[3] = s[2];
    rc = hs_results_merge(out, pieces, 4, &e);
    CHECK(rc == HS_ERR_ARG && strstr(e.msg, "overlap in instances [3, 7)"), "overlap: %s", e.msg);
    pieces[0] = s[0];
    pieces[1] = s[4];
    pieces[2] = s[2];
    rc = hs_results_merge(out, pieces, 3, &e);
    CHECK(rc == HS_ERR_ARG && strstr(e.msg, "not from the same sweep") &&
              strstr(e.msg, "seed 42 vs 99"),
          "mismatch: %s", e.msg);
    pieces[0] = s[0];
    pieces[1] = s[1];
    rc = hs_results_merge(out, pieces, 2, &e);
    CHECK(rc == HS_ERR_ARG && strstr(e.msg, "[7, 10) are in no shard"), "missing tail: %s", e.msg);
    /* the failed merges left the good merged file alone and no .part behind */
    {
        char mp[140];
        snprintf(mp, sizeof mp, "%s.part", out);
        CHECK(!exists(mp), "no merge .part left");
    }
    check_same_datasets(ref, out, "merged file after failed merges");
}

static void test_read_instance(void)
{
    char path[128], names[4][112], mp[64], small[4];
    double vals[4];
    int np = -1, rc;
    hs_error e;
    path_in(path, sizeof path, "a.h5");
    rc = hs_results_read_instance(path, 5, 4, names, vals, &np, mp, sizeof mp, &e);
    CHECK(rc == 0, "read instance 5");
    CHECK(np == NP && !strcmp(names[0], pnames[0]) && !strcmp(names[1], pnames[1]), "names");
    CHECK(vals[0] == f_param(5, 0) && vals[1] == f_param(5, 1), "values");
    CHECK(!strcmp(mp, "models/fourbar.yaml"), "model path %s", mp);
    rc = hs_results_read_instance(path, NT, 4, names, vals, &np, mp, sizeof mp, &e);
    CHECK(rc == HS_ERR_ARG && strstr(e.msg, "not in this file"), "instance %d: %s", NT, e.msg);
    rc = hs_results_read_instance(path, 1, 4, names, vals, &np, small, sizeof small, &e);
    CHECK(rc == HS_ERR_LIMIT, "model path buffer too small");
    /* max smaller than nparam: filled up to max, count is the file's */
    rc = hs_results_read_instance(path, 2, 1, names, vals, &np, NULL, 0, &e);
    CHECK(rc == 0 && np == NP && vals[0] == f_param(2, 0), "max 1");
    {
        char nf[128];
        path_in(nf, sizeof nf, "nope.h5");
        rc = hs_results_read_instance(nf, 0, 4, names, vals, &np, NULL, 0, &e);
        CHECK(rc == HS_ERR_IO && strstr(e.file, "nope.h5"), "missing file: %s", e.msg);
    }
}

/* Bad layouts are refused with a message, nothing is created. */
static void test_bad_layout(void)
{
    char path[128], part[140];
    hs_results_layout L;
    hs_results_meta M;
    hs_results *r = NULL;
    hs_error e;
    const char *bad[NS] = {"crank_angle", "p/piston", "F_lift"};
    const char *dup[NS] = {"crank_angle", "p_piston", "crank_angle"};
    path_in(path, sizeof path, "bad.h5");
    snprintf(part, sizeof part, "%s.part", path);
    make_layout(&L, &M, 0, NT, CH, 42);
    L.sig_names = bad;
    CHECK(hs_results_create(path, &L, &M, &r, &e) == HS_ERR_ARG && !r && strstr(e.msg, "p/piston"),
          "'/' in a name");
    L.sig_names = dup;
    CHECK(hs_results_create(path, &L, &M, &r, &e) == HS_ERR_ARG && strstr(e.msg, "twice"),
          "duplicate names");
    make_layout(&L, &M, 0, NT, 0, 42);
    CHECK(hs_results_create(path, &L, &M, &r, &e) == HS_ERR_ARG, "chunk 0");
    make_layout(&L, &M, 5, 4, CH, 42);
    CHECK(hs_results_create(path, &L, &M, &r, &e) == HS_ERR_ARG, "empty range backwards");
    CHECK(!exists(part), "nothing created");
    {
        char nodir[160];
        snprintf(nodir, sizeof nodir, "%s/no/such/dir/x.h5", dir);
        make_layout(&L, &M, 0, NT, CH, 42);
        /* checked before anything is created: an output path that cannot be written */
        CHECK(hs_results_create(nodir, &L, &M, &r, &e) == HS_ERR_ARG && strstr(e.file, "x.h5") &&
                  strstr(e.msg, "No such file or directory"),
              "unwritable path: %s", e.msg);
    }
    {
        /* a directory, as the results file or where the CSV goes: refused before the run
         * (not by the rename at the end of it) */
        char d2[200], csvd[200];
        snprintf(d2, sizeof d2, "%s/adir.h5", dir);
        snprintf(csvd, sizeof csvd, "%s/bdir.csv", dir);
        CHECK(mkdir(d2, 0700) == 0 && mkdir(csvd, 0700) == 0, "mkdir");
        CHECK(hs_results_create(d2, &L, &M, &r, &e) == HS_ERR_ARG && !r &&
                  strstr(e.msg, "is a directory"),
              "a directory as results file: %s", e.msg);
        snprintf(d2, sizeof d2, "%s/bdir.h5", dir);
        CHECK(hs_results_create(d2, &L, &M, &r, &e) == HS_ERR_ARG && !r &&
                  strstr(e.file, "bdir.csv") && strstr(e.msg, "is a directory"),
              "a directory where the CSV goes: %s %s", e.file, e.msg);
        CHECK(!exists(d2) && access(csvd, F_OK) == 0, "nothing created");
        rmdir(csvd);
        snprintf(d2, sizeof d2, "%s/adir.h5", dir);
        rmdir(d2);
    }
}

/* Two writers of one results file: the second is refused before it touches the file (the
 * lock is per open file, so two in one process collide as two processes do), the first
 * finishes a valid file; a resume while it runs is refused too; a file replaced behind the
 * writer's back fails at the next chunk, never reported as a success. */
static void test_lock(void)
{
    hs_results_layout L;
    hs_results_meta M;
    hs_results *r = NULL, *r2 = NULL;
    hs_error e;
    batch b;
    char path[200], part[220];
    int rc;
    snprintf(path, sizeof path, "%s/lock.h5", dir);
    snprintf(part, sizeof part, "%s.part", path);
    make_layout(&L, &M, 0, NT, CH, 42);
    rc = hs_results_create(path, &L, &M, &r, &e);
    CHECK(rc == 0, "create: %s", e.msg);
    if (rc) return;
    make_batch(&b, 0, NT, CH, 0);
    CHECK(hs_results_write_chunk(r, 0, b.params, &b.bo, &e) == 0, "chunk 0");
    rc = hs_results_create(path, &L, &M, &r2, &e);
    CHECK(rc == HS_ERR_ARG && !r2 && strstr(e.msg, "locked") && strstr(e.file, "lock.h5.part"),
          "second writer refused: %d %s", rc, e.msg);
    rc = hs_results_resume(path, &L, &M, &r2, &e);
    CHECK(rc == HS_ERR_ARG && !r2 && strstr(e.msg, "locked"), "resume while written refused: %s",
          e.msg);
    write_chunks(r, 1, (NT + CH - 1) / CH, 1, 0);
    CHECK(hs_results_finish(r, NULL, &e) == 0 && exists(path) && !exists(part),
          "the first writer finishes: %s", e.msg);
    hs_results_close(r);
    r = NULL;

    /* replaced behind the writer's back */
    rc = hs_results_create(path, &L, &M, &r, &e);
    CHECK(rc == 0, "create again: %s", e.msg);
    if (rc) return;
    CHECK(rename(path, part) == 0, "another file put in place of the .part");
    make_batch(&b, 0, NT, CH, 0);
    rc = hs_results_write_chunk(r, 0, b.params, &b.bo, &e);
    CHECK(rc == HS_ERR_IO && strstr(e.msg, "replaced by another process"),
          "a replaced file fails: %d %s", rc, e.msg);
    hs_results_close(r);
    remove(part);
}

/* Model and sweep texts beyond HDF5's 64 KiB attribute limit; an empty shard and no
 * trajectories or parameters. */
static void test_big_text(void)
{
    char path[128];
    hs_results_layout L;
    hs_results_meta M;
    hs_results *r = NULL;
    hs_error e;
    size_t n = 300000, k;
    char *text = (char *)malloc(n + 1);
    int rc;
    CHECK(text != NULL, "malloc");
    if (!text) return;
    for (k = 0; k < n; ++k) text[k] = (char)('a' + k % 26);
    text[n] = '\0';
    path_in(path, sizeof path, "t.h5");
    make_layout(&L, &M, 4, 4, CH, 42);
    L.nparam = 0;
    L.ntraj = 0;
    L.ntime = 0;
    M.model_text = text;
    rc = hs_results_create(path, &L, &M, &r, &e);
    CHECK(rc == 0 && hs_results_nchunk(r) == 0, "create with a 300 kB model text, no rows");
    if (rc) show_err(&e);
    hs_results_close(r);
    r = NULL;
    rc = hs_results_resume(path, &L, &M, &r, &e);
    CHECK(rc == 0, "resume: the big text read back equal");
    if (rc) show_err(&e);
    rc = hs_results_finish(r, NULL, &e);
    CHECK(rc == 0, "finish an empty shard");
    hs_results_close(r);
    free(text);
}

/* Identical inputs: identical datasets and, no times being stored, identical files. */
static void test_identical(void)
{
    char p1[128], p2[128];
    path_in(p1, sizeof p1, "i1.h5");
    path_in(p2, sizeof p2, "i2.h5");
    CHECK(run_range(p1, 0, NT, CH, 42, 1, NULL) == 0 && run_range(p2, 0, NT, CH, 42, 1, NULL) == 0,
          "two runs");
    check_same_datasets(p1, p2, "two identical runs");
    check_same_files(p1, p2, "two identical runs, whole files");
}

/* String attribute name of the group or dataset at path obj of file p into buf. */
static int file_attr_str(const char *p, const char *obj, const char *name, char *buf, size_t n)
{
    hid_t f = H5Fopen(p, H5F_ACC_RDONLY, H5P_DEFAULT), o;
    int rc = -1;
    buf[0] = '\0';
    if (f < 0) return -1;
    if ((o = H5Oopen(f, obj, H5P_DEFAULT)) >= 0) {
        rc = attr_str(o, name, 0, buf, n);
        H5Oclose(o);
    }
    H5Fclose(f);
    return rc;
}

/* Backend gpu: quantiles through hs_gpu_quantiles, or on the host when no device works (this
 * machine without a GPU, a build without CUDA); the same values as a cpu run either way, and
 * the file and the table say where they were computed. */
static void test_quantiles_on(void)
{
    char pc[128], pg[128], pg2[128], cc[128], cg[128], on[64], gname[128];
    char *table = NULL;
    size_t tn = 0;
    FILE *rep = open_memstream(&table, &tn);
    int have = hs_gpu_available(gname, sizeof gname), k;
    const char *want = have ? "gpu (Thrust)" : "host";
    path_in(pc, sizeof pc, "qc.h5");
    path_in(pg, sizeof pg, "qg.h5");
    path_in(pg2, sizeof pg2, "qg2.h5");
    path_in(cc, sizeof cc, "qc.csv");
    path_in(cg, sizeof cg, "qg.csv");
    run_backend = "cpu";
    CHECK(run_range(pc, 0, NT, CH, 42, 1, NULL) == 0, "cpu run");
    run_backend = "gpu";
    CHECK(run_range(pg, 0, NT, CH, 42, 1, rep) == 0, "gpu run");
    CHECK(run_range(pg2, 0, NT, CH, 42, 1, NULL) == 0, "second gpu run");
    run_backend = "cpu";
    fclose(rep);
    CHECK(file_attr_str(pc, "/ensemble", "quantiles_on", on, sizeof on) == 0 && !strcmp(on, "host"),
          "cpu run: /ensemble quantiles_on '%s', want 'host'", on);
    CHECK(file_attr_str(pg, "/ensemble", "quantiles_on", on, sizeof on) == 0 && !strcmp(on, want),
          "gpu run (%s): /ensemble quantiles_on '%s', want '%s'", have ? gname : "no device", on,
          want);
    {
        char line[96];
        snprintf(line, sizeof line, "95%%  unit  quantiles on %s\n", want);
        CHECK(table && strstr(table, line), "gpu run table says '%s':\n%s", line,
              table ? table : "");
    }
    free(table);
    /* the quantiles (and every other dataset) are the cpu run's, byte for byte */
    check_same_datasets(pc, pg, "gpu-backend run vs cpu run");
    check_same_files(cc, cg, "gpu-backend run vs cpu run CSV");
    for (k = 0; k < NS; ++k) {
        hid_t f1 = H5Fopen(pc, H5F_ACC_RDONLY, H5P_DEFAULT),
              f2 = H5Fopen(pg, H5F_ACC_RDONLY, H5P_DEFAULT);
        char name[64];
        snprintf(name, sizeof name, "/ensemble/%s", snames[k]);
        CHECK(f1 >= 0 && f2 >= 0 && ds_same(f1, f2, name), "%s: gpu-backend quantiles equal", name);
        if (f1 >= 0) H5Fclose(f1);
        if (f2 >= 0) H5Fclose(f2);
    }
    /* no time or run-dependent value in the attribute: two gpu runs, identical files */
    check_same_files(pg, pg2, "two identical gpu-backend runs, whole files");
}

/* ---- checksums (docs/results-format.md, Checksums) ---- */

static int copy_file(const char *from, const char *to)
{
    long n;
    char *b = slurp(from, &n);
    FILE *f;
    int ok;
    if (!b) return -1;
    f = fopen(to, "wb");
    ok = f && fwrite(b, 1, (size_t)n, f) == (size_t)n;
    if (f && fclose(f) != 0) ok = 0;
    free(b);
    return ok ? 0 : -1;
}

/* XORs 0x5a into byte `at` of the raw data of dataset name in file p: of its chunk `chunk`
 * (H5Dget_chunk_info: where HDF5 stored it) or, for a contiguous dataset (chunk < 0), of its
 * data (H5Dget_offset). What a disk, a copy or a transfer error does to a file. */
static int flip_byte(const char *p, const char *name, int chunk, long at)
{
    hid_t f = H5Fopen(p, H5F_ACC_RDONLY, H5P_DEFAULT), d = -1, s = -1;
    haddr_t addr = HADDR_UNDEF;
    hsize_t size = 0, off[2];
    unsigned mask = 0;
    FILE *fp;
    int c, ok = 0;
    if (f >= 0 && (d = H5Dopen2(f, name, H5P_DEFAULT)) >= 0 && (s = H5Dget_space(d)) >= 0) {
        if (chunk >= 0) {
            if (H5Dget_chunk_info(d, s, (hsize_t)chunk, off, &mask, &addr, &size) < 0)
                addr = HADDR_UNDEF;
        } else {
            addr = H5Dget_offset(d);
            size = H5Dget_storage_size(d);
        }
    }
    if (s >= 0) H5Sclose(s);
    if (d >= 0) H5Dclose(d);
    if (f >= 0) H5Fclose(f);
    if (addr == HADDR_UNDEF || (hsize_t)at >= size) {
        printf("  flip_byte: no byte %ld in chunk %d of %s in %s\n", at, chunk, name, p);
        return -1;
    }
    if ((fp = fopen(p, "r+b")) != NULL) {
        if (fseek(fp, (long)addr + at, SEEK_SET) == 0 && (c = fgetc(fp)) != EOF &&
            fseek(fp, (long)addr + at, SEEK_SET) == 0 && fputc(c ^ 0x5a, fp) != EOF)
            ok = 1;
        if (fclose(fp) != 0) ok = 0;
    }
    return ok ? 0 : -1;
}

/* Every dataset with data carries the Fletcher32 filter, the texts their crc32 attribute. */
static void check_checksums_stored(const char *p)
{
    hid_t f = H5Fopen(p, H5F_ACC_RDONLY, H5P_DEFAULT);
    const char *names[] = {"/instance",   "/params",         "/status",       "/steps",
                           "/newton_mean", "/newton_max",    "/rejected_steps", "/done",
                           "/traj/time",  "/stats/p_piston", "/traj/p_rod",   "/ensemble/F_lift"};
    int k, bare = 0;
    CHECK(f >= 0, "open %s", p);
    if (f < 0) return;
    for (k = 0; k < (int)(sizeof names / sizeof names[0]); ++k) {
        hid_t d = H5Dopen2(f, names[k], H5P_DEFAULT), dcpl = d >= 0 ? H5Dget_create_plist(d) : -1;
        unsigned flags = 0, conf = 0;
        size_t nv = 0;
        if (dcpl < 0 || H5Pget_filter_by_id2(dcpl, H5Z_FILTER_FLETCHER32, &flags, &nv, NULL, 0, NULL,
                                             &conf) < 0) {
            printf("  %s has no Fletcher32 filter\n", names[k]);
            ++bare;
        }
        if (dcpl >= 0) H5Pclose(dcpl);
        if (d >= 0) H5Dclose(d);
    }
    CHECK(bare == 0, "%s: %d datasets without checksum", p, bare);
    {
        hid_t d = H5Dopen2(f, "/model_text", H5P_DEFAULT);
        long crc = d >= 0 ? attr_long(d, "crc32") : -999;
        CHECK(crc >= 0, "/model_text has the attribute crc32");
        if (d >= 0) H5Dclose(d);
    }
    H5Fclose(f);
}

static void test_checksums(void)
{
    /* shards [0, 3), [3, 7), [7, 10): chunks of 3 rows, piece c1 has chunks 0 (rows 0..2) and
     * 1 (row 3) */
    static const struct {
        const char *ds;
        int chunk;
        long at;
        const char *want;
    } merge_cases[] = {
        {"/status", 0, 5, "dataset /status: checksum mismatch (Fletcher32) in chunk 0 (rows 0..2)"},
        {"/stats/p_piston", 1, 9, "dataset /stats/p_piston: checksum mismatch (Fletcher32) in chunk 1 (rows 3..3)"},
        {"/params", 0, 17, "dataset /params: checksum mismatch (Fletcher32) in chunk 0 (rows 0..2)"},
        {"/traj/p_rod", 0, 60, "dataset /traj/p_rod: checksum mismatch"},
        {"/instance", 1, 0, "dataset /instance: checksum mismatch"},
        {"/newton_mean", 0, 3, "dataset /newton_mean: checksum mismatch"},
        {"/done", 0, 0, "dataset /done: checksum mismatch"},
        {"/traj/time", 0, 8, "dataset /traj/time: checksum mismatch"},
        {"/model_text", -1, 3, "dataset /model_text: checksum mismatch"},
        {"/sweep_text", -1, 0, "dataset /sweep_text: checksum mismatch"},
    };
    /* a .part with chunks 0 and 2 written, 1 and 3 not */
    static const struct {
        const char *ds;
        int chunk;
        long at;
        const char *want;
    } resume_cases[] = {
        {"/status", 2, 2, "dataset /status: checksum mismatch (Fletcher32) in chunk 2 (rows 6..8)"},
        {"/stats/F_lift", 0, 40, "dataset /stats/F_lift: checksum mismatch (Fletcher32) in chunk 0 (rows 0..2)"},
        {"/params", 2, 0, "dataset /params: checksum mismatch (Fletcher32) in chunk 2 (rows 6..8)"},
        {"/traj/crank_angle", 2, 100, "dataset /traj/crank_angle: checksum mismatch (Fletcher32) in chunk 2"},
        {"/rejected_steps", 0, 23, "dataset /rejected_steps: checksum mismatch"},
        {"/done", 0, 1, "dataset /done: checksum mismatch"},
        {"/model_text", -1, 0, "dataset /model_text: checksum mismatch"},
    };
    char c[3][128], x[128], out[128], outpart[140], part[128], q[128], qpart[128], ref[128];
    const char *pieces[3];
    hs_results_layout L;
    hs_results_meta M;
    hs_results *r = NULL;
    hs_error e;
    batch b;
    int k, rc;
    path_in(c[0], sizeof c[0], "c0.h5");
    path_in(c[1], sizeof c[1], "c1.h5");
    path_in(c[2], sizeof c[2], "c2.h5");
    path_in(x, sizeof x, "x1.h5");
    path_in(out, sizeof out, "cm.h5");
    snprintf(outpart, sizeof outpart, "%s.part", out);
    path_in(ref, sizeof ref, "a.h5");
    check_checksums_stored(ref);
    CHECK(run_range(c[0], 0, 3, CH, 42, 1, NULL) == 0, "shard [0, 3)");
    CHECK(run_range(c[1], 3, 7, CH, 42, 1, NULL) == 0, "shard [3, 7)");
    CHECK(run_range(c[2], 7, 10, CH, 42, 1, NULL) == 0, "shard [7, 10)");
    pieces[0] = c[0];
    pieces[1] = x;
    pieces[2] = c[2];
    /* bytes flipped in one piece: the merge fails naming the file, the dataset and the chunk,
     * and leaves no output */
    for (k = 0; k < (int)(sizeof merge_cases / sizeof merge_cases[0]); ++k) {
        CHECK(copy_file(c[1], x) == 0 &&
                  flip_byte(x, merge_cases[k].ds, merge_cases[k].chunk, merge_cases[k].at) == 0,
              "corrupt %s of a piece", merge_cases[k].ds);
        rc = hs_results_merge(out, pieces, 3, &e);
        CHECK(rc == HS_ERR_IO && strstr(e.msg, merge_cases[k].want) && strstr(e.file, "x1.h5") &&
                  strstr(e.msg, "cannot be trusted"),
              "merge with %s corrupt: rc %d, %s: %s", merge_cases[k].ds, rc, e.file, e.msg);
        CHECK(!exists(out) && !exists(outpart), "no merged file after a corrupt piece");
    }
    /* the same piece, intact: the merge is the single run's file */
    pieces[1] = c[1];
    rc = hs_results_merge(out, pieces, 3, &e);
    CHECK(rc == 0, "merge of the intact pieces");
    if (rc) show_err(&e);
    check_same_datasets(ref, out, "merged (intact pieces) vs single run");
    check_checksums_stored(out);

    /* reading one instance checks the rows it reads */
    CHECK(copy_file(ref, x) == 0 && flip_byte(x, "/params", 1, 20) == 0, "corrupt /params");
    {
        char names[4][112], mp[64];
        double vals[4];
        int np = 0;
        rc = hs_results_read_instance(x, 4, 4, names, vals, &np, mp, sizeof mp, &e);
        CHECK(rc == HS_ERR_IO && strstr(e.msg, "dataset /params: checksum mismatch (Fletcher32) in chunk 1 (rows 3..5)"),
              "read an instance of a corrupt /params: %s", e.msg);
        rc = hs_results_read_instance(x, 8, 4, names, vals, &np, mp, sizeof mp, &e);
        CHECK(rc == 0 && vals[1] == f_param(8, 1), "an instance of an intact chunk reads");
    }

    /* resume: the finished chunks of the .part are read (checked) before anything runs */
    path_in(part, sizeof part, "p.h5.part");
    path_in(q, sizeof q, "q.h5");
    path_in(qpart, sizeof qpart, "q.h5.part");
    {
        char pp[128];
        path_in(pp, sizeof pp, "p.h5");
        make_layout(&L, &M, 0, NT, CH, 42);
        rc = hs_results_create(pp, &L, &M, &r, &e);
        CHECK(rc == 0, "create p");
        if (rc) return;
        write_chunks(r, 0, 4, 2, 0);
        hs_results_close(r);
        r = NULL;
    }
    for (k = 0; k < (int)(sizeof resume_cases / sizeof resume_cases[0]); ++k) {
        CHECK(copy_file(part, qpart) == 0 &&
                  flip_byte(qpart, resume_cases[k].ds, resume_cases[k].chunk, resume_cases[k].at) == 0,
              "corrupt %s of the .part", resume_cases[k].ds);
        make_layout(&L, &M, 0, NT, CH, 42);
        rc = hs_results_resume(q, &L, &M, &r, &e);
        CHECK(rc == HS_ERR_IO && !r && strstr(e.msg, resume_cases[k].want) && strstr(e.file, "q.h5.part") &&
                  strstr(e.msg, "cannot be trusted"),
              "resume with %s corrupt: rc %d, %s: %s", resume_cases[k].ds, rc, e.file, e.msg);
        if (r) hs_results_close(r);
        r = NULL;
        CHECK(exists(qpart) && !exists(q), "the corrupt .part is left as it was");
    }
    /* bytes flipped in a chunk not written yet: that chunk is written whole (HDF5 does not
     * read it back), so the run resumes and finishes as the uninterrupted one. (Not so the
     * last chunk, of 1 row in a chunk of 3: HDF5 reads such an edge chunk before writing it,
     * and the write fails on the damaged chunk, naming it.) */
    CHECK(copy_file(part, qpart) == 0 && flip_byte(qpart, "/status", 1, 3) == 0 &&
              flip_byte(qpart, "/stats/p_piston", 1, 7) == 0,
          "corrupt unwritten chunks of the .part");
    make_layout(&L, &M, 0, NT, CH, 42);
    rc = hs_results_resume(q, &L, &M, &r, &e);
    CHECK(rc == 0, "resume with only unwritten chunks corrupt");
    if (rc) {
        show_err(&e);
        return;
    }
    write_chunks(r, 1, 4, 2, 0);
    rc = hs_results_finish(r, NULL, &e);
    CHECK(rc == 0, "finish the resumed run");
    if (rc) show_err(&e);
    hs_results_close(r);
    check_same_datasets(ref, q, "resumed over corrupt unwritten chunks vs uninterrupted");
    /* ... and the edge chunk: its write reads it back, and fails naming it */
    remove(q);
    CHECK(copy_file(part, qpart) == 0 && flip_byte(qpart, "/stats/p_piston", 3, 7) == 0,
          "corrupt the unwritten last chunk of the .part");
    rc = hs_results_resume(q, &L, &M, &r, &e);
    CHECK(rc == 0, "resume with the unwritten last chunk corrupt");
    if (rc) return;
    make_batch(&b, 0, NT, CH, 3);
    rc = hs_results_write_chunk(r, 3, b.params, &b.bo, &e);
    CHECK(rc == HS_ERR_IO &&
              strstr(e.msg, "dataset /stats/p_piston: checksum mismatch (Fletcher32) in chunk 3 (rows 9..9)"),
          "write over a corrupt edge chunk: %s", e.msg);
    hs_results_close(r);
}

/* Removes the scratch directory and whatever the tests left in it. */
static void cleanup(void)
{
    DIR *D = opendir(dir);
    struct dirent *e;
    char p[512];
    while (D && (e = readdir(D)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            remove(p);
        }
    if (D) closedir(D);
    if (rmdir(dir) != 0) printf("note: %s not removed: %s\n", dir, strerror(errno));
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/hs_results_XXXXXX");
    if (!mkdtemp(dir)) {
        printf("mkdtemp: %s\n", strerror(errno));
        return 1;
    }
    test_quantile();
    test_gpu_quantiles();
    test_full_run();
    test_resume();
    test_crash();
    test_merge();
    test_read_instance();
    test_bad_layout();
    test_big_text();
    test_identical();
    test_quantiles_on();
    test_lock();
    test_checksums();
    if (getenv("HS_TEST_KEEP")) /* to look at the files with h5dump */
        printf("files kept in %s\n", dir);
    else
        cleanup();
    return tu_report("test_results");
}
