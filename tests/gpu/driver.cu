// The driver API through the forced include: a leaked cuMemAlloc, a managed block freed.
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>

int main() {
  cudaFree(0); // the primary context, current on this thread
  CUdeviceptr leaked = 0, managed = 0;
  CUresult a = cuMemAlloc(&leaked, 4u << 20);                     // DRIVER-LEAK: line 9
  CUresult b = cuMemAllocManaged(&managed, 1u << 20, CU_MEM_ATTACH_GLOBAL); // line 10
  CUresult c = cuMemFree(managed);
  std::printf("driver: %d %d %d\n", (int)a, (int)b, (int)c);
  return 0;
}
