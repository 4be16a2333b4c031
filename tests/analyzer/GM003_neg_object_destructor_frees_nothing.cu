// expected-no-diagnostics
// Twins of the by-value double frees whose class frees nothing when it dies: a view of memory
// that someone else owns (no destructor, or a destructor that only synchronises), passed by
// value to a host function and to a kernel. The buffer is freed once, by its owner.
#include <cuda_runtime.h>

struct DeviceSpan {
  float* data;
  size_t n;
};

struct StreamGuard {
  cudaStream_t stream;
  float* data;
  ~StreamGuard() { cudaStreamSynchronize(stream); }
};

__global__ void scale(DeviceSpan span) {
  size_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < span.n)
    span.data[i] *= 2.0f;
}

double checksum(StreamGuard guard);

int main() {
  DeviceSpan span;
  span.n = 1024;
  cudaMalloc(&span.data, span.n * sizeof(float));
  scale<<<4, 256>>>(span);
  StreamGuard guard{0, span.data};
  double sum = checksum(guard);
  cudaFree(span.data);
  return sum > 0 ? 0 : 1;
}
