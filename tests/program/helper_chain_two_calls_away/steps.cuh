// A training step (step.cu) that calls a reduction (reduce.cu) which allocates and frees its
// scratch buffer on every call; the loop over steps is in a third file (main.cu).
#pragma once
#include <cstddef>

void train_step(float *d_weights, size_t n);
float reduce_sum(const float *d_values, size_t n);
