// Helpers that allocate, called in a loop under tests that do not make them run once: a size
// test whose branch never raises the size compared against, and a null test of another buffer
// than the one assigned, and a pointer to the same element on every iteration (setup.cu). Each
// call allocates again on later iterations.
#pragma once
#include <stddef.h>

float *make_array(size_t n);

struct Layer {
  size_t outputs;
  float *workspace;
};

void align_layer(Layer *l);
