// expected-no-diagnostics
// Device buffers cached in file-scope globals (malloc.c: f4-style).
#include <cuda_runtime.h>
#include <stdlib.h>

static float* g_d_weights = nullptr;
char* g_log_buffer = NULL;

int init_weights(const float* h, int n) {
  float* d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return -1;
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  g_d_weights = d;
  char* logbuf = (char*)malloc(4096);
  g_log_buffer = logbuf;
  return 0;
}

void shutdown_weights() {
  cudaFree(g_d_weights);
  g_d_weights = nullptr;
  free(g_log_buffer);
  g_log_buffer = NULL;
}
