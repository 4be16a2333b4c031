// The host-side read happens in a same-file helper called from the loop.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void step(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * 0.5f + 1.f;
}

static float norm1(const float* x, int n) {
  float s = 0.f;
  for (int i = 0; i < n; ++i) s += x[i] < 0 ? -x[i] : x[i];
  return s;
}

int iterate(int n) {
  float* x = nullptr;
  cudaMallocManaged(&x, n * sizeof(float)); // expected-warning {{'x' (managed memory from cudaMallocManaged) is used by a kernel and by host code in the same loop, so its pages migrate to the GPU and back on every iteration; keep the data on the device and copy back only what the host needs, or prefetch it explicitly each way (cudaMemPrefetchAsync) [GM031 managed-ping-pong]}}
  cudaMemset(x, 0, n * sizeof(float));
  int it = 0;
  for (; it < 1000; ++it) { // expected-note {{the loop}}
    step<<<(n + 255) / 256, 256>>>(x, n); // expected-note {{a kernel uses it here}}
    cudaDeviceSynchronize();
    if (norm1(x, n) > 1.9f * n) break; // expected-note {{and host code touches it here, in the same loop}}
  }
  cudaFree(x);
  return it;
}
// expected-rules-unchecked GM030: the managed memory is launched on without a prefetch as the shape needs; GM030's own tests cover that
