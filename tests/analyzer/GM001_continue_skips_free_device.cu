// A `continue` skips the free of the per-step device buffer: the loop goes round again and
// declares it anew while it still owns memory (the device twin of GM004_continue_skips_free).
#include <cuda_runtime.h>

bool skip_batch(int step);
void train_step(float* d_act);

void train(int steps, size_t bytes) {
  for (int step = 0; step < steps; ++step) {
    float* d_act; // expected-note {{declared again here on the next iteration}}
    cudaMalloc(&d_act, bytes); // expected-warning {{leaks when an iteration ends early}}
    if (skip_batch(step))
      continue; // expected-note {{this continue skips the free}}
    train_step(d_act);
    cudaFree(d_act);
  }
}
// expected-rules-unchecked GM010: the loop allocates on every iteration as the shape needs; GM010's own tests cover that
