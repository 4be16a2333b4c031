// Epoch loop: kernels run in the inner batch loop, and the host scans the
// managed statistics at the end of each epoch; both happen inside the outer
// loop, so the pages bounce once per epoch.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void accumulate(float* stats, const float* batch, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) stats[i] += batch[i];
}

void train(const float* const* d_batches, int nbatch, int nepochs, int n) {
  float* stats = nullptr;
  cudaMallocManaged(&stats, n * sizeof(float)); // expected-warning {{'stats' (managed memory from cudaMallocManaged) is used by a kernel and by host code in the same loop, so its pages migrate to the GPU and back on every iteration; keep the data on the device and copy back only what the host needs, or prefetch it explicitly each way (cudaMemPrefetchAsync) [GM031 managed-ping-pong]}}
  cudaMemset(stats, 0, n * sizeof(float));
  for (int e = 0; e < nepochs; ++e) { // expected-note {{the loop}}
    for (int b = 0; b < nbatch; ++b)
      accumulate<<<(n + 255) / 256, 256>>>(stats, d_batches[b], n); // expected-note {{a kernel uses it here}}
    cudaDeviceSynchronize();
    float mx = 0.f;
    for (int i = 0; i < n; ++i)
      if (stats[i] > mx) mx = stats[i]; // expected-note {{and host code touches it here, in the same loop}}
    printf("epoch %d max %f\n", e, mx);
  }
  cudaFree(stats);
}
// expected-rules-unchecked GM030: the managed memory is launched on without a prefetch as the shape needs; GM030's own tests cover that
