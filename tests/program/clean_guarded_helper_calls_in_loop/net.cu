// expected-no-diagnostics
#include <cuda_runtime.h>

#include "net.h"

float *make_array(size_t n) {
  float *p = NULL;
  cudaMalloc((void **)&p, n * sizeof(float));
  return p;
}

void free_array(float *p) { cudaFree(p); }

void align_layer(Layer *l) {
  cudaMalloc((void **)&l->workspace, l->outputs * sizeof(float));
}
