// Code written for CUDA 11 includes the texture headers CUDA 12 removed; clang stops at "file
// not found". gmemlint blanks those #include lines in its copy of the text, parses with its own
// declarations of the CUDA 11 API (which hold what those headers declared), says so, and
// analyses the file in full.
#include <cuda_runtime.h>
#include <cuda_texture_types.h>
#include <texture_fetch_functions.h>

texture<float, 1, cudaReadModeElementType> tex_in; // expected-note {{uses APIs removed from the CUDA toolkit (cuda_texture_types.h, texture_fetch_functions.h, texture<...>); parsed with gmemlint's declarations of the CUDA 11 API}}

int bind_input(const float *h, int n) {
  float *d = nullptr;
  cudaMalloc(&d, n * sizeof(float)); // expected-warning {{'d' (device memory from cudaMalloc) is not freed on an error path: a return after a failed call leaves 'bind_input' without releasing it; call cudaFree before returning}}
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  if (cudaBindTexture(0, tex_in, d, n * sizeof(float)) != cudaSuccess)
    return -1; // expected-note {{this return after a failed call leaves without freeing 'd'}}
  cudaUnbindTexture(tex_in);
  cudaFree(d);
  return 0;
}
