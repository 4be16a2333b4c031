// A program linked against a shared CUDA runtime (here the simulated one, as libcudart.so would
// be with `nvcc -cudart shared`), run with LD_PRELOAD=libgmemrt.so: no rebuild, no forced
// include. check.py's `preload` scenario expects the sites at these lines.
#include <cuda_runtime.h>

#include <cstdio>

static float *leaky_buffer(size_t n) {
  float *p = nullptr;
  cudaMalloc(&p, n * sizeof(float));  // line 10: the C++ template overload, 3 calls, 2 leak
  return p;
}

int main() {
  float *keep[3];
  for (int i = 0; i < 3; ++i)
    keep[i] = leaky_buffer(1 << 18);
  cudaFree(keep[0]);
  void *scratch = nullptr;
  cudaMalloc(&scratch, 4096);  // line 20: the C API, freed
  cudaFree(scratch);
  unsigned char *pinned = nullptr;
  cudaMallocHost(&pinned, 8192);  // line 23: cudaMallocHost<T> -> cudaHostAlloc; wrong free
  cudaFree(pinned);
  cudaFreeHost(pinned);
  cudaDeviceSynchronize();  // the end of a step, for gmemrun --step-api
  std::printf("preload_app: done\n");
  return 0;
}
