// Driver-API managed allocation (cuMemAllocManaged) launched through the
// runtime's triple-chevron syntax with no prefetch.
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void inc(int* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += 1; // expected-note {{'inc' indexes it by thread here}}
}

void bump(int n) {
  CUdeviceptr dptr = 0;
  cuMemAllocManaged(&dptr, n * sizeof(int), CU_MEM_ATTACH_GLOBAL); // expected-warning {{GM030}}
  int* v = (int*)dptr;
  for (int i = 0; i < n; ++i) v[i] = i;
  inc<<<(n + 255) / 256, 256>>>(v, n); // expected-note {{launched here without a prefetch}}
  cudaDeviceSynchronize();
  cuMemFree(dptr);
}
