// expected-no-diagnostics
// Lazy initialisation of a cached workspace held in a struct, written as
// `== nullptr`, inside the request loop.
#include <cuda_runtime.h>
#include <stdio.h>

struct Workspace {
  void* ptr = nullptr;
  size_t bytes = 0;
};

__global__ void work(char* ws, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) ws[i] = (char)i;
}

void serve(int nrequests, int n) {
  Workspace ws;
  for (int r = 0; r < nrequests; ++r) {
    if (ws.ptr == nullptr)
      cudaMalloc(&ws.ptr, (size_t)n);
    work<<<(n + 255) / 256, 256>>>((char*)ws.ptr, n);
  }
  cudaDeviceSynchronize();
  cudaFree(ws.ptr);
}
