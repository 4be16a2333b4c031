// Generation loop of a decoder: the KV cache is regrown by one token per
// step with a stream-ordered copy of the old cache.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void write_token(float* kv, int pos, int dim) {
  int d = threadIdx.x;
  if (d < dim) kv[pos * dim + d] = (float)pos;
}

void decode(int max_tokens, int dim, cudaStream_t s, float* h_last) {
  float* kv = nullptr;
  for (int t = 0; t < max_tokens; ++t) {
    float* kv_new = nullptr;
    cudaMalloc(&kv_new, (size_t)(t + 1) * dim * sizeof(float)); // expected-warning {{this buffer is regrown on every iteration: cudaMalloc allocates a larger block and the old contents are copied into it, so n iterations copy O(n^2) bytes and fragment memory; compute the final size and allocate once, or keep a capacity and grow it geometrically (double it) only when it runs out [GM020 growing-concatenation]}}
    cudaMemcpyAsync(kv_new, kv, (size_t)t * dim * sizeof(float), cudaMemcpyDeviceToDevice, s); // expected-note {{the old contents are copied here}}
    cudaStreamSynchronize(s);
    cudaFree(kv); // expected-note {{and the old buffer is freed here}}
    kv = kv_new;
    write_token<<<1, dim, 0, s>>>(kv, t, dim);
  }
  cudaMemcpyAsync(h_last, kv, (size_t)max_tokens * dim * sizeof(float),
                  cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  cudaFree(kv);
}
