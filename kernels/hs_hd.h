/* hs_hd.h -- the one macro header of the shared physics code.
 *
 * Every header under kernels/ is written in the common subset of C11 and CUDA C++ (no VLAs,
 * no compound literals, no designated initialisers, no implicit void* conversions) so the
 * same function runs in the CPU reference integrator, the OpenMP batch backend and the CUDA
 * kernel. HS_HD marks such functions; HS_RESTRICT is the restrict qualifier both accept. */
#ifndef HS_HD_H
#define HS_HD_H

/* NVRTC (run-time compilation of the specialised kernels, host/engine/kernel_spec.c) has the math
 * functions built in and no C library headers. */
#ifndef __CUDACC_RTC__
#include <math.h>
#else
#ifndef NAN
#define NAN __longlong_as_double(0x7ff8000000000000LL)
#endif
#endif

#ifdef __CUDACC__
#define HS_HD __host__ __device__
#else
#define HS_HD
#endif
#define HS_RESTRICT __restrict__

/* Maximum sizes, checked when a model is loaded (host/model/model_load.c). They lay out the
 * model block (hs_model), which the host, the generic engine and every specialised build
 * share, and which a GPU build keeps in constant memory (64 KiB with the output spec: the
 * static assertion in kernels/hs_batch.h). They are not what limits a model's speed: a
 * specialised build sizes its per-instance arrays by the model (HS_CAP_* below), so a small
 * model's frame does not grow with these. Chosen above a six-section loader crane (issue 48:
 * 32 bodies, 48 volumes, 16 valves, 12 cylinders, 32 components, 64 recorded signals). */
#define HS_MAX_BODIES 32 /* bodies of the spanning tree (one joint each; bit masks: 32 at most) */
#define HS_MAX_Z HS_MAX_BODIES /* relative joint coordinates */
#define HS_MAX_CUTS 16 /* cut joints closing loops */
#define HS_MAX_CON 64 /* scalar constraint equations of all cut joints */
#define HS_MAX_POINTS 64 /* named points */
#define HS_MAX_LOADS 32 /* external forces/torques */
#define HS_MAX_PAY 8 /* payloads: point masses picked up and released by a signal */
#define HS_MAX_SIGNALS 64 /* piecewise-linear time functions */
#define HS_MAX_KNOTS 256 /* knots of all signals together */
#define HS_MAX_VOLS 48 /* hydraulic volumes (pressure states) */
#define HS_MAX_SRCS 12 /* constant-pressure sources (pumps, tanks) */
#define HS_MAX_THR 24 /* throttle valves */
#define HS_MAX_DCV 16 /* 4/3 directional control valves (a pump's LS mask: 32 at most) */
#define HS_MAX_CYLS 12 /* double-acting cylinders */
#define HS_MAX_CMP 32 /* components of hydraulics.components (kernels/hs_components.h) */
#define HS_MAX_MOT 8 /* of which hydraulic motors */
#define HS_MAX_FS (2 * HS_MAX_CYLS + 24) /* friction states (LuGre: 1, modified LuGre: 2 each) and
                                            the components' states (a poppet, a swash plate, a
                                            hose's segment velocities) */
#define HS_MAX_FP 16 /* friction parameters per cylinder */
#define HS_MAX_X 128 /* Newton unknowns of one instance: z, p, friction states */

/* Capacities of the per-instance arrays (hs_state, hs_work and their parts): the HS_MAX_*
 * limits, unless a specialised build (host/engine/kernel_spec.c) sets them to one model's sizes
 * before including the engine. The model block itself (hs_model) is always laid out with
 * HS_MAX_*: the host and every build of the engine share it. */
#ifndef HS_CAP_BODIES
#define HS_CAP_BODIES HS_MAX_BODIES
#define HS_CAP_Z HS_MAX_Z
#define HS_CAP_CON HS_MAX_CON
#define HS_CAP_VOLS HS_MAX_VOLS
#define HS_CAP_DCV HS_MAX_DCV
#define HS_CAP_CYLS HS_MAX_CYLS
#define HS_CAP_FS HS_MAX_FS
#define HS_CAP_X HS_MAX_X
#define HS_CAP_OUT 64 /* recorded signals (HS_MAX_OUT of hs_batch.h) */
#endif
/* hydraulic motors (hs_hyd's speeds and torques, hs_state's work): a specialised build
 * without motors sets 0 and leaves them out of its frame */
#ifndef HS_CAP_MOT
#define HS_CAP_MOT HS_MAX_MOT
#endif
#define HS_MOT_ON (HS_CAP_MOT > 0) /* the motors' speeds and torques in hs_hyd, their work in hs_state */
#ifndef HS_AUDIT_ON
#define HS_AUDIT_ON 1 /* the hydraulic energy audit's works in hs_state (hs_energy.h): a specialised
                         build has them only where a signal asks for them */
#endif
#ifndef HS_FLOWS_ON
#define HS_FLOWS_ON 1 /* the elements' flow and loss signals (hs_energy.h hs_element_signal): a
                         specialised build has them only where a signal asks for them */
#endif
/* 1: the kinematics handle ball joints (hs_kinematics.h); a specialised build of a model
 * without one sets 0, and keeps their code and 8 B per body out of its kernel. */
#ifndef HS_CAP_BALL
#define HS_CAP_BALL 1
#endif

/* Loops over model sizes: in a specialised build the sizes are compile-time constants and
 * these loops are unrolled whole, so that every index is a constant and small arrays live in
 * registers; elsewhere (runtime sizes) the compiler decides. A large model's build
 * (HS_SPEC_ROLLED: more Newton unknowns than HS_SPEC_UNROLL_MAX_X, host/engine/kernel_spec.c)
 * leaves them to the compiler too: unrolled whole, its dense LU alone would be nx^3/3 copies
 * of the update (170 000 at nx = 80), which NVRTC does not compile in ten minutes, and its
 * arrays do not fit in registers anyway. */
#if defined(HS_SPEC) && !defined(HS_SPEC_ROLLED) && (defined(__CUDA_ARCH__) || defined(__clang__))
#define HS_UNROLL _Pragma("unroll")
#elif defined(HS_SPEC) && !defined(HS_SPEC_ROLLED) && defined(__GNUC__) && !defined(__CUDACC__)
#define HS_UNROLL _Pragma("GCC unroll 64")
#else
#define HS_UNROLL
#endif

/* A loop kept rolled on a GPU (its body is large, and one copy keeps the kernel's code and
 * registers small), and functions kept out of line there: cold ones (initialisation, failure
 * diagnosis), large ones called from several places (the residual), and the phases of a step
 * whose register needs differ from the Newton loop's (hs_newton_apply, hs_step_finish,
 * hs_instance_record): out of line each gets its own allocation, which took the canonical
 * model's kernel from 160/168 B of spills to none (sm_90, `hydrosweep kernel`). Host compilers
 * decide for themselves. */
#ifdef __CUDA_ARCH__
#define HS_NOUNROLL _Pragma("unroll 1")
#else
#define HS_NOUNROLL
#endif
#ifdef __CUDACC__
#define HS_NOINLINE __noinline__
#else
#define HS_NOINLINE
#endif

/* The type of every quantity the physics computes from the state (positions, velocities,
 * forces, pressures, rates). The model's values and the integrator's own bookkeeping stay
 * double. A translation unit may define HS_REAL before including the engine to run the same
 * physics in another arithmetic: host/engine/linearize.cpp defines a forward-mode dual number, which
 * gives the exact derivatives of the linearization (seed 001 Sect. 3) from this one code. */
#ifndef HS_REAL
#define HS_REAL double
#define HS_REAL_IS_DOUBLE 1 /* (not the dual numbers of host/engine/linearize.cpp) */
#endif
typedef HS_REAL hs_real;

#define HS_PI 3.14159265358979323846

/* The pressure of a drain to atmosphere, Pa: the model's pressures are absolute, a valve's
 * setting against a vented spring chamber is a gauge pressure above it, and entrained air's
 * fraction is given at it (kernels/hs_fluid.h). */
#define HS_P_ATM 101325.0

/* fluid.p_vapour when the model gives none, Pa (absolute; docs/model-format.md) */
#define HS_P_VAPOUR_DEFAULT 1e3

#endif
