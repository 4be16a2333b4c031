// Driver API: cuMemAlloc'ed memory leaks when the module lookup fails.
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>

CUresult launch_from_module(CUmodule mod, int n) {
  CUdeviceptr d_buf = 0;
  CUresult r = cuMemAlloc(&d_buf, (size_t)n * sizeof(float)); // expected-warning {{'d_buf' (device memory (driver API) from cuMemAlloc) is not freed on an error path: a return after a failed call leaves 'launch_from_module' without releasing it; call cuMemFree before returning [GM001 unpaired-allocation]}}
  if (r != CUDA_SUCCESS)
    return r;
  CUfunction fn;
  r = cuModuleGetFunction(&fn, mod, "fill_kernel");
  if (r != CUDA_SUCCESS) {
    fprintf(stderr, "kernel not found\n");
    return r; // expected-note {{this return after a failed call leaves without freeing 'd_buf'}}
  }
  void* args[] = {&d_buf, &n};
  r = cuLaunchKernel(fn, (n + 255) / 256, 1, 1, 256, 1, 1, 0, 0, args, 0);
  cuCtxSynchronize();
  cuMemFree(d_buf);
  return r;
}
