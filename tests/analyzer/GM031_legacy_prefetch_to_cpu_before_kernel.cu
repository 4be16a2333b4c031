// CUDA 11's prefetch to a device number: cudaCpuDeviceId right before the kernel sends the
// pages to the host just as the kernel needs them on the device. The loop still ping-pongs.
#include <cuda_runtime.h>

__global__ void relax(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] * 0.5f + 1.f;
}

float run(int n, int iters, cudaStream_t s) {
  float* v = nullptr;
  cudaMallocManaged(&v, n * sizeof(float)); // expected-warning {{'v' (managed memory from cudaMallocManaged) is used by a kernel and by host code in the same loop, so its pages migrate to the GPU and back on every iteration; keep the data on the device and copy back only what the host needs, or prefetch it explicitly each way (cudaMemPrefetchAsync) [GM031 managed-ping-pong]}}
  float total = 0.f;
  for (int it = 0; it < iters; ++it) { // expected-note {{the loop}}
    cudaMemPrefetchAsync(v, n * sizeof(float), cudaCpuDeviceId, s); // expected-note {{uses APIs removed from the CUDA toolkit (cudaMemPrefetchAsync); parsed with gmemlint's declarations of the CUDA 11 API}}
    relax<<<(n + 255) / 256, 256, 0, s>>>(v, n); // expected-note {{a kernel uses it here}}
    cudaStreamSynchronize(s);
    total += v[0]; // expected-note {{and host code touches it here, in the same loop}}
  }
  cudaFree(v);
  return total;
}
// expected-rules-unchecked GM030: the kernel's launches on memory the host touched are GM030's shape; its own tests cover that
