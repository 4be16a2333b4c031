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
    cuMemAlloc(&grown, total + bytes[k]); // expected-warning {{GM020}}
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
