#include <cuda_runtime.h>

#include "steps.cuh"

static float *g_frame;

__global__ void halve(const float *in, float *out, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 0.5f * in[i];
}

void store_frame(const float *d_in, size_t n) {
  // The message begins "cudaMalloc in 'store_frame' runs on every call, and 'store_frame' is
  // reached on every iteration of a loop in" and the path of main.cu, which varies.
  cudaMalloc(&g_frame, n * sizeof(float)); // expected-warning {{/main.cu (through 'advance'); on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Allocate once outside the loop and pass the buffer in, or use cudaMallocAsync from a memory pool}} expected-note@main.cu:11 {{'advance' is called in a loop here, in 'main'}} expected-note@main.cu:10 {{the loop}} expected-note@step.cu:9 {{'advance' calls 'store_frame' on every call}}
  cudaMemcpy(g_frame, d_in, n * sizeof(float), cudaMemcpyDeviceToDevice);
}

void smooth(const float *d_in, size_t n) {
  // The message begins "cudaMalloc in 'smooth' runs on every call, and 'smooth' is reached
  // from a loop in" and the path of main.cu.
  float *d_tmp;
  cudaMalloc(&d_tmp, n * sizeof(float)); // expected-warning {{/main.cu (through 'advance', on the iterations where the calls on the way run); on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Allocate once outside the loop and pass the buffer in, or use cudaMallocAsync from a memory pool}} expected-note@main.cu:11 {{'advance' is called in a loop here, in 'main'}} expected-note@main.cu:10 {{the loop}} expected-note@step.cu:11 {{'advance' calls 'smooth' here, under a condition}}
  halve<<<(n + 255) / 256, 256>>>(d_in, d_tmp, n);
  cudaFree(d_tmp);
}
