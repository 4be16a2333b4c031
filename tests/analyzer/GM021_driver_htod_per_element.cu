// Driver API: cuMemcpyHtoD of one element per call at an advancing offset.
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>

CUresult upload_weights(CUdeviceptr d_w, const float* h_w, int n) {
  for (int i = 0; i < n; ++i) { // expected-note {{the loop}}
    CUresult r = cuMemcpyHtoD(d_w + i * sizeof(float), &h_w[i], sizeof(float)); // expected-warning {{cuMemcpyHtoD moves 4 bytes per iteration to or from an address that advances with the loop; the fixed cost of each call dominates such small copies. Copy the whole range with one cuMemcpyHtoD (staging the pieces in one buffer if they are scattered), or a strided block with cudaMemcpy2D [GM021 small-transfer-in-loop]}}
    if (r != CUDA_SUCCESS)
      return r;
  }
  return CUDA_SUCCESS;
}

CUresult load_layer(const float* h_w, int n, CUdeviceptr* out) {
  CUresult r = cuMemAlloc(out, n * sizeof(float));
  if (r != CUDA_SUCCESS)
    return r;
  r = upload_weights(*out, h_w, n);
  if (r != CUDA_SUCCESS)
    cuMemFree(*out);
  return r;
}
