// PageRank over a CSR graph in unified memory, all rules on. The CSR arrays
// are prefetched by a helper (row_ptr is read densely, col and inv_deg are
// gathered). The host checks convergence inside the loop by reading rank and
// next and copying next into rank: both ping-pong (GM031). next is written
// densely by the kernel and never prefetched (GM030); rank is only gathered
// in the kernel (rank[col[j]]), so no GM030 for it.
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>

__global__ void pr_step(const int* row_ptr, const int* col, const float* inv_deg,
                        const float* rank, float* next, int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) {
    float s = 0.f;
    for (int j = row_ptr[v]; j < row_ptr[v + 1]; ++j) {
      int u = col[j];
      s += rank[u] * inv_deg[u];
    }
    next[v] = 0.15f / n + 0.85f * s; // expected-note {{'pr_step' indexes it by thread here}}
  }
}

static void prefetch_to_gpu(const void* p, size_t bytes, cudaStream_t s) {
  int dev = 0;
  cudaGetDevice(&dev);
  cudaMemLocation loc = {};
  loc.type = cudaMemLocationTypeDevice;
  loc.id = dev;
  cudaMemPrefetchAsync(p, bytes, loc, 0, s);
}

int pagerank(const int* h_row_ptr, const int* h_col, const int* h_outdeg, int n, int m) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  int *row_ptr = nullptr, *col = nullptr;
  float *inv_deg = nullptr, *rank = nullptr, *next = nullptr;
  cudaMallocManaged(&row_ptr, (n + 1) * sizeof(int));
  cudaMallocManaged(&col, m * sizeof(int));
  cudaMallocManaged(&inv_deg, n * sizeof(float));
  cudaMallocManaged(&rank, n * sizeof(float)); // expected-warning {{'rank' (managed memory from cudaMallocManaged) is used by a kernel and by host code in the same loop, so its pages migrate to the GPU and back on every iteration; keep the data on the device and copy back only what the host needs, or prefetch it explicitly each way (cudaMemPrefetchAsync) [GM031 managed-ping-pong]}}
  // expected-warning@+2 {{'next' (managed memory from cudaMallocManaged) reaches kernel 'pr_step', which reads it densely, with no cudaMemPrefetchAsync or cudaMemAdvise before the launch: the GPU faults its pages over on demand (on an H200 a dense kernel over 1 GiB ran in 271 ms this way and in 0.75 ms after a prefetch). Prefetch it to the device before the launch, or use cudaMalloc and explicit copies [GM030 managed-dense-access]}}
  // expected-warning@+1 {{'next' (managed memory from cudaMallocManaged) is used by a kernel and by host code in the same loop, so its pages migrate to the GPU and back on every iteration; keep the data on the device and copy back only what the host needs, or prefetch it explicitly each way (cudaMemPrefetchAsync) [GM031 managed-ping-pong]}}
  cudaMallocManaged(&next, n * sizeof(float));
  for (int v = 0; v <= n; ++v) row_ptr[v] = h_row_ptr[v];
  for (int j = 0; j < m; ++j) col[j] = h_col[j];
  for (int v = 0; v < n; ++v) {
    inv_deg[v] = h_outdeg[v] ? 1.f / h_outdeg[v] : 0.f;
    rank[v] = 1.f / n;
  }
  prefetch_to_gpu(row_ptr, (n + 1) * sizeof(int), s);
  prefetch_to_gpu(col, m * sizeof(int), s);
  prefetch_to_gpu(inv_deg, n * sizeof(float), s);

  int it = 0;
  for (; it < 100; ++it) { // expected-note 2 {{the loop}}
    pr_step<<<(n + 255) / 256, 256, 0, s>>>(row_ptr, col, inv_deg, rank, next, n); // expected-note 2 {{a kernel uses it here}} expected-note {{launched here without a prefetch}}
    cudaStreamSynchronize(s);
    float diff = 0.f;
    for (int v = 0; v < n; ++v) {
      diff += fabsf(next[v] - rank[v]); // expected-note 2 {{and host code touches it here, in the same loop}}
      rank[v] = next[v];
    }
    if (diff < 1e-6f) break;
  }
  cudaFree(next);
  cudaFree(rank);
  cudaFree(inv_deg);
  cudaFree(col);
  cudaFree(row_ptr);
  cudaStreamDestroy(s);
  return it;
}
