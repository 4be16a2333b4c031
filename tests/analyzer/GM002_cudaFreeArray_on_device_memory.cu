// cudaFreeArray applied to linear device memory from cudaMalloc.
#include <cuda_runtime.h>

int upload_lut(const float* lut, int n) {
  float* d_lut = nullptr;
  if (cudaMalloc(&d_lut, n * sizeof(float)) != cudaSuccess) // expected-note {{allocated here with cudaMalloc}}
    return -1;
  cudaMemcpy(d_lut, lut, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaDeviceSynchronize();
  cudaFreeArray((cudaArray_t)d_lut); // expected-warning {{'d_lut' (device memory from cudaMalloc) is released with cudaFreeArray, which frees CUDA array; use cudaFree [GM002 mismatched-free]}}
  return 0;
}
