// expected-no-diagnostics
#include "net.h"

float *results[64];

void regrow_without_capacity(const size_t *need, int steps, size_t cap, float **scratch) {
  for (int s = 0; s < steps; ++s) {
    if (cap < need[s])
      *scratch = make_array(need[s]);
  }
}

void lazy_test_of_another_buffer(const float *ready, int steps, size_t n) {
  for (int s = 0; s < steps; ++s) {
    if (!ready)
      results[s % 64] = make_array(n);
  }
}

void same_layer_every_step(Layer *layers, int steps) {
  for (int s = 0; s < steps; ++s) {
    Layer *l = &layers[0];
    align_layer(l);
  }
}
