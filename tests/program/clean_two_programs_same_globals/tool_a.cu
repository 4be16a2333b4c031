// expected-no-diagnostics
// Two programs of one project linted together, each with its own globals and its own `setup`.
// This one frees everything it allocates.
#include <cuda_runtime.h>

float *d_in;
float *d_out;
float *d_weights;

void setup(size_t n) {
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMalloc(&d_out, n * sizeof(float));
  cudaMalloc(&d_weights, n * sizeof(float));
}

void teardown() {
  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_weights);
}

int main() {
  setup(1 << 20);
  teardown();
  return 0;
}
