// A time loop (main.cu) calls advance() (step.cu), which keeps the latest
// frame in a global and, on some GPUs only, smooths it through a helper; both
// helpers live in scratch.cu. The frame's global is overwritten by a fresh
// allocation on every call, and the helper allocates and frees a scratch
// buffer: per-step churn whether or not the call on the way is conditional.
#pragma once
#include <cstddef>

void advance(const float *d_in, size_t n);
void store_frame(const float *d_in, size_t n);
void smooth(const float *d_in, size_t n);
