/* test_validate.c -- the Newton iteration bounds of `hydrosweep validate`
 * (hs_validate_iterations, host/cli/cli_run.c): a count that flips by one where rounding moves a
 * convergence test across its threshold passes; a mean per step beyond iter_rtol times the
 * larger mean, a largest count per step more than HS_VALIDATE_ITER_MAX_DIFF apart, or a NaN
 * on one side only fails; the worst rows are the ones reported. */
#include <math.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "test_util.h"

#define K 5

typedef struct pair {
    double ma[K], mb[K];
    int xa[K], xb[K];
    hs_batch_out a, b;
} pair;

/* Every instance: 1.5 iterations per step on average, at most 3, on both sides. */
static void pair_init(pair *p)
{
    int k;
    memset(p, 0, sizeof *p);
    for (k = 0; k < K; ++k) {
        p->ma[k] = p->mb[k] = 1.5;
        p->xa[k] = p->xb[k] = 3;
    }
    p->a.n = p->b.n = K;
    p->a.iters_mean = p->ma;
    p->b.iters_mean = p->mb;
    p->a.iters_max = p->xa;
    p->b.iters_max = p->xb;
}

int main(void)
{
    pair p;
    hs_iter_cmp r;

    /* equal counts: nothing differs */
    pair_init(&p);
    hs_validate_iterations(&p.a, &p.b, K, 1e-2, &r);
    CHECK(r.ndiff == 0 && r.nbad == 0 && r.worst_mean == 0.0 && r.worst_max == 0,
          "equal: ndiff %ld nbad %ld worst %g/%d", r.ndiff, r.nbad, r.worst_mean, r.worst_max);

    /* one flip in 10000 steps (the friction_bulk_mc case: 1.4430 vs 1.4429) and one extra
     * iteration at the hardest step: reported, within the bounds */
    pair_init(&p);
    p.ma[1] = 1.4430;
    p.mb[1] = 1.4429;
    p.xa[3] = 4;
    hs_validate_iterations(&p.a, &p.b, K, 1e-2, &r);
    CHECK(r.ndiff == 2 && r.nbad == 0, "flips: ndiff %ld (want 2) nbad %ld (want 0)", r.ndiff, r.nbad);
    CHECK(r.worst_mean_k == 1 && fabs(r.worst_mean - 1e-4) < 1e-12 &&
              fabs(r.worst_mean_rel - 1e-4 / 1.4430) < 1e-12,
          "worst mean at row %ld: %g (rel %g)", r.worst_mean_k, r.worst_mean, r.worst_mean_rel);
    CHECK(r.worst_max_k == 3 && r.worst_max == 1, "worst max at row %ld: %d", r.worst_max_k,
          r.worst_max);
    /* the same with iter_rtol 0: the mean flip is beyond it, the max flip is not */
    hs_validate_iterations(&p.a, &p.b, K, 0.0, &r);
    CHECK(r.nbad == 1, "iter_rtol 0: nbad %ld (want 1)", r.nbad);

    /* the mean bound is relative to the larger mean: 1.5 vs 1.5 * (1 + 0.011) is beyond 1e-2,
     * 1.5 vs 1.5 * (1 + 0.009) within */
    pair_init(&p);
    p.ma[0] = 1.5 * 1.011;
    p.ma[2] = 1.5 * 1.009;
    hs_validate_iterations(&p.a, &p.b, K, 1e-2, &r);
    CHECK(r.ndiff == 2 && r.nbad == 1 && r.worst_mean_k == 0,
          "mean bound: ndiff %ld nbad %ld (want 2, 1), worst row %ld", r.ndiff, r.nbad,
          r.worst_mean_k);
    /* symmetric: the reference side larger */
    pair_init(&p);
    p.mb[4] = 1.5 * 1.011;
    hs_validate_iterations(&p.a, &p.b, K, 1e-2, &r);
    CHECK(r.nbad == 1 && r.worst_mean_k == 4, "mean bound, reference larger: nbad %ld row %ld",
          r.nbad, r.worst_mean_k);

    /* the largest count of a step 2 apart: beyond the bound, whatever the means */
    pair_init(&p);
    p.xb[2] = 5;
    hs_validate_iterations(&p.a, &p.b, K, 1.0, &r);
    CHECK(r.nbad == 1 && r.worst_max == 2 && r.worst_max_k == 2,
          "max bound: nbad %ld worst %d row %ld", r.nbad, r.worst_max, r.worst_max_k);

    /* NaN on one side only fails; on both sides (no steps on either) it is equal */
    pair_init(&p);
    p.ma[1] = NAN;
    p.ma[3] = p.mb[3] = NAN;
    hs_validate_iterations(&p.a, &p.b, K, 1e-2, &r);
    CHECK(r.nbad == 1 && r.worst_mean_k == 1 && isnan(r.worst_mean),
          "NaN: nbad %ld (want 1), worst row %ld value %g", r.nbad, r.worst_mean_k, r.worst_mean);

    /* instances that made no step: 0 and 0 are equal, 0 and 1 are not */
    pair_init(&p);
    p.ma[0] = p.mb[0] = 0.0;
    p.ma[1] = 0.0;
    p.mb[1] = 1.0;
    hs_validate_iterations(&p.a, &p.b, K, 1e-2, &r);
    CHECK(r.ndiff == 1 && r.nbad == 1 && r.worst_mean_k == 1 && r.worst_mean_rel == 1.0,
          "no steps: ndiff %ld nbad %ld row %ld rel %g", r.ndiff, r.nbad, r.worst_mean_k,
          r.worst_mean_rel);

    return tu_report("test_validate");
}
