/* hs_hd.h -- the one macro header of the shared physics code.
 *
 * Every header under kernels/ is written in the common subset of C11 and CUDA C++ (no VLAs,
 * no compound literals, no designated initialisers, no implicit void* conversions) so the
 * same function runs in the CPU reference integrator, the OpenMP batch backend and the CUDA
 * kernel. HS_HD marks such functions; HS_RESTRICT is the restrict qualifier both accept. */
#ifndef HS_HD_H
#define HS_HD_H

#include <math.h>

#ifdef __CUDACC__
#define HS_HD __host__ __device__
#else
#define HS_HD
#endif
#define HS_RESTRICT __restrict__

/* Fixed maximum sizes, checked when a model is loaded (host/model_load.c). They size the
 * per-instance work arrays, which live on the stack (CPU) or in local memory (GPU). */
#define HS_MAX_BODIES 16 /* bodies of the spanning tree (one joint each) */
#define HS_MAX_Z HS_MAX_BODIES /* relative joint coordinates */
#define HS_MAX_CUTS 8 /* cut joints closing loops */
#define HS_MAX_CON 32 /* scalar constraint equations of all cut joints */
#define HS_MAX_POINTS 32 /* named points */
#define HS_MAX_LOADS 16 /* external forces/torques */
#define HS_MAX_SIGNALS 32 /* piecewise-linear time functions */
#define HS_MAX_KNOTS 256 /* knots of all signals together */
#define HS_MAX_VOLS 12 /* hydraulic volumes (pressure states) */
#define HS_MAX_SRCS 6 /* constant-pressure sources (pumps, tanks) */
#define HS_MAX_THR 8 /* throttle valves */
#define HS_MAX_DCV 4 /* 4/3 directional control valves */
#define HS_MAX_CYLS 4 /* double-acting cylinders */
#define HS_MAX_FS (2 * HS_MAX_CYLS) /* friction states (LuGre: 1, modified LuGre: 2 each) */
#define HS_MAX_FP 16 /* friction parameters per cylinder */
#define HS_MAX_X 40 /* Newton unknowns of one instance: z, p, friction states */

#define HS_PI 3.14159265358979323846

#endif
