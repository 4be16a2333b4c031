// Host code built with -Xcompiler -fopenmp includes <omp.h>, which the host compiler (GCC) finds
// in its own directory; clang's comes with libomp-22-dev, which bootstrap.sh installs.
#include <cuda_runtime.h>
#include <omp.h>

int scale_on_all_threads(int n) {
  float *dev = nullptr;
  if (cudaMalloc(&dev, n * sizeof(float)) != cudaSuccess) // expected-warning {{'dev' (device memory from cudaMalloc) is not freed on every path: a return leaves 'scale_on_all_threads' without releasing it; call cudaFree before returning}}
    return -1;
  if (omp_get_max_threads() < 1)
    return -2; // expected-note {{this return leaves without freeing 'dev'}}
  cudaFree(dev);
  return 0;
}
