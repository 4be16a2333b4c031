// expected-no-diagnostics
// Function templates that allocate and free on every path.
#include <cuda_runtime.h>

template <typename T>
__global__ void reduce_sum(const T* in, T* out, int n) {
  T acc = T(0);
  for (int i = threadIdx.x; i < n; i += blockDim.x) acc += in[i];
  atomicAdd(out, acc);
}

template <typename T>
T device_sum(const T* d_in, int n) {
  if (n == 0)
    return T(0);
  T* d_out = nullptr;
  cudaMalloc(&d_out, sizeof(T));
  cudaMemset(d_out, 0, sizeof(T));
  reduce_sum<T><<<1, 256>>>(d_in, d_out, n);
  T h = T(0);
  cudaMemcpy(&h, d_out, sizeof(T), cudaMemcpyDeviceToHost);
  cudaFree(d_out);
  return h;
}

template <typename T>
T* device_alloc(size_t n) {
  T* p = nullptr;
  cudaMalloc(&p, n * sizeof(T));
  return p;
}

float sum_floats(const float* d_in, int n) { return device_sum<float>(d_in, n); }
int sum_ints(const int* d_in, int n) { return device_sum<int>(d_in, n); }

void make_and_free(int n) {
  double* d = device_alloc<double>(n);
  cudaMemset(d, 0, n * sizeof(double));
  cudaFree(d);
}
