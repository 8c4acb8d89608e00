/* hs_integrator.h -- one instance's time integration, all of it: fixed trapezoidal steps
 * (hs_step), adaptive trapezoidal or ESDIRK steps with dense output (hs_step_adaptive,
 * hs_dense_state), the consistent initial state (hs_init) and the observables of a state
 * (hs_observe). The stages live in one header each, each including the one before it:
 *
 *   hs_status.h <- hs_state.h <- hs_residual.h <- hs_double_step.h <- hs_newton.h
 *     <- hs_trapezoid.h <- hs_esdirk.h <- hs_adapt.h;
 *   hs_trapezoid.h <- hs_i1al.h <- hs_cosim.h (co-simulation; hs_step) <- hs_init.h
 *
 * (hs_state.h says what each computes). A new integrator or formulation is a new header in
 * that chain, not a new section of an existing one. */
#ifndef HS_INTEGRATOR_H
#define HS_INTEGRATOR_H

#include "hs_adapt.h"
#include "hs_init.h"

#endif
