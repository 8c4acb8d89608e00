/* backend_gpu_tree_emul.cpp -- host/backend_gpu_tree.cu, unchanged, compiled by the host
 * compiler against the emulated device of hs_cuda_emul.h (force-included by tests/CMakeLists.txt). */
#include "../../host/backend_gpu_tree.cu"
