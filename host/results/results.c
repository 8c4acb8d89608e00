/* results.c -- the results file of a sweep (layout in hs/results.h), written chunk by chunk.
 *
 * Choices and why:
 * - Every dataset is created at its full size with all of its space allocated at once
 *   (H5D_ALLOC_TIME_EARLY). A chunk write then changes raw data only, never the file's
 *   metadata, so a run killed between two chunks leaves a file that opens and resumes.
 * - Every dataset with data carries checksums: HDF5's Fletcher32 filter, one per HDF5 chunk
 *   (the row datasets are chunked by the run's chunk rows, the small ones are one chunk), or,
 *   for the scalar texts /model_text and /sweep_text, which HDF5 cannot chunk, an attribute
 *   crc32. HDF5 verifies a chunk on every read; a mismatch is an error naming the file, the
 *   dataset, the chunk and its rows (hsr_rows_read). The readers of this file check what they
 *   read: merge every dataset of every piece, --resume every finished chunk before it runs
 *   (res_check_done), finishing what the quantiles and the CSV use. The cost: 4 bytes per
 *   chunk, and HDF5 writes every checksummed chunk at creation (zeros, or the fill value),
 *   so the raw data is written twice (docs/results-format.md, Checksums, has the figures).
 * - Fletcher32 cannot see a chunk zeroed or erased (all 0xFF) together with its checksum, nor
 *   tell the 16-bit words 0x0000 and 0xFFFF apart. So each run chunk's rows of every row
 *   dataset also have a CRC-32 (zlib's crc32: the CRC of zeros is not zero) of their bytes as
 *   stored (little-endian, row-major), in /crc (nchunk x nds, uint32; its attribute datasets
 *   names the columns), written with the chunk before /done and checked wherever finished
 *   chunks are used again: --resume, merge, simulate --from (check_chunk).
 * - /done[c] is written and flushed after chunk c's data has been flushed, so a set flag
 *   always means complete rows.
 * - No times are recorded in object headers (H5Pset_obj_track_times off) and nothing
 *   run-dependent goes into a dataset: identical inputs give bit-identical datasets; the
 *   attributes backend, device, version and commit describe the run that made the file.
 * - The model and sweep texts are scalar string datasets /model_text and /sweep_text, not
 *   root attributes: attributes are limited to 64 KiB in the default file format.
 * - Beyond the header's list the root also has format_version, signals, traj_signals and
 *   columns, so that the layout can be read back (resume, merge) without listing groups.
 * - Failure counts (finished, failed_total, failed_<bit>) are attributes of /ensemble and of
 *   every /ensemble/<signal>; /ensemble/<signal> has attrs columns and quantiles.
 * - The ensemble quantiles of a gpu run are computed on the device (hs_gpu_quantiles, Thrust,
 *   host/gpu/backend_gpu.h), one call per column; a call that fails (no device, no memory; always
 *   in a build without CUDA) is redone on the host with hs_quantile, and the columns after it
 *   too. Both use the same formula on the same values, so the quantiles are the same bits
 *   either way. /ensemble's attribute quantiles_on says where they were computed ("gpu
 *   (Thrust)", "host", or "gpu (Thrust) and host" after a failure part way); it is a pure
 *   function of the backend and of whether the device worked, no time, so identical runs
 *   still give identical files. Other backends (and merges of their shards) use the host.
 *   A zero quantile is stored as +0 (the two sorts may order -0 and +0 differently).
 * - HDF5's own error printing is switched off; every failure becomes an hs_error naming the
 *   file and the object.
 * The HDF5 helpers and the run description (layout + metadata read from and written to the
 * root) are in results_h5.c. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "gpu/backend_gpu.h"
#include "base/fileio.h"
#include "hs/sweep.h"
#include "results/results_h5.h"

#define RES_SCRATCH_BYTES ((size_t)8 << 20) /* rows are converted in blocks of about this */
#define RES_NBIT HS_ST_NBITS /* status bits 1 << b (kernels/hs_status.h: 1, 2, 4, ... none skipped) */
#define RES_WARN_BIT(b) (((1 << (b)) & HS_ST_WARNINGS) != 0)

#define HS_ST_NAME_(N, v, name, warn, desc) name,
static const char *const bit_name[RES_NBIT] = {HS_STATUS_BITS(HS_ST_NAME_)};
#undef HS_ST_NAME_
static const double ens_q[3] = {0.05, 0.5, 0.95};

/* ------------------------------------------------------------------------------------------ */
/* quantiles                                                                                  */

static void swap_d(double *x, long a, long b)
{
    double t = x[a];
    x[a] = x[b];
    x[b] = t;
}

static int cmp_double(const void *a, const void *b)
{
    double u = *(const double *)a, v = *(const double *)b;
    return (u > v) - (u < v);
}

/* Puts the k-th smallest of x[0..n) (no NaNs) at x[k], smaller ones before, larger after:
 * quickselect with a three-way partition (runs of equal values cost nothing); falls back to a
 * sort if the pivots keep being poor. */
static double select_kth(double *x, long n, long k)
{
    long lo = 0, hi = n - 1;
    int budget = 2 * 64;
    while (lo < hi) {
        double a = x[lo], b = x[lo + (hi - lo) / 2], c = x[hi], p;
        long lt = lo, i = lo, gt = hi;
        if (--budget < 0) {
            qsort(x + lo, (size_t)(hi - lo + 1), sizeof *x, cmp_double);
            return x[k];
        }
        p = (a < b) ? ((b < c) ? b : (a < c ? c : a)) : ((a < c) ? a : (b < c ? c : b));
        while (i <= gt) {
            if (x[i] < p)
                swap_d(x, lt++, i++);
            else if (x[i] > p)
                swap_d(x, i, gt--);
            else
                ++i;
        }
        if (k < lt)
            hi = lt - 1;
        else if (k > gt)
            lo = gt + 1;
        else
            return x[k];
    }
    return x[k];
}

double hs_quantile(double *x, long n, double q)
{
    long m = 0, i, lo;
    double h, xlo, xhi;
    if (!x || n <= 0 || !(q >= 0.0 && q <= 1.0)) return NAN;
    for (i = 0; i < n; ++i) /* NaNs to the back */
        if (!isnan(x[i])) swap_d(x, m++, i);
    if (m == 0) return NAN;
    h = (double)(m - 1) * q;
    lo = (long)floor(h);
    if (lo > m - 1) lo = m - 1;
    xlo = select_kth(x, m, lo);
    if (h <= (double)lo || lo + 1 >= m) return xlo;
    xhi = x[lo + 1];
    for (i = lo + 2; i < m; ++i)
        if (x[i] < xhi) xhi = x[i];
    /* R's formula, interpolating only between distinct values (Inf stays Inf) */
    if (xhi == xlo) return xlo;
    h -= (double)lo;
    return (1.0 - h) * xlo + h * xhi;
}

/* "1, 3, 5-9" of the chunks not done (list cut short with ", ..."). */
static void missing_list(const unsigned char *done, long nchunk, char *buf, size_t n)
{
    long c = 0, e;
    size_t k = 0;
    buf[0] = '\0';
    while (c < nchunk) {
        int w;
        if (done[c]) {
            ++c;
            continue;
        }
        for (e = c; e + 1 < nchunk && !done[e + 1]; ++e) {
        }
        if (k + 40 >= n) {
            snprintf(buf + k, n - k, ", ...");
            return;
        }
        w = e > c ? snprintf(buf + k, n - k, "%s%ld-%ld", k ? ", " : "", c, e)
                  : snprintf(buf + k, n - k, "%s%ld", k ? ", " : "", c);
        if (w > 0) k += (size_t)w;
        c = e + 1;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* the results object                                                                         */

enum {
    K_INSTANCE = 0, K_PARAMS, K_STATUS, K_STEPS, K_NMEAN, K_NMAX, K_REJECTED, K_STATS, K_TRAJ,
    K_EIG_RE, K_EIG_IM, K_EIG_MAXRE, K_EIG_MINZ, K_EIG_STATUS /* /eig (outputs.eigenvalues), after /traj */
};
#define K_NEIG 5 /* the /eig datasets */
#define K_NFIXED 7 /* the row datasets before the statistics: K_INSTANCE .. K_REJECTED */

typedef struct rds {
    char name[RES_NAME_MAX + 16];
    int kind, sig, rank;
    long ncols;
    hid_t ftype, mtype; /* predefined types: never closed */
    size_t msize;       /* bytes of one element in memory */
    hid_t id;
} rds;

struct hs_results {
    char *path, *part, *csv; /* final file, file being written, CSV summary */
    const char *open_path;   /* the file actually open (messages) */
    hsr_info I;
    long nrun, nchunk;
    hid_t file, done_ds, crc_ds;
    int nds;
    rds *ds;
    hid_t *ens;          /* (nsig) /ensemble/<signal> */
    unsigned char *done; /* (nchunk) */
    unsigned int *crc;   /* (nchunk x nds) /crc: CRC-32 of each chunk's rows of each row dataset */
    void *scratch;
    size_t scratch_n;
    int readonly;
    int quant_gpu;        /* ensemble quantiles on the device (the run's backend is gpu) */
    const char *quant_on; /* where they were computed (compute_ensemble): quantiles_on */
    int lock_fd;          /* exclusive flock on part while writing it (fileio.h), or -1 */
    int made_part;        /* part was (re)created by this object: removed if that fails */
    int report_si;        /* the printed table in SI units (hs_results_report_si) */
};

/* The backends whose ensemble quantiles are computed on the device. */
static int quantiles_on_gpu(const char *backend)
{
    return backend && !strcmp(backend, "gpu");
}

/* Closes every HDF5 object and the file; < 0 if one failed (the file's flush included). */
static int res_close_h5(hs_results *r)
{
    int k, st = 0;
    if (r->ds)
        for (k = 0; k < r->nds; ++k)
            if (r->ds[k].id >= 0) {
                if (H5Dclose(r->ds[k].id) < 0) st = -1;
                r->ds[k].id = -1;
            }
    if (r->ens)
        for (k = 0; k < r->I.nsig; ++k)
            if (r->ens[k] >= 0) {
                if (H5Dclose(r->ens[k]) < 0) st = -1;
                r->ens[k] = -1;
            }
    if (r->done_ds >= 0 && H5Dclose(r->done_ds) < 0) st = -1;
    if (r->crc_ds >= 0 && H5Dclose(r->crc_ds) < 0) st = -1;
    r->done_ds = r->crc_ds = -1;
    if (r->file >= 0 && H5Fclose(r->file) < 0) st = -1;
    r->file = -1;
    return st;
}

static void res_free(hs_results *r)
{
    if (!r) return;
    res_close_h5(r);
    hsr_info_free(&r->I);
    free(r->ds);
    free(r->ens);
    free(r->done);
    free(r->crc);
    free(r->scratch);
    free(r->path);
    free(r->part);
    free(r->csv);
    if (r->lock_fd >= 0) close(r->lock_fd); /* releases the lock */
    free(r);
}

/* After a failed create: the half-made part is removed (while still locked: no other run can
 * have started on it), so no unusable file is left to resume. */
static void res_discard(hs_results *r)
{
    if (!r || !r->made_part) return;
    res_close_h5(r);
    remove(r->part);
    r->made_part = 0;
}

void hs_results_close(hs_results *r)
{
    res_free(r);
}

static hs_results *res_new(const char *path)
{
    hs_results *r = (hs_results *)calloc(1, sizeof *r);
    size_t k;
    if (!r) return NULL;
    r->file = r->done_ds = r->crc_ds = -1;
    r->lock_fd = -1;
    r->path = hsr_dupstr(path);
    r->part = hsr_catstr(path, ".part");
    k = strlen(path);
    if (r->path && k > 3 && !strcmp(path + k - 3, ".h5")) {
        r->path[k - 3] = '\0';
        r->csv = hsr_catstr(r->path, ".csv");
        r->path[k - 3] = '.';
    } else {
        r->csv = hsr_catstr(path, ".csv");
    }
    if (!r->path || !r->part || !r->csv) {
        res_free(r);
        return NULL;
    }
    r->open_path = r->part;
    return r;
}

int hs_results_check_inputs(const char *path, const char *const *inputs, int n, hs_error *err)
{
    hs_results *r;
    int k, q, rc = HS_OK;
    if (!path || !path[0]) return HS_OK;
    if (!(r = res_new(path))) return hsr_oom(err, path);
    for (q = 0; q < 3 && rc == HS_OK; ++q) {
        const char *o = q == 0 ? r->path : q == 1 ? r->part : r->csv;
        for (k = 0; k < n && rc == HS_OK; ++k)
            if (inputs[k] && hs_same_file(o, inputs[k]))
                rc = hs_error_set(err, HS_ERR_ARG, o, 0, 0, "",
                                  "this output is the input file %s: it would be overwritten "
                                  "(choose another output)",
                                  inputs[k]);
    }
    res_free(r);
    return rc;
}

/* A row dataset's file type, memory type and element size. */
#define RDS_TYPE(d, f, m, T) ((d)->ftype = (f), (d)->mtype = (m), (d)->msize = sizeof(T))

/* The row datasets (names, types, shapes) of r->I; ids not yet open. */
static int res_table(hs_results *r)
{
    static const char *const fixed[K_NFIXED] = {"instance",   "params",     "status",        "steps",
                                                "newton_mean", "newton_max", "rejected_steps"};
    static const char *const eign[K_NEIG] = {"re", "im", "max_real", "min_damping", "status"};
    int k, n = K_NFIXED + r->I.nsig + r->I.ntraj + (r->I.neig > 0 ? K_NEIG : 0);
    r->nrun = r->I.i_end - r->I.i_begin;
    r->nchunk = (r->nrun + r->I.chunk - 1) / r->I.chunk;
    r->ds = (rds *)calloc((size_t)n, sizeof *r->ds);
    r->ens = (hid_t *)calloc((size_t)r->I.nsig + 1, sizeof *r->ens);
    r->done = (unsigned char *)calloc((size_t)r->nchunk + 1, 1);
    r->crc = (unsigned int *)calloc((size_t)r->nchunk * (size_t)n + 1, sizeof *r->crc);
    if (!r->ds || !r->ens || !r->done || !r->crc) return -1;
    r->nds = n;
    for (k = 0; k < r->I.nsig; ++k) r->ens[k] = -1;
    for (k = 0; k < n; ++k) {
        rds *d = &r->ds[k];
        d->id = -1;
        d->rank = 1;
        d->ncols = 1;
        if (k < K_NFIXED) {
            d->kind = k;
            snprintf(d->name, sizeof d->name, "/%s", fixed[k]);
        } else if (k < K_NFIXED + r->I.nsig) {
            d->kind = K_STATS;
            d->sig = k - K_NFIXED;
            d->rank = 2;
            d->ncols = r->I.ncol;
            snprintf(d->name, sizeof d->name, "/stats/%s", r->I.sname[d->sig]);
        } else if (k < K_NFIXED + r->I.nsig + r->I.ntraj) {
            d->kind = K_TRAJ;
            d->sig = k - K_NFIXED - r->I.nsig;
            d->rank = 2;
            d->ncols = r->I.ntime;
            snprintf(d->name, sizeof d->name, "/traj/%s", r->I.tname[d->sig]);
        } else {
            int e = k - (K_NFIXED + r->I.nsig + r->I.ntraj);
            d->kind = K_EIG_RE + e;
            snprintf(d->name, sizeof d->name, "/eig/%s", eign[e]);
        }
        if (d->kind == K_PARAMS || d->kind == K_EIG_RE || d->kind == K_EIG_IM) {
            d->rank = 2;
            d->ncols = d->kind == K_PARAMS ? r->I.nparam : r->I.neig;
        }
        if (d->kind == K_INSTANCE || d->kind == K_STEPS || d->kind == K_REJECTED)
            RDS_TYPE(d, H5T_STD_I64LE, H5T_NATIVE_LONG, long);
        else if (d->kind == K_STATUS || d->kind == K_NMAX || d->kind == K_EIG_STATUS)
            RDS_TYPE(d, H5T_STD_I32LE, H5T_NATIVE_INT, int);
        else
            RDS_TYPE(d, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, double);
    }
    return 0;
}

/* Rows converted per block so that one block stays near RES_SCRATCH_BYTES. */
static long block_rows(const rds *d)
{
    size_t row = (size_t)(d->ncols > 0 ? d->ncols : 1) * d->msize;
    long b = (long)(RES_SCRATCH_BYTES / row);
    return b > 0 ? b : 1;
}

static void *res_scratch(hs_results *r, size_t bytes)
{
    if (bytes > r->scratch_n) {
        void *p = realloc(r->scratch, bytes);
        if (!p) return NULL;
        r->scratch = p;
        r->scratch_n = bytes;
    }
    return r->scratch;
}

/* Rows of a row dataset; errors name the file and the dataset. crc (if not NULL) continues
 * with the rows' bytes. */
static int ds_rows_write(hs_results *r, const rds *d, long row0, long nrows, const void *buf,
                         unsigned long *crc, hs_error *err)
{
    int st = hsr_rows_io(d->id, d->rank, d->ncols, d->mtype, row0, nrows, buf, NULL);
    if (crc && st == 0) *crc = hsr_crc32_add(*crc, buf, (size_t)nrows * (size_t)d->ncols * d->msize);
    /* -2: a chunk changed in part failed its checksum when read back (HDF5 reads it first) */
    if (st == -2)
        return hsr_checksum_fail(d->id, d->name, d->rank, d->ncols, row0, nrows, r->open_path, err);
    if (st < 0)
        return hsr_fail(err, r->open_path, "cannot write rows %ld..%ld of %s", row0,
                        row0 + nrows - 1, d->name);
    return HS_OK;
}

/* Rows of a row dataset, their checksums verified by HDF5: a damaged chunk is an error naming
 * the dataset, the chunk and its rows. */
static int ds_rows_read(hs_results *r, const rds *d, long row0, long nrows, void *buf,
                        hs_error *err)
{
    return hsr_rows_read(d->id, d->name, d->rank, d->ncols, d->mtype, row0, nrows, buf,
                         r->open_path, err);
}

static int res_verify(const hs_results *r, hs_error *err);

/* The stored bytes are the memory's (checksums of the buffers are the file's): little-endian
 * hosts with the LP64 sizes of the row datasets' types (int32, int64, float64). */
typedef char res_lp64_check[(sizeof(int) == 4 && sizeof(long) == 8 && sizeof(double) == 8) ? 1 : -1];

/* The CRC-32 of chunk c's rows of row dataset k as read back (HDF5 checks Fletcher32 on the way). */
static int chunk_crc(hs_results *r, int k, long c, unsigned long *crc, hs_error *err)
{
    const rds *D = &r->ds[k];
    long a = c * r->I.chunk, e = a + r->I.chunk < r->nrun ? a + r->I.chunk : r->nrun, bl = block_rows(D), b0;
    int rc;
    *crc = hsr_crc32(NULL, 0);
    for (b0 = a; b0 < e && D->ncols > 0; b0 += bl) {
        long nb = e - b0 < bl ? e - b0 : bl;
        size_t bytes = (size_t)nb * (size_t)D->ncols * D->msize;
        void *buf = res_scratch(r, bytes);
        if (!buf) return hsr_oom(err, r->open_path);
        if ((rc = ds_rows_read(r, D, b0, nb, buf, err))) return rc;
        *crc = hsr_crc32_add(*crc, buf, bytes);
    }
    return HS_OK;
}

/* Finished chunk c checked against /crc: every row dataset (only < 0), or the one of kind only. */
static int check_chunk(hs_results *r, long c, int only, hs_error *err)
{
    unsigned long got;
    int k, rc;
    for (k = 0; k < r->nds; ++k) {
        unsigned int want = r->crc[c * r->nds + k];
        long a = c * r->I.chunk, e = a + r->I.chunk < r->nrun ? a + r->I.chunk : r->nrun;
        if (only >= 0 && r->ds[k].kind != only) continue;
        if ((rc = chunk_crc(r, k, c, &got, err))) return rc;
        if (got != want)
            return hs_error_set(err, HS_ERR_IO, r->open_path, 0, 0, "",
                                "results file is damaged: dataset %s: checksum mismatch (CRC-32) in "
                                "chunk %ld (rows %ld..%ld): its rows have CRC-32 0x%08lx, /crc[%ld][%d] "
                                "says 0x%08x: %s",
                                r->ds[k].name, c, a, e - 1, got, c, k, want, HSR_WHY_DAMAGED);
    }
    return HS_OK;
}

/* /crc of a new file: (nchunk x nds), its columns named by the attribute datasets. */
static int make_crc(hs_results *r, hs_error *err)
{
    hsize_t dims[2];
    const char **names = (const char **)malloc((size_t)r->nds * sizeof *names);
    int k, ok;
    if (!names) return hsr_oom(err, r->part);
    for (k = 0; k < r->nds; ++k) names[k] = r->ds[k].name;
    dims[0] = (hsize_t)r->nchunk;
    dims[1] = (hsize_t)r->nds;
    ok = (r->crc_ds = hsr_make_ds(r->file, "/crc", H5T_STD_U32LE, 2, dims, 0, NULL)) >= 0 &&
         hsr_attr_put_strs(r->crc_ds, "datasets", r->nds, names) >= 0 &&
         (r->nchunk == 0 || hsr_write_all(r->crc_ds, H5T_NATIVE_UINT, r->crc) >= 0);
    free(names);
    return ok ? HS_OK : hsr_fail(err, r->part, "cannot write /crc");
}

/* A file system without room for the whole file fails before the run, not hours into it
 * (the datasets' space is reserved at creation and filled chunk by chunk). The estimate is the
 * raw data only, a lower bound: a run it refuses could not have finished. */
static int space_check(const hs_results *r, hs_error *err)
{
    struct statvfs fs;
    struct stat st;
    char dir[1024], a[32], b[32];
    const char *slash = strrchr(r->part, '/');
    double need = (double)r->nchunk, have;
    int k;
    for (k = 0; k < r->nds; ++k)
        need += (double)r->nrun * (double)(r->ds[k].ncols > 0 ? r->ds[k].ncols : 1) *
                (double)H5Tget_size(r->ds[k].ftype);
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == r->part)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - r->part), r->part);
    if (statvfs(dir, &fs) != 0) return HS_OK; /* unknown: HDF5 will tell */
    have = (double)fs.f_bavail * (double)fs.f_frsize;
    if (stat(r->part, &st) == 0) have += (double)st.st_size; /* replaced by the new file */
    if (need <= have) return HS_OK;
    return hs_error_set(err, HS_ERR_IO, r->part, 0, 0, "",
                        "No space left on device: the results need at least %s, the file system "
                        "of %s has %s free",
                        hs_fmt_bytes(need, a, sizeof a), dir, hs_fmt_bytes(have, b, sizeof b));
}

/* The CSV summary's temporary name (written at the end, then renamed) by the rule for
 * outputs, checked before the run: a link planted there fails now, not after the run. */
static int check_csv_part(const hs_results *r, hs_error *err)
{
    char *tmp = hsr_catstr(r->csv, ".part");
    int rc;
    if (!tmp) return hsr_oom(err, r->csv);
    rc = hs_check_output_file(tmp, "CSV summary being written", err);
    free(tmp);
    return rc;
}


/* The ensemble datasets /ensemble/<signal> (NaN until the run finishes; compute_ensemble fills
 * them), in the group /ensemble, which is made here when it is missing. */
static int make_ensemble(hs_results *r, hs_error *err)
{
    const hsr_info *I = &r->I;
    const double nan = NAN;
    hsize_t dims[2];
    hid_t g;
    int k;
    if (H5Lexists(r->file, "/ensemble", H5P_DEFAULT) <= 0) {
        if ((g = hsr_make_group(r->file, "ensemble")) < 0) return hsr_fail(err, r->part, "cannot create group /ensemble");
        H5Gclose(g);
    }
    dims[0] = (hsize_t)I->ncol;
    dims[1] = 3;
    for (k = 0; k < I->nsig; ++k) {
        char name[RES_NAME_MAX + 16];
        snprintf(name, sizeof name, "/ensemble/%s", I->sname[k]);
        if ((r->ens[k] = hsr_make_ds(r->file, name, H5T_IEEE_F64LE, 2, dims, 0, &nan)) < 0 ||
            hsr_put_columns_attr(r->ens[k], I) < 0 ||
            hsr_attr_put(r->ens[k], "quantiles", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 3, ens_q) < 0)
            return hsr_fail(err, r->part, "cannot create %s", name);
    }
    return HS_OK;
}

static int res_create(hs_results *r, hs_error *err)
{
    const hsr_info *I = &r->I;
    hid_t fapl, d;
    hsize_t dims[2];
    long k, b;
    int rc;
    hsr_quiet();
    if (res_table(r) < 0) return hsr_oom(err, r->path);
    r->open_path = r->part;
    /* every output must be writable before anything is created or run: not a directory, a
     * FIFO or a device (the rename at the end would fail after the whole run) */
    if ((rc = hs_check_output_file(r->path, "results file", err)) ||
        (rc = hs_check_output_file(r->csv, "CSV summary", err)) ||
        (rc = hs_check_output_file(r->part, "results file being written", err)) ||
        (rc = check_csv_part(r, err)))
        return rc;
    /* our lock before HDF5 truncates the file: a second run writing the same results is
     * refused instead of emptying the first one's file */
    if ((rc = hs_lock_file(r->part, "results file being written", &r->lock_fd, &r->made_part,
                           err)))
        return rc;
    /* (an empty .part made by the lock goes again if the space check fails; an old one,
     * resumable, stays) */
    if ((rc = space_check(r, err))) return rc;
    if ((fapl = hsr_file_access(0)) < 0)
        return hsr_fail(err, r->part, "cannot make a file access list");
    r->made_part = 1;
    errno = 0;
    r->file = H5Fcreate(r->part, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    H5Pclose(fapl);
    if (r->file < 0) {
        int e = hsr_errno() ? hsr_errno() : errno;
        return hs_error_set(err, HS_ERR_IO, r->part, 0, 0, "", "cannot create the file: %s",
                            e ? strerror(e) : "HDF5 error");
    }
    /* HDF5 opens by name: the file it created must be the one this process locked, not a
     * link or file put at the name meanwhile */
    if ((rc = hs_lock_check(r->lock_fd, r->part, err))) return rc;
    if ((rc = hsr_info_write(r->file, &r->I, r->part, err))) return rc;
    for (k = 0; k < r->nds; ++k) {
        static const double not_run = -1.0;
        rds *D = &r->ds[k];
        long rows = I->chunk < r->nrun ? I->chunk : r->nrun;
        size_t fsize = H5Tget_size(D->ftype), rowb = (size_t)(D->ncols > 0 ? D->ncols : 1) * fsize;
        if ((size_t)rows * rowb > RES_H5CHUNK_MAX) rows = (long)(RES_H5CHUNK_MAX / rowb);
        if (rows < 1) rows = 1;
        dims[0] = (hsize_t)r->nrun;
        dims[1] = (hsize_t)D->ncols;
        /* /status reads -1 (not run) in the rows of chunks not yet written (.part files) */
        if ((D->id = hsr_make_ds(r->file, D->name, D->ftype, D->rank, dims, rows,
                                 (D->kind == K_STATUS || D->kind == K_EIG_STATUS) ? &not_run : NULL)) < 0)
            return hsr_fail(err, r->part, "cannot create dataset %s", D->name);
        if (D->kind == K_PARAMS &&
            (hsr_attr_put_strs(D->id, "names", I->nparam, (const char *const *)I->pname) < 0 ||
             hsr_attr_put_strs(D->id, "units", I->nparam, (const char *const *)I->punit) < 0))
            return hsr_fail(err, r->part, "cannot write the attributes of /params");
        if (D->kind == K_STATS && hsr_put_columns_attr(D->id, I) < 0)
            return hsr_fail(err, r->part, "cannot write the attribute columns of %s", D->name);
    }
    /* /instance: global indices, written once here */
    b = block_rows(&r->ds[K_INSTANCE]);
    for (k = 0; k < r->nrun; k += b) {
        long n = r->nrun - k < b ? r->nrun - k : b, j;
        long *v = (long *)res_scratch(r, (size_t)n * sizeof *v);
        if (!v) return hsr_oom(err, r->part);
        for (j = 0; j < n; ++j) v[j] = I->i_begin + k + j;
        if ((rc = ds_rows_write(r, &r->ds[K_INSTANCE], k, n, v, NULL, err))) return rc;
    }
    dims[0] = (hsize_t)I->ntime;
    if ((d = hsr_make_ds(r->file, "/traj/time", H5T_IEEE_F64LE, 1, dims, 0, NULL)) < 0 ||
        (I->ntime > 0 && hsr_write_all(d, H5T_NATIVE_DOUBLE, I->ttime) < 0)) {
        if (d >= 0) H5Dclose(d);
        return hsr_fail(err, r->part, "cannot write /traj/time");
    }
    H5Dclose(d);
    dims[0] = (hsize_t)r->nchunk;
    if ((r->done_ds = hsr_make_ds(r->file, "/done", H5T_STD_U8LE, 1, dims, 0, NULL)) < 0 ||
        (r->nchunk > 0 && hsr_write_all(r->done_ds, H5T_NATIVE_UCHAR, r->done) < 0))
        return hsr_fail(err, r->part, "cannot write /done");
    if ((rc = make_crc(r, err)) || (rc = make_ensemble(r, err))) return rc;
    if (H5Fflush(r->file, H5F_SCOPE_GLOBAL) < 0)
        return hsr_fail(err, r->part, "cannot flush the file");
    return HS_OK;
}

int hs_results_create(const char *path, const hs_results_layout *L, const hs_results_meta *meta,
                      hs_results **out, hs_error *err)
{
    hs_results *r;
    int rc;
    if (!out || !path || !path[0])
        return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "", "results: no output path");
    *out = NULL;
    if (!(r = res_new(path))) return hsr_oom(err, path);
    if ((rc = hsr_info_from_api(L, meta, r->part, &r->I, err))) {
        res_free(r);
        return rc;
    }
    r->quant_gpu = quantiles_on_gpu(meta ? meta->backend : NULL);
    if ((rc = res_create(r, err))) {
        res_discard(r);
        res_free(r);
        return rc;
    }
    *out = r;
    return HS_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* opening an existing file                                                                   */

/* A dataset without a checksum (made before they were stored, or by another program) is
 * refused: its bytes could not be trusted. */
static int need_checksum(hid_t d, const char *name, const char *fpath, hs_error *err)
{
    int h = hsr_has_checksum(d);
    if (h < 0) return hsr_fail(err, fpath, "cannot read the storage properties of %s", name);
    if (h == 0)
        return hs_error_set(err, HS_ERR_IO, fpath, 0, 0, "",
                            "results file is damaged: dataset %s has no checksum (Fletcher32 "
                            "filter; written by another program?)",
                            name);
    return HS_OK;
}

/* /crc read into r->crc, its shape and column names checked against the row datasets. */
static int open_crc(hs_results *r, const char *fpath, hs_error *err)
{
    hsize_t dims[2] = {0, 0};
    char **names = NULL;
    int k, bad, rc;
    if (H5Lexists(r->file, "/crc", H5P_DEFAULT) <= 0 || (r->crc_ds = H5Dopen2(r->file, "/crc", H5P_DEFAULT)) < 0)
        return hs_error_set(err, HS_ERR_IO, fpath, 0, 0, "",
                            "results file is damaged: it has no /crc (the chunks' CRC-32 checksums)");
    if ((rc = need_checksum(r->crc_ds, "/crc", fpath, err))) return rc;
    bad = hsr_dims(r->crc_ds, dims) != 2 || dims[0] != (hsize_t)r->nchunk || dims[1] != (hsize_t)r->nds ||
          hsr_attr_get_strs_n(r->crc_ds, "datasets", r->nds, &names) < 0;
    for (k = 0; !bad && k < r->nds; ++k) bad = strcmp(names[k], r->ds[k].name) != 0;
    if (names) hsr_free_strs(names, r->nds);
    if (bad)
        return hs_error_set(err, HS_ERR_IO, fpath, 0, 0, "",
                            "results file is damaged: /crc is not (%ld chunks x %d datasets) with "
                            "the attribute datasets naming them",
                            r->nchunk, r->nds);
    if (r->nchunk == 0) return HS_OK;
    return hsr_rows_read(r->crc_ds, "/crc", 2, r->nds, H5T_NATIVE_UINT, 0, r->nchunk, r->crc, fpath, err);
}

/* Opens file fpath (r->part or a finished file), reads its description, opens and checks its
 * datasets, reads /done. rdwr: 0 read (HDF5's file lock), 1 read and write (under our lock,
 * hs_lock_file), 2 read a file this process holds the lock of (no lock). */
static int res_open(hs_results *r, const char *fpath, int rdwr, hs_error *err)
{
    hid_t fapl;
    hssize_t n;
    int k, rc;
    hsr_quiet();
    r->open_path = fpath;
    r->readonly = rdwr != 1;
    if (!hsr_exists(fpath))
        return hs_error_set(err, HS_ERR_IO, fpath, 0, 0, "", "results file not found");
    /* never a FIFO, a device or a directory (HDF5 would block on a FIFO) */
    if ((rc = hs_check_input_file(fpath, "results file", err))) return rc;
    /* a file to continue writing is ours alone (hs_lock_file) */
    if (rdwr == 1 &&
        (rc = hs_lock_file(fpath, "results file being written", &r->lock_fd, NULL, err)))
        return rc;
    if ((fapl = hsr_file_access(rdwr == 0)) < 0)
        return hsr_fail(err, fpath, "cannot make a file access list");
    r->file = H5Fopen(fpath, rdwr == 1 ? H5F_ACC_RDWR : H5F_ACC_RDONLY, fapl);
    H5Pclose(fapl);
    if (r->file < 0)
        return hsr_fail(err, fpath,
                        "cannot open the file (not HDF5, damaged, or open elsewhere: a running "
                        "hydrosweep, or a reader such as h5py holding it; close it and retry)");
    if (rdwr == 1 && (rc = hs_lock_check(r->lock_fd, fpath, err))) return rc;
    if ((rc = hsr_info_read(r->file, fpath, &r->I, err))) return rc;
    if (res_table(r) < 0) return hsr_oom(err, fpath);
    for (k = 0; k < r->nds; ++k) {
        rds *D = &r->ds[k];
        hsize_t dims[2] = {0, 0};
        if ((D->id = H5Dopen2(r->file, D->name, H5P_DEFAULT)) < 0)
            return hsr_fail(err, fpath, "cannot open dataset %s", D->name);
        if (hsr_dims(D->id, dims) != D->rank || dims[0] != (hsize_t)r->nrun ||
            (D->rank == 2 && dims[1] != (hsize_t)D->ncols))
            return hs_error_set(
                err, HS_ERR_IO, fpath, 0, 0, "",
                "results file is damaged: dataset %s does not have %ld rows x %ld columns", D->name,
                r->nrun, D->ncols);
        if ((rc = need_checksum(D->id, D->name, fpath, err))) return rc;
    }
    if (rdwr == 1) {
        /* a run that resumes recomputes /ensemble when it finishes: made anew, so that a finish
         * that failed part way through it (a full disk) leaves a file that resumes */
        if (H5Lexists(r->file, "/ensemble", H5P_DEFAULT) > 0 && H5Ldelete(r->file, "/ensemble", H5P_DEFAULT) < 0)
            return hsr_fail(err, fpath, "cannot remove the unfinished /ensemble");
        if ((rc = make_ensemble(r, err))) return rc;
    } else {
        for (k = 0; k < r->I.nsig; ++k) {
            char name[RES_NAME_MAX + 16];
            snprintf(name, sizeof name, "/ensemble/%s", r->I.sname[k]);
            if ((r->ens[k] = H5Dopen2(r->file, name, H5P_DEFAULT)) < 0)
                return hsr_fail(err, fpath, "cannot open dataset %s", name);
            if ((rc = need_checksum(r->ens[k], name, fpath, err))) return rc;
        }
    }
    if ((r->done_ds = H5Dopen2(r->file, "/done", H5P_DEFAULT)) < 0)
        return hsr_fail(err, fpath, "cannot open dataset /done");
    if ((rc = need_checksum(r->done_ds, "/done", fpath, err))) return rc;
    if ((n = hsr_npoints(H5Dget_space(r->done_ds))) != r->nchunk)
        return hs_error_set(err, HS_ERR_IO, fpath, 0, 0, "",
                            "results file is damaged: /done has %ld entries, expected %ld", (long)n, r->nchunk);
    if (r->nchunk > 0 && (rc = hsr_rows_read(r->done_ds, "/done", 1, 1, H5T_NATIVE_UCHAR, 0,
                                             r->nchunk, r->done, fpath, err)))
        return rc;
    for (k = 0; k < r->nchunk; ++k)
        if (r->done[k] > 1)
            return hs_error_set(err, HS_ERR_IO, fpath, 0, 0, "",
                                "results file is damaged: /done[%d] is %d (0 or 1 expected)", k,
                                r->done[k]);
    return open_crc(r, fpath, err);
}

/* Every finished chunk of every row dataset read once and checked (resume, merge): HDF5
 * verifies each chunk's Fletcher32 on the read and check_chunk its CRC-32, so damaged rows are
 * an error now, before any instance runs, and not at the end (the quantiles and the CSV read
 * /status, /params, /stats and the other per-instance datasets) or never (/traj and /eig are
 * copied into the complete file unread). */
static int res_check_done(hs_results *r, hs_error *err)
{
    long c;
    int rc;
    for (c = 0; c < r->nchunk; ++c)
        if (r->done[c] && (rc = check_chunk(r, c, -1, err))) return rc;
    return HS_OK;
}

/* /params of every finished chunk re-derived from the sampler, as simulate --from does: the
 * sweep and model texts the file stores, its instance count; a value that is not the sweep's
 * (another version's sampler, or a file changed with its checksums) fails. */
static int check_params(hs_results *r, hs_error *err)
{
    const hsr_info *I = &r->I;
    hs_sweep sw;
    hs_model_desc md;
    long c, i;
    int j, rc;
    if (I->nparam == 0 || r->nrun == 0) return HS_OK;
    if ((rc = hs_sweep_load_stored(I->sweep_text, I->sweep_path, I->model_text, &sw, &md, err))) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err ? err->msg : "");
        return hs_error_set(err, HS_ERR_IO, r->open_path, 0, 0, "",
                            "cannot re-derive /params: the sweep the file stores does not load: %s", msg);
    }
    sw.n = I->n_total; /* the run's count (run -n) defines the Latin-hypercube strata */
    rc = sw.nparam == I->nparam ? HS_OK
                                : hs_error_set(err, HS_ERR_IO, r->open_path, 0, 0, "",
                                               "results file is damaged: /params has %d columns, its sweep %d",
                                               I->nparam, sw.nparam);
    for (c = 0; c < r->nchunk && !rc; ++c) {
        long a = c * I->chunk, e = a + I->chunk < r->nrun ? a + I->chunk : r->nrun;
        double *v = NULL;
        if (!r->done[c]) continue;
        if (!(rc = check_chunk(r, c, K_PARAMS, err))) /* its checksums first: damage named as such */
            rc = (v = (double *)res_scratch(r, (size_t)(e - a) * (size_t)I->nparam * sizeof *v))
                     ? ds_rows_read(r, &r->ds[K_PARAMS], a, e - a, v, err)
                     : hsr_oom(err, r->open_path);
        for (i = a; i < e && !rc; ++i)
            for (j = 0; j < I->nparam && !rc; ++j) {
                double want = hs_sweep_sample(&sw, I->i_begin + i, j), got = v[(i - a) * I->nparam + j];
                if (!(got == want || (isnan(got) && isnan(want))) || strcmp(sw.param[j].name, I->pname[j]))
                    rc = hs_error_set(err, HS_ERR_IO, r->open_path, 0, 0, "",
                                      "results file is damaged: /params[%ld][%d] (instance %ld, %s) is %.17g, "
                                      "its sweep gives %.17g (%s): the file was changed or made by another version",
                                      i, j, I->i_begin + i, I->pname[j], got, want, sw.param[j].name);
            }
    }
    hs_sweep_free(&sw);
    hs_model_desc_free(&md);
    return rc;
}

int hs_results_check_params(hs_results *r, hs_error *err)
{
    return r ? check_params(r, err) : hs_error_set(err, HS_ERR_ARG, "", 0, 0, "", "no results");
}

int hs_results_check_params_file(const char *path, hs_error *err)
{
    hs_results *r = path ? res_new(path) : NULL;
    int rc;
    if (!r) return path ? hsr_oom(err, path) : hs_error_set(err, HS_ERR_ARG, "", 0, 0, "", "no results file given");
    if (!(rc = res_open(r, path, 0, err))) rc = check_params(r, err);
    res_free(r);
    return rc;
}

int hs_results_resume(const char *path, const hs_results_layout *L, const hs_results_meta *meta,
                      hs_results **out, hs_error *err)
{
    hs_results *r;
    hsr_info want;
    char diff[400];
    int rc;
    if (!out || !path || !path[0])
        return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "", "results: no output path");
    *out = NULL;
    if (!(r = res_new(path))) return hsr_oom(err, path);
    if ((rc = hsr_info_from_api(L, meta, r->part, &want, err))) {
        res_free(r);
        return rc;
    }
    if (!hsr_exists(r->part)) {
        rc = hsr_exists(r->path)
                 ? hs_error_set(err, HS_ERR_ARG, r->part, 0, 0, "",
                                "nothing to resume: %s is complete (there is no %s)", r->path,
                                r->part)
                 : hs_error_set(err, HS_ERR_ARG, r->part, 0, 0, "",
                                "nothing to resume: no interrupted run (file not found)");
    } else if (!(rc = hs_check_output_file(r->path, "results file", err)) &&
               !(rc = hs_check_output_file(r->csv, "CSV summary", err)) && !(rc = check_csv_part(r, err)) &&
               !(rc = res_open(r, r->part, 1, err))) {
        hsr_info_diff(&r->I, &want, 0, diff, sizeof diff);
        if (diff[0])
            rc =
                hs_error_set(err, HS_ERR_ARG, r->part, 0, 0, "",
                             "results file %s was made by a different sweep (file vs this run): %s",
                             r->part, diff);
        else
            rc = res_check_done(r, err);
    }
    /* the backend of this (resuming) run, which finishes the file, not the file's */
    r->quant_gpu = quantiles_on_gpu(want.backend);
    hsr_info_free(&want);
    if (rc) {
        res_free(r);
        return rc;
    }
    *out = r;
    return HS_OK;
}

long hs_results_nchunk(const hs_results *r)
{
    return r ? r->nchunk : 0;
}

int hs_results_chunk_done(const hs_results *r, long c)
{
    return r && c >= 0 && c < r->nchunk && r->done[c];
}

/* ------------------------------------------------------------------------------------------ */
/* writing chunks                                                                             */

static int set_done(hs_results *r, long c, hs_error *err)
{
    unsigned char one = 1;
    int st = hsr_rows_io(r->crc_ds, 2, r->nds, H5T_NATIVE_UINT, c, 1, r->crc + c * r->nds, NULL);
    if (st == -2) return hsr_checksum_fail(r->crc_ds, "/crc", 2, r->nds, c, 1, r->part, err);
    if (st < 0) return hsr_fail(err, r->part, "cannot write /crc[%ld]", c);
    if (H5Fflush(r->file, H5F_SCOPE_GLOBAL) < 0)
        return hsr_fail(err, r->part, "cannot flush chunk %ld", c);
    /* /done is one checksummed chunk: HDF5 reads it (checking it) to change one flag */
    st = hsr_rows_io(r->done_ds, 1, 1, H5T_NATIVE_UCHAR, c, 1, &one, NULL);
    if (st == -2) return hsr_checksum_fail(r->done_ds, "/done", 1, 1, c, 1, r->part, err);
    if (st < 0) return hsr_fail(err, r->part, "cannot write /done[%ld]", c);
    if (H5Fflush(r->file, H5F_SCOPE_GLOBAL) < 0)
        return hsr_fail(err, r->part, "cannot flush /done[%ld]", c);
    r->done[c] = 1;
    return HS_OK;
}

/* Rows [i0, i0 + nb) of statistic or trajectory dataset D from the SoA batch, row-major. */
static void transpose_rows(const hs_results *r, const rds *D, const hs_batch_out *bo, long i0,
                           long nb, double *dst)
{
    long n = bo->n, nc = D->ncols, i, j, ib, jb;
    if (D->kind == K_STATS) {
        for (j = 0; j < nc; ++j) {
            const double *src = bo->stats + ((long)D->sig * HS_NSTAT + r->I.col[j]) * n + i0;
            for (i = 0; i < nb; ++i) dst[i * nc + j] = src[i];
        }
        return;
    }
    /* trajectories: tiles keep both the strided reads and writes in cache */
    for (ib = 0; ib < nb; ib += 32)
        for (jb = 0; jb < nc; jb += 32) {
            long ie = ib + 32 < nb ? ib + 32 : nb, je = jb + 32 < nc ? jb + 32 : nc;
            for (j = jb; j < je; ++j) {
                const double *src = bo->traj + ((long)D->sig * nc + j) * n + i0;
                for (i = ib; i < ie; ++i) dst[i * nc + j] = src[i];
            }
        }
}

int hs_eig_out_alloc(hs_eig_out *o, long n, int neig)
{
    size_t rows = (size_t)(n > 0 ? n : 1), w = (size_t)(neig > 0 ? neig : 1);
    memset(o, 0, sizeof *o);
    o->n = n;
    o->neig = neig;
    o->re = (double *)calloc(rows * w, sizeof(double));
    o->im = (double *)calloc(rows * w, sizeof(double));
    o->max_real = (double *)calloc(rows, sizeof(double));
    o->min_damping = (double *)calloc(rows, sizeof(double));
    o->status = (int *)calloc(rows, sizeof(int));
    if (!o->re || !o->im || !o->max_real || !o->min_damping || !o->status) {
        hs_eig_out_free(o);
        return HS_ERR_IO;
    }
    return HS_OK;
}

void hs_eig_out_free(hs_eig_out *o)
{
    free(o->re);
    free(o->im);
    free(o->max_real);
    free(o->min_damping);
    free(o->status);
    memset(o, 0, sizeof *o);
}

hs_eig_out hs_eig_out_view(const hs_eig_out *e, long off, long m)
{
    hs_eig_out v;
    v.n = m;
    v.neig = e->neig;
    v.re = e->re + off * e->neig;
    v.im = e->im + off * e->neig;
    v.max_real = e->max_real + off;
    v.min_damping = e->min_damping + off;
    v.status = e->status + off;
    return v;
}

int hs_results_write_chunk(hs_results *r, long c, const double *params, const hs_batch_out *bo,
                           hs_error *err)
{
    return hs_results_write_chunk_eig(r, c, params, bo, NULL, err);
}

int hs_results_write_chunk_eig(hs_results *r, long c, const double *params, const hs_batch_out *bo,
                               const hs_eig_out *eig, hs_error *err)
{
    long row0, cnt, k;
    int rc;
    if (!r || r->file < 0 || r->readonly)
        return hs_error_set(err, HS_ERR_ARG, r ? r->part : "", 0, 0, "",
                            "results file is not open for writing");
    if (c < 0 || c >= r->nchunk)
        return hs_error_set(err, HS_ERR_ARG, r->part, 0, 0, "", "chunk %ld is not in 0..%ld", c,
                            r->nchunk - 1);
    /* still our file (not replaced or removed by another process)? */
    if ((rc = hs_lock_check(r->lock_fd, r->part, err))) return rc;
    row0 = c * r->I.chunk;
    cnt = r->nrun - row0 < r->I.chunk ? r->nrun - row0 : r->I.chunk;
    if (!bo || bo->n != cnt)
        return hs_error_set(err, HS_ERR_ARG, r->part, 0, 0, "",
                            "chunk %ld has %ld instances, the batch %ld", c, cnt, bo ? bo->n : -1L);
    if ((r->I.nparam > 0 && !params) || !bo->status || !bo->steps || !bo->iters_mean ||
        !bo->iters_max || (r->I.nsig > 0 && r->I.ncol > 0 && !bo->stats) ||
        (r->I.ntraj > 0 && r->I.ntime > 0 && (!bo->traj || bo->ntime != r->I.ntime)) ||
        (r->I.neig > 0 && (!eig || !eig->status || eig->neig != r->I.neig || eig->n != cnt)))
        return hs_error_set(err, HS_ERR_ARG, r->part, 0, 0, "",
                            "chunk %ld: batch arrays missing or trajectory length %ld != %ld", c,
                            bo->ntime, r->I.ntime);
    for (k = 0; k < r->nds; ++k) {
        const rds *D = &r->ds[k];
        const void *src = NULL;
        unsigned long crc = hsr_crc32(NULL, 0);
        switch (D->kind) {
        case K_INSTANCE: { /* written at creation: its CRC from the same values */
            long *v = (long *)res_scratch(r, (size_t)cnt * sizeof *v), j;
            if (!v) return hsr_oom(err, r->part);
            for (j = 0; j < cnt; ++j) v[j] = r->I.i_begin + row0 + j;
            r->crc[c * r->nds + k] = (unsigned int)hsr_crc32(v, (size_t)cnt * sizeof *v);
            continue;
        }
        case K_PARAMS: src = params; break;
        case K_STATUS: src = bo->status; break;
        case K_STEPS: src = bo->steps; break;
        case K_NMEAN: src = bo->iters_mean; break;
        case K_NMAX: src = bo->iters_max; break;
        case K_EIG_RE: src = eig->re; break; /* (n x neig) row-major: the rows as stored */
        case K_EIG_IM: src = eig->im; break;
        case K_EIG_MAXRE: src = eig->max_real; break;
        case K_EIG_MINZ: src = eig->min_damping; break;
        case K_EIG_STATUS: src = eig->status; break;
        case K_REJECTED:
            /* a backend that does not keep them ran fixed steps: none rejected */
            if (!(src = bo->rejected)) {
                long *z = (long *)res_scratch(r, (size_t)cnt * sizeof(long));
                if (!z) return hsr_oom(err, r->part);
                memset(z, 0, (size_t)cnt * sizeof(long));
                src = z;
            }
            break;
        default: break;
        }
        if (src) {
            if ((rc = ds_rows_write(r, D, row0, cnt, src, &crc, err))) return rc;
        } else if (D->ncols > 0) {
            long b = block_rows(D), i0;
            for (i0 = 0; i0 < cnt; i0 += b) {
                long nb = cnt - i0 < b ? cnt - i0 : b;
                double *buf =
                    (double *)res_scratch(r, (size_t)nb * (size_t)D->ncols * sizeof(double));
                if (!buf) return hsr_oom(err, r->part);
                transpose_rows(r, D, bo, i0, nb, buf);
                if ((rc = ds_rows_write(r, D, row0 + i0, nb, buf, &crc, err))) return rc;
            }
        }
        r->crc[c * r->nds + k] = (unsigned int)crc;
    }
    return set_done(r, c, err);
}

/* ------------------------------------------------------------------------------------------ */
/* finishing: ensemble statistics, CSV summary, rename                                        */

typedef struct ens_counts {
    long ok, failed, warned, bit[RES_NBIT]; /* ok: finished (warnings allowed); warned: of those,
                                               with a warning bit */
} ens_counts;

static int put_counts(hid_t loc, const ens_counts *E)
{
    char name[32];
    int b;
    if (hsr_attr_put_i64(loc, "finished", E->ok) < 0 ||
        hsr_attr_put_i64(loc, "failed_total", E->failed) < 0 ||
        hsr_attr_put_i64(loc, "warned_total", E->warned) < 0)
        return -1;
    for (b = 0; b < RES_NBIT; ++b) {
        snprintf(name, sizeof name, "%s_%s", RES_WARN_BIT(b) ? "warned" : "failed", bit_name[b]);
        if (hsr_attr_put_i64(loc, name, E->bit[b]) < 0) return -1;
    }
    return 0;
}

/* Status of every row (caller frees *st). */
static int read_status(hs_results *r, int **st, hs_error *err)
{
    *st = (int *)malloc((size_t)(r->nrun > 0 ? r->nrun : 1) * sizeof **st);
    if (!*st) return hsr_oom(err, r->open_path);
    return ds_rows_read(r, &r->ds[K_STATUS], 0, r->nrun, *st, err);
}

/* Quantiles of every stored statistic over the finished instances into ens (nsig x ncol x 3)
 * and the file, on the device if r->quant_gpu (falling back to the host, see the top);
 * failure counts into E and the file; where the quantiles were computed into r->quant_on
 * and the file. */
static int compute_ensemble(hs_results *r, double *ens, ens_counts *E, hs_error *err)
{
    const hsr_info *I = &r->I;
    int *st = NULL, rc, k, c, q, b, gpu_ok = r->quant_gpu;
    double *vals = NULL;
    long i, ngpu = 0, nhost = 0;
    memset(E, 0, sizeof *E);
    if ((rc = read_status(r, &st, err))) goto done;
    for (i = 0; i < r->nrun; ++i) {
        for (b = 0; b < RES_NBIT; ++b)
            if (st[i] >= 0 && (st[i] & (1 << b))) ++E->bit[b];
        if ((st[i] & ~HS_ST_WARNINGS) == 0) { /* finished, perhaps with warnings */
            ++E->ok;
            if (st[i]) ++E->warned;
            continue;
        }
        ++E->failed;
    }
    vals = (double *)malloc((size_t)(E->ok > 0 ? E->ok : 1) * (size_t)(I->ncol > 0 ? I->ncol : 1) *
                            sizeof *vals);
    if (!vals) {
        rc = hsr_oom(err, r->open_path);
        goto done;
    }
    for (k = 0; k < I->nsig; ++k) {
        const rds *D = &r->ds[K_NFIXED + k];
        long b0, bl = block_rows(D), m = 0;
        /* the finished rows, column after column (vals[c * ok + m]) */
        for (b0 = 0; b0 < r->nrun && I->ncol > 0; b0 += bl) {
            long nb = r->nrun - b0 < bl ? r->nrun - b0 : bl;
            double *buf = (double *)res_scratch(r, (size_t)nb * (size_t)I->ncol * sizeof(double));
            if (!buf) {
                rc = hsr_oom(err, r->open_path);
                goto done;
            }
            if ((rc = ds_rows_read(r, D, b0, nb, buf, err))) goto done;
            for (i = 0; i < nb; ++i) {
                if ((st[b0 + i] & ~HS_ST_WARNINGS) != 0) continue; /* failed */
                for (c = 0; c < I->ncol; ++c) vals[(long)c * E->ok + m] = buf[i * I->ncol + c];
                ++m;
            }
        }
        for (c = 0; c < I->ncol; ++c) {
            double *x = vals + (long)c * E->ok, *e = ens + ((long)k * I->ncol + c) * 3;
            if (gpu_ok) {
                if (hs_gpu_quantiles(x, E->ok, ens_q, 3, e) == HS_OK) {
                    ++ngpu;
                    continue;
                }
                gpu_ok = 0; /* no device or no memory: the host from here on */
            }
            for (q = 0; q < 3; ++q) e[q] = hs_quantile(x, E->ok, ens_q[q]);
            ++nhost;
        }
        /* -0 and +0 compare equal, so which of them a quantile returns depends on the sort
         * (Thrust's radix sort vs the quickselect): one zero, the device's and host's bits */
        for (i = 0; i < (long)I->ncol * 3; ++i) {
            double *e = ens + (long)k * I->ncol * 3 + i;
            if (*e == 0.0) *e = 0.0;
        }
    }
    r->quant_on = ngpu == 0 ? "host" : nhost == 0 ? "gpu (Thrust)" : "gpu (Thrust) and host";
done:
    free(st);
    free(vals);
    return rc;
}

/* The ensemble of compute_ensemble into the file: /ensemble/<signal>, the failure counts,
 * quantiles_on. */
static int store_ensemble(hs_results *r, const double *ens, const ens_counts *E, hs_error *err)
{
    const hsr_info *I = &r->I;
    hid_t g;
    int k;
    for (k = 0; k < I->nsig; ++k) {
        if (I->ncol > 0 && hsr_write_all(r->ens[k], H5T_NATIVE_DOUBLE, ens + (long)k * I->ncol * 3) < 0)
            return hsr_fail(err, r->open_path, "cannot write /ensemble/%s", I->sname[k]);
        if (put_counts(r->ens[k], E) < 0)
            return hsr_fail(err, r->open_path, "cannot write the failure counts of /ensemble/%s", I->sname[k]);
    }
    if ((g = H5Gopen2(r->file, "/ensemble", H5P_DEFAULT)) < 0 || put_counts(g, E) < 0 ||
        hsr_attr_put_strs(g, "quantiles_on", -1, (const char *const[1]){r->quant_on}) < 0) {
        if (g >= 0) H5Gclose(g);
        return hsr_fail(err, r->open_path, "cannot write the failure counts and quantiles_on of /ensemble");
    }
    H5Gclose(g);
    return HS_OK;
}

/* Room the end of a run keeps for its own HDF5 writes (store_ensemble, complete, the close),
 * held by a ballast file beside the .part while the CSV takes its space: a disk that fills
 * then fails the CSV (or the ballast) before the .part changes, and the .part resumes; HDF5
 * leaves a file whose last writes failed unreadable (the .part of a run whose disk filled at
 * its close could not be resumed). Bytes: the ensemble's values and attributes, and metadata
 * slack. */
static size_t end_room(const hs_results *r)
{
    size_t b = (size_t)r->I.nsig * ((size_t)r->I.ncol * 3 * sizeof(double) + (3 + RES_NBIT) * 96);
    return 4 * b + ((size_t)64 << 10);
}

static int ballast_make(const char *path, size_t n, hs_error *err)
{
    FILE *f = hs_open_output(path, "space kept for the end of the run", err);
    static const char zero[4096];
    size_t k;
    int e = 0;
    if (!f) return HS_ERR_IO;
    for (k = 0; k < n && !e; k += sizeof zero)
        if (fwrite(zero, 1, sizeof zero, f) != sizeof zero) e = errno ? errno : EIO;
    if (!e && (fflush(f) != 0 || fsync(fileno(f)) != 0)) e = errno;
    if (hs_close_output(f, path, e, err)) {
        remove(path);
        return HS_ERR_IO;
    }
    return HS_OK;
}

/* A CSV field: quoted (RFC 4180) only when it has to be. */
static void csv_name(FILE *f, const char *s, const char *suffix)
{
    if (strpbrk(s, ",\"\r\n") || (suffix && strpbrk(suffix, ",\"\r\n"))) {
        const char *p;
        fputc('"', f);
        for (p = s; *p; ++p) {
            if (*p == '"') fputc('"', f);
            fputc(*p, f);
        }
        if (suffix) fprintf(f, "_%s", suffix);
        fputc('"', f);
    } else if (suffix) {
        fprintf(f, "%s_%s", s, suffix);
    } else {
        fputs(s, f);
    }
}

static void csv_double(FILE *f, double v)
{
    if (isnan(v))
        fputs(",nan", f); /* one spelling whatever the sign bit */
    else
        fprintf(f, ",%.17g", v);
}

/* The CSV summary, written to CSV.part; renamed by rename_csv only after the results file
 * itself is in place, so that a failure in between (a full disk at the results file's last
 * flush) never leaves a finished-looking CSV without its results file. */
static int write_csv(hs_results *r, hs_error *err)
{
    const hsr_info *I = &r->I;
    char *tmp = hsr_catstr(r->csv, ".part");
    FILE *f = NULL;
    const long bl = 4096; /* rows read per block */
    long b0, i;
    int k, j, rc = HS_OK, nd = K_NFIXED + I->nsig; /* the fixed datasets, then /stats/<signal> */
    void **buf = (void **)calloc((size_t)nd, sizeof *buf); /* a block of rows of each (nd) */
    if (!tmp || !buf) {
        rc = hsr_oom(err, r->csv);
        goto done;
    }
    for (k = 0; k < nd; ++k)
        if (!(buf[k] = malloc((size_t)bl * (size_t)(r->ds[k].ncols > 0 ? r->ds[k].ncols : 1) *
                              r->ds[k].msize))) {
            rc = hsr_oom(err, r->csv);
            goto done;
        }
    if (!(f = hs_open_output(tmp, "CSV summary", err))) {
        rc = HS_ERR_IO;
        if (err) err->code = rc;
        goto done;
    }
    fputs("instance,status,steps,newton_mean,newton_max,rejected_steps", f);
    for (j = 0; j < I->nparam; ++j) {
        fputc(',', f);
        csv_name(f, I->pname[j], NULL);
    }
    for (k = 0; k < I->nsig; ++k)
        for (j = 0; j < I->ncol; ++j) {
            fputc(',', f);
            csv_name(f, I->sname[k], hsr_stat_name[I->col[j]]);
        }
    fputc('\n', f);
    for (b0 = 0; b0 < r->nrun; b0 += bl) {
        long nb = r->nrun - b0 < bl ? r->nrun - b0 : bl;
        const double *par = (const double *)buf[K_PARAMS];
        for (k = 0; k < nd; ++k)
            if ((rc = ds_rows_read(r, &r->ds[k], b0, nb, buf[k], err))) goto done;
        for (i = 0; i < nb; ++i) {
            fprintf(f, "%ld,%d,%ld", ((long *)buf[K_INSTANCE])[i], ((int *)buf[K_STATUS])[i],
                    ((long *)buf[K_STEPS])[i]);
            csv_double(f, ((double *)buf[K_NMEAN])[i]);
            fprintf(f, ",%d,%ld", ((int *)buf[K_NMAX])[i], ((long *)buf[K_REJECTED])[i]);
            for (j = 0; j < I->nparam; ++j) csv_double(f, par[i * I->nparam + j]);
            for (k = 0; k < I->nsig; ++k)
                for (j = 0; j < I->ncol; ++j)
                    csv_double(f, ((const double *)buf[K_NFIXED + k])[i * I->ncol + j]);
            fputc('\n', f);
        }
    }
done:
    /* every write, the flush and the close checked (a full disk: No space left on device) */
    if (f) {
        hs_error e2;
        if (hs_close_output(f, tmp, 0, &e2) && !rc)
            rc = hs_error_set(err, HS_ERR_IO, tmp, 0, 0, "", "the CSV summary: %s", e2.msg);
    }
    if (rc && f) remove(tmp);
    for (k = 0; buf && k < nd; ++k) free(buf[k]);
    free(buf);
    free(tmp);
    return rc;
}

/* A quantile as the summary table prints it: values below HS_SUMMARY_ZERO times the signal's
 * scale (its largest quantile magnitude, t_max aside) are round-off or decay residue (a spool
 * at -1e-95 V after closing) and read as 0; -0 reads as 0. The file and the CSV keep the
 * values as computed. */
#define HS_SUMMARY_ZERO 1e-12
/* The units of the field for the printed table: (SI unit, factor, unit shown). Python's
 * results.ENGINEERING is the same table (python/tests/test_results_py.py compares the two). */
#define HS_DEG (180.0 / 3.14159265358979323846)
static const struct {
    const char *si, *shown;
    double k;
} k_eng[] = {
    {"Pa", "MPa", 1e-6},  {"rad", "deg", HS_DEG}, {"rad/s", "deg/s", HS_DEG}, {"m", "mm", 1e3},
    {"m/s", "mm/s", 1e3}, {"m^3/s", "L/min", 6e4},      {"m^3", "L", 1e3},             {"m^3/rev", "cm^3/rev", 1e6},
};

/* The unit of row (signal k, statistic c) of the summary and the factor from the stored SI
 * value: s for t_max, else the signal's in the units of the field (si: as stored; "-" for a
 * count or a ratio). */
static const char *row_unit(const hsr_info *I, int k, int c, int si, double *factor)
{
    const char *u = I->sunit && I->sunit[k] && I->sunit[k][0] ? I->sunit[k] : "-";
    size_t j;
    *factor = 1.0;
    if (I->col[c] == HS_STAT_TMAX) return "s";
    for (j = 0; !si && j < sizeof k_eng / sizeof k_eng[0]; ++j)
        if (!strcmp(u, k_eng[j].si)) {
            *factor = k_eng[j].k;
            return k_eng[j].shown;
        }
    return u;
}

static double shown_value(double v, double scale)
{
    if (v == 0.0 || (isfinite(v) && fabs(v) < HS_SUMMARY_ZERO * scale)) return 0.0;
    return v;
}

static void print_table(const hs_results *r, FILE *f, const double *ens, const ens_counts *E)
{
    const hsr_info *I = &r->I;
    int k, c, b, w = 6, uw = 4, first = 1, si = r->report_si;
    double fk;
    for (k = 0; k < I->nsig; ++k) {
        if ((int)strlen(I->sname[k]) > w) w = (int)strlen(I->sname[k]);
        for (c = 0; c < I->ncol; ++c)
            if ((int)strlen(row_unit(I, k, c, si, &fk)) > uw) uw = (int)strlen(row_unit(I, k, c, si, &fk));
    }
    fprintf(f, "ensemble: %ld instances, %ld finished, %ld failed", r->nrun, E->ok, E->failed);
    /* per failure bit: an instance may carry several, so the counts may add up to more */
    for (b = 0; b < RES_NBIT; ++b)
        if (E->bit[b] && !RES_WARN_BIT(b)) {
            fprintf(f, "%s%s %ld", first ? " (status bits: " : ", ", bit_name[b], E->bit[b]);
            first = 0;
        }
    if (!first) fputs("; an instance may carry several)", f);
    fputc('\n', f);
    /* warnings do not fail an instance; its values count in the quantiles below */
    if (E->warned) {
        fprintf(f, "  WARNING: %ld of the finished instances carry warnings (", E->warned);
        for (first = 1, b = 0; b < RES_NBIT; ++b)
            if (E->bit[b] && RES_WARN_BIT(b)) {
                fprintf(f, "%s%s %ld", first ? "" : ", ", bit_name[b], E->bit[b]);
                first = 0;
            }
        fputs("); see /status and docs/results-format.md\n", f);
    }
    if (I->nsig == 0 || I->ncol == 0) return;
    /* each row in its own unit: the signal's in the units of the field (or SI), s for t_max */
    fprintf(f, "  %-*s %-6s %13s %13s %13s  %-*s  quantiles on %s\n", w, "signal", "stat", "5%", "50%",
            "95%", uw, "unit", r->quant_on ? r->quant_on : "host");
    for (k = 0; k < I->nsig; ++k) {
        double scale = 0.0;
        for (c = 0; c < I->ncol; ++c) {
            const double *e = ens + ((long)k * I->ncol + c) * 3;
            int j;
            if (I->col[c] == HS_STAT_TMAX) continue;
            for (j = 0; j < 3; ++j)
                if (isfinite(e[j]) && fabs(e[j]) > scale) scale = fabs(e[j]);
        }
        for (c = 0; c < I->ncol; ++c) {
            const double *e = ens + ((long)k * I->ncol + c) * 3;
            const char *u = row_unit(I, k, c, si, &fk);
            double sc = I->col[c] == HS_STAT_TMAX ? 0.0 : scale;
            fprintf(f, "  %-*s %-6s %13.6g %13.6g %13.6g  %s\n", w, c ? "" : I->sname[k],
                    hsr_stat_name[I->col[c]], fk * shown_value(e[0], sc), fk * shown_value(e[1], sc),
                    fk * shown_value(e[2], sc), u);
        }
    }
}

/* CSV.part to CSV (after the results file's rename), or CSV.part removed when the finish
 * failed (ok 0). */
static int rename_csv(hs_results *r, int ok, hs_error *err)
{
    char *tmp = hsr_catstr(r->csv, ".part");
    int rc = HS_OK;
    if (!tmp) return hsr_oom(err, r->csv);
    /* the rule for outputs again (a link put at the name during the run is not replaced) */
    if (ok) rc = hs_check_output_file(r->csv, "CSV summary", err);
    if (ok && !rc && rename(tmp, r->csv) != 0)
        rc = hs_error_set(err, HS_ERR_IO, r->csv, 0, 0, "", "cannot rename %s to it: %s", tmp,
                          strerror(errno));
    if (!ok || rc) remove(tmp);
    free(tmp);
    return rc;
}

void hs_results_report_si(hs_results *r, int si)
{
    if (r) r->report_si = si;
}

int hs_results_finish(hs_results *r, void *fv, hs_error *err)
{
    FILE *f = (FILE *)fv;
    ens_counts E;
    double *ens;
    char miss[300];
    long c, nmiss = 0;
    int one = 1, rc, csv_written = 0;
    if (!r || r->file < 0 || r->readonly)
        return hs_error_set(err, HS_ERR_ARG, r ? r->part : "", 0, 0, "",
                            "results file is not open for writing (already finished?)");
    for (c = 0; c < r->nchunk; ++c) nmiss += !r->done[c];
    if (nmiss) {
        missing_list(r->done, r->nchunk, miss, sizeof miss);
        return hs_error_set(err, HS_ERR_ARG, r->part, 0, 0, "",
                            "cannot finish: %ld of %ld chunks are not written (chunks %s)", nmiss,
                            r->nchunk, miss);
    }
    ens = (double *)malloc((size_t)(r->I.nsig > 0 ? r->I.nsig : 1) *
                           (size_t)(r->I.ncol > 0 ? r->I.ncol : 1) * 3 * sizeof *ens);
    if (!ens) return hsr_oom(err, r->part);
    if ((rc = compute_ensemble(r, ens, &E, err))) goto done;
    /* the CSV first, with the room for the rest kept (end_room): nothing in the .part changes
     * until the CSV is written */
    {
        char *ball = hsr_catstr(r->part, ".room");
        if (!ball) {
            rc = hsr_oom(err, r->part);
            goto done;
        }
        rc = ballast_make(ball, end_room(r), err);
        if (!rc) rc = write_csv(r, err);
        remove(ball);
        free(ball);
        if (rc) goto done;
    }
    csv_written = 1;
    if ((rc = store_ensemble(r, ens, &E, err))) goto done;
    if (hsr_attr_put(r->file, "complete", H5T_STD_I32LE, H5T_NATIVE_INT, -1, &one) < 0) {
        rc = hsr_fail(err, r->part, "cannot write the attribute complete");
        goto done;
    }
    if (res_close_h5(r) < 0) {
        rc = hsr_fail(err, r->part, "cannot close the file (flush failed?)");
        goto done;
    }
    /* success is reported only for the file this run wrote, as it wrote it */
    if ((rc = hs_lock_check(r->lock_fd, r->part, err)) || (rc = res_verify(r, err)) ||
        (rc = hs_check_output_file(r->path, "results file", err)))
        goto done;
    if (rename(r->part, r->path) != 0) {
        rc = hs_error_set(err, HS_ERR_IO, r->path, 0, 0, "", "cannot rename %s to it: %s", r->part,
                          strerror(errno));
        goto done;
    }
    r->open_path = r->path;
    csv_written = 0; /* rename_csv removes CSV.part itself when it fails */
    if ((rc = rename_csv(r, 1, err))) goto done;
    if (f) print_table(r, f, ens, &E);
done:
    if (rc && csv_written) rename_csv(r, 0, NULL);
    free(ens);
    return rc;
}

/* The closed part, read back: every chunk done, complete set, the same layout and sweep as
 * written (a file changed behind our back, by a process that ignored the lock, fails here). */
static int res_verify(const hs_results *r, hs_error *err)
{
    hs_results *v = res_new(r->path);
    char diff[400];
    long c;
    int rc, complete = 0;
    if (!v) return hsr_oom(err, r->part);
    rc = res_open(v, r->part, 2, err);
    if (!rc) {
        hsr_info_diff(&r->I, &v->I, 0, diff, sizeof diff);
        for (c = 0; c < v->nchunk && v->done[c]; ++c) {
        }
        if (diff[0] || c < v->nchunk || hsr_attr_get_int(v->file, "complete", &complete) < 0 ||
            complete != 1)
            rc = hs_error_set(err, HS_ERR_IO, r->part, 0, 0, "",
                              "the file read back differs from what was written (%s): changed "
                              "by another process? its results cannot be trusted",
                              diff[0] ? diff : "chunks or the attribute complete");
    } else {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err ? err->msg : "");
        rc = hs_error_set(err, HS_ERR_IO, r->part, 0, 0, "",
                          "the file cannot be read back after writing (changed by another "
                          "process?): %s",
                          msg);
    }
    res_free(v);
    return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* reading one instance                                                                       */

int hs_results_read_instance(const char *path, long i, int max, char names[][112], double *values,
                             int *nparam, char *model_path, size_t model_path_n, hs_error *err)
{
    hs_results *r;
    const char *fp;
    long row, chunk, k, iv = -1;
    double *row_v = NULL;
    int rc;
    if (!path || !path[0])
        return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "", "results: no file given");
    if (!(r = res_new(path))) return hsr_oom(err, path);
    /* an interrupted run's file is found by its final name too */
    fp = !hsr_exists(path) && hsr_exists(r->part) ? r->part : path;
    if ((rc = res_open(r, fp, 0, err))) goto done;
    if (i < r->I.i_begin || i >= r->I.i_end) {
        rc = hs_error_set(err, HS_ERR_ARG, fp, 0, 0, "",
                          "instance %ld is not in this file (it holds [%ld, %ld))", i, r->I.i_begin,
                          r->I.i_end);
        goto done;
    }
    row = i - r->I.i_begin;
    chunk = row / r->I.chunk;
    if (!r->done[chunk]) {
        rc = hs_error_set(err, HS_ERR_ARG, fp, 0, 0, "",
                          "instance %ld is in chunk %ld, which the run has not written yet", i,
                          chunk);
        goto done;
    }
    if ((rc = check_chunk(r, chunk, K_INSTANCE, err)) || (rc = check_chunk(r, chunk, K_PARAMS, err)) ||
        (rc = ds_rows_read(r, &r->ds[K_INSTANCE], row, 1, &iv, err)))
        goto done;
    if (iv != i) {
        rc = hs_error_set(err, HS_ERR_IO, fp, 0, 0, "",
                          "results file is damaged: /instance[%ld] is %ld, not %ld", row, iv, i);
        goto done;
    }
    row_v = (double *)malloc((size_t)(r->I.nparam > 0 ? r->I.nparam : 1) * sizeof *row_v);
    if (!row_v) {
        rc = hsr_oom(err, fp);
        goto done;
    }
    if ((rc = ds_rows_read(r, &r->ds[K_PARAMS], row, 1, row_v, err))) goto done;
    for (k = 0; k < r->I.nparam && k < max; ++k) {
        if (strlen(r->I.pname[k]) >= 112) {
            rc = hs_error_set(err, HS_ERR_LIMIT, fp, 0, 0, "",
                              "parameter name '%.60s...' is too long", r->I.pname[k]);
            goto done;
        }
        if (names) memcpy(names[k], r->I.pname[k], strlen(r->I.pname[k]) + 1);
        if (values) values[k] = row_v[k];
    }
    if (model_path && model_path_n > 0) {
        if (strlen(r->I.model_path) >= model_path_n) {
            rc = hs_error_set(err, HS_ERR_LIMIT, fp, 0, 0, "", "model path '%.60s...' is too long",
                              r->I.model_path);
            goto done;
        }
        memcpy(model_path, r->I.model_path, strlen(r->I.model_path) + 1);
    }
    if (nparam) *nparam = r->I.nparam;
done:
    free(row_v);
    res_free(r);
    return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* merging shards                                                                             */

/* Copies every row dataset (but /instance) of piece p into its rows of out. */
static int merge_copy(hs_results *out, hs_results *p, hs_error *err)
{
    long off = p->I.i_begin, k, b0;
    int rc;
    for (k = 0; k < out->nds; ++k) {
        const rds *D = &out->ds[k], *S = &p->ds[k];
        long bl = block_rows(D);
        if (D->ncols == 0) continue;
        for (b0 = 0; b0 < p->nrun; b0 += bl) {
            long nb = p->nrun - b0 < bl ? p->nrun - b0 : bl, i;
            void *buf = res_scratch(out, (size_t)nb * (size_t)D->ncols * D->msize);
            if (!buf) return hsr_oom(err, out->part);
            /* every chunk read is checked (HDF5 verifies its checksum) */
            if ((rc = ds_rows_read(p, S, b0, nb, buf, err))) return rc;
            if (D->kind == K_INSTANCE) { /* the output has its own; the piece's must agree */
                for (i = 0; i < nb; ++i)
                    if (((long *)buf)[i] != off + b0 + i)
                        return hs_error_set(err, HS_ERR_IO, p->open_path, 0, 0, "",
                                            "results file is damaged: /instance[%ld] is %ld, "
                                            "not %ld",
                                            b0 + i, ((long *)buf)[i], off + b0 + i);
                continue;
            }
            if ((rc = ds_rows_write(out, D, off + b0, nb, buf, NULL, err))) return rc;
        }
    }
    return HS_OK;
}

int hs_results_merge(const char *outp, const char *const *pieces, int npieces, hs_error *err)
{
    hs_results **P = NULL, *out = NULL;
    int *ord = NULL, k, j, rc = HS_OK, made = 0;
    char diff[400], miss[300];
    long cur, c, nm;
    if (!outp || !outp[0] || !pieces || npieces < 1)
        return hs_error_set(err, HS_ERR_ARG, outp ? outp : "", 0, 0, "",
                            "merge: an output and at least one piece are needed");
    /* the output must not be one of the pieces (its .part would be emptied first) */
    if ((rc = hs_results_check_inputs(outp, pieces, npieces, err))) return rc;
    P = (hs_results **)calloc((size_t)npieces, sizeof *P);
    ord = (int *)malloc((size_t)npieces * sizeof *ord);
    if (!P || !ord) {
        rc = hsr_oom(err, outp);
        goto done;
    }
    for (k = 0; k < npieces; ++k) {
        if (!pieces[k] || !(P[k] = res_new(pieces[k]))) {
            rc = pieces[k] ? hsr_oom(err, pieces[k])
                           : hs_error_set(err, HS_ERR_ARG, "", 0, 0, "",
                                          "merge: piece %d has no path", k);
            goto done;
        }
        if ((rc = res_open(P[k], pieces[k], 0, err))) goto done;
        for (c = 0, nm = 0; c < P[k]->nchunk; ++c) nm += !P[k]->done[c];
        if (nm) {
            missing_list(P[k]->done, P[k]->nchunk, miss, sizeof miss);
            rc = hs_error_set(err, HS_ERR_ARG, pieces[k], 0, 0, "",
                              "shard is not finished: %ld of %ld chunks missing (chunks %s)", nm,
                              P[k]->nchunk, miss);
            goto done;
        }
        if ((rc = res_check_done(P[k], err))) goto done; /* every chunk against /crc */
        if (k > 0) {
            hsr_info_diff(&P[0]->I, &P[k]->I, 1, diff, sizeof diff);
            if (diff[0]) {
                rc = hs_error_set(err, HS_ERR_ARG, pieces[k], 0, 0, "",
                                  "shard is not from the same sweep as %s (that vs this): %s",
                                  pieces[0], diff);
                goto done;
            }
        }
        ord[k] = k;
    }
    /* instance order (insertion sort: few pieces) */
    for (k = 1; k < npieces; ++k)
        for (j = k; j > 0 && (P[ord[j]]->I.i_begin < P[ord[j - 1]]->I.i_begin ||
                              (P[ord[j]]->I.i_begin == P[ord[j - 1]]->I.i_begin &&
                               P[ord[j]]->I.i_end < P[ord[j - 1]]->I.i_end));
             --j) {
            int t = ord[j];
            ord[j] = ord[j - 1];
            ord[j - 1] = t;
        }
    cur = 0;
    for (k = 0, j = -1; k < npieces; ++k) {
        const hsr_info *I = &P[ord[k]]->I;
        if (I->i_begin == I->i_end) continue; /* an empty shard covers nothing */
        if (I->i_begin > cur) {
            rc = hs_error_set(err, HS_ERR_ARG, outp, 0, 0, "",
                              "merge: instances [%ld, %ld) are in no shard", cur, I->i_begin);
            goto done;
        }
        if (I->i_begin < cur) {
            rc = hs_error_set(err, HS_ERR_ARG, outp, 0, 0, "",
                              "merge: shards %s and %s overlap in instances [%ld, %ld)",
                              pieces[ord[j]], pieces[ord[k]], I->i_begin,
                              cur < I->i_end ? cur : I->i_end);
            goto done;
        }
        cur = I->i_end;
        j = k;
    }
    if (cur < P[0]->I.n_total) {
        rc = hs_error_set(err, HS_ERR_ARG, outp, 0, 0, "",
                          "merge: instances [%ld, %ld) are in no shard", cur, P[0]->I.n_total);
        goto done;
    }
    if (!(out = res_new(outp)) || hsr_info_copy(&P[0]->I, &out->I) < 0) {
        rc = hsr_oom(err, outp);
        goto done;
    }
    out->I.i_begin = 0; /* one file of the whole sweep, the first piece's chunk size */
    out->I.i_end = out->I.n_total;
    out->quant_gpu = quantiles_on_gpu(out->I.backend); /* the pieces' backend */
    made = 1;
    if ((rc = res_create(out, err))) goto done;
    for (k = 0; k < npieces; ++k)
        if ((rc = merge_copy(out, P[k], err))) goto done;
    for (k = 0; k < npieces; ++k) {
        res_free(P[k]);
        P[k] = NULL;
    }
    for (c = 0; c < out->nchunk; ++c) { /* the output's chunks, read back */
        for (k = 0; k < out->nds; ++k) {
            unsigned long v;
            if ((rc = chunk_crc(out, k, c, &v, err))) goto done;
            out->crc[c * out->nds + k] = (unsigned int)v;
        }
        out->done[c] = 1;
    }
    if (out->nchunk > 0 && hsr_write_all(out->crc_ds, H5T_NATIVE_UINT, out->crc) < 0) {
        rc = hsr_fail(err, out->part, "cannot write /crc");
        goto done;
    }
    if (out->nchunk > 0 && hsr_write_all(out->done_ds, H5T_NATIVE_UCHAR, out->done) < 0) {
        rc = hsr_fail(err, out->part, "cannot write /done");
        goto done;
    }
    rc = hs_results_finish(out, NULL, err);
done:
    if (rc && made) res_discard(out); /* no half-merged file left behind (only ours) */
    res_free(out);
    if (P)
        for (k = 0; k < npieces; ++k) res_free(P[k]);
    free(P);
    free(ord);
    return rc;
}

int hs_results_read_sweep(const char *path, char **sweep_text, char **sweep_path, long *n_total,
                          hs_error *err)
{
    hs_results *r;
    const char *fp;
    int rc;
    *sweep_text = *sweep_path = NULL;
    if (!path || !path[0])
        return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "", "results: no file given");
    if (!(r = res_new(path))) return hsr_oom(err, path);
    fp = !hsr_exists(path) && hsr_exists(r->part) ? r->part : path;
    if (!(rc = res_open(r, fp, 0, err))) {
        *sweep_text = hsr_dupstr(r->I.sweep_text);
        *sweep_path = hsr_dupstr(r->I.sweep_path);
        if (n_total) *n_total = r->I.n_total;
        if (!*sweep_text || !*sweep_path) {
            free(*sweep_text);
            free(*sweep_path);
            *sweep_text = *sweep_path = NULL;
            rc = hsr_oom(err, fp);
        }
    }
    res_free(r);
    return rc;
}
