// Out of memory on a real device: an allocation larger than the card (capacity), then the
// device filled with 1 GiB blocks, every other one freed, and 2 GiB asked for.
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

int main() {
  size_t free_b, total;
  cudaMemGetInfo(&free_b, &total);
  void *huge = nullptr;
  cudaError_t rc = cudaMalloc(&huge, total * 2); // CAPACITY-SITE: line 11
  std::printf("oversized: %s\n", cudaGetErrorName(rc));
  std::vector<void *> blocks;
  for (;;) {
    void *p = nullptr;
    if (cudaMalloc(&p, 1ull << 30) != cudaSuccess) // FILL-SITE: line 16
      break;
    blocks.push_back(p);
  }
  cudaGetLastError();
  for (size_t i = 0; i < blocks.size(); i += 2)
    cudaFree(blocks[i]);
  cudaMemGetInfo(&free_b, &total);
  void *big = nullptr;
  rc = cudaMalloc(&big, 2ull << 30); // HOLE-SITE: line 25
  std::printf("filled %zu GiB, %zu MiB free after freeing every other; 2 GiB request: %s\n",
              blocks.size(), free_b >> 20, cudaGetErrorName(rc));
  if (rc == cudaSuccess)
    cudaFree(big);
  for (size_t i = 1; i < blocks.size(); i += 2)
    cudaFree(blocks[i]);
  return 0;
}
