// expected-no-diagnostics
// Driver API allocation paired with cuMemFree on all paths.
#include <cuda.h>
#include <stdio.h>

CUresult launch_from_module(CUmodule mod, int n) {
  CUdeviceptr d_buf = 0;
  CUresult r = cuMemAlloc(&d_buf, (size_t)n * sizeof(float));
  if (r != CUDA_SUCCESS)
    return r;
  CUfunction fn;
  r = cuModuleGetFunction(&fn, mod, "fill_kernel");
  if (r != CUDA_SUCCESS) {
    fprintf(stderr, "kernel not found\n");
    cuMemFree(d_buf);
    return r;
  }
  void* args[] = {&d_buf, &n};
  r = cuLaunchKernel(fn, (n + 255) / 256, 1, 1, 256, 1, 1, 0, 0, args, 0);
  cuCtxSynchronize();
  cuMemFree(d_buf);
  return r;
}
