/* An instrumented shared library carrying its own copy of libgmemrt.a, loaded by a program that
 * carries another (two_copies_app.c): the two must record into one runtime. */
#include <cuda_runtime.h>

void two_copies_lib_alloc(void) {
  void *p = 0;
  if (cudaMalloc(&p, 4096) == cudaSuccess) /* @two_copies_lib */
    cudaFree(p);
}
