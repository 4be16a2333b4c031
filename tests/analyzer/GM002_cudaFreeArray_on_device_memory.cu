// cudaFreeArray applied to linear device memory from cudaMalloc.
#include <cuda_runtime.h>

int upload_lut(const float* lut, int n) {
  float* d_lut = nullptr;
  if (cudaMalloc(&d_lut, n * sizeof(float)) != cudaSuccess) // expected-note {{allocated here with cudaMalloc}}
    return -1;
  cudaMemcpy(d_lut, lut, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaDeviceSynchronize();
  cudaFreeArray((cudaArray_t)d_lut); // expected-warning {{GM002}}
  return 0;
}
