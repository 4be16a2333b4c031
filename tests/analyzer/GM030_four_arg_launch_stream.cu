// Launch with all four configuration arguments (grid, block, dynamic shared
// memory, stream) on a managed buffer the host cleared, with no prefetch on that stream.
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

__global__ void block_prefix(const int* in, int* out, int n) {
  extern __shared__ int tile[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (int off = 1; off < blockDim.x; off *= 2) {
    int v = threadIdx.x >= off ? tile[threadIdx.x - off] : 0;
    __syncthreads();
    tile[threadIdx.x] += v;
    __syncthreads();
  }
  if (i < n) out[i] = tile[threadIdx.x]; // expected-note {{'block_prefix' indexes it by thread here}}
}

void scan_blocks(const int* d_in, int n, int* h_out) {
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  int* out = nullptr;
  cudaMallocManaged(&out, n * sizeof(int)); // expected-warning {{'out' (managed memory from cudaMallocManaged) reaches kernel 'block_prefix', which reads it densely, with no cudaMemPrefetchAsync or cudaMemAdvise before the launch: the GPU faults its pages over on demand (on an H200 a dense kernel over 1 GiB ran in 271 ms this way and in 0.75 ms after a prefetch). Prefetch it to the device before the launch, or use cudaMalloc and explicit copies [GM030 managed-dense-access]}}
  memset(out, 0, n * sizeof(int));
  const int block = 256;
  block_prefix<<<(n + block - 1) / block, block, block * sizeof(int), stream>>>(d_in, out, n); // expected-note {{launched here without a prefetch}}
  cudaStreamSynchronize(stream);
  for (int i = 0; i < n; ++i)
    h_out[i] = out[i];
  cudaFree(out);
  cudaStreamDestroy(stream);
}
