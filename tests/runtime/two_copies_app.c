/* A program linked with libgmemrt.a ahead of an instrumented shared library that carries its own
 * copy (two_copies_lib.c): one telemetry file must hold both sites, not the copy that saw
 * nothing written over the one that saw everything. */
#include <cuda_runtime.h>

void two_copies_lib_alloc(void);

int main(void) {
  void *h = 0;
  if (cudaMallocHost(&h, 256) == cudaSuccess) /* @two_copies_app */
    cudaFreeHost(h);
  two_copies_lib_alloc();
  return 0;
}
