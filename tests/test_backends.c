/* test_backends.c -- host/engine/backend_cpu.c and host/engine/backend_reference.c (conformance suite, CPU
 * part): the OpenMP batch equals the reference backend (LAPACK solves) per instance at
 * rounding level with equal Newton counts; batches are deterministic; an instance with an
 * invalid or diverging parameter is flagged while the others are kept unchanged. The same
 * body runs against the GPU in test_conformance_gpu.cu (label gpu). */
#include <stddef.h>
#include <stdlib.h>

#include "engine/backend.h"
#include "results/batch_out.h"
#include "conformance_setup.h"

static void run(int backend, int threads, const double *v, long cnt, hs_batch_out *o)
{
    hs_batch_job job;
    hs_error err;
    CHECK(conf_job(&job, v, cnt, o) == 0, "alloc");
    CHECK((backend == HS_BACKEND_CPU ? hs_backend_cpu(&job, threads, &err)
                                     : hs_backend_reference(&job, &err)) == 0,
          "backend runs");
}

/* The largest difference of a's statistics from r's over the n instances (the invalid
 * instance 5 left out): rounding-level differences (LAPACK vs our LU), scaled by each signal's
 * size; E_balance is a residual of energies of ~1e3 J: its scale is the cylinder work's. */
static double stats_diff(const hs_batch_out *a, const hs_batch_out *r, long n)
{
    double worst = 0.0;
    long i, k;
    for (k = 0; k < spec.nsig * HS_NSTAT; ++k) {
        double scale = 0.0;
        long kk = (k / HS_NSTAT == 4) ? 3 * HS_NSTAT + HS_STAT_MAX : k;
        for (i = 0; i < n; ++i)
            if (i != 5 && fabs(r->stats[kk * n + i]) > scale) scale = fabs(r->stats[kk * n + i]);
        for (i = 0; i < n; ++i) {
            double d;
            if (i == 5) continue;
            d = fabs(a->stats[k * n + i] - r->stats[k * n + i]) / (scale > 0 ? scale : 1.0);
            if (d > worst) worst = d;
        }
    }
    return worst;
}

int main(void)
{
    hs_batch_out ref, cpu, cpu2, one;
    long i, k, n = NI;
    double worst = 0.0;
    setup();
    run(HS_BACKEND_REFERENCE, 1, vals, n, &ref);
    run(HS_BACKEND_CPU, 2, vals, n, &cpu);
    run(HS_BACKEND_CPU, 2, vals, n, &cpu2);
    for (i = 0; i < n; ++i) {
        CHECK(cpu.status[i] == ref.status[i], "status %ld: cpu %d ref %d", i, cpu.status[i], ref.status[i]);
        CHECK(cpu.steps[i] == ref.steps[i], "steps %ld", i);
        CHECK(cpu.iters_max[i] == ref.iters_max[i] && cpu.iters_mean[i] == ref.iters_mean[i],
              "Newton counts equal for instance %ld (%g vs %g)", i, cpu.iters_mean[i], ref.iters_mean[i]);
        if (i == 5) continue;
        CHECK(ref.status[i] == 0, "instance %ld completes (status %d)", i, ref.status[i]);
        CHECK(ref.steps[i] == 1200, "1200 steps");
    }
    worst = stats_diff(&cpu, &ref, n);
    printf("  cpu batch vs reference: max relative difference of the statistics %.3e\n", worst);
    /* the two LU implementations round differently; through the badly scaled Newton matrix
     * (pressure rows ~1e3, position rows ~1e-3) that changes the last Newton update by a tiny
     * fraction of itself: measured 7e-10 of the signals' scale, bounded here by 5e-9 */
    CHECK(worst < 5e-9, "cpu batch equals reference to rounding: %.3e", worst);
    /* determinism: two cpu runs are bit-identical */
    CHECK(!memcmp(cpu.stats, cpu2.stats, sizeof(double) * (size_t)(n * spec.nsig * HS_NSTAT)),
          "bit-identical statistics");
    CHECK(!memcmp(cpu.traj, cpu2.traj, sizeof(double) * (size_t)(n * cpu.ntime)), "bit-identical traj");
    /* the invalid instance is flagged, keeps NaN statistics, and does not disturb the others */
    CHECK(cpu.status[5] == HS_ST_INVALID && cpu.steps[5] == 0, "invalid instance flagged");
    CHECK(isnan(cpu.stats[(1 * HS_NSTAT + HS_STAT_MAX) * n + 5]), "no statistics for it");
    run(HS_BACKEND_CPU, 1, vals + 3 * 6, 1, &one); /* instance 6 alone */
    for (k = 0; k < spec.nsig * HS_NSTAT; ++k)
        CHECK(one.stats[k] == cpu.stats[k * n + 6], "instance 6 alone == in the batch (stat %ld)", k);
    /* trajectory: the first sample is the static start pressure */
    CHECK(cpu.ntime == 13, "13 trajectory samples");
    CHECK(fabs(cpu.traj[0 * n + 0] - ref.traj[0 * n + 0]) < 1e-6, "traj t = 0");
    hs_batch_out_free(&ref);
    hs_batch_out_free(&cpu);
    hs_batch_out_free(&cpu2);
    hs_batch_out_free(&one);
    /* adaptive steps (integrator.step: adaptive): each instance its own step sequence, the
     * same on both backends (the controller decides on numbers that agree to rounding), the
     * statistics on the output grid to rounding, far fewer steps than the 1200 fixed ones */
    {
        hs_batch_out ra, ca;
        long nacc = 0, nrej = 0;
        double wa = 0.0;
        base.step = HS_STEP_ADAPTIVE;
        base.rtol = base.atol_z = base.atol_zd = 1e-5;
        base.atol_p = 10.0;
        base.atol_fs = 1e-8;
        base.atol_U = 1e-4;
        base.h_init = 1e-4;
        base.h_min = 1e-8;
        base.h_max = 0.05;
        run(HS_BACKEND_REFERENCE, 1, vals, n, &ra);
        run(HS_BACKEND_CPU, 2, vals, n, &ca);
        for (i = 0; i < n; ++i) {
            CHECK(ca.status[i] == ra.status[i] && ca.steps[i] == ra.steps[i] && ca.rejected[i] == ra.rejected[i] &&
                      ca.iters_mean[i] == ra.iters_mean[i] && ca.iters_max[i] == ra.iters_max[i],
                  "adaptive instance %ld: same status, steps (%ld, %ld), rejections (%ld, %ld), Newton counts", i,
                  ca.steps[i], ra.steps[i], ca.rejected[i], ra.rejected[i]);
            if (i == 5) continue;
            CHECK(ra.status[i] == 0 && ra.steps[i] > 20 && ra.steps[i] < 600,
                  "adaptive instance %ld completes in fewer steps: %ld (status %d)", i, ra.steps[i], ra.status[i]);
            nacc += ra.steps[i];
            nrej += ra.rejected[i];
        }
        wa = stats_diff(&ca, &ra, n);
        printf("  adaptive: %ld steps accepted, %ld rejected over %ld instances (fixed: 1200 each); cpu vs "
               "reference statistics %.3e\n",
               nacc, nrej, n - 1, wa);
        CHECK(wa < 5e-9, "adaptive: cpu batch equals reference to rounding: %.3e", wa);
        CHECK(ca.ntime == 13 && isnan(ca.traj[12 * n + 5]) && !isnan(ca.traj[12 * n + 0]),
              "adaptive: the trajectory on the same grid");
        hs_batch_out_free(&ra);
        hs_batch_out_free(&ca);
        base.step = HS_STEP_FIXED;
    }
    /* the double-step formulation (integrator.formulation = double_step): the same agreement;
     * its Newton system has the dependent coordinate's unit row and column, which LAPACK and
     * our LU solve alike */
    {
        hs_batch_out rd, cd;
        double wd;
        base.formulation = HS_FORM_DOUBLE_STEP;
        run(HS_BACKEND_REFERENCE, 1, vals, n, &rd);
        run(HS_BACKEND_CPU, 2, vals, n, &cd);
        for (i = 0; i < n; ++i) {
            CHECK(cd.status[i] == rd.status[i] && cd.steps[i] == rd.steps[i] && cd.iters_mean[i] == rd.iters_mean[i] &&
                      cd.iters_max[i] == rd.iters_max[i],
                  "double-step instance %ld: same status, steps and Newton counts (%g vs %g)", i, cd.iters_mean[i],
                  rd.iters_mean[i]);
            if (i != 5) CHECK(rd.status[i] == 0 && rd.steps[i] == 1200, "double-step instance %ld completes", i);
        }
        wd = stats_diff(&cd, &rd, n);
        printf("  double-step: cpu batch vs reference: max relative difference of the statistics %.3e\n", wd);
        CHECK(wd < 5e-9, "double-step: cpu batch equals reference to rounding: %.3e", wd);
        CHECK(cd.status[5] == HS_ST_INVALID, "double-step: the invalid instance flagged");
        hs_batch_out_free(&rd);
        hs_batch_out_free(&cd);
        base.formulation = HS_FORM_PENALTY;
    }
    /* a diverging instance: an absurdly soft oil (1 kPa) makes the valve volume's pressure
     * equation ill-posed; whatever happens it must be flagged or finish, never crash */
    {
        double v2[6] = {1200e6, 200, 550e6, 1e3, 200, 550e6};
        hs_batch_out o2;
        run(HS_BACKEND_CPU, 2, v2, 2, &o2);
        CHECK(o2.status[0] == 0, "normal instance next to a diverging one completes");
        printf("  soft-oil instance: status %d after %ld steps\n", o2.status[1], o2.steps[1]);
        CHECK(o2.status[1] != 0 || o2.steps[1] == 1200, "soft oil: flagged or completed");
        hs_batch_out_free(&o2);
    }
    /* an enumeration override (stored as int) of NaN or beyond int's range is invalid, not a
     * cast whose result depends on the machine; a whole in-range value is applied */
    {
        hs_override_spec ovi;
        static hs_model mi;
        double bad[3] = {NAN, 3e9, -1e300}, good = (double)HS_FRIC_VISCOUS;
        int k;
        memset(&ovi, 0, sizeof ovi);
        ovi.n = 1;
        ovi.offset[0] = offsetof(hs_model, cyl_fric);
        ovi.is_int[0] = 1;
        for (k = 0; k < 3; ++k) CHECK(!hs_instance_model(&base, &ovi, &bad[k], &mi), "int override %g refused", bad[k]);
        CHECK(hs_instance_model(&base, &ovi, &good, &mi) && mi.cyl_fric[0] == HS_FRIC_VISCOUS,
              "int override applied");
    }
    return tu_report("test_backends");
}
