// Managed buffers whose pages are first touched on the device: cleared with cudaMemset or
// cudaMemsetAsync, filled by an initialising kernel (here or in a helper), copied into from
// device memory, or written first by the dense kernel itself. Their pages are created on the
// device, so the dense kernels that follow have nothing to migrate. Reading the result back on
// the host after the last launch moves nothing the kernels wait for.
// expected-no-diagnostics
#include <cuda_runtime.h>
#include <stdio.h>
#include <utility>

__global__ void fill(float* v, float value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = value;
}

__global__ void axpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

static void fill_on_device(float* v, int n) {
  fill<<<(n + 255) / 256, 256>>>(v, 1.f, n);
}

float run(int n, int steps, cudaStream_t stream) {
  int blocks = (n + 255) / 256;
  size_t bytes = n * sizeof(float);
  float *x = nullptr, *y = nullptr, *z = nullptr, *w = nullptr, *src = nullptr;
  cudaMallocManaged(&x, bytes);
  cudaMallocManaged(&y, bytes);
  cudaMallocManaged(&z, bytes);
  cudaMallocManaged(&w, bytes);
  cudaMalloc(&src, bytes);
  cudaMemset(x, 0, bytes);
  cudaMemsetAsync(y, 0, bytes, stream);
  axpy<<<blocks, 256, 0, stream>>>(2.f, x, y, n);
  fill_on_device(z, n);
  cudaMemcpy(w, src, bytes, cudaMemcpyDeviceToDevice);
  for (int s = 0; s < steps; ++s) {
    axpy<<<blocks, 256>>>(0.5f, z, w, n);
    axpy<<<blocks, 256>>>(0.5f, w, z, n);
  }
  cudaDeviceSynchronize();
  float r = y[0] + z[0] + w[0];
  cudaFree(src);
  cudaFree(w);
  cudaFree(z);
  cudaFree(y);
  cudaFree(x);
  return r;
}

// The kernel is the first to touch its output: nothing of it is on the host.
float first_touch_by_kernel(int n) {
  float* out = nullptr;
  cudaMallocManaged(&out, n * sizeof(float));
  fill<<<(n + 255) / 256, 256>>>(out, 3.f, n);
  cudaDeviceSynchronize();
  float r = out[n - 1];
  cudaFree(out);
  return r;
}

// Ping-pong buffers swapped between the launches of a loop, and a buffer handed to the kernel
// through cudaLaunchKernel's argument array: swapping the pointers and listing their addresses
// touch no page.
void relax(int n, int steps) {
  float *cur = nullptr, *next = nullptr;
  cudaMallocManaged(&cur, n * sizeof(float));
  cudaMallocManaged(&next, n * sizeof(float));
  cudaMemset(cur, 0, n * sizeof(float));
  cudaMemset(next, 0, n * sizeof(float));
  for (int s = 0; s < steps; ++s) {
    axpy<<<(n + 255) / 256, 256>>>(0.5f, cur, next, n);
    std::swap(cur, next);
  }
  float* out = nullptr;
  cudaMallocManaged(&out, n * sizeof(float));
  float value = 1.f;
  void* args[] = {&out, &value, &n};
  cudaLaunchKernel((void*)fill, dim3((n + 255) / 256), dim3(256), args, 0, 0);
  cudaDeviceSynchronize();
  cudaFree(out);
  cudaFree(next);
  cudaFree(cur);
}
