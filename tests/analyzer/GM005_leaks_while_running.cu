// expected-rules-unchecked GM001 GM010: the leaks while the program runs are GM001's
// (GM001_leaks_while_running.cu states them) and the loop allocates (GM010's)
// GM005 takes only what main still holds where the program ends ('last'): not the pointer
// overwritten in main's loop (whose last block main also still holds at its return: the leak
// while running is the one reported), nor leaks in functions that return to their caller, in a
// lambda inside main or in functions named main that are not the program's.
#include <cuda_runtime.h>

void consume(const float *d, int n);

int stage(int n) {
  float *tmp = nullptr;
  cudaMalloc(&tmp, n);
  if (n > 64)
    return -1;
  cudaFree(tmp);
  return 0;
}

namespace tool {
int main(int n) {
  float *d = nullptr;
  cudaMalloc(&d, n);
  return 0;
}
} // namespace tool

int main(int argc, char **argv) {
  auto scratch = [](int n) {
    float *d = nullptr;
    cudaMalloc(&d, n);
    return 0;
  };
  float *last = nullptr, *w = nullptr;
  for (int step = 0; step < argc; ++step) {
    cudaMalloc(&w, 256);
    consume(w, 64);
    float *buf = nullptr;
    cudaMalloc(&buf, 256);
    consume(buf, 64);
  }
  cudaMalloc(&last, 256); // expected-warning {{'last' (device memory from cudaMalloc) is not freed before the program ends: a return leaves 'main' without releasing it; call cudaFree before returning [GM005 unfreed-at-exit]}}
  consume(last, 64);
  return stage(argc) + tool::main(argc) + scratch(argc); // expected-note {{this return from 'main' ends the program without freeing 'last'}}
}
