/* hs/sweep.h -- sweep files: which model, how many instances, how each named parameter is
 * sampled, and what is recorded per instance (host API). */
#ifndef HS_SWEEP_H
#define HS_SWEEP_H

#include <stddef.h>
#include "errors.h"
#include "model_file.h"
#include "../../kernels/hs_batch.h"

#ifdef __cplusplus
extern "C" {
#endif

enum hs_sample_method {
    HS_SAMPLE_MONTE_CARLO = 0, /* independent draws (Philox4x32-10) */
    HS_SAMPLE_LHS = 1, /* Latin hypercube: one draw per stratum, strata permuted per parameter */
    HS_SAMPLE_SOBOL = 2, /* Sobol' points (Joe-Kuo directions), random digital shift by seed */
    HS_SAMPLE_GRID = 3, /* full factorial over per-parameter value lists */
    HS_SAMPLE_SALTELLI = 4, /* Saltelli's design for Sobol' indices, as SALib's sobol.sample with
                               scramble=False (hs_saltelli_u): blocks of 2D + 2 instances */
    HS_SAMPLE_COSIM_SEARCH = 5 /* seed 004 Pub. III Sect. 2.4.1's configuration search as one
                                  grid: every configuration x test input x communication step H
                                  (hs_cosim_search) */
};

enum hs_dist {
    HS_DIST_UNIFORM = 0, /* a = low, b = high */
    HS_DIST_NORMAL = 1, /* a = mean, b = standard deviation */
    HS_DIST_TRUNCNORMAL = 2, /* a = mean, b = sd, c = low, d = high */
    HS_DIST_LOGNORMAL = 3, /* a = median, b = sigma of ln(x) */
    HS_DIST_VALUES = 4 /* grid: the listed values (also from a range: from, to, n) */
};

typedef struct hs_sweep_param {
    char name[112]; /* the model parameter's dotted name */
    int index; /* into the model's parameter table (hs_model_desc.param) */
    int dist; /* enum hs_dist */
    double a, b, c, d; /* distribution arguments (see enum hs_dist), SI */
    int nvalues; /* HS_DIST_VALUES */
    double *values; /* (nvalues) heap */
    int line; /* where it was defined in the sweep file (messages) */
    int dim; /* the grid's dimension (grid, cosim_search): parameters of one dimension take their
                values from one digit (a cosim_search's test input sets several at once);
                dimensions ascend with the parameters, the first one fastest */
} hs_sweep_param;

/* method: cosim_search (seed 004 Pub. III Sect. 2.4.1): the H grid, the test inputs' names.
 * The instances are (H fastest, then the test input, then the configurations in the order of
 * parameters:): the parameters integrator.dt (the H grid, dimension 0), cosim.h_hyd (when
 * search.h_hyd is given: one value), the test inputs' parameters (one shared dimension) and
 * the configuration parameters (one dimension each). */
typedef struct hs_cosim_search {
    double H_ini, H_inc, H_max; /* s: H = H_ini + k H_inc <= H_max */
    double h_hyd; /* s; NAN: the model's cosim.h_hyd */
    int nH; /* values of H */
    int ninput; /* test inputs */
    int dim_input, dim_config; /* the test inputs' dimension (-1: they set no parameter), the first
                                  configuration's */
    char (*input_name)[64]; /* (ninput) heap: their names */
} hs_cosim_search;

typedef struct hs_sweep {
    char path[256]; /* sweep file */
    char *text; /* its text (heap), stored in the results */
    char model_path[256]; /* resolved relative to the sweep file's directory */
    long n; /* instances (grid: product of the value counts unless given) */
    unsigned long long seed;
    int method; /* enum hs_sample_method */
    int nparam;
    hs_sweep_param *param; /* (nparam) heap */
    double t_end, dt; /* overrides; NAN when not given */
    int newton; /* override of integrator.newton (enum hs_newton); -1 when not given */
    int formulation; /* override of integrator.formulation (enum hs_formulation); -1: not given */
    int coupling; /* override of integrator.coupling (enum hs_coupling); -1: not given */
    int step; /* override of integrator.step (enum hs_step_control); -1 when not given */
    double rtol; /* override of integrator.rtol; NAN when not given */
    int integ_method; /* override of integrator.method (enum hs_method); -1 when not given */
    hs_output_spec out; /* signals, statistics and trajectories per instance (hs_batch.h) */
    int eig; /* outputs.eigenvalues: each instance linearized at its static equilibrium, its
                eigenvalues stored (hs/linearize.h; /eig of the results) */
    int eig_line, eig_col; /* where outputs.eigenvalues is given (messages), 0 if not */
    long chunk; /* instances per written chunk (default 1024) */
    int n_line, n_col; /* where the instance count is given (messages), 0 if unknown */
    char n_key[16];    /* its key: instances, or parameters (a grid's product) */
    hs_cosim_search search; /* method cosim_search */
} hs_sweep;

/* Loads a sweep file and the model it names; checks parameter names against the model and
 * signal names against its outputs. Errors: file, line, column, key, rule. */
int hs_sweep_load(const char *path, hs_sweep *sw, hs_model_desc *model, hs_error *err);
int hs_sweep_load_text(const char *text, const char *path, hs_sweep *sw, hs_model_desc *model,
                       hs_error *err);
/* hs_sweep_load_text with the model's text given (a results file's /model_text) instead of
 * read from the file the sweep names: a stored run reloaded where its files are not. */
int hs_sweep_load_stored(const char *text, const char *path, const char *model_text, hs_sweep *sw,
                         hs_model_desc *model, hs_error *err);
void hs_sweep_free(hs_sweep *sw);

/* Whether a run fits this machine's memory (docs/sweep-format.md): n_total instances within
 * the method's limit, one chunk of results (statistics and trajectories), and, if n_run > 0,
 * the ensemble statistics of the run's n_run instances (all, or a shard's). HS_ERR_LIMIT
 * with key chunk, outputs.trajectories.every, or n_key at n_line:n_col of the sweep file.
 * The loader checks what every run needs (n_run = 0); hs_run checks its own run. */
int hs_sweep_check_size(const hs_sweep *sw, const hs_model_desc *md, long n_total, long n_run,
                        hs_error *err);

/* The value of sweep parameter j for instance i: a pure function of (seed, i, j) and the
 * sweep definition, identical wherever it is computed. */
double hs_sweep_sample(const hs_sweep *sw, long i, int j);

/* Resolves an output signal name (a CSV column name of `simulate`, e.g. crank_angle,
 * p_piston, F_lift, E_balance) to a signal reference; returns 0 on success. */
int hs_output_find(const hs_model_desc *d, const char *name, hs_signal_ref *ref);
/* The CSV-style name of a signal reference into buf. */
void hs_output_name(const hs_model_desc *d, hs_signal_ref ref, char *buf, size_t n);
/* The signals a model can record, in the column order of `simulate`'s CSV (after t), and the
 * k-th of them (0 <= k < hs_output_count). */
int hs_output_count(const hs_model_desc *d);
hs_signal_ref hs_output_at(const hs_model_desc *d, int k);
/* The SI unit of a signal ("rad" or "m" for a joint by its kind, "Pa", "J", "-", ...). */
const char *hs_output_unit(const hs_model_desc *d, hs_signal_ref ref);
/* "revolute" or "prismatic": the kind of joint j (0 <= j < nz), "" otherwise. */
const char *hs_joint_kind_name(const hs_model_desc *d, int j);

#ifdef __cplusplus
}
#endif

#endif
