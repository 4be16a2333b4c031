// A release fragment #included in both arms frees the buffer the function freed already. Both
// inclusions are one place in the source (release_staging.inc:2:1), reached from either
// allocation: one finding with no "other place", though the frontend names the included file
// afresh at each inclusion (two copies of its name, compared as strings).
#include <cuda_runtime.h>

int pipeline(size_t n, int large) {
  float* staging = nullptr;
  if (large)
    cudaMalloc(&staging, n); // expected-note {{allocated here with cudaMalloc}}
  else
    cudaMalloc(&staging, 4096);
  cudaFree(staging); // expected-note {{first freed here}}
  if (large) {
#include "release_staging.inc" // expected-warning@release_staging.inc:2 {{'staging' (device memory from cudaMalloc) is freed twice: cudaFree already released it on this path; set the pointer to null after freeing it, or free it in one place [GM003 double-free]}}
  } else {
#include "release_staging.inc"
  }
  return 0;
}
