/* test_conformance_gpu_emul.cpp -- tests/test_conformance_gpu.cu, unchanged, run on the
 * emulated device (hs_cuda_emul.h): the GPU conformance suite's checks of the host logic
 * (sub-batches, grid-stride loop, copy back, the cuBLAS path's time loop, quantiles) in CI
 * without a GPU. The emulator's own misuse checks must stay silent throughout. */
#include <stdio.h>

#include "hs_cuda_emul.h"

static int emul_report(void);
#define main conformance_main
#include "../test_conformance_gpu.cu"
#undef main

int main(void)
{
    int rc = conformance_main();
    return emul_report() || rc;
}

static int emul_report(void)
{
    printf("  emulated device: %ld cudaMalloc, %ld cudaFree, %ld launches (largest block %u), %ld cuBLAS calls, "
           "%ld misuses%s%s\n",
           hs_emul_count.mallocs, hs_emul_count.frees, hs_emul_count.launches, hs_emul_count.max_block,
           hs_emul_count.blas_calls, hs_emul_count.violations, hs_emul_count.violations ? ": " : "",
           hs_emul_count.what);
    if (hs_emul_count.violations || hs_emul_count.live) {
        printf("test_conformance_gpu_emul: FAIL: %ld misuses of the device, %ld blocks not freed\n",
               hs_emul_count.violations, hs_emul_count.live);
        return 1;
    }
    return 0;
}
