// The cache-hinted stores and loads of nvcc's sm_32_intrinsics.h that clang's intrinsics lack
// (__stcs, __stcg, __stwb, __ldca, __ldlu): llm.c's kernels use them. gmemlint's compat header
// declares them, so this file parses cleanly and its leak is found.
#include <cuda_runtime.h>

__global__ void scale_stream(const float4 *in, float4 *out, float *norms, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float4 v = __ldlu(&in[i]);
  float w = __ldca(&norms[i]);
  __stcs(&out[i], make_float4(v.x * s, v.y * s, v.z * s, v.w * s));
  __stcg(&norms[i], w * s);
  __stwb(&norms[i], w);
}

int run_scale(const float4 *d_in, float *d_norms, int n) {
  float4 *d_out = nullptr;
  cudaMalloc(&d_out, n * sizeof(float4)); // expected-warning {{'d_out' (device memory from cudaMalloc) is not freed on every path}}
  scale_stream<<<(n + 255) / 256, 256>>>(d_in, d_out, d_norms, 0.5f, n);
  if (n > (1 << 26))
    return -1; // expected-note {{this return leaves without freeing 'd_out'}}
  cudaFree(d_out);
  return 0;
}
