// Batched inference over requests with variable sequence lengths, all rules
// on. The activation buffer is cudaMalloc'ed per batch with a varying size
// (GM010), the outputs are concatenated by regrowing one buffer (GM020, so no
// GM010 there), and the logits are downloaded one row per copy (GM021). Token
// ids use cudaMallocAsync; the pinned staging buffer is hoisted.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__global__ void embed(const int* ids, const float* table, float* act, int len, int dim) {
  int t = blockIdx.x, d = threadIdx.x;
  if (t < len && d < dim) act[t * dim + d] = table[ids[t] * dim + d];
}

__global__ void pool_rows(const float* act, float* out, int len, int dim) {
  int d = blockIdx.x * blockDim.x + threadIdx.x;
  if (d < dim) {
    float s = 0.f;
    for (int t = 0; t < len; ++t) s += act[t * dim + d];
    out[d] = s / len;
  }
}

void serve(const int* const* h_ids, const int* lens, int nbatch, const float* d_table, int dim,
           float* h_logits, cudaStream_t s) {
  int max_len = 0;
  for (int b = 0; b < nbatch; ++b)
    if (lens[b] > max_len) max_len = lens[b];
  int* h_stage = nullptr;
  cudaMallocHost(&h_stage, max_len * sizeof(int));
  float* all = nullptr;
  int nout = 0;
  for (int b = 0; b < nbatch; ++b) { // expected-note {{the loop}}
    const int len = lens[b];
    memcpy(h_stage, h_ids[b], len * sizeof(int));
    int* d_ids = nullptr;
    cudaMallocAsync(&d_ids, len * sizeof(int), s);
    cudaMemcpyAsync(d_ids, h_stage, len * sizeof(int), cudaMemcpyHostToDevice, s);
    float* act = nullptr;
    cudaMalloc(&act, (size_t)len * dim * sizeof(float)); // expected-warning {{cudaMalloc runs on every iteration of this loop and its size varies, which also fragments device memory; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Allocate the largest size once before the loop, or use cudaMallocAsync from a stream-ordered memory pool [GM010 allocation-in-loop]}}
    embed<<<len, dim, 0, s>>>(d_ids, d_table, act, len, dim);
    float* grown = nullptr;
    cudaMalloc(&grown, (size_t)(nout + 1) * dim * sizeof(float)); // expected-warning {{this buffer is regrown on every iteration: cudaMalloc allocates a larger block and the old contents are copied into it, so n iterations copy O(n^2) bytes and fragment memory; compute the final size and allocate once, or keep a capacity and grow it geometrically (double it) only when it runs out [GM020 growing-concatenation]}}
    cudaMemcpyAsync(grown, all, (size_t)nout * dim * sizeof(float), cudaMemcpyDeviceToDevice, s); // expected-note {{the old contents are copied here}}
    pool_rows<<<(dim + 127) / 128, 128, 0, s>>>(act, grown + (size_t)nout * dim, len, dim);
    cudaStreamSynchronize(s);
    cudaFree(all); // expected-note {{and the old buffer is freed here}}
    all = grown;
    ++nout;
    cudaFreeAsync(d_ids, s);
    cudaFree(act);
  }
  for (int r = 0; r < nout; ++r) // expected-note {{the loop}}
    cudaMemcpy(h_logits + (size_t)r * dim, all + (size_t)r * dim, dim * sizeof(float), // expected-warning {{cudaMemcpy copies the same number of bytes on every iteration to or from an address that advances with the loop; one cudaMemcpy of the whole range (or cudaMemcpy2D for a strided layout) moves the same bytes without the per-call cost [GM021 small-transfer-in-loop]}}
               cudaMemcpyDeviceToHost);
  cudaFree(all);
  cudaFreeHost(h_stage);
}
