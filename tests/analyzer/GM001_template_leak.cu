// A function template leaks its scratch buffer on the early-out path.
#include <cuda_runtime.h>

template <typename T>
__global__ void reduce_sum(const T* in, T* out, int n) {
  T acc = T(0);
  for (int i = threadIdx.x; i < n; i += blockDim.x) acc += in[i];
  atomicAdd(out, acc);
}

template <typename T>
T device_sum(const T* d_in, int n) {
  T* d_out = nullptr;
  cudaMalloc(&d_out, sizeof(T)); // expected-warning {{'d_out' (device memory from cudaMalloc) is not freed on every path: a return leaves 'device_sum' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
  if (n == 0)
    return T(0); // expected-note {{this return leaves without freeing 'd_out'}}
  cudaMemset(d_out, 0, sizeof(T));
  reduce_sum<T><<<1, 256>>>(d_in, d_out, n);
  T h = T(0);
  cudaMemcpy(&h, d_out, sizeof(T), cudaMemcpyDeviceToHost);
  cudaFree(d_out);
  return h;
}

float sum_floats(const float* d_in, int n) { return device_sum<float>(d_in, n); }
