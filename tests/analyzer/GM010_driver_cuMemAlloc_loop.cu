// Driver API: cuMemAlloc / cuMemFree around every kernel invocation.
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>

void run_module(CUfunction fn, int iters, size_t bytes) {
  for (int it = 0; it < iters; ++it) { // expected-note {{the loop}}
    CUdeviceptr buf = 0;
    if (cuMemAlloc(&buf, bytes) != CUDA_SUCCESS) // expected-warning {{loop-invariant}}
      break;
    void* params[] = {&buf};
    cuLaunchKernel(fn, 64, 1, 1, 256, 1, 1, 0, 0, params, nullptr);
    cuCtxSynchronize();
    cuMemFree(buf);
  }
}
