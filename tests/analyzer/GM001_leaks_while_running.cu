// expected-rules-unchecked GM005 GM010: main's end leaks 'last' (GM005's, off by default:
// GM005_leaks_while_running.cu states it) and the loop allocates (GM010's)
// The default set reports leaks while the program keeps running: the only pointer overwritten or
// declared again in a loop of main, a leak in a function that returns to its caller, one in a lambda inside main
// and in functions named main that are not the program's. Memory main still holds when it
// returns ('last') is left to GM005.
#include <cuda_runtime.h>

void consume(const float *d, int n);

int stage(int n) {
  float *tmp = nullptr;
  cudaMalloc(&tmp, n); // expected-warning {{'tmp' (device memory from cudaMalloc) is not freed on every path: a return leaves 'stage' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
  if (n > 64)
    return -1; // expected-note {{this return leaves without freeing 'tmp'}}
  cudaFree(tmp);
  return 0;
}

namespace tool {
int main(int n) {
  float *d = nullptr;
  cudaMalloc(&d, n); // expected-warning {{'d' (device memory from cudaMalloc) is not freed on every path: a return leaves 'main' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
  return 0; // expected-note {{this return leaves without freeing 'd'}}
}
} // namespace tool

int main(int argc, char **argv) {
  auto scratch = [](int n) {
    float *d = nullptr;
    cudaMalloc(&d, n); // expected-warning {{'d' (device memory from cudaMalloc) is not freed on every path: a return leaves 'lambda in main' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
    return 0; // expected-note {{this return leaves without freeing 'd'}}
  };
  float *last = nullptr, *w = nullptr;
  for (int step = 0; step < argc; ++step) {
    cudaMalloc(&w, 256); // expected-warning {{'w' (device memory from cudaMalloc) leaks: its only pointer is overwritten before it is freed; call cudaFree first, or allocate once outside the loop [GM001 unpaired-allocation]}} expected-note {{overwritten here while it still owns the memory}}
    consume(w, 64);
    float *buf = nullptr;
    cudaMalloc(&buf, 256); // expected-warning {{'buf' (device memory from cudaMalloc) leaks on each iteration that reaches its next declaration without freeing it; call cudaFree before the iteration ends [GM001 unpaired-allocation]}}
    consume(buf, 64);
  } // expected-note@-3 {{declared again here on the next iteration}}
  cudaMalloc(&last, 256);
  consume(last, 64);
  return stage(argc) + tool::main(argc) + scratch(argc);
}
