// A single object from new released with delete[].
#include <cuda_runtime.h>

struct LaunchStats {
  float ms;
  int blocks;
};

float time_empty_launch() {
  LaunchStats* stats = new LaunchStats(); // expected-note {{allocated here with new}}
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  cudaEventElapsedTime(&stats->ms, a, b);
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  float ms = stats->ms;
  delete[] stats; // expected-warning {{'stats' (heap object from new) is released with delete-array, which frees heap array; use delete [GM002 mismatched-free]}}
  return ms;
}
