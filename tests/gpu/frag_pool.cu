// Fragmentation inside a stream-ordered pool: the default pool keeps what it reserved (release
// threshold at the maximum), the device is filled with 64 MiB cudaMallocAsync blocks, every other
// block is freed back to the pool, and 256 MiB is asked for. The pool then holds half the card
// unused, in 64 MiB holes.
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

int main() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMemPool_t pool;
  cudaDeviceGetDefaultMemPool(&pool, 0);
  uint64_t keep = UINT64_MAX;
  cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
  std::vector<void *> blocks;
  for (;;) {
    void *p = nullptr;
    if (cudaMallocAsync(&p, 64ull << 20, s) != cudaSuccess) // FILL-SITE: line 19
      break;
    blocks.push_back(p);
  }
  cudaGetLastError();
  for (size_t i = 0; i < blocks.size(); i += 2)
    cudaFreeAsync(blocks[i], s);
  cudaStreamSynchronize(s);
  void *big = nullptr;
  cudaError_t rc = cudaMallocAsync(&big, 256ull << 20, s); // HOLE-SITE: line 28
  cudaStreamSynchronize(s);
  std::printf("frag_pool: %zu blocks of 64 MiB, every other freed; 256 MiB request: %s\n",
              blocks.size(), cudaGetErrorName(rc));
  cudaGetLastError();
  if (rc == cudaSuccess)
    cudaFreeAsync(big, s);
  for (size_t i = 1; i < blocks.size(); i += 2)
    cudaFreeAsync(blocks[i], s);
  cudaStreamSynchronize(s);
  return 0;
}
