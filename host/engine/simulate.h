/* simulate.h -- the single-instance driver (CPU reference path): integrates a model from
 * its initial state to t_end, calling back after every step. */
#ifndef HS_SIMULATE_H
#define HS_SIMULATE_H

#include <stdio.h>

#include "hs/model_file.h"
#include "hs_integrator.h"

typedef struct hs_sim_summary {
    long steps; /* steps accepted */
    long rejected; /* steps rejected (adaptive steps) */
    int adaptive; /* integrator.step = adaptive: steps of their own, rows on the grid of dt */
    long grid_done; /* output samples after t = 0 written (the steps, with fixed steps) */
    long steps_planned; /* round(t_end / dt) */
    double mean_iters; /* Newton iterations per accepted step */
    int max_iters;
    double max_abs_Ebal; /* max |E_balance|, J */
    double max_abs_Wcyl; /* max |W_<cyl>| over cylinders and time, J */
    double W_hyd[HS_NPW]; /* the energy audit at the last sample: W_in, W_loss, E_fluid, J */
    double max_abs_audit; /* max |W_in - W_loss - E_fluid - the actuators' work|, J */
    double max_phi; /* max ||Phi||_2 over all steps */
    double max_phid; /* max ||Phi_z zd||_2 */
    double t_final; /* time of the last accepted step */
    unsigned int ds_dep0; /* double-step formulation: the dependent coordinates chosen at t = 0
                             (bit i: joint i; hs_state.ds_dep) */
    unsigned int ds_dep; /* ... at the end */
    int ds_repart; /* ... partitions chosen again during the run */
    int status; /* enum hs_status_bits of the failure, 0 = completed */
    int warn; /* warning bits (HS_ST_WARNINGS) */
    double p_min; /* the lowest volume pressure of any step, Pa (models with volumes) */
    int p_min_vol; /* its volume */
    double t_cavitation; /* the first time a pressure fell below fluid.p_vapour (warn) */
    double wall_s; /* wall time, s (set by the caller) */
    int write_errno; /* hs_simulate_csv: the errno of a failed write of the CSV (0: none); the
                        integration stops at the first one */
    /* the energy table (kernels/hs_energy.h hs_hydraulic_power's Pel): each throttle's, valve's
     * and component's energy taken in (from a source through it, a pump's shaft), lost and
     * stored since t = 0, then the seals' and end stops' and the volumes' rows, J; integrated
     * by the trapezoidal rule over the output samples */
    int nel; /* rows: nthr + ndcv + ncmp + 2 (0: no circuit) */
    double E_el[(HS_MAX_THR + HS_MAX_DCV + HS_MAX_CMP + 2) * HS_NPW]; /* (nel x HS_NPW) */
    double P_el[(HS_MAX_THR + HS_MAX_DCV + HS_MAX_CMP + 2) * HS_NPW]; /* the last sample's powers */
    double t_el; /* the last sample's time */
} hs_sim_summary;

/* Called at t = 0 and after each accepted step (with adaptive steps: at each point k dt of
 * the output grid, with the dense-output state, whose step is k); a non-zero return stops
 * the run. */
typedef int (*hs_step_fn)(void *ctx, const hs_model *m, const hs_state *s, const hs_obs *o,
                          double E_balance);

/* Runs the model; returns 0 when t_end was reached, else the failure's status bits
 * (the callback has seen every accepted step). */
int hs_simulate(const hs_model *m, hs_step_fn fn, void *ctx, hs_sim_summary *sum);

/* Runs and writes the CSV (header with the stable column names of README.md). Every write
 * is checked: on the first failure (disk full, ...) the integration stops and sum->write_errno
 * says why (the caller reports it, and checks its own flush and close of out). */
int hs_simulate_csv(const hs_model_desc *d, FILE *out, long every, hs_sim_summary *sum);

void hs_sim_summary_print(FILE *f, const hs_model_desc *d, const hs_sim_summary *sum);

/* The names of the joints whose coordinates are independent (bit i of dep clear: joint i is
 * not dependent), comma-separated, into buf (double-step formulation). */
void hs_independent_names(const hs_model_desc *d, unsigned int dep, char *buf, size_t n);

/* The model's legal but implausible values (hs_model_plausible's rules), by parameter name,
 * into buf ("" when none); returns how many. */
int hs_model_implausible(const hs_model_desc *d, char *buf, size_t n);

/* The counterbalance valves that would not hold their load at rest: at the model's initial
 * state (hs_init) the load port's pressure alone (the pilot not acting) opens the valve, so the
 * load falls. A sentence per valve into buf ("" when none);
 * returns how many (0 also when the initial state cannot be computed: simulate says why). */
int hs_model_load_not_held(const hs_model_desc *d, char *buf, size_t n);

/* alpha dt^2/4 divided by the largest diagonal entry of M at z0 (0 without constraints). The
 * multipliers converge at a rate of about 1/(1 + this ratio) per Newton iteration, so a
 * ratio below 1 makes constrained models crawl or hit the iteration limit. */
double hs_penalty_ratio(const hs_model *m);

/* Human-readable reason for status bits ("ok" for 0). */
const char *hs_status_string(int status);

#endif
