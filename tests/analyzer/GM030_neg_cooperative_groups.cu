// expected-no-diagnostics
// Cooperative-groups kernels that do not stream through their managed memory
// by thread position: a gather through an index table, a single counter that
// one thread per block updates, and a dense kernel whose buffer was
// prefetched before the launch.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void gather(const float* table, const int* idx, float* out, size_t n) {
  cg::grid_group grid = cg::this_grid();
  for (unsigned long long i = grid.thread_rank(); i < n; i += grid.size())
    out[i] = table[idx[i]];
}

__global__ void count_blocks(int* counter) {
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0)
    atomicAdd(&counter[0], 1);
}

__global__ void scale_grid(float* x, float a, size_t n) {
  cg::grid_group grid = cg::this_grid();
  for (unsigned long long i = grid.thread_rank(); i < n; i += grid.size())
    x[i] *= a;
}

void run(const int* d_idx, float* d_out, size_t n, cudaStream_t s) {
  float* table = nullptr;
  int* counter = nullptr;
  float* x = nullptr;
  cudaMallocManaged(&table, n * sizeof(float));
  cudaMallocManaged(&counter, sizeof(int));
  cudaMallocManaged(&x, n * sizeof(float));
  for (size_t i = 0; i < n; ++i)
    table[i] = x[i] = (float)i;
  *counter = 0;
  gather<<<128, 256>>>(table, d_idx, d_out, n);
  count_blocks<<<128, 256>>>(counter);
  int dev = 0;
  cudaGetDevice(&dev);
  cudaMemLocation gpu = {cudaMemLocationTypeDevice, dev};
  cudaMemPrefetchAsync(x, n * sizeof(float), gpu, 0, s);
  scale_grid<<<128, 256, 0, s>>>(x, 2.f, n);
  cudaStreamSynchronize(s);
  cudaFree(x);
  cudaFree(counter);
  cudaFree(table);
}
