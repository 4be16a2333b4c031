// Grid-stride loop over a managed array: dense access, no prefetch.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void scale(double* v, double s, size_t n) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (size_t)blockDim.x * gridDim.x)
    v[i] *= s; // expected-note {{indexes}}
}

void rescale(size_t n) {
  double* v = nullptr;
  cudaMallocManaged(&v, n * sizeof(double)); // expected-warning {{GM030}}
  for (size_t i = 0; i < n; ++i)
    v[i] = (double)i;
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  scale<<<sms * 4, 256>>>(v, 0.5, n); // expected-note {{launched}}
  cudaDeviceSynchronize();
  cudaFree(v);
}
