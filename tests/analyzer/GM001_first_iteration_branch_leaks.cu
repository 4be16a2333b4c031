// The first iteration of a counted loop has the counter at its start: a branch on arithmetic of
// it is decided there, so the leak on the path it takes is manifest, not latent.
#include <cuda_runtime.h>

void stage_odd_rounds(int n) {
  for (int r = 0; r < 4; r++) {
    float* tmp; // expected-note {{declared again here on the next iteration}}
    cudaMalloc(&tmp, n * sizeof(float)); // expected-warning {{'tmp' (device memory from cudaMalloc) leaks when an iteration ends early: the loop goes round again without freeing it; call cudaFree before continuing [GM001 unpaired-allocation]}}
    if ((r & 1) == 0)
      continue; // expected-note {{this continue skips the free}}
    cudaFree(tmp);
  }
}
