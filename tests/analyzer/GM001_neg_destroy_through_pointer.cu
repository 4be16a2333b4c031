// expected-no-diagnostics
// A helper that frees through a pointer to the pointer (and nulls it) is a free, as the create
// helper that allocates through one is an allocation.
#include <cuda_runtime.h>
#include <stddef.h>

static int create_buffer(float** out, size_t n) {
  return cudaMalloc((void**)out, n * sizeof(float)) == cudaSuccess ? 0 : -1;
}

static void destroy_buffer(float** pp) {
  if (*pp)
    cudaFree(*pp);
  *pp = NULL;
}

int pipeline(size_t n) {
  float* d_a = NULL;
  float* d_b = NULL;
  if (create_buffer(&d_a, n) != 0)
    return -1;
  if (create_buffer(&d_b, n) != 0) {
    destroy_buffer(&d_a);
    return -1;
  }
  cudaMemcpy(d_b, d_a, n * sizeof(float), cudaMemcpyDeviceToDevice);
  destroy_buffer(&d_a);
  destroy_buffer(&d_b);
  destroy_buffer(&d_b); // nulled by the first call: a no-op
  return 0;
}
