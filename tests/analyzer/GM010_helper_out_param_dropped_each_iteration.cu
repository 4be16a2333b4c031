// The positive twin of GM010_neg_per_device_helper_out_param: the same helper
// called in a loop, but the buffer it hands out lands in one local that the
// loop frees again at the end of each iteration: churn.
#include <cuda_runtime.h>

__global__ void scale(char* p, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) p[i] = 0;
}

static cudaError_t device_malloc(void** ptr, size_t size, int device) {
  cudaSetDevice(device);
  return cudaMalloc(ptr, size); // expected-warning {{cudaMalloc in 'device_malloc' runs on every iteration of a loop that calls 'device_malloc'; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Allocate once outside the loop and pass the buffer in, or use cudaMallocAsync from a memory pool}}
}

void run_batches(char** last, int nbatches, size_t size) {
  for (int b = 0; b < nbatches; ++b) {
    char* buf;
    device_malloc((void**)&buf, size, 0); // expected-note {{'device_malloc' is called in a loop here}}
    scale<<<(unsigned)((size + 255) / 256), 256>>>(buf, size);
    *last = buf;
    cudaFree(buf);
  }
}
