// When the body writes the counter, its first value can come round again: the free under
// `step == 0` may run twice.
#include <cuda_runtime.h>

void train(float* d_params, size_t n, int restarts) {
  float* d_scratch = nullptr;
  cudaMalloc(&d_scratch, n * sizeof(float)); // expected-note {{allocated here with cudaMalloc}}
  for (int step = 0; step < 10; step++) {
    cudaMemcpy(d_scratch, d_params, n * sizeof(float), cudaMemcpyDeviceToDevice);
    if (step == 0)
      cudaFree(d_scratch); // expected-warning {{freed twice}} expected-note {{first freed here}}
    if (restarts-- > 0)
      step = -1;
  }
}
