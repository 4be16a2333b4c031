// Array of structs read back one struct per copy through &d[i].
#include <cuda_runtime.h>
#include <stdio.h>

struct Hit {
  int id;
  float score;
};

__global__ void score(Hit* hits, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    hits[i].id = i;
    hits[i].score = 1.f / (1 + i);
  }
}

float best_score(int n) {
  Hit* d_hits = nullptr;
  cudaMalloc(&d_hits, n * sizeof(Hit));
  score<<<(n + 255) / 256, 256>>>(d_hits, n);
  float best = 0.f;
  for (int i = 0; i < n; ++i) { // expected-note {{the loop}}
    Hit h;
    cudaMemcpy(&h, &d_hits[i], sizeof(Hit), cudaMemcpyDeviceToHost); // expected-warning {{cudaMemcpy moves 8 bytes per iteration to or from an address that advances with the loop; the fixed cost of each call dominates such small copies. Copy the whole range with one cudaMemcpy (staging the pieces in one buffer if they are scattered), or a strided block with cudaMemcpy2D [GM021 small-transfer-in-loop]}}
    if (h.score > best)
      best = h.score;
  }
  cudaFree(d_hits);
  return best;
}
