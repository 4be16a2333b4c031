// The positive twin of GM010_neg_local_kept_in_table: the same per-device
// buffers kept in a table through a local, but allocated again on every step
// and freed through the table at the end of the step: the step loop churns.
#include <cuda_runtime.h>
#include <vector>

void per_step(float** bufs, int ndev, int steps, size_t bytes) {
  for (int s = 0; s < steps; ++s) { // expected-note {{the loop}}
    for (int dev = 0; dev < ndev; ++dev) {
      float* p;
      cudaSetDevice(dev);
      cudaMalloc(&p, bytes); // expected-warning {{cudaMalloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it}}
      bufs[dev] = p;
    }
    for (int dev = 0; dev < ndev; ++dev)
      cudaFree(bufs[dev]);
  }
}

// A loop over requests (data, not devices) that gives each request its own
// block through a local kept in a vector: per-element allocation, reported.
void per_request(std::vector<float*>& blocks, const size_t* sizes, int nreq) {
  for (int r = 0; r < nreq; ++r) { // expected-note {{the loop}}
    float* kv;
    cudaMalloc(&kv, sizes[r]); // expected-warning {{cudaMalloc runs on every iteration of this loop and its size varies, which also fragments device memory; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Allocate the largest size once before the loop, or use cudaMallocAsync from a stream-ordered memory pool}}
    blocks.push_back(kv);
  }
}
