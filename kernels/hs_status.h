/* hs_status.h -- the status bits of an instance, defined once. /status of a results file is 0
 * (the instance ran to t_end) or the OR of these bits. A failure stops its instance (the state
 * stays the last good one); a warning lets it run on: its results stand, but one of its
 * assumptions failed.
 *
 * Everything that names a bit expands the table HS_STATUS_BITS: the engine's enum
 * (HS_ST_MAXITER, ...), the warning mask HS_ST_WARNINGS, the results file's attributes of
 * /status and its /ensemble counts (host/results/results.c), which the Python reader decodes
 * (python/hydrosweep/results.py reads the table from the file, not from a copy). A bit added
 * here appears in all of them; tests/test_results.c fails if the results file lacks one. */
#ifndef HS_STATUS_H
#define HS_STATUS_H

/* X(NAME, value, name, warning, description): HS_ST_<NAME> = value, a power of two; name as
 * the results file spells it (/ensemble's failed_<name> or warned_<name>); warning 1 for a
 * warning, 0 for a failure. */
#define HS_STATUS_BITS(X)                                                                              \
    X(MAXITER, 1, "maxiter", 0, "Newton hit its iteration limit; the step was not accepted")          \
    X(NONFINITE, 2, "nonfinite", 0, "NaN or Inf in the residual or the state")                         \
    X(SINGULAR, 4, "singular", 0, "singular Newton or projection matrix")                              \
    X(CONSTRAINT, 8, "constraint", 0, "constraint violation above HS_PHI_BLOWUP (1e-3)")               \
    X(GEOMETRY, 16, "geometry", 0, "the initial loop closure has no solution near z0")                 \
    X(STROKE, 32, "stroke", 0, "a cylinder left its stroke (a chamber length <= 0)")                   \
    X(EQUILIBRIUM, 64, "equilibrium", 0,                                                               \
      "the cylinders cannot hold the initial configuration statically")                               \
    X(INVALID, 128, "invalid", 0, "a sampled value breaks a physical rule: the instance was not run") \
    X(SINGULAR_CONFIG, 256, "singular_config", 0,                                                      \
      "(with maxiter) the loop-closure Jacobian lost rank: a singular position, e.g. a "              \
      "parallelogram folding flat; or a ball joint turned by more than pi/2 in one step, near its "   \
      "rotation vector's singular 2 pi")                                                              \
    X(CAVITATION, 512, "cavitation", 1,                                                                \
      "warning: a volume's pressure fell below fluid.p_vapour at some step: the lumped liquid "       \
      "model does not hold there")                                                                     \
    X(IMPLAUSIBLE, 1024, "implausible", 1, "warning: a parameter value outside its plausible range")   \
    X(STEPSIZE, 2048, "step_size", 0,                                                                  \
      "adaptive steps: the error tolerance could not be met at the smallest step allowed "            \
      "(integrator.h_min)")                                                                          \
    X(COSIM, 4096, "cosim_diverged", 0,                                                                \
      "co-simulation: the hydraulic subsystem diverged (a value not finite or beyond "                \
      "HS_COSIM_P_BLOWUP, its extrapolated stroke out of the cylinder, or its Newton iteration "      \
      "failed)")                                                                                      \
    X(COSIM_STIFF, 8192, "cosim_stiff", 1,                                                             \
      "warning: co-simulation: an explicit hydraulic step h_hyd beyond its stability limit (h_hyd "    \
      "|dp'/dp| > 2 for euler, 2.785 for rk4) at some communication step: pressures may oscillate; "  \
      "use cosim.hydraulics trapezoidal or a smaller h_hyd")

#define HS_ST_ENUM_(N, v, name, warn, desc) HS_ST_##N = (v),
enum hs_status_bits { HS_STATUS_BITS(HS_ST_ENUM_) };
#undef HS_ST_ENUM_

#define HS_ST_WARN_(N, v, name, warn, desc) | ((warn) ? (v) : 0)
#define HS_ST_OR_(N, v, name, warn, desc) | (v)
#define HS_ST_SUM_(N, v, name, warn, desc) +(v)
#define HS_ST_ONE_(N, v, name, warn, desc) +1
/* the warning bits; the rest are failures */
#define HS_ST_WARNINGS (0 HS_STATUS_BITS(HS_ST_WARN_))
/* every bit of the table, and how many there are */
#define HS_ST_ALL (0 HS_STATUS_BITS(HS_ST_OR_))
#define HS_ST_NBITS (0 HS_STATUS_BITS(HS_ST_ONE_))
/* the values are 1, 2, 4, ... with none repeated or skipped: no two share a bit (the OR of the
 * values is their sum) and together they fill the lowest HS_ST_NBITS bits (the results code
 * counts bit k as value 1 << k) */
typedef char hs_check_status_bits[(0 HS_STATUS_BITS(HS_ST_SUM_)) == HS_ST_ALL &&
                                          HS_ST_ALL == (1 << HS_ST_NBITS) - 1 ? 1 : -1];
#undef HS_ST_SUM_

#endif
