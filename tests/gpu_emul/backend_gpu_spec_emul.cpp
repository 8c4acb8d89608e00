/* backend_gpu_spec_emul.cpp -- host/gpu/backend_gpu_spec.cu, unchanged, compiled by the host
 * compiler against the emulated device of hs_cuda_emul.h and the emulated NVRTC of
 * hs_nvrtc_emul.cpp (force-included by tests/CMakeLists.txt). */
#include "../../host/gpu/backend_gpu_spec.cu"
