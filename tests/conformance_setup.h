/* conformance_setup.h -- the one setup of the conformance suite, shared by every backend's
 * test (tests/test_backends.c: reference and cpu; tests/test_conformance_gpu.cu: gpu): the
 * Pub. I four-bar with Brown-McPhee friction over 1.2 s (the valve opens at 0.5 s), NI
 * instances overriding the oil bulk modulus, the Coulomb force and the piston-side hose
 * modulus, instance 5 invalid (negative oil bulk modulus); six recorded signals with all
 * statistics and a pressure trajectory. */
#ifndef HS_CONFORMANCE_SETUP_H
#define HS_CONFORMANCE_SETUP_H

#include <stddef.h>

#include "hs_batch.h"
#include "test_util.h"

#define NI 12

static hs_model base;
static hs_override_spec ov;
static hs_output_spec spec;
static double vals[NI * 3];

static inline void setup(void)
{
    int i;
    tu_fourbar_pub1(&base);
    base.t_end = 1.2; /* the valve opens at 0.5 s: flow, motion and a pressure transient */
    base.cyl_fric[0] = HS_FRIC_BROWN_MCPHEE;
    base.cyl_fp[0][HS_FP_FC] = 210;
    base.cyl_fp[0][HS_FP_FS] = 830;
    base.cyl_fp[0][HS_FP_VS] = 0.0125;
    base.cyl_fp[0][HS_FP_SIGMA2] = 330;
    hs_model_derive(&base);
    memset(&ov, 0, sizeof ov);
    ov.n = 3;
    ov.offset[0] = offsetof(hs_model, B_oil);
    ov.offset[1] = offsetof(hs_model, cyl_fp) + HS_FP_FC * sizeof(double);
    ov.offset[2] = offsetof(hs_model, vol_B) + 1 * sizeof(double);
    for (i = 0; i < NI; ++i) {
        vals[3 * i + 0] = 1200e6 + 50e6 * i;
        vals[3 * i + 1] = 150 + 10 * i;
        vals[3 * i + 2] = 400e6 + 30e6 * i;
    }
    vals[3 * 5 + 0] = -1500e6; /* instance 5: a negative oil bulk modulus: invalid */
    memset(&spec, 0, sizeof spec);
    spec.nsig = 6;
    spec.sig[0].kind = HS_SIG_Z;
    spec.sig[1].kind = HS_SIG_P;
    spec.sig[1].index = 1;
    spec.sig[2].kind = HS_SIG_F;
    spec.sig[3].kind = HS_SIG_W;
    spec.sig[4].kind = HS_SIG_EBAL;
    spec.sig[5].kind = HS_SIG_ITERS;
    spec.stats = (1u << HS_NSTAT) - 1;
    spec.traj_every = 100;
    spec.ntraj = 1;
    spec.traj[0].kind = HS_SIG_P;
    spec.traj[0].index = 1;
}

/* A job over cnt instances with values v (cnt x 3) into o, allocated here with the setup's
 * trajectory length. Needs host/engine/backend.h included first (hs_batch_job; the C++ tests include
 * it inside extern "C"). Returns hs_batch_out_alloc's status. */
static inline int conf_job(hs_batch_job *job, const double *v, long cnt, hs_batch_out *o)
{
    long ntime = hs_traj_count((long)floor(base.t_end / base.dt + 0.5), spec.traj_every);
    memset(job, 0, sizeof *job); /* no progress callback */
    job->base = &base;
    job->ov = &ov;
    job->spec = &spec;
    job->cnt = cnt;
    job->values = v;
    job->out = o;
    return hs_batch_out_alloc(o, cnt, &spec, ntime);
}

#endif
