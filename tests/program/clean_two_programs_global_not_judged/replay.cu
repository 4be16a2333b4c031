// expected-no-diagnostics
// The other program: its own `d_frames`, kept for the life of the process.
#include <cuda_runtime.h>

float *d_frames;

void load_frames(size_t n) { cudaMalloc(&d_frames, n * sizeof(float)); }

int main() {
  load_frames(1 << 20);
  return 0;
}
