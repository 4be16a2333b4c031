#include <cstdio>
#include <cuda_runtime.h>
extern "C" int dev_scratch(void);
int main() {
  void *h = nullptr;
  cudaError_t e = cudaMallocHost(&h, 512);
  if (e == cudaSuccess)
    cudaFreeHost(h);
  std::printf("so_app: %s %d\n", cudaGetErrorName(e), dev_scratch());
  return 0;
}
