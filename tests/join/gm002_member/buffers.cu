// GM002 verdicts across functions: a member allocated in one method and released with another
// family's call in another (the program check). The verdict rests on the member's allocation,
// not on the free; the telemetry beside this file says what happened (see expected.txt).
#include <cuda_runtime.h>

struct Staging { // confirmed: the runtime counted a wrong-family free of the pinned buffer
  float *host = nullptr;
  void init(size_t n) { cudaMallocHost(&host, n); }
  void destroy() { cudaFree(host); }
};

struct Scratch { // dismissed: the free ran, never on this pinned memory
  float *host = nullptr;
  void init(size_t n) { cudaMallocHost(&host, n); }
  void destroy() { cudaFree(host); }
};

void use(Staging &a, Scratch &b) {
  a.init(4096);
  b.init(4096);
  a.destroy();
  b.destroy();
}
