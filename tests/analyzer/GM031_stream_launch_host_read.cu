// Four-argument launch on a stream; after cudaStreamSynchronize the host
// reads the managed result in the same loop to pick the next step.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void scores(const float* w, float* out, int n, int step) {
  extern __shared__ float s[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? w[i] * step : 0.f;
  __syncthreads();
  if (i < n) out[i] = s[threadIdx.x];
}

int greedy(const float* d_w, int n, int steps, cudaStream_t stream) {
  float* out = nullptr;
  cudaMallocManaged(&out, n * sizeof(float)); // expected-warning {{'out' (managed memory from cudaMallocManaged) is used by a kernel and by host code in the same loop, so its pages migrate to the GPU and back on every iteration; keep the data on the device and copy back only what the host needs, or prefetch it explicitly each way (cudaMemPrefetchAsync) [GM031 managed-ping-pong]}}
  int best = 0;
  for (int t = 0; t < steps; ++t) { // expected-note {{the loop}}
    scores<<<(n + 255) / 256, 256, 256 * sizeof(float), stream>>>(d_w, out, n, t); // expected-note {{a kernel uses it here}}
    cudaStreamSynchronize(stream);
    for (int i = 0; i < n; ++i)
      if (out[i] > out[best]) best = i; // expected-note {{and host code touches it here, in the same loop}}
  }
  cudaFree(out);
  return best;
}
// expected-rules-unchecked GM030: the managed memory is launched on without a prefetch as the shape needs; GM030's own tests cover that
