// The prefetch is only done when a flag is set; on the other path the
// kernel still faults the pages over.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void scale(float* v, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= s; // expected-note {{'scale' indexes it by thread here}}
}

void run(int n, bool prefetch, cudaStream_t stream) {
  float* v = nullptr;
  cudaMallocManaged(&v, n * sizeof(float)); // expected-warning {{'v' (managed memory from cudaMallocManaged) reaches kernel 'scale', which reads it densely, with no cudaMemPrefetchAsync or cudaMemAdvise before the launch: the GPU faults its pages over on demand (on an H200 a dense kernel over 1 GiB ran in 271 ms this way and in 0.75 ms after a prefetch). Prefetch it to the device before the launch, or use cudaMalloc and explicit copies [GM030 managed-dense-access]}}
  for (int i = 0; i < n; ++i) v[i] = 1.f;
  if (prefetch) {
    cudaMemLocation loc = {};
    loc.type = cudaMemLocationTypeDevice;
    loc.id = 0;
    cudaMemPrefetchAsync(v, n * sizeof(float), loc, 0, stream);
  }
  scale<<<(n + 255) / 256, 256, 0, stream>>>(v, 2.f, n); // expected-note {{launched here without a prefetch}}
  cudaStreamSynchronize(stream);
  cudaFree(v);
}
