// expected-no-diagnostics
// A buffer freed on the first step of a counted loop (`if (step == 0)`) is freed once: the
// counter equals its start on the first pass only.
#include <cuda_runtime.h>
#include <stdlib.h>

void train(float* d_params, size_t n) {
  float* h_check = (float*)malloc(n * sizeof(float));
  float* d_scratch = nullptr;
  cudaMalloc(&d_scratch, n * sizeof(float));
  for (int step = 0; step < 10; step++) {
    cudaMemcpy(d_scratch, d_params, n * sizeof(float), cudaMemcpyDeviceToDevice);
    if (step == 0) {
      cudaMemcpy(h_check, d_scratch, n * sizeof(float), cudaMemcpyDeviceToHost);
      free(h_check);
      cudaFree(d_scratch);
    }
  }
}
