// expected-no-diagnostics
// app_a's library: make_buffer allocates device memory for its caller.
#include <cuda_runtime.h>

void make_buffer(float **p, size_t n) { cudaMalloc(p, n * sizeof(float)); }
