/* backend_gpu_tree_emul.cpp -- host/gpu/backend_gpu_tree.cu, unchanged, compiled by the host
 * compiler against the emulated device of hs_cuda_emul.h (force-included by tests/CMakeLists.txt). */
#include "../../host/gpu/backend_gpu_tree.cu"
