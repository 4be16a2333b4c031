// Releasing and borrowing helpers (buffers.cu) used by a program in another file (main.cu): the
// caller's flow sees what each does, path by path, as for a helper in its own file.
#pragma once
#include <cstddef>

void release(float *buffer);          // frees it
void destroy(float **buffer);         // frees *buffer and sets it to null
float checksum(const float *buffer, size_t n); // reads it, keeps nothing
