#include <cuda_runtime.h>

#include "net.h"

float *make_array(size_t n) {
  float *p = NULL;
  cudaMalloc((void **)&p, n * sizeof(float)); // expected-warning {{cudaMalloc in 'make_array' runs on every call, and 'make_array' is called in a loop in}} expected-note@setup.cu:9 {{'make_array' is called in a loop here, in 'regrow_without_capacity'}} expected-note@setup.cu:7 {{the loop}}
  return p;
}

void align_layer(Layer *l) {
  cudaMalloc((void **)&l->workspace, l->outputs * sizeof(float)); // expected-warning {{cudaMalloc in 'align_layer' runs on every call, and 'align_layer' is called in a loop in}} expected-note@setup.cu:23 {{'align_layer' is called in a loop here, in 'same_layer_every_step'}} expected-note@setup.cu:21 {{the loop}}
}
