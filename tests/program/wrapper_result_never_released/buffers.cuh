// Allocating wrappers and a releasing helper (buffers.cu) used by a program in another file
// (main.cu), which releases one buffer and forgets another.
#pragma once
#include <cstddef>

float *device_buffer(size_t count);
void pinned_buffer(float **out, size_t count);
void release_buffer(float *buffer);
