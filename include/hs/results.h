/* hs/results.h -- results of a sweep: one HDF5 file (plus a CSV summary beside it), written
 * chunk by chunk so that an interrupted run keeps every finished chunk and can be resumed.
 *
 * File layout (rows = the instances of this run, global indices in /instance):
 *   /instance          int64  (nrun)            global instance indices
 *   /params            double (nrun x nparam)   attrs names, units
 *   /status            int32  (nrun)            hs_integrator.h / hs_batch.h status bits
 *                                               (-1 in rows not yet written: .part files)
 *   /steps             int64  (nrun)
 *   /newton_mean       double (nrun)
 *   /newton_max        int32  (nrun)
 *   /stats/<signal>    double (nrun x nstat)    attr columns (min, max, final, mean, rms, t_max)
 *   /traj/time         double (ntime)
 *   /traj/<signal>     double (nrun x ntime)
 *   /done              uint8  (nchunk)          1 when the chunk is written (resume)
 *   /ensemble/<signal> double (nstat x 3)       5/50/95 % quantiles over the instances that
 *                                               finished (status 0); attrs failures per bit
 *   /ensemble          group                    attrs failure counts, quantiles_on
 *   /model_text, /sweep_text  strings                the model and sweep files' texts
 * Root attributes: model_path, sweep_path, seed, method, backend, device, version, commit,
 * n_total, i_begin, i_end, chunk, complete, format_version, signals, traj_signals, columns;
 * failure counts as attributes finished, failed_total, failed_<bit> on /ensemble and on each
 * /ensemble/<signal>. /ensemble's string attribute quantiles_on says where the quantiles were
 * computed: "gpu (Thrust)" (backend gpu, on the device), "host" (other backends, or a gpu run
 * without a usable device: the fallback) or "gpu (Thrust) and host" (the device failed part
 * way); the values are the same bits either way. No dates are stored: identical runs give
 * byte-identical files.
 * The file is written as PATH.part and renamed to PATH when the last chunk is in. */
#ifndef HS_RESULTS_H
#define HS_RESULTS_H

#include "errors.h"
#include "../../kernels/hs_batch.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hs_results_layout {
    long n_total; /* instances of the whole sweep */
    long i_begin, i_end; /* this run's instances [i_begin, i_end) (a shard, or all) */
    long chunk; /* instances per chunk; chunk c covers i_begin + c*chunk ... */
    int nparam;
    const char *const *param_names; /* (nparam) */
    const char *const *param_units; /* (nparam) */
    int nsig;
    const char *const *sig_names; /* (nsig) CSV-style names */
    const char *const *sig_units; /* (nsig) their SI units (hs_output_unit); NULL: unknown */
    unsigned int stats; /* bit HS_STAT_x: column x stored */
    int ntraj;
    const char *const *traj_names; /* (ntraj) */
    const char *const *traj_units; /* (ntraj) their SI units; NULL: unknown */
    long ntime; /* trajectory samples */
    const double *traj_time; /* (ntime) */
    int neig; /* eigenvalues per instance (outputs.eigenvalues; /eig), 0: none */
} hs_results_layout;

typedef struct hs_results_meta {
    const char *model_text, *sweep_text, *model_path, *sweep_path;
    unsigned long long seed;
    const char *method; /* monte_carlo, latin_hypercube, sobol, grid */
    const char *backend; /* reference, cpu, gpu */
    const char *device; /* CPU model or GPU name */
    const char *version, *commit;
    /* what a reader needs of the model without parsing its text: its name and its joints'
     * names and kinds ("revolute", "prismatic") */
    const char *model_name;
    int njoint;
    const char *const *joint_names, *const *joint_kinds; /* (njoint) */
    /* method cosim_search (hs_cosim_search of hs/sweep.h), for `hydrosweep analyze cosim`: the
     * test inputs' names, the values of H, and each parameter's role (0 H, 1 the hydraulics' step,
     * 2 a test input's, 3 a configuration's); nsearch_input 0 otherwise (root attributes
     * search_inputs, search_nH, search_param_roles, search_param_enums) */
    int nsearch_input, search_nH;
    const char *const *search_inputs; /* (nsearch_input) */
    const int *search_param_roles; /* (nparam of the layout) */
    const char *const *search_param_enums; /* (nparam) an enumeration's value names joined by ",", else "" */
} hs_results_meta;

typedef struct hs_results hs_results; /* opaque */

/* HS_ERR_ARG if a file PATH's results would write (PATH, PATH.part, the CSV summary) is one
 * of the n input files (a sweep, a model, a piece to merge): it would be destroyed. */
int hs_results_check_inputs(const char *path, const char *const *inputs, int n, hs_error *err);

/* Creates PATH.part (replacing an old one). */
int hs_results_create(const char *path, const hs_results_layout *L, const hs_results_meta *meta,
                      hs_results **r, hs_error *err);
/* Opens PATH.part of an interrupted run with the same layout (checked: sizes, names, seed,
 * sweep text) to continue it. */
int hs_results_resume(const char *path, const hs_results_layout *L, const hs_results_meta *meta,
                      hs_results **r, hs_error *err);
long hs_results_nchunk(const hs_results *r);
int hs_results_chunk_done(const hs_results *r, long c);
/* Writes chunk c: rows [c*chunk, c*chunk + cnt) of this run; params is row-major (cnt x
 * nparam); bo holds cnt instances (bo->n == cnt). Flushes the file. */
int hs_results_write_chunk(hs_results *r, long c, const double *params, const hs_batch_out *bo,
                           hs_error *err);

/* The eigenvalues of a batch's instances (outputs.eigenvalues; the layout's neig > 0), filled
 * on the host (host/run/run.c, hs_lin_instance). Row-major, so instances [off, off + m) are the
 * same arrays from row off on (hs_eig_out_view). Kept apart from hs_batch_out, which the GPU
 * kernels hold per thread. */
typedef struct hs_eig_out {
    long n; /* instances */
    int neig; /* eigenvalues per instance */
    double *re, *im; /* (n x neig) */
    double *max_real, *min_damping; /* (n) */
    int *status; /* (n) enum hs_lin_status */
} hs_eig_out;
int hs_eig_out_alloc(hs_eig_out *o, long n, int neig);
void hs_eig_out_free(hs_eig_out *o);
/* Instances [off, off + m) of e, sharing its arrays (not to be freed). */
hs_eig_out hs_eig_out_view(const hs_eig_out *e, long off, long m);
/* hs_results_write_chunk with the chunk's eigenvalues (eig->n == cnt; NULL when the layout
 * has none). */
int hs_results_write_chunk_eig(hs_results *r, long c, const double *params, const hs_batch_out *bo,
                               const hs_eig_out *eig, hs_error *err);
/* All chunks written: computes and stores the ensemble statistics (quantiles on the GPU when
 * the backend of the meta given to create/resume is "gpu" and a device works, else on the
 * host), writes PATH's CSV summary (PATH with .csv), renames PATH.part to PATH, prints the
 * ensemble table to f (if not NULL; its column header line ends "quantiles on WHERE"). */
int hs_results_finish(hs_results *r, void *f /* FILE* */, hs_error *err);
/* The table hs_results_finish prints: in the units of the field (MPa, deg, mm, L/min; si 0,
 * the default) or in SI as stored (si 1). The file and the CSV are SI either way. */
void hs_results_report_si(hs_results *r, int si);
void hs_results_close(hs_results *r);

/* Reads instance i's swept parameter values and names from a results file (for
 * `simulate --from RESULTS --instance I`). names/values are filled up to max entries. */
int hs_results_read_instance(const char *path, long i, int max, char names[][112],
                             double *values, int *nparam, char *model_path, size_t model_path_n,
                             hs_error *err);
/* The sweep text and path stored in a results file (heap strings, free them) and the number
 * of instances the run sampled (the sweep's, or run -n). */
int hs_results_read_sweep(const char *path, char **sweep_text, char **sweep_path, long *n_total,
                          hs_error *err);
/* /params of every finished chunk re-derived from the sampler (the sweep and model texts the
 * file stores, its seed and instance count), as simulate --from does: HS_ERR_IO naming the
 * first stored value that is not the sweep's. `run --resume` checks its .part, `merge` every
 * piece. _file: of the results file (or .part) at path, opened to read. */
int hs_results_check_params(hs_results *r, hs_error *err);
int hs_results_check_params_file(const char *path, hs_error *err);
/* Merges the shard files into one file equal to a single run's (rows in instance order). */
int hs_results_merge(const char *out, const char *const *pieces, int npieces, hs_error *err);

/* Quantile q in [0,1] of x (n values, NaNs ignored; linear interpolation between order
 * statistics, R type 7); x is reordered. Returns NaN for an empty set. */
double hs_quantile(double *x, long n, double q);

#ifdef __cplusplus
}
#endif

#endif
