// The clean twin of helper_chain_two_calls_away: the reduction (reduce.cu) two calls below the
// loop (main.cu) keeps its buffer. What it frees is another variable: a shadowing inner
// `d_total`, and clear_device_once's `d_buf` (another function's variable at the same position).
// Whether an allocation is freed is a fact about its own variable in its own function.
#pragma once
#include <cstddef>

void train_step(float *d_weights, size_t n);
float reduce_sum(const float *d_values, size_t n);
float *previous_total(void);
