#include <cstdlib>
#include <cuda_runtime.h>

#include "streams.h"

void streams_setup(StreamSet *set, int count, size_t bytes) {
  set->count = count;
  set->d_inputs = (float **)malloc(count * sizeof(float *));
  set->d_outputs = (float **)malloc(count * sizeof(float *));
  for (int i = 0; i < count; ++i) {
    cudaMalloc(&set->d_inputs[i], bytes);
    cudaMalloc(&set->d_outputs[i], bytes); // expected-warning {{'StreamSet::d_outputs[]' (device memory from cudaMalloc) is never freed}} expected-note@streams_teardown.cu:10 {{'StreamSet::d_inputs' is freed here, in 'streams_teardown'}}
  }
}
