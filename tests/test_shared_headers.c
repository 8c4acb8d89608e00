/* test_shared_headers.c -- the shared kernels/ headers compiled as C11 by the host compiler.
 * Its twin test_shared_headers.cu compiles the same body (shared_headers_body.h) with nvcc;
 * both must reach the same hand-computed numbers. */
#include "shared_headers_body.h"

int main(void)
{
    return shb_run("the C compiler (C11)");
}
