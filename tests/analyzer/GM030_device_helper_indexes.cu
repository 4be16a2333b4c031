// The kernels hand their managed pointer to __device__ helpers, and the
// helpers do the dense access: one computes the thread's index itself, one is
// given it by the kernel, one gets the pointer already offset to the block's
// tile, and one is reached through a second helper. The host fills every buffer first.
#include <cuda_runtime.h>

__device__ void fill_own_index(float* p, int n, float v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v; // expected-note {{'fill_own_index', called by kernel 'fill_kernel', indexes it by thread here}}
}

__global__ void fill_kernel(float* p, int n) { fill_own_index(p, n, 1.f); }

__device__ void store(float* p, int i, float v) {
  p[i] = v; // expected-note {{'store', called by kernel 'store_kernel'}}
}

__global__ void store_kernel(float* p, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) store(p, 2 * t + 1, 0.f);
}

__device__ float tile_sum(const float* tile) {
  return tile[threadIdx.x]; // expected-note {{'tile_sum', called by kernel 'tile_kernel'}}
}

__global__ void tile_kernel(const float* in, float* out) {
  out[blockIdx.x] = tile_sum(in + blockIdx.x * 256);
}

__device__ void inner(double* q, long k) {
  q[k] *= 2.0; // expected-note {{'inner', called by kernel 'outer_kernel'}}
}

__device__ void middle(double* q) { inner(q, (long)blockIdx.x * blockDim.x + threadIdx.x); }

__global__ void outer_kernel(double* q) { middle(q); }

void run(int n) {
  float *a = nullptr, *b = nullptr, *c = nullptr, *out = nullptr;
  double* d = nullptr;
  cudaMallocManaged(&a, n * sizeof(float)); // expected-warning {{kernel 'fill_kernel'}}
  cudaMallocManaged(&b, 2 * n * sizeof(float)); // expected-warning {{kernel 'store_kernel'}}
  cudaMallocManaged(&c, n * sizeof(float)); // expected-warning {{kernel 'tile_kernel'}}
  cudaMalloc(&out, (n / 256) * sizeof(float));
  cudaMallocManaged(&d, n * sizeof(double)); // expected-warning {{kernel 'outer_kernel'}}
  for (int i = 0; i < n; ++i) {
    a[i] = c[i] = b[2 * i] = b[2 * i + 1] = 0.f;
    d[i] = 0.0;
  }
  fill_kernel<<<n / 256, 256>>>(a, n); // expected-note {{launched here}}
  store_kernel<<<n / 256, 256>>>(b, n); // expected-note {{launched here}}
  tile_kernel<<<n / 256, 256>>>(c, out); // expected-note {{launched here}}
  outer_kernel<<<n / 256, 256>>>(d); // expected-note {{launched here}}
  cudaDeviceSynchronize();
  cudaFree(d);
  cudaFree(out);
  cudaFree(c);
  cudaFree(b);
  cudaFree(a);
}
