// expected-no-diagnostics
// Kernels that pass their managed pointer to __device__ helpers that do not
// index it by thread position: a gather through an index table, a helper
// given a data-dependent index, a helper that reads one fixed element, and a
// dense helper whose buffer was prefetched before the launch.
#include <cuda_runtime.h>

__device__ float lookup(const float* table, const int* idx, int i) { return table[idx[i]]; }

__global__ void gather_kernel(const float* table, const int* idx, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = lookup(table, idx, i);
}

__device__ void store(float* p, int i, float v) { p[i] = v; }

__global__ void scatter_kernel(float* p, const int* dest, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) store(p, dest[t], 1.f);
}

__device__ float first(const float* p) { return p[0]; }

__global__ void first_kernel(const float* p, float* out) { out[threadIdx.x] = first(p); }

__device__ void fill_own_index(float* p, int n, float v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v;
}

__global__ void fill_kernel(float* p, int n) { fill_own_index(p, n, 1.f); }

void run(const int* d_idx, const int* d_dest, float* d_out, int n, cudaStream_t s) {
  float *table = nullptr, *scattered = nullptr, *scalar = nullptr, *dense = nullptr;
  cudaMallocManaged(&table, n * sizeof(float));
  cudaMallocManaged(&scattered, n * sizeof(float));
  cudaMallocManaged(&scalar, sizeof(float));
  cudaMallocManaged(&dense, n * sizeof(float));
  for (int i = 0; i < n; ++i)
    table[i] = dense[i] = (float)i;
  *scalar = 1.f;
  gather_kernel<<<n / 256, 256>>>(table, d_idx, d_out, n);
  scatter_kernel<<<n / 256, 256>>>(scattered, d_dest, n);
  first_kernel<<<1, 256>>>(scalar, d_out);
  int dev = 0;
  cudaGetDevice(&dev);
  cudaMemLocation gpu = {cudaMemLocationTypeDevice, dev};
  cudaMemPrefetchAsync(dense, n * sizeof(float), gpu, 0, s);
  fill_kernel<<<n / 256, 256, 0, s>>>(dense, n);
  cudaStreamSynchronize(s);
  cudaFree(dense);
  cudaFree(scalar);
  cudaFree(scattered);
  cudaFree(table);
}
