// `dev != 0` holds on every iteration but the first: the allocation runs on every one of them.
#include <cuda_runtime.h>

void all_but_first(int ndev, size_t bytes) {
  float* h = nullptr;
  for (int dev = 0; dev < ndev; ++dev) { // expected-note {{the loop}}
    if (dev != 0)
      cudaMallocHost(&h, bytes); // expected-warning {{cudaMallocHost runs on every iteration of this loop with a loop-invariant size; on an H200 cudaMallocHost costs 0.8 ms for 256 bytes and 465 ms for 1 GiB, because it pins the pages. Hoist it: allocate once before the loop and free once after it [GM010 allocation-in-loop]}}
  }
  cudaFreeHost(h);
}
// expected-rules-unchecked GM001: 'h' really leaks as each iteration overwrites it; GM001's tests cover overwrites in loops
