/* test_sample.cu -- kernels/hs_sample.h compiled as CUDA C++ by nvcc. The checks run the
 * host path (no GPU needed) and compare with values printed by the C build
 * (tests/test_sample.c, test_fixed_values): the same bits, so a sweep sampled by either
 * build is the same sweep. The kernel below makes nvcc compile every sampler for the device
 * as well; it is never launched. */
#include <stdint.h>
#include <stdio.h>

#include "hs_sample.h"

#ifndef __CUDACC__
#error "test_sample.cu must be compiled by nvcc"
#endif

static int g_pass = 0, g_fail = 0;

static void check(int ok, const char *what, double got)
{
    if (ok) {
        ++g_pass;
    } else {
        ++g_fail;
        printf("FAIL %s: got %a\n", what, got);
    }
}

/* One thread evaluates every sampler; outputs go to global memory. */
__global__ void sample_device_path(uint64_t seed, double *out, uint32_t *w)
{
    int counts[2] = {3, 5};
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    hs_philox(seed, 1, 2, HS_STREAM_MC, w);
    out[0] = hs_uniform(seed, 12345, 2, HS_STREAM_MC);
    out[1] = hs_q_normal(830.0, 83.0, out[0]);
    out[2] = hs_q_truncnormal(550e6, 100e6, 300e6, 800e6, out[0]);
    out[3] = hs_q_lognormal(1500e6, 0.15, out[0]);
    out[4] = hs_q_uniform(168.0, 252.0, out[0]);
    out[5] = hs_lhs_u(seed, 500, 3, 1000);
    out[6] = hs_sobol_u(seed, 1000, 17);
    out[7] = (double)hs_grid_digit(17, 1, counts);
    out[8] = hs_norm_cdf(out[1]) + hs_norm_ccdf(out[1]);
}

int main(void)
{
    static const uint32_t kat[3][10] = {
        {0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u,
         0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u},
        {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
         0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu},
        {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u, 0xa4093822u, 0x299f31d0u,
         0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}};
    uint32_t out[4];
    int t, k, ok;
    for (t = 0; t < 3; ++t) {
        const uint32_t *v = kat[t];
        hs_philox(((uint64_t)v[5] << 32) | v[4], ((uint64_t)v[1] << 32) | v[0], v[2], v[3], out);
        ok = 1;
        for (k = 0; k < 4; ++k) ok &= out[k] == v[6 + k];
        check(ok, "Philox4x32-10 known answer", (double)out[0]);
    }
    /* the values test_sample.c's test_fixed_values checks, bit for bit */
    check(hs_uniform(20261121u, 12345, 2, HS_STREAM_MC) == 0x1.0348e3a7b0548p-3, "uniform",
          hs_uniform(20261121u, 12345, 2, HS_STREAM_MC));
    check(hs_q_normal(830.0, 83.0, hs_uniform(20261121u, 7, 1, HS_STREAM_MC)) ==
              0x1.59517f05e7f6dp+9,
          "normal", hs_q_normal(830.0, 83.0, hs_uniform(20261121u, 7, 1, HS_STREAM_MC)));
    check(hs_q_truncnormal(550e6, 100e6, 300e6, 800e6, 0.123) == 0x1.a00c625058914p+28,
          "truncated normal", hs_q_truncnormal(550e6, 100e6, 300e6, 800e6, 0.123));
    check(hs_q_lognormal(1500e6, 0.15, 0.9) == 0x1.b16d91d64cc51p+30, "lognormal",
          hs_q_lognormal(1500e6, 0.15, 0.9));
    check(hs_lhs_u(1, 500, 3, 1000) == 0x1.49ec3f4d6ed3bp-3, "lhs", hs_lhs_u(1, 500, 3, 1000));
    check(hs_sobol_u(1, 1000, 17) == 0x1.201cd46p-6, "sobol", hs_sobol_u(1, 1000, 17));
    check(hs_norm_quantile(0.975) == 0x1.f5c0331eeff82p+0, "Phi^-1(0.975)",
          hs_norm_quantile(0.975));
    check(hs_sobol_int(199999, 31) == 0x77c0c000u, "Sobol' point 199999, dimension 32",
          (double)hs_sobol_int(199999, 31));
    printf("test_sample.cu (nvcc, host path): %d passed, %d failed\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
