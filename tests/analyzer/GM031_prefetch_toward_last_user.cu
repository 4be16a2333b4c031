// Loops that prefetch the managed buffer, but toward the side that just used it: a prefetch to
// the host right before the kernel, and one to the device between the kernel and the host's read.
// Each moves the pages the wrong way, and the next access faults them back: still a ping-pong.
#include <cuda_runtime.h>

__global__ void relax(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] * 0.5f + 1.f;
}

float host_before_kernel(int n, int iters, cudaStream_t s) {
  cudaMemLocation cpu = {cudaMemLocationTypeHost, 0};
  float* v = nullptr;
  cudaMallocManaged(&v, n * sizeof(float)); // expected-warning {{'v' (managed memory from cudaMallocManaged) is used by a kernel and by host code in the same loop, so its pages migrate to the GPU and back on every iteration; keep the data on the device and copy back only what the host needs, or prefetch it explicitly each way (cudaMemPrefetchAsync) [GM031 managed-ping-pong]}}
  float total = 0.f;
  for (int it = 0; it < iters; ++it) { // expected-note {{the loop}}
    cudaMemPrefetchAsync(v, n * sizeof(float), cpu, 0, s);
    relax<<<(n + 255) / 256, 256, 0, s>>>(v, n); // expected-note {{a kernel uses it here}}
    cudaStreamSynchronize(s);
    total += v[0]; // expected-note {{and host code touches it here, in the same loop}}
  }
  cudaFree(v);
  return total;
}

float device_before_host(int n, int iters, cudaStream_t s) {
  int dev = 0;
  cudaGetDevice(&dev);
  cudaMemLocation gpu = {};
  gpu.type = cudaMemLocationTypeDevice;
  gpu.id = dev;
  float* v = nullptr;
  cudaMallocManaged(&v, n * sizeof(float)); // expected-warning {{'v' (managed memory from cudaMallocManaged) is used by a kernel and by host code in the same loop, so its pages migrate to the GPU and back on every iteration; keep the data on the device and copy back only what the host needs, or prefetch it explicitly each way (cudaMemPrefetchAsync) [GM031 managed-ping-pong]}}
  float total = 0.f;
  for (int it = 0; it < iters; ++it) { // expected-note {{the loop}}
    relax<<<(n + 255) / 256, 256, 0, s>>>(v, n); // expected-note {{a kernel uses it here}}
    cudaMemPrefetchAsync(v, n * sizeof(float), gpu, 0, s);
    cudaStreamSynchronize(s);
    total += v[0]; // expected-note {{and host code touches it here, in the same loop}}
  }
  cudaFree(v);
  return total;
}
// expected-rules-unchecked GM030: the kernel's launches on memory the host touched are GM030's shape; its own tests cover that
