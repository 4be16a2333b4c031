// Driver API variant: cuMemAlloc of a larger block, cuMemcpyDtoD of the old
// one, cuMemFree of the old one, once per sample.
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>

CUdeviceptr append_samples(const float* const* h_samples, const size_t* bytes, int count,
                           size_t* total_out) {
  CUdeviceptr all = 0;
  size_t total = 0;
  for (int k = 0; k < count; ++k) {
    CUdeviceptr grown = 0;
    cuMemAlloc(&grown, total + bytes[k]); // expected-warning {{this buffer is regrown on every iteration: cuMemAlloc allocates a larger block and the old contents are copied into it, so n iterations copy O(n^2) bytes and fragment memory; compute the final size and allocate once, or keep a capacity and grow it geometrically (double it) only when it runs out [GM020 growing-concatenation]}}
    if (all)
      cuMemcpyDtoD(grown, all, total); // expected-note {{the old contents are copied here}}
    cuMemcpyHtoD(grown + total, h_samples[k], bytes[k]);
    if (all)
      cuMemFree(all); // expected-note {{and the old buffer is freed here}}
    all = grown;
    total += bytes[k];
  }
  *total_out = total;
  return all;
}
