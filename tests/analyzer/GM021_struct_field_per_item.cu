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
    cudaMemcpy(&h, &d_hits[i], sizeof(Hit), cudaMemcpyDeviceToHost); // expected-warning {{GM021}}
    if (h.score > best)
      best = h.score;
  }
  cudaFree(d_hits);
  return best;
}
