// Fragmentation below the driver's page size: the device is filled with 1 MiB cudaMalloc blocks
// (the driver packs them two to a 2 MiB page), every other block is freed, and 4 MiB is asked
// for. Half the bytes are free, but every page still holds one live block.
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

int main() {
  std::vector<void *> blocks;
  blocks.reserve(1 << 18);
  for (;;) {
    void *p = nullptr;
    if (cudaMalloc(&p, 1ull << 20) != cudaSuccess) // FILL-SITE: line 13
      break;
    blocks.push_back(p);
  }
  cudaGetLastError();
  for (size_t i = 0; i < blocks.size(); i += 2)
    cudaFree(blocks[i]);
  size_t free_b, total;
  cudaMemGetInfo(&free_b, &total);
  void *big = nullptr;
  cudaError_t rc = cudaMalloc(&big, 4ull << 20); // HOLE-SITE: line 23
  std::printf("frag_small: %zu blocks of 1 MiB, every other freed, %zu MiB free; 4 MiB request: "
              "%s\n",
              blocks.size(), free_b >> 20, cudaGetErrorName(rc));
  cudaGetLastError();
  if (rc == cudaSuccess)
    cudaFree(big);
  for (size_t i = 1; i < blocks.size(); i += 2)
    cudaFree(blocks[i]);
  return 0;
}
