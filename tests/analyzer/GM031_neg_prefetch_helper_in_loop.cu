// expected-no-diagnostics
// The loop alternates host and kernel work on managed memory, but a helper
// called in the loop prefetches the buffer explicitly before each launch and
// back to the host after it.
#include <cuda_runtime.h>
#include <stdio.h>

static void move_to(void* p, size_t bytes, int where, cudaStream_t s) {
  cudaMemLocation loc = {};
  loc.type = where < 0 ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
  loc.id = where < 0 ? 0 : where;
  cudaMemPrefetchAsync(p, bytes, loc, 0, s);
}

__global__ void smooth(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1) v[i] = (v[i - 1] + v[i] + v[i + 1]) / 3.f;
}

void run(int n, int rounds, cudaStream_t s) {
  float* v = nullptr;
  size_t bytes = n * sizeof(float);
  cudaMallocManaged(&v, bytes);
  for (int r = 0; r < rounds; ++r) {
    v[r % n] = 10.f;
    move_to(v, bytes, 0, s);
    smooth<<<(n + 255) / 256, 256, 0, s>>>(v, n);
    move_to(v, bytes, -1, s);
    cudaStreamSynchronize(s);
  }
  cudaFree(v);
}
