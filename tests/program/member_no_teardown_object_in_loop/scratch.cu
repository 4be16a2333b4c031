#include <cuda_runtime.h>

#include "scratch.h"

Scratch::Scratch(int n) : n_(n) {
  cudaMalloc(&d_tmp_, n * sizeof(float)); // expected-warning {{'Scratch::d_tmp_' (device memory from cudaMalloc) is never freed: 'Scratch' has no destructor and no function in the program releases it, while 'main' makes a 'Scratch' on every iteration of a loop and destroys it, losing the block each time; free it in a destructor with cudaFree [GM001 unpaired-allocation]}} expected-note@main.cu:6 {{a 'Scratch' made here goes out of scope without freeing 'd_tmp_'}}
}

void Scratch::clear() { cudaMemset(d_tmp_, 0, n_ * sizeof(float)); }
