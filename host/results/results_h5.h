/* results_h5.h -- internals shared by results.c and results_h5.c (not a public API): HDF5
 * helpers and the description of a run (layout and metadata) as owned copies. */
#ifndef HS_RESULTS_H5_H
#define HS_RESULTS_H5_H

#include <stddef.h>

#include <hdf5.h>

#include "hs/results.h"

#define RES_FORMAT_VERSION 5 /* root attribute format_version; bump on layout changes */
#define RES_NAME_MAX 200     /* signal names become dataset names */
#define RES_H5CHUNK_MAX ((size_t)64 << 20) /* HDF5 chunks stay well below its 4 GiB limit */

extern const char *const hsr_stat_name[HS_NSTAT]; /* min, max, final, mean, rms, t_max */

/* A run's layout and metadata, every string and array owned (hsr_info_free). */
typedef struct hsr_info {
    long n_total, i_begin, i_end, chunk, ntime;
    int nparam, nsig, ntraj, ncol;
    int neig; /* eigenvalues per instance (/eig), 0: none (root attribute eig_size) */
    int col[HS_NSTAT]; /* stored statistics, in order */
    char **pname, **punit, **sname, **tname;
    double *ttime;
    unsigned long long seed;
    char *model_text, *sweep_text, *model_path, *sweep_path, *method, *backend, *device, *version,
        *commit;
    char **sunit, **tunit; /* (nsig), (ntraj) units of the signals */
    char *model_name;
    int njoint;
    char **jname, **jkind; /* (njoint) the joints' names and kinds */
    int nsin, s_nH; /* method cosim_search: test inputs and values of H (hs_results_meta), 0 else */
    char **sin; /* (nsin) the test inputs' names */
    int *pdim; /* (nparam) each parameter's role in the search (hs_results_meta); NULL unless nsin > 0 */
    char **penum; /* (nparam) an enumeration's value names joined by ",", else ""; NULL unless nsin > 0 */
} hsr_info;

/* errors (HS_ERR_IO with "HDF5: ..." / "out of memory", file = path) and small helpers */
int hsr_fail(hs_error *err, const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
int hsr_oom(hs_error *err, const char *path);
char *hsr_dupstr(const char *s); /* NULL -> "" */
char *hsr_catstr(const char *a, const char *b);
char **hsr_dup_strs(int n, const char *const *s); /* s NULL: n empty strings */
void hsr_free_strs(char **s, long n);
int hsr_exists(const char *p);
void hsr_quiet(void); /* no HDF5 error stack on stderr: we report our own */

/* attributes (n < 0 scalar, 0 empty, else a vector), replacing an old one; < 0 on failure */
int hsr_attr_put(hid_t loc, const char *name, hid_t ftype, hid_t mtype, long n, const void *buf);
int hsr_attr_put_i64(hid_t loc, const char *name, long v);
int hsr_attr_get_int(hid_t loc, const char *name, int *v); /* a scalar attribute; < 0 if none */
int hsr_attr_put_strs(hid_t loc, const char *name, long n, const char *const *s);
/* a string-vector attribute of exactly want strings into *out (else -1, nothing kept) */
int hsr_attr_get_strs_n(hid_t loc, const char *name, long want, char ***out);
int hsr_put_columns_attr(hid_t loc, const hsr_info *I); /* "columns": the stored statistics */

/* datasets: all space allocated at creation, chunked by `rows` rows (rows == 0: the whole
 * dataset in one chunk, at most RES_H5CHUNK_MAX bytes) with a Fletcher32 checksum per chunk,
 * read as *fill until written if fill is given (else as zeros: HDF5 writes every checksummed
 * chunk at creation). A dataset of no elements is contiguous (no data, nothing to check).
 * No object times recorded. */
hid_t hsr_make_ds(hid_t loc, const char *name, hid_t ftype, int rank, const hsize_t *dims,
                  long rows, const double *fill);
/* the elements of dataspace s, which is closed (s < 0: -1); e.g. hsr_npoints(H5Dget_space(d)) */
hssize_t hsr_npoints(hid_t s);
/* the rank of dataset d (< 0 on error) and, when at most 2, its extent into dims */
int hsr_dims(hid_t d, hsize_t dims[2]);
/* 1 if dataset d carries the Fletcher32 filter or holds no elements, 0 if not, < 0 on error */
int hsr_has_checksum(hid_t d);
hid_t hsr_make_group(hid_t loc, const char *name);
/* file access list: closing the file closes every object; locking 0: without HDF5's own file
 * lock (results.c holds its lock on files it writes) */
hid_t hsr_file_access(int locking);
int hsr_errno(void); /* errno of a failed system call on HDF5's error stack, 0 if none */
/* rows [row0, row0 + nrows) of a rank-1 or rank-2 (ncols) dataset: written from wbuf if not
 * NULL, else read into rbuf; -2 when a chunk's Fletcher32 checksum failed (on a read, or on
 * the read of a chunk that a write changes in part), -1 on another error */
int hsr_rows_io(hid_t d, int rank, long ncols, hid_t mtype, long row0, long nrows, const void *wbuf,
                void *rbuf);
/* hsr_rows_io's read with the error in err: a checksum failure names the dataset (name), the
 * damaged chunk and its rows; another failure says "cannot read rows ... of name" */
int hsr_rows_read(hid_t d, const char *name, int rank, long ncols, hid_t mtype, long row0,
                  long nrows, void *rbuf, const char *path, hs_error *err);
/* The error of a checksum failure (hsr_rows_io -2) met in rows [row0, row0 + nrows) of d:
 * finds the first damaged chunk by reading the chunks one by one, and names it and its rows */
int hsr_checksum_fail(hid_t d, const char *name, int rank, long ncols, long row0, long nrows,
                      const char *path, hs_error *err);
/* CRC-32 (zlib's crc32, as Python's zlib.crc32) of n bytes; _add continues crc (the CRC of
 * what came before: hsr_crc32(NULL, 0) to begin) */
unsigned long hsr_crc32(const void *p, size_t n);
unsigned long hsr_crc32_add(unsigned long crc, const void *p, size_t n);
/* what a checksum mismatch means, the end of its message */
#define HSR_WHY_DAMAGED                                                                          \
    "its bytes changed after they were written (a disk, copy or transfer error): its values "    \
    "cannot be trusted"
int hsr_write_all(hid_t d, hid_t mtype, const void *buf);

/* the run description */
int hsr_info_from_api(const hs_results_layout *L, const hs_results_meta *M, const char *path,
                      hsr_info *I, hs_error *err);
int hsr_info_copy(const hsr_info *a, hsr_info *o); /* < 0: out of memory */
void hsr_info_free(hsr_info *I);
/* What differs between a and b ("" if nothing): the sweep always, the instance range and
 * chunk size unless shard_ok. */
void hsr_info_diff(const hsr_info *a, const hsr_info *b, int shard_ok, char *buf, size_t n);
/* root attributes, /model_text, /sweep_text and the groups of a new file / read back */
int hsr_info_write(hid_t f, const hsr_info *I, const char *path, hs_error *err);
int hsr_info_read(hid_t f, const char *path, hsr_info *I, hs_error *err);

#endif
