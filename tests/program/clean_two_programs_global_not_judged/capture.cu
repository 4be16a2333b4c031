// expected-no-diagnostics
// Two programs of one project linted together, both defining a global `d_frames`. This one
// frees `d_scratch` and not `d_frames`, allocated with it in `open_capture`: in a program of its
// own that is GM001's sibling finding, but a global two files define belongs to two programs,
// whose uses the run cannot tell apart, and is not judged (docs/rules/GM001.md).
#include <cuda_runtime.h>

float *d_frames;
float *d_scratch;

void open_capture(size_t n) {
  cudaMalloc(&d_frames, n * sizeof(float));
  cudaMalloc(&d_scratch, n * sizeof(float));
}

void close_capture() { cudaFree(d_scratch); }

int main() {
  open_capture(1 << 20);
  close_capture();
  return 0;
}
