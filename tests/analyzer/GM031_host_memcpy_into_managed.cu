// Each batch is memcpy'd by the host into a managed buffer, which a kernel
// consumes in the same iteration (use pinned memory + cudaMemcpyAsync or a
// prefetch instead).
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

__global__ void checksum(const int* v, unsigned long long* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(out, (unsigned long long)v[i]);
}

unsigned long long run(const int* const* h_batches, int nbatch, int n,
                       unsigned long long* d_sum) {
  int* buf = nullptr;
  cudaMallocManaged(&buf, n * sizeof(int)); // expected-warning {{'buf' (managed memory from cudaMallocManaged) is used by a kernel and by host code in the same loop, so its pages migrate to the GPU and back on every iteration; keep the data on the device and copy back only what the host needs, or prefetch it explicitly each way (cudaMemPrefetchAsync) [GM031 managed-ping-pong]}}
  for (int b = 0; b < nbatch; ++b) { // expected-note {{the loop}}
    memcpy(buf, h_batches[b], n * sizeof(int)); // expected-note {{and host code touches it here, in the same loop}}
    checksum<<<(n + 255) / 256, 256>>>(buf, d_sum, n); // expected-note {{a kernel uses it here}}
    cudaDeviceSynchronize();
  }
  unsigned long long s = 0;
  cudaMemcpy(&s, d_sum, sizeof(s), cudaMemcpyDeviceToHost);
  cudaFree(buf);
  return s;
}
// expected-rules-unchecked GM030: the managed memory is launched on without a prefetch as the shape needs; GM030's own tests cover that
