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
  cuMemAllocManaged(&dptr, n * sizeof(int), CU_MEM_ATTACH_GLOBAL); // expected-warning {{'dptr' (managed memory (driver API) from cuMemAllocManaged) reaches kernel 'inc', which reads it densely, with no cudaMemPrefetchAsync or cudaMemAdvise before the launch: the GPU faults its pages over on demand (on an H200 a dense kernel over 1 GiB ran in 271 ms this way and in 0.75 ms after a prefetch). Prefetch it to the device before the launch, or use cudaMalloc and explicit copies [GM030 managed-dense-access]}}
  int* v = (int*)dptr;
  for (int i = 0; i < n; ++i) v[i] = i;
  inc<<<(n + 255) / 256, 256>>>(v, n); // expected-note {{launched here without a prefetch}}
  cudaDeviceSynchronize();
  cuMemFree(dptr);
}
