#include <cuda_runtime.h>

#include "net.h"

float *make_array(size_t n) {
  float *p = NULL;
  cudaMalloc((void **)&p, n * sizeof(float)); // expected-warning {{cudaMalloc in 'make_array' runs on every call, and 'make_array' is called in a loop in}}
  return p;
}

void align_layer(Layer *l) {
  cudaMalloc((void **)&l->workspace, l->outputs * sizeof(float)); // expected-warning {{cudaMalloc in 'align_layer' runs on every call, and 'align_layer' is called in a loop in}}
}
