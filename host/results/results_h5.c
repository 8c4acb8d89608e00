/* results_h5.c -- the HDF5 side of results files (host/results/results.c): attributes, strings,
 * datasets, and the description of a run (layout and metadata) written to and read from a
 * file's root. Helpers return < 0 (plain HDF5 wrappers) or an hs_errcode with the message
 * set (those taking an hs_error). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <zlib.h>

#include "results/results_h5.h"

const char *const hsr_stat_name[HS_NSTAT] = {"min", "max", "final", "mean", "rms", "t_max"};

/* ------------------------------------------------------------------------------------------ */
/* errors and small helpers                                                                   */

/* The errno of a failed system call reported on HDF5's error stack ("... errno = 28, error
 * message = 'No space left on device' ..." from its file driver), 0 if none. */
static herr_t find_errno(unsigned n, const H5E_error2_t *e, void *data)
{
    const char *p = e && e->desc ? strstr(e->desc, "errno = ") : NULL;
    (void)n;
    if (p && *(int *)data == 0) *(int *)data = atoi(p + 8);
    return 0;
}

int hsr_errno(void)
{
    int e = 0;
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, find_errno, &e);
    return e > 0 ? e : 0;
}

/* A filter's checksum failure on HDF5's error stack: H5Z__filter_fletcher32 says "data error
 * detected by Fletcher32 checksum". Must be looked at right after the failed call: the next
 * HDF5 call clears the stack. */
static herr_t find_checksum(unsigned n, const H5E_error2_t *e, void *data)
{
    (void)n;
    if (e && e->desc && strstr(e->desc, "Fletcher32")) *(int *)data = 1;
    return 0;
}

static int checksum_failed(void)
{
    int c = 0;
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, find_checksum, &c);
    return c;
}

/* zlib's CRC-32 (IEEE 802.3; Python's zlib.crc32 gives the same values). */
unsigned long hsr_crc32_add(unsigned long crc, const void *p, size_t n)
{
    return crc32_z(crc, (const Bytef *)p, (z_size_t)n);
}

unsigned long hsr_crc32(const void *p, size_t n)
{
    return hsr_crc32_add(crc32_z(0L, Z_NULL, 0), p, n);
}

int hsr_fail(hs_error *err, const char *path, const char *fmt, ...)
{
    char msg[440];
    int e = hsr_errno(), sys = errno;
    va_list ap;
    /* the stack is cleared by the next HDF5 call (an error path closing what it opened): a
     * write error of the file driver is still in errno then */
    if (!e && (sys == ENOSPC || sys == EFBIG || sys == EDQUOT || sys == EIO || sys == EROFS))
        e = sys;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* the system's reason first (e.g. No space left on device), HDF5's object second */
    if (e)
        return hs_error_set(err, HS_ERR_IO, path, 0, 0, "", "%s (HDF5: %s)", strerror(e), msg);
    return hs_error_set(err, HS_ERR_IO, path, 0, 0, "", "HDF5: %s", msg);
}

int hsr_oom(hs_error *err, const char *path)
{
    return hs_error_set(err, HS_ERR_IO, path, 0, 0, "", "out of memory");
}

char *hsr_dupstr(const char *s)
{
    size_t k;
    char *d;
    if (!s) s = "";
    k = strlen(s);
    d = (char *)malloc(k + 1);
    if (d) memcpy(d, s, k + 1);
    return d;
}

char *hsr_catstr(const char *a, const char *b)
{
    size_t ka = strlen(a), kb = strlen(b);
    char *d = (char *)malloc(ka + kb + 1);
    if (!d) return NULL;
    memcpy(d, a, ka);
    memcpy(d + ka, b, kb + 1);
    return d;
}

void hsr_free_strs(char **s, long n)
{
    long k;
    if (!s) return;
    for (k = 0; k < n; ++k) free(s[k]);
    free(s);
}

int hsr_exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

void hsr_quiet(void)
{
    /* No cleanup at exit: after a write failed (a full disk), HDF5 1.10's own cleanup of the
     * file it could not close crashes in H5F__close_cb at exit. Every object is closed by
     * results.c; what an error path leaves open is given back by the system. Effective only
     * before HDF5's first call (later calls are harmless no-ops that fail). */
    static int once = 0;
    if (!once) {
        once = 1;
        H5dont_atexit();
    }
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

/* Appends printf text to buf (size n) after what is there, separated by "; ". */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void diff_add(char *buf, size_t n, const char *fmt, ...)
{
    size_t k = strlen(buf);
    va_list ap;
    if (k > 0 && k + 2 < n) {
        memcpy(buf + k, "; ", 3);
        k += 2;
    }
    if (k + 1 >= n) return;
    va_start(ap, fmt);
    vsnprintf(buf + k, n - k, fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------------------------------------ */
/* attributes and string datasets                                                             */

/* Writes attribute name of loc (replacing an old one): n < 0 scalar, else a vector of n
 * (n == 0: a vector of no elements, which h5py reads as an empty array; a null dataspace
 * would come back as h5py.Empty, which cannot be iterated). */
int hsr_attr_put(hid_t loc, const char *name, hid_t ftype, hid_t mtype, long n, const void *buf)
{
    hid_t sp, a;
    herr_t st = 0;
    htri_t ex = H5Aexists(loc, name);
    if (ex < 0 || (ex > 0 && H5Adelete(loc, name) < 0)) return -1;
    if (n < 0) {
        sp = H5Screate(H5S_SCALAR);
    } else {
        hsize_t d = (hsize_t)n;
        sp = H5Screate_simple(1, &d, NULL);
    }
    if (sp < 0) return -1;
    a = H5Acreate2(loc, name, ftype, sp, H5P_DEFAULT, H5P_DEFAULT);
    H5Sclose(sp);
    if (a < 0) return -1;
    if (n != 0) st = H5Awrite(a, mtype, buf); /* nothing to write for no elements */
    if (H5Aclose(a) < 0) st = -1;
    return st < 0 ? -1 : 0;
}

int hsr_attr_put_i64(hid_t loc, const char *name, long v)
{
    return hsr_attr_put(loc, name, H5T_STD_I64LE, H5T_NATIVE_LONG, -1, &v);
}

/* Fixed-length string type of size k (the longest string + its terminator). */
static hid_t str_type(size_t k)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t < 0) return -1;
    if (H5Tset_size(t, k > 0 ? k : 1) < 0 || H5Tset_strpad(t, H5T_STR_NULLTERM) < 0) {
        H5Tclose(t);
        return -1;
    }
    return t;
}

/* n < 0: scalar s[0]; otherwise a vector of n strings. */
int hsr_attr_put_strs(hid_t loc, const char *name, long n, const char *const *s)
{
    long k, cnt = n < 0 ? 1 : n;
    size_t w = 1;
    char *buf;
    hid_t t;
    int rc;
    for (k = 0; k < cnt; ++k) {
        size_t l = strlen(s[k] ? s[k] : "") + 1;
        if (l > w) w = l;
    }
    buf = (char *)calloc((size_t)(cnt > 0 ? cnt : 1), w);
    if (!buf) return -1;
    for (k = 0; k < cnt; ++k)
        if (s[k]) memcpy(buf + (size_t)k * w, s[k], strlen(s[k]));
    t = str_type(w);
    rc = t < 0 ? -1 : hsr_attr_put(loc, name, t, t, n, buf);
    if (t >= 0) H5Tclose(t);
    free(buf);
    return rc;
}

static int attr_put_str(hid_t loc, const char *name, const char *s)
{
    return hsr_attr_put_strs(loc, name, -1, &s);
}

hssize_t hsr_npoints(hid_t s)
{
    hssize_t n = s >= 0 ? H5Sget_simple_extent_npoints(s) : -1;
    if (s >= 0) H5Sclose(s);
    return n;
}

int hsr_dims(hid_t d, hsize_t dims[2])
{
    hid_t s = H5Dget_space(d);
    int nd = s >= 0 ? H5Sget_simple_extent_ndims(s) : -1;
    if (nd >= 0 && nd <= 2) H5Sget_simple_extent_dims(s, dims, NULL);
    if (s >= 0) H5Sclose(s);
    return nd;
}

/* Scalar numeric attribute into *buf (converted to mtype). */
static int attr_get(hid_t loc, const char *name, hid_t mtype, void *buf)
{
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    herr_t st = -1;
    if (a < 0) return -1;
    if (hsr_npoints(H5Aget_space(a)) == 1) st = H5Aread(a, mtype, buf);
    H5Aclose(a);
    return st < 0 ? -1 : 0;
}

int hsr_attr_get_int(hid_t loc, const char *name, int *v)
{
    return attr_get(loc, name, H5T_NATIVE_INT, v);
}

/* Fixed-length strings of an attribute (is_attr) or dataset: *n of them, heap copies. */
static int get_strings(hid_t obj, int is_attr, long *n, char ***out)
{
    hid_t t = is_attr ? H5Aget_type(obj) : H5Dget_type(obj), mt = -1;
    hssize_t np = -1;
    size_t sz = 0;
    char *buf = NULL, **v = NULL;
    long k;
    int rc = -1;
    *n = 0;
    *out = NULL;
    if (t < 0) return -1;
    if (H5Tget_class(t) != H5T_STRING || H5Tis_variable_str(t) != 0) goto done;
    sz = H5Tget_size(t);
    if (sz == 0 || (np = hsr_npoints(is_attr ? H5Aget_space(obj) : H5Dget_space(obj))) < 0) goto done;
    if ((mt = str_type(sz)) < 0) goto done;
    v = (char **)calloc((size_t)np + 1, sizeof *v);
    buf = (char *)malloc((size_t)np * sz + 1);
    if (!v || !buf) goto done;
    if (np > 0 && (is_attr ? H5Aread(obj, mt, buf)
                           : H5Dread(obj, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf)) < 0)
        goto done;
    for (k = 0; k < (long)np; ++k) {
        if (!(v[k] = (char *)malloc(sz + 1))) goto done;
        memcpy(v[k], buf + (size_t)k * sz, sz);
        v[k][sz] = '\0';
    }
    *n = (long)np;
    *out = v;
    v = NULL;
    rc = 0;
done:
    if (v) hsr_free_strs(v, (long)np);
    free(buf);
    if (mt >= 0) H5Tclose(mt);
    H5Tclose(t);
    return rc;
}

static int attr_get_strs(hid_t loc, const char *name, long *n, char ***out)
{
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    int rc;
    *n = 0;
    *out = NULL;
    if (a < 0) return -1;
    rc = get_strings(a, 1, n, out);
    H5Aclose(a);
    return rc;
}

int hsr_attr_get_strs_n(hid_t loc, const char *name, long want, char ***out)
{
    long n;
    if (attr_get_strs(loc, name, &n, out) < 0) return -1;
    if (n == want) return 0;
    hsr_free_strs(*out, n);
    *out = NULL;
    return -1;
}

static int attr_get_str(hid_t loc, const char *name, char **out)
{
    long n;
    char **v;
    *out = NULL;
    if (attr_get_strs(loc, name, &n, &v) < 0) return -1;
    if (n != 1) {
        hsr_free_strs(v, n);
        return -1;
    }
    *out = v[0];
    free(v);
    return 0;
}

/* A text is a scalar string dataset: HDF5 cannot chunk a scalar, so instead of Fletcher32 its
 * checksum is the attribute crc32 (uint32): the CRC-32 of the text's bytes (before the
 * terminating null), checked by text_get. */
#define TEXT_CRC_ATTR "crc32"

static int text_put(hid_t loc, const char *name, const char *s)
{
    size_t k = strlen(s ? s : "") + 1;
    hid_t t = str_type(k), sp = H5Screate(H5S_SCALAR), dcpl = H5Pcreate(H5P_DATASET_CREATE), d = -1;
    unsigned long crc = hsr_crc32(s ? s : "", k - 1);
    int rc = -1;
    if (t >= 0 && sp >= 0 && dcpl >= 0 && H5Pset_obj_track_times(dcpl, 0) >= 0 &&
        (d = H5Dcreate2(loc, name, t, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT)) >= 0 &&
        H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, s ? s : "") >= 0 &&
        hsr_attr_put(d, TEXT_CRC_ATTR, H5T_STD_U32LE, H5T_NATIVE_ULONG, -1, &crc) >= 0)
        rc = 0;
    if (d >= 0 && H5Dclose(d) < 0) rc = -1;
    if (dcpl >= 0) H5Pclose(dcpl);
    if (sp >= 0) H5Sclose(sp);
    if (t >= 0) H5Tclose(t);
    return rc;
}

/* The text of scalar string dataset name: < 0 when it cannot be read, -2 when its checksum
 * (attribute crc32) is missing or does not match (the message then in err). */
static int text_get(hid_t loc, const char *name, char **out, const char *path, hs_error *err)
{
    hid_t d = H5Dopen2(loc, name, H5P_DEFAULT);
    long n = 0;
    char **v = NULL;
    unsigned long want = 0, got;
    int rc, has;
    *out = NULL;
    if (d < 0) return -1;
    rc = get_strings(d, 0, &n, &v);
    has = H5Aexists(d, TEXT_CRC_ATTR) > 0 && attr_get(d, TEXT_CRC_ATTR, H5T_NATIVE_ULONG, &want) == 0;
    H5Dclose(d);
    if (rc < 0) return -1;
    if (n != 1) {
        hsr_free_strs(v, n);
        return -1;
    }
    got = hsr_crc32(v[0], strlen(v[0]));
    if (!has || got != want) {
        hsr_free_strs(v, n);
        if (!has)
            hs_error_set(err, HS_ERR_IO, path, 0, 0, "",
                         "results file is damaged: dataset /%s has no checksum (attribute %s)",
                         name, TEXT_CRC_ATTR);
        else
            hs_error_set(err, HS_ERR_IO, path, 0, 0, "",
                         "results file is damaged: dataset /%s: checksum mismatch (its text has "
                         "CRC-32 0x%08lx, its attribute %s says 0x%08lx): its bytes changed after "
                         "they were written (a disk, copy or transfer error): it cannot be trusted",
                         name, got, TEXT_CRC_ATTR, want);
        return -2;
    }
    *out = v[0];
    free(v);
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* the run description: layout and metadata, owned copies                                    */

/* The description's strings (hs_results_meta names them alike; the first six are root
 * attributes of that name) and its name lists with their counts. */
#define HSR_ATTR_STRS(X) X(model_path) X(sweep_path) X(method) X(backend) X(device) X(version)
#define HSR_STRS(X) HSR_ATTR_STRS(X) X(commit) X(model_text) X(sweep_text) X(model_name)
#define HSR_LISTS(X) \
    X(pname, nparam) X(punit, nparam) X(sname, nsig) X(sunit, nsig) X(tname, ntraj) X(tunit, ntraj) \
    X(jname, njoint) X(jkind, njoint)
#define HSR_NAME_(f) #f,
#define HSR_FREE_S_(f) free(I->f);
#define HSR_FREE_L_(f, n) hsr_free_strs(I->f, I->n);
#define HSR_OK_S_(f) ok &= I->f != NULL;
#define HSR_OK_L_(f, n) ok &= I->f != NULL;

void hsr_info_free(hsr_info *I)
{
    HSR_STRS(HSR_FREE_S_)
    HSR_LISTS(HSR_FREE_L_)
    free(I->ttime);
    hsr_free_strs(I->sin, I->nsin);
    free(I->pdim);
    if (I->penum) hsr_free_strs(I->penum, I->nparam);
    memset(I, 0, sizeof *I);
}

char **hsr_dup_strs(int n, const char *const *s)
{
    char **v = (char **)calloc((size_t)n + 1, sizeof *v);
    int k;
    if (!v) return NULL;
    for (k = 0; k < n; ++k)
        if (!(v[k] = hsr_dupstr(s ? s[k] : ""))) {
            hsr_free_strs(v, k);
            return NULL;
        }
    return v;
}

/* Signal names become HDF5 link names: no '/', not "." and unique. */
static int check_names(int n, const char *const *s, const char *what, const char *path,
                       hs_error *err)
{
    int k, j;
    for (k = 0; k < n; ++k) {
        if (!s[k] || !s[k][0] || strchr(s[k], '/') || !strcmp(s[k], "."))
            return hs_error_set(err, HS_ERR_ARG, path, 0, 0, "",
                                "%s name %d ('%s') cannot name a dataset (empty, '.' or with '/')",
                                what, k, s[k] ? s[k] : "");
        if (strlen(s[k]) > RES_NAME_MAX)
            return hs_error_set(err, HS_ERR_LIMIT, path, 0, 0, "",
                                "%s name '%.40s...' is longer than %d", what, s[k], RES_NAME_MAX);
        for (j = 0; j < k; ++j)
            if (!strcmp(s[j], s[k]))
                return hs_error_set(err, HS_ERR_ARG, path, 0, 0, "", "%s '%s' is listed twice",
                                    what, s[k]);
    }
    return HS_OK;
}

/* I's search description (hsr_info.nsin ...) from copies of these; I->nparam is set. */
static int search_copy(int nsin, int nH, const char *const *sin, const int *pdim, const char *const *penum,
                       hsr_info *I)
{
    I->sin = hsr_dup_strs(nsin, sin);
    I->pdim = (int *)malloc((size_t)(I->nparam > 0 ? I->nparam : 1) * sizeof *I->pdim);
    I->penum = hsr_dup_strs(I->nparam, penum);
    if (!I->sin || !I->pdim || !I->penum) {
        hsr_free_strs(I->sin, nsin);
        free(I->pdim);
        if (I->penum) hsr_free_strs(I->penum, I->nparam);
        I->sin = NULL;
        I->pdim = NULL;
        I->penum = NULL;
        return -1;
    }
    if (I->nparam > 0) memcpy(I->pdim, pdim, (size_t)I->nparam * sizeof *I->pdim);
    I->nsin = nsin;
    I->s_nH = nH;
    return 0;
}

int hsr_info_from_api(const hs_results_layout *L, const hs_results_meta *M, const char *path,
                      hsr_info *I, hs_error *err)
{
    int q, k, rc, ok = 1;
    memset(I, 0, sizeof *I);
    if (!L || !M)
        return hs_error_set(err, HS_ERR_ARG, path, 0, 0, "", "results: no layout or meta");
    if (L->n_total < 0 || L->i_begin < 0 || L->i_begin > L->i_end || L->i_end > L->n_total)
        return hs_error_set(err, HS_ERR_ARG, path, 0, 0, "",
                            "results: instances [%ld, %ld) are not a range of [0, %ld)", L->i_begin,
                            L->i_end, L->n_total);
    if (L->chunk < 1)
        return hs_error_set(err, HS_ERR_ARG, path, 0, 0, "", "results: chunk must be >= 1 (is %ld)",
                            L->chunk);
    if (L->nparam < 0 || L->nsig < 0 || L->ntraj < 0 || L->ntime < 0 ||
        (L->nparam > 0 && !L->param_names) || (L->nsig > 0 && !L->sig_names) ||
        (L->ntraj > 0 && !L->traj_names) || (L->ntime > 0 && !L->traj_time))
        return hs_error_set(err, HS_ERR_ARG, path, 0, 0, "",
                            "results: layout counts or names missing");
    if (L->stats >> HS_NSTAT)
        return hs_error_set(err, HS_ERR_ARG, path, 0, 0, "",
                            "results: unknown statistics bits 0x%x", L->stats);
    for (k = 0; k < L->nparam; ++k)
        if (!L->param_names[k])
            return hs_error_set(err, HS_ERR_ARG, path, 0, 0, "",
                                "results: parameter %d has no name", k);
    if ((rc = check_names(L->nsig, L->sig_names, "signal", path, err)) ||
        (rc = check_names(L->ntraj, L->traj_names, "trajectory signal", path, err)))
        return rc;
    I->n_total = L->n_total;
    I->i_begin = L->i_begin;
    I->i_end = L->i_end;
    I->chunk = L->chunk;
    I->ntime = L->ntime;
    I->neig = L->neig > 0 ? L->neig : 0;
    for (q = 0; q < HS_NSTAT; ++q)
        if (L->stats & (1u << q)) I->col[I->ncol++] = q;
    I->seed = M->seed;
    /* counts first: info_free needs them for whatever was allocated */
    I->nparam = L->nparam;
    I->nsig = L->nsig;
    I->ntraj = L->ntraj;
    I->pname = hsr_dup_strs(L->nparam, L->param_names);
    I->punit = hsr_dup_strs(L->nparam, L->param_units);
    I->sname = hsr_dup_strs(L->nsig, L->sig_names);
    I->tname = hsr_dup_strs(L->ntraj, L->traj_names);
    I->ttime = (double *)malloc((size_t)(L->ntime > 0 ? L->ntime : 1) * sizeof *I->ttime);
    if (I->ttime && L->ntime > 0)
        memcpy(I->ttime, L->traj_time, (size_t)L->ntime * sizeof *I->ttime);
#define HSR_API_S_(f) I->f = hsr_dupstr(M->f);
    HSR_STRS(HSR_API_S_)
#undef HSR_API_S_
    I->sunit = hsr_dup_strs(L->nsig, L->sig_units);
    I->tunit = hsr_dup_strs(L->ntraj, L->traj_units);
    I->njoint = M->njoint > 0 && M->joint_names && M->joint_kinds ? M->njoint : 0;
    I->jname = hsr_dup_strs(I->njoint, M->joint_names);
    I->jkind = hsr_dup_strs(I->njoint, M->joint_kinds);
    if (M->nsearch_input > 0 && M->search_inputs && M->search_param_roles &&
        search_copy(M->nsearch_input, M->search_nH, (const char *const *)M->search_inputs, M->search_param_roles,
                    M->search_param_enums, I) < 0) {
        hsr_info_free(I);
        return hsr_oom(err, path);
    }
    ok = I->ttime != NULL;
    HSR_STRS(HSR_OK_S_)
    HSR_LISTS(HSR_OK_L_)
    if (!ok) {
        hsr_info_free(I);
        return hsr_oom(err, path);
    }
    return HS_OK;
}

static int same_strs(int n, char *const *a, char *const *b)
{
    int k;
    for (k = 0; k < n; ++k)
        if (strcmp(a[k], b[k])) return 0;
    return 1;
}

/* What differs between a and b (descriptions into buf, "" if nothing): the sweep always,
 * the instance range and chunk size unless shard_ok. */
void hsr_info_diff(const hsr_info *a, const hsr_info *b, int shard_ok, char *buf, size_t n)
{
    buf[0] = '\0';
    if (a->n_total != b->n_total) diff_add(buf, n, "n_total %ld vs %ld", a->n_total, b->n_total);
    if (!shard_ok && (a->i_begin != b->i_begin || a->i_end != b->i_end))
        diff_add(buf, n, "instances [%ld, %ld) vs [%ld, %ld)", a->i_begin, a->i_end, b->i_begin,
                 b->i_end);
    if (!shard_ok && a->chunk != b->chunk) diff_add(buf, n, "chunk %ld vs %ld", a->chunk, b->chunk);
    if (a->seed != b->seed) diff_add(buf, n, "seed %llu vs %llu", a->seed, b->seed);
    /* one file, one backend: its attribute must stay true (backends agree only to rounding) */
    if (a->backend && b->backend && strcmp(a->backend, b->backend))
        diff_add(buf, n, "backend %s vs %s", a->backend, b->backend);
    if (strcmp(a->sweep_text, b->sweep_text)) diff_add(buf, n, "the sweep text differs");
    if (strcmp(a->model_text, b->model_text)) diff_add(buf, n, "the model text differs");
    if (a->nparam != b->nparam || !same_strs(a->nparam, a->pname, b->pname) ||
        !same_strs(a->nparam, a->punit, b->punit))
        diff_add(buf, n, "the swept parameters (names or units) differ");
    if (a->nsig != b->nsig || !same_strs(a->nsig, a->sname, b->sname))
        diff_add(buf, n, "the recorded signals differ");
    if (a->ncol != b->ncol || memcmp(a->col, b->col, (size_t)a->ncol * sizeof a->col[0]))
        diff_add(buf, n, "the stored statistics differ");
    if (a->ntraj != b->ntraj || !same_strs(a->ntraj, a->tname, b->tname))
        diff_add(buf, n, "the trajectory signals differ");
    if (a->ntime != b->ntime ||
        (a->ntime > 0 && memcmp(a->ttime, b->ttime, (size_t)a->ntime * sizeof *a->ttime)))
        diff_add(buf, n, "the trajectory times differ");
    if (a->neig != b->neig) diff_add(buf, n, "the eigenvalue outputs differ");
}

/* ------------------------------------------------------------------------------------------ */
/* datasets and groups                                                                        */

int hsr_rows_io(hid_t d, int rank, long ncols, hid_t mtype, long row0, long nrows, const void *wbuf,
                void *rbuf)
{
    hsize_t start[2], cnt[2];
    hid_t fs, ms;
    herr_t st = -1;
    if (nrows <= 0 || ncols <= 0) return 0;
    start[0] = (hsize_t)row0;
    start[1] = 0;
    cnt[0] = (hsize_t)nrows;
    cnt[1] = (hsize_t)ncols;
    if ((fs = H5Dget_space(d)) < 0) return -1;
    ms = H5Screate_simple(rank, cnt, NULL);
    if (ms >= 0 && H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, cnt, NULL) >= 0) {
        st = wbuf ? H5Dwrite(d, mtype, ms, fs, H5P_DEFAULT, wbuf)
                  : H5Dread(d, mtype, ms, fs, H5P_DEFAULT, rbuf);
        if (st < 0 && checksum_failed()) st = -2; /* before the next call clears the stack */
    }
    if (ms >= 0) H5Sclose(ms);
    H5Sclose(fs);
    return st == -2 ? -2 : st < 0 ? -1 : 0;
}

int hsr_checksum_fail(hid_t d, const char *name, int rank, long ncols, long row0, long nrows,
                      const char *path, hs_error *err)
{
    static const char *const why = HSR_WHY_DAMAGED;
    hid_t dcpl = H5Dget_create_plist(d), t = H5Dget_type(d);
    hsize_t cd[2] = {0, 0};
    long crow = 0, c, c0, c1, nbad = 0, first = -1;
    size_t esz = t >= 0 ? H5Tget_size(t) : 0;
    void *buf = NULL;
    if (dcpl >= 0 && H5Pget_layout(dcpl) == H5D_CHUNKED && H5Pget_chunk(dcpl, 2, cd) >= 1)
        crow = (long)cd[0];
    if (dcpl >= 0) H5Pclose(dcpl);
    if (crow > 0 && esz > 0 && nrows > 0 && ncols > 0)
        buf = malloc((size_t)crow * (size_t)ncols * esz);
    if (buf) { /* the damaged chunks among those of the rows, one read each */
        c0 = row0 / crow;
        c1 = (row0 + nrows - 1) / crow;
        for (c = c0; c <= c1; ++c) {
            long a = c * crow > row0 ? c * crow : row0,
                 b = (c + 1) * crow < row0 + nrows ? (c + 1) * crow : row0 + nrows;
            if (hsr_rows_io(d, rank, ncols, t, a, b - a, NULL, buf) == -2) {
                if (first < 0) first = c;
                ++nbad;
            }
        }
        free(buf);
    }
    if (t >= 0) H5Tclose(t);
    if (first < 0) /* not found again (no memory?): the rows asked for */
        return hs_error_set(err, HS_ERR_IO, path, 0, 0, "",
                            "results file is damaged: dataset %s: checksum mismatch (Fletcher32) "
                            "in rows %ld..%ld: %s",
                            name, row0, row0 + nrows - 1, why);
    {
        long a = first * crow, b = (first + 1) * crow - 1;
        hsize_t dims[2] = {0, 0};
        hsr_dims(d, dims);
        if (dims[0] > 0 && b > (long)dims[0] - 1) b = (long)dims[0] - 1;
        if (nbad > 1)
            return hs_error_set(err, HS_ERR_IO, path, 0, 0, "",
                                "results file is damaged: dataset %s: checksum mismatch "
                                "(Fletcher32) in chunk %ld (rows %ld..%ld) and in %ld more "
                                "chunks of the %ld read: %s",
                                name, first, a, b, nbad - 1, (row0 + nrows - 1) / crow - row0 / crow + 1, why);
        return hs_error_set(err, HS_ERR_IO, path, 0, 0, "",
                            "results file is damaged: dataset %s: checksum mismatch (Fletcher32) "
                            "in chunk %ld (rows %ld..%ld): %s",
                            name, first, a, b, why);
    }
}

int hsr_rows_read(hid_t d, const char *name, int rank, long ncols, hid_t mtype, long row0,
                  long nrows, void *rbuf, const char *path, hs_error *err)
{
    int st = hsr_rows_io(d, rank, ncols, mtype, row0, nrows, NULL, rbuf);
    if (st == -2) return hsr_checksum_fail(d, name, rank, ncols, row0, nrows, path, err);
    if (st < 0) return hsr_fail(err, path, "cannot read rows %ld..%ld of %s", row0, row0 + nrows - 1, name);
    return HS_OK;
}

int hsr_has_checksum(hid_t d)
{
    hid_t dcpl;
    hssize_t np = hsr_npoints(H5Dget_space(d));
    unsigned flags = 0, conf = 0;
    size_t nv = 0;
    int rc;
    if (np < 0) return -1;
    if (np == 0) return 1; /* no data, nothing to check */
    if ((dcpl = H5Dget_create_plist(d)) < 0) return -1;
    rc = H5Pget_filter_by_id2(dcpl, H5Z_FILTER_FLETCHER32, &flags, &nv, NULL, 0, NULL, &conf) >= 0;
    H5Pclose(dcpl);
    return rc;
}

hid_t hsr_make_ds(hid_t loc, const char *name, hid_t ftype, int rank, const hsize_t *dims,
                  long rows, const double *fill)
{
    hid_t sp = H5Screate_simple(rank, dims, NULL), dcpl = H5Pcreate(H5P_DATASET_CREATE), d = -1;
    hsize_t cd[2];
    int k, zero = 0, ok;
    for (k = 0; k < rank; ++k)
        if (dims[k] == 0) zero = 1; /* HDF5 chunks cannot be empty */
    ok = sp >= 0 && dcpl >= 0 && H5Pset_obj_track_times(dcpl, 0) >= 0 &&
         H5Pset_alloc_time(dcpl, H5D_ALLOC_TIME_EARLY) >= 0;
    if (ok && !zero) {
        size_t rowb = H5Tget_size(ftype) * (size_t)(rank > 1 ? dims[1] : 1);
        if (rows <= 0) { /* one chunk of the whole (small) dataset */
            rows = (long)dims[0];
            if (rowb > 0 && (size_t)rows * rowb > RES_H5CHUNK_MAX) rows = (long)(RES_H5CHUNK_MAX / rowb);
            if (rows < 1) rows = 1;
        }
        cd[0] = (hsize_t)rows;
        cd[1] = rank > 1 ? dims[1] : 1;
        /* a Fletcher32 checksum per chunk, verified by HDF5 on every read (a mismatch fails
         * the read: hsr_rows_io -2). No fill value is asked for the rows (they are written
         * before they are read), but HDF5 writes every checksummed chunk at creation anyway
         * (zeros), so unwritten rows read as 0 with a valid checksum; with a fill value, every
         * row reads as it until written */
        ok = H5Pset_chunk(dcpl, rank, cd) >= 0 && H5Pset_fletcher32(dcpl) >= 0 &&
             (fill ? H5Pset_fill_value(dcpl, H5T_NATIVE_DOUBLE, fill) >= 0 &&
                         H5Pset_fill_time(dcpl, H5D_FILL_TIME_ALLOC) >= 0
                   : H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER) >= 0);
    } else if (ok && fill) {
        ok = H5Pset_fill_value(dcpl, H5T_NATIVE_DOUBLE, fill) >= 0;
    }
    if (ok) d = H5Dcreate2(loc, name, ftype, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (dcpl >= 0) H5Pclose(dcpl);
    if (sp >= 0) H5Sclose(sp);
    return d;
}

hid_t hsr_make_group(hid_t loc, const char *name)
{
    hid_t gcpl = H5Pcreate(H5P_GROUP_CREATE), g = -1;
    if (gcpl >= 0 && H5Pset_obj_track_times(gcpl, 0) >= 0)
        g = H5Gcreate2(loc, name, H5P_DEFAULT, gcpl, H5P_DEFAULT);
    if (gcpl >= 0) H5Pclose(gcpl);
    return g;
}

hid_t hsr_file_access(int locking)
{
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    /* closing the file closes whatever an error path left open; HDF5's own file lock off
     * where results.c holds its lock (it is taken before the file is truncated, HDF5's only
     * after: a second writer would have emptied the first one's file) */
    if (fapl >= 0 && (H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) < 0 ||
                      (!locking && H5Pset_file_locking(fapl, 0, 1) < 0))) {
        H5Pclose(fapl);
        return -1;
    }
    return fapl;
}

int hsr_put_columns_attr(hid_t loc, const hsr_info *I)
{
    const char *cn[HS_NSTAT];
    int q;
    for (q = 0; q < I->ncol; ++q) cn[q] = hsr_stat_name[I->col[q]];
    return hsr_attr_put_strs(loc, "columns", I->ncol, cn);
}

/* The status bits' table (kernels/hs_status.h) as root attributes status_bit_values,
 * status_bit_names, status_bit_kinds (failure, warning) and status_bit_descriptions: a
 * reader decodes /status from the file itself. */
static int status_table_put(hid_t f)
{
#define HS_ST_VAL_(N, v, name, warn, desc) (v),
#define HS_ST_NAME_(N, v, name, warn, desc) name,
#define HS_ST_KIND_(N, v, name, warn, desc) (warn) ? "warning" : "failure",
#define HS_ST_DESC_(N, v, name, warn, desc) desc,
    static const int val[] = {HS_STATUS_BITS(HS_ST_VAL_)};
    static const char *const name[] = {HS_STATUS_BITS(HS_ST_NAME_)};
    static const char *const kind[] = {HS_STATUS_BITS(HS_ST_KIND_)};
    static const char *const desc[] = {HS_STATUS_BITS(HS_ST_DESC_)};
#undef HS_ST_VAL_
#undef HS_ST_NAME_
#undef HS_ST_KIND_
#undef HS_ST_DESC_
    return hsr_attr_put(f, "status_bit_values", H5T_STD_I32LE, H5T_NATIVE_INT, HS_ST_NBITS, val) < 0 ||
                   hsr_attr_put_strs(f, "status_bit_names", HS_ST_NBITS, name) < 0 ||
                   hsr_attr_put_strs(f, "status_bit_kinds", HS_ST_NBITS, kind) < 0 ||
                   hsr_attr_put_strs(f, "status_bit_descriptions", HS_ST_NBITS, desc) < 0
               ? -1
               : 0;
}

/* Root attributes, text datasets and groups of a new file. */

/* The CRC-32 of a search's attributes as text: each input's name, nH, each parameter's role
 * and each enumeration, each followed by a null byte (docs/results-format.md, Checksums). */
static unsigned long search_crc(const hsr_info *I)
{
    unsigned long c = hsr_crc32(NULL, 0);
    char num[24];
    int k;
    for (k = 0; k < I->nsin; ++k) c = hsr_crc32_add(c, I->sin[k], strlen(I->sin[k]) + 1);
    snprintf(num, sizeof num, "%d", I->s_nH);
    c = hsr_crc32_add(c, num, strlen(num) + 1);
    for (k = 0; k < I->nparam; ++k) {
        snprintf(num, sizeof num, "%d", I->pdim[k]);
        c = hsr_crc32_add(c, num, strlen(num) + 1);
    }
    for (k = 0; k < I->nparam; ++k) c = hsr_crc32_add(c, I->penum[k], strlen(I->penum[k]) + 1);
    return c;
}

int hsr_info_write(hid_t f, const hsr_info *I, const char *path, hs_error *err)
{
    hid_t g;
    int zero = 0, fmt = RES_FORMAT_VERSION, k;
#define HSR_VAL_(f) I->f,
    const char *sn[7] = {HSR_ATTR_STRS(HSR_NAME_) "commit"}, *sv[7] = {HSR_ATTR_STRS(HSR_VAL_) I->commit};
#undef HSR_VAL_
    if (hsr_attr_put(f, "format_version", H5T_STD_I32LE, H5T_NATIVE_INT, -1, &fmt) < 0)
        return hsr_fail(err, path, "cannot write attribute format_version");
    for (k = 0; k < 7; ++k)
        if (attr_put_str(f, sn[k], sv[k]) < 0)
            return hsr_fail(err, path, "cannot write attribute %s", sn[k]);
    if (hsr_attr_put(f, "seed", H5T_STD_U64LE, H5T_NATIVE_ULLONG, -1, &I->seed) < 0 ||
        hsr_attr_put_i64(f, "n_total", I->n_total) < 0 ||
        hsr_attr_put_i64(f, "i_begin", I->i_begin) < 0 ||
        hsr_attr_put_i64(f, "i_end", I->i_end) < 0 || hsr_attr_put_i64(f, "chunk", I->chunk) < 0 ||
        hsr_attr_put_i64(f, "eig_size", I->neig) < 0 ||
        hsr_attr_put(f, "complete", H5T_STD_I32LE, H5T_NATIVE_INT, -1, &zero) < 0)
        return hsr_fail(err, path, "cannot write the numeric root attributes");
    if (hsr_attr_put_strs(f, "signals", I->nsig, (const char *const *)I->sname) < 0 ||
        hsr_attr_put_strs(f, "traj_signals", I->ntraj, (const char *const *)I->tname) < 0 ||
        hsr_put_columns_attr(f, I) < 0)
        return hsr_fail(err, path,
                        "cannot write the root attributes signals, traj_signals, columns");
    if (hsr_attr_put_strs(f, "signal_units", I->nsig, (const char *const *)I->sunit) < 0 ||
        hsr_attr_put_strs(f, "traj_units", I->ntraj, (const char *const *)I->tunit) < 0 ||
        attr_put_str(f, "model_name", I->model_name) < 0 ||
        hsr_attr_put_strs(f, "joint_names", I->njoint, (const char *const *)I->jname) < 0 ||
        hsr_attr_put_strs(f, "joint_kinds", I->njoint, (const char *const *)I->jkind) < 0)
        return hsr_fail(err, path,
                        "cannot write the root attributes signal_units, traj_units, model_name, "
                        "joint_names, joint_kinds");
    if (status_table_put(f) < 0) return hsr_fail(err, path, "cannot write the status bits' attributes");
    if (I->nsin > 0 &&
        (hsr_attr_put_strs(f, "search_inputs", I->nsin, (const char *const *)I->sin) < 0 ||
         hsr_attr_put(f, "search_nH", H5T_STD_I32LE, H5T_NATIVE_INT, -1, &I->s_nH) < 0 ||
         hsr_attr_put(f, "search_param_roles", H5T_STD_I32LE, H5T_NATIVE_INT, I->nparam, I->pdim) < 0 ||
         hsr_attr_put_strs(f, "search_param_enums", I->nparam, (const char *const *)I->penum) < 0 ||
         hsr_attr_put(f, "search_crc32", H5T_STD_U32LE, H5T_NATIVE_ULONG, -1, (unsigned long[1]){search_crc(I)}) < 0))
        return hsr_fail(err, path,
                        "cannot write the search's attributes search_inputs, search_nH, search_param_roles, "
                        "search_param_enums, search_crc32");
    if (text_put(f, "model_text", I->model_text) < 0 ||
        text_put(f, "sweep_text", I->sweep_text) < 0)
        return hsr_fail(err, path, "cannot write /model_text or /sweep_text");
    {
        const char *gn[3] = {"stats", "traj", "ensemble"};
        for (k = 0; k < 3; ++k) {
            if ((g = hsr_make_group(f, gn[k])) < 0)
                return hsr_fail(err, path, "cannot create group /%s", gn[k]);
            H5Gclose(g);
        }
        if (I->neig > 0) {
            if ((g = hsr_make_group(f, "eig")) < 0) return hsr_fail(err, path, "cannot create group /eig");
            H5Gclose(g);
        }
    }
    return HS_OK;
}

/* Writes a whole small 1-D dataset (created with hsr_make_ds). */
int hsr_write_all(hid_t d, hid_t mtype, const void *buf)
{
    return H5Dwrite(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0 ? -1 : 0;
}

/* ------------------------------------------------------------------------------------------ */
/* the run description in a file                                                              */

/* The "columns" attribute back into stat indices (in increasing order, as written). */
static int parse_columns(long n, char **v, hsr_info *I)
{
    long k;
    int q;
    if (n > HS_NSTAT) return -1;
    I->ncol = 0;
    for (k = 0; k < n; ++k) {
        for (q = 0; q < HS_NSTAT && strcmp(v[k], hsr_stat_name[q]); ++q) {
        }
        if (q == HS_NSTAT || (I->ncol > 0 && q <= I->col[I->ncol - 1])) return -1;
        I->col[I->ncol++] = q;
    }
    return 0;
}

/* Reads the run description of an open file. */
int hsr_info_read(hid_t f, const char *path, hsr_info *I, hs_error *err)
{
    long n;
    char **v = NULL;
    int fmt = 0, k;
    hid_t d;
#define HSR_ADDR_(f) &I->f,
    const char *sn[7] = {HSR_ATTR_STRS(HSR_NAME_) "commit"};
    char **sp[7] = {HSR_ATTR_STRS(HSR_ADDR_) &I->commit};
#undef HSR_ADDR_
    memset(I, 0, sizeof *I);
    if (attr_get(f, "format_version", H5T_NATIVE_INT, &fmt) < 0)
        return hs_error_set(err, HS_ERR_IO, path, 0, 0, "",
                            "not a hydrosweep results file (no format_version)");
    if (fmt != RES_FORMAT_VERSION)
        return hs_error_set(err, HS_ERR_IO, path, 0, 0, "",
                            "results format version %d is not supported (this build reads %d)", fmt,
                            RES_FORMAT_VERSION);
    if (attr_get(f, "n_total", H5T_NATIVE_LONG, &I->n_total) < 0 ||
        attr_get(f, "i_begin", H5T_NATIVE_LONG, &I->i_begin) < 0 ||
        attr_get(f, "i_end", H5T_NATIVE_LONG, &I->i_end) < 0 ||
        attr_get(f, "chunk", H5T_NATIVE_LONG, &I->chunk) < 0 ||
        attr_get(f, "seed", H5T_NATIVE_ULLONG, &I->seed) < 0)
        return hsr_fail(err, path,
                        "cannot read the root attributes n_total, i_begin, i_end, chunk, seed");
    { /* eig_size: absent in files made before eigenvalue outputs existed, then none */
        long ne = 0;
        if (H5Aexists(f, "eig_size") > 0 && attr_get(f, "eig_size", H5T_NATIVE_LONG, &ne) < 0)
            return hsr_fail(err, path, "cannot read the root attribute eig_size");
        if (ne < 0 || ne > 100000)
            return hs_error_set(err, HS_ERR_IO, path, 0, 0, "", "results file is damaged: eig_size %ld", ne);
        I->neig = (int)ne;
    }
    if (I->i_begin < 0 || I->i_begin > I->i_end || I->i_end > I->n_total || I->chunk < 1)
        return hs_error_set(err, HS_ERR_IO, path, 0, 0, "",
                            "results file is damaged: instances [%ld, %ld) of %ld, chunk %ld",
                            I->i_begin, I->i_end, I->n_total, I->chunk);
    for (k = 0; k < 7; ++k)
        if (attr_get_str(f, sn[k], sp[k]) < 0) {
            hsr_info_free(I);
            return hsr_fail(err, path, "cannot read the root attribute %s", sn[k]);
        }
    if ((k = text_get(f, "model_text", &I->model_text, path, err)) < 0 ||
        (k = text_get(f, "sweep_text", &I->sweep_text, path, err)) < 0) {
        hsr_info_free(I);
        return k == -2 ? HS_ERR_IO : hsr_fail(err, path, "cannot read /model_text or /sweep_text");
    }
    if (attr_get_strs(f, "signals", &n, &I->sname) < 0) goto fail;
    I->nsig = (int)n;
    if (attr_get_strs(f, "traj_signals", &n, &I->tname) < 0) goto fail;
    I->ntraj = (int)n;
    /* each count set as soon as its names are read: hsr_info_free needs it */
    if (hsr_attr_get_strs_n(f, "signal_units", I->nsig, &I->sunit) < 0 ||
        hsr_attr_get_strs_n(f, "traj_units", I->ntraj, &I->tunit) < 0 ||
        attr_get_str(f, "model_name", &I->model_name) < 0 || attr_get_strs(f, "joint_names", &n, &I->jname) < 0)
        goto fail;
    I->njoint = (int)n;
    if (hsr_attr_get_strs_n(f, "joint_kinds", n, &I->jkind) < 0) goto fail;
    if (attr_get_strs(f, "columns", &n, &v) < 0) goto fail;
    k = parse_columns(n, v, I);
    hsr_free_strs(v, n);
    if (k < 0) {
        hsr_info_free(I);
        return hs_error_set(err, HS_ERR_IO, path, 0, 0, "",
                            "results file is damaged: bad attribute columns");
    }
    if ((d = H5Dopen2(f, "/params", H5P_DEFAULT)) < 0) goto fail;
    k = attr_get_strs(d, "names", &n, &I->pname);
    I->nparam = (int)n;
    if (!k) k = hsr_attr_get_strs_n(d, "units", n, &I->punit);
    H5Dclose(d);
    if (k < 0) goto fail;
    if (H5Aexists(f, "search_inputs") > 0) { /* method cosim_search */
        long ns = 0;
        hid_t a;
        hssize_t na;
        if (attr_get_strs(f, "search_inputs", &ns, &I->sin) < 0 || ns < 1 ||
            attr_get(f, "search_nH", H5T_NATIVE_INT, &I->s_nH) < 0) {
            hsr_free_strs(I->sin, ns);
            I->sin = NULL;
            goto fail;
        }
        I->nsin = (int)ns;
        I->pdim = (int *)calloc((size_t)(I->nparam > 0 ? I->nparam : 1), sizeof *I->pdim);
        if (!I->pdim || (a = H5Aopen(f, "search_param_roles", H5P_DEFAULT)) < 0) goto fail;
        na = hsr_npoints(H5Aget_space(a));
        if (na != I->nparam || (na > 0 && H5Aread(a, H5T_NATIVE_INT, I->pdim) < 0)) {
            H5Aclose(a);
            goto fail;
        }
        H5Aclose(a);
        if (hsr_attr_get_strs_n(f, "search_param_enums", I->nparam, &I->penum) < 0) goto fail;
        {
            unsigned long want = 0, got = search_crc(I);
            int roles_ok = I->s_nH >= 1;
            for (k = 0; k < I->nparam; ++k) roles_ok = roles_ok && I->pdim[k] >= 0 && I->pdim[k] <= 3;
            if (H5Aexists(f, "search_crc32") <= 0 || attr_get(f, "search_crc32", H5T_NATIVE_ULONG, &want) < 0 ||
                want != got || !roles_ok) {
                hsr_info_free(I);
                return hs_error_set(err, HS_ERR_IO, path, 0, 0, "",
                                    "results file is damaged: the search's attributes (search_inputs, "
                                    "search_nH, search_param_roles, search_param_enums) %s: %s",
                                    want != got ? "do not match their checksum search_crc32" : "are not a search (nH < 1, or a role outside 0..3)",
                                    HSR_WHY_DAMAGED);
            }
        }
    }
    if ((d = H5Dopen2(f, "/traj/time", H5P_DEFAULT)) < 0) goto fail;
    {
        hssize_t nt = hsr_npoints(H5Dget_space(d));
        int rc = HS_OK;
        I->ntime = (long)nt;
        I->ttime = nt >= 0 ? (double *)malloc((size_t)(nt > 0 ? nt : 1) * sizeof(double)) : NULL;
        if (!I->ttime) {
            H5Dclose(d);
            I->ntime = 0;
            goto fail;
        }
        if (hsr_has_checksum(d) != 1)
            rc = hs_error_set(err, HS_ERR_IO, path, 0, 0, "",
                              "results file is damaged: dataset /traj/time has no checksum "
                              "(Fletcher32 filter)");
        else if (nt > 0)
            rc = hsr_rows_read(d, "/traj/time", 1, 1, H5T_NATIVE_DOUBLE, 0, (long)nt, I->ttime,
                               path, err);
        H5Dclose(d);
        if (rc) {
            hsr_info_free(I);
            return rc;
        }
    }
    return HS_OK;
fail:
    hsr_info_free(I);
    return hsr_fail(
        err, path,
        "cannot read the layout (signals and their units, the model's name and joints, columns, "
        "/params names and units, /traj/time)");
}

/* A deep copy (merge: the output describes the sweep like its first piece). */
int hsr_info_copy(const hsr_info *a, hsr_info *o)
{
    hsr_info *I = o; /* every pointer of o its own (or NULL) before any failure frees them */
    int ok;
    *o = *a;
    o->sin = NULL;
    o->pdim = NULL;
    o->penum = NULL;
    o->nsin = 0;
#define HSR_COPY_S_(f) o->f = hsr_dupstr(a->f);
#define HSR_COPY_L_(f, n) o->f = hsr_dup_strs(a->n, (const char *const *)a->f);
    HSR_STRS(HSR_COPY_S_)
    HSR_LISTS(HSR_COPY_L_)
#undef HSR_COPY_S_
#undef HSR_COPY_L_
    o->ttime = (double *)malloc((size_t)(a->ntime > 0 ? a->ntime : 1) * sizeof *o->ttime);
    if (o->ttime && a->ntime > 0) memcpy(o->ttime, a->ttime, (size_t)a->ntime * sizeof *o->ttime);
    ok = o->ttime != NULL;
    HSR_STRS(HSR_OK_S_)
    HSR_LISTS(HSR_OK_L_)
    if (!ok || (a->nsin > 0 && search_copy(a->nsin, a->s_nH, (const char *const *)a->sin, a->pdim,
                                           (const char *const *)a->penum, o) < 0)) {
        hsr_info_free(o);
        return -1;
    }
    return 0;
}
