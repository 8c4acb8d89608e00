/* test_shared_headers.cu -- the shared kernels/ headers compiled as CUDA C++ by nvcc.
 * The checks run on the host (no GPU needed); the kernel below makes nvcc compile the HS_HD
 * functions for the device as well. It is never launched. Twin of test_shared_headers.c. */
#include "shared_headers_body.h"

#ifndef __CUDACC__
#error "test_shared_headers.cu must be compiled by nvcc"
#endif

/* One thread runs everything the host checks exercise, and one instance of the batch path;
 * outputs go to global memory. */
__global__ void shb_device_path(hs_model *m1, hs_model *m2, hs_kin *k, hs_dyn_work *dw,
                                hs_state *s, hs_work *w, double *out, int *iout,
                                const hs_override_spec *ov, const double *v,
                                const hs_output_spec *spec, hs_batch_out *bo, uint32_t *words)
{
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    shb_build_derive_model(m1);
    hs_model_derive(m1);
    iout[0] = m1->ncon;
    iout[1] = shb_lu5(out, iout + 2, out + 25); /* out[0..24] LU, out[25..29] x, iout[2..6] */
    shb_build_pendulum(m2);
    hs_model_derive(m2);
    shb_pendulum_eval(m2, k, dw, out + 30, out + 34, out + 36, out + 38, out + 42, out + 44);
    out[46] = hs_signal_eval(m2, 0, 2.0);
    iout[7] = shb_pendulum_steps(m2, s, w, 5);
    shb_hydraulic_scalars(out + 47);
    shb_batch_scalars(out + 55);
    iout[8] = hs_run_instance(m2, ov, v, spec, 0, bo, m1, s, w);
    shb_sample_values(words, out + 64);
    iout[9] = shb_riccati_demo(out + 100, out + 100 + 4 * HS_TREE_NW, out + 68);
}

int main(void)
{
    return shb_run("nvcc (CUDA C++17, host path)");
}
