// A `continue` skips the free of a device buffer declared before the loop: the next iteration's
// cudaMalloc overwrites its only pointer while it still owns memory (the overwrite twin of
// GM001_continue_skips_free_device, where the buffer is declared anew in the loop).
#include <cuda_runtime.h>

bool skip_batch(int step);
void train_step(float* d_act);

void train(int steps, size_t bytes) {
  float* d_act = nullptr;
  for (int step = 0; step < steps; ++step) {
    cudaMalloc(&d_act, bytes); // expected-warning {{'d_act' (device memory from cudaMalloc) leaks: its only pointer is overwritten before it is freed; call cudaFree first, or allocate once outside the loop [GM001 unpaired-allocation]}} expected-note {{overwritten here while it still owns the memory}}
    if (skip_batch(step))
      continue; // expected-note {{this continue skips the free}}
    train_step(d_act);
    cudaFree(d_act);
  }
}
// expected-rules-unchecked GM010: the loop allocates on every iteration as the shape needs; GM010's own tests cover that
