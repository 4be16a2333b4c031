#include <cstdio>
#include <cuda_runtime.h>
#if __has_include(<gmemlint/gmemrt.h>) /* gmem_step() is a no-op without the runtime */
#include <gmemlint/gmemrt.h>
#else
static void gmem_step(void) {}
#endif
extern "C" size_t scratch_bytes(void);
int main() {
  void *d = nullptr;
  cudaError_t e = cudaMalloc(&d, scratch_bytes());
  if (e == cudaSuccess)
    cudaFree(d);
  gmem_step();
  std::printf("cxx_app: %s\n", cudaGetErrorName(e));
  return 0;
}
