// The twin of GM001_neg_string_mode_decides_free: the string is assigned, or changed by a method
// call, between the test that allocates and the test that frees, so the two tests may go
// different ways and the buffer leaks on the path that allocated but does not free.
#include <cuda_runtime.h>
#include <string>

int reassigned(const char *arg, const char *next, size_t n) {
  float *d = nullptr;
  std::string mode = arg;
  if (mode == "fast")
    cudaMalloc(&d, n); // expected-warning {{'d' (device memory from cudaMalloc) is not freed on every path: a return leaves 'reassigned' without releasing it; call cudaFree before returning}}
  mode = next;
  if (mode == "fast")
    cudaFree(d);
  return 0; // expected-note {{this return leaves without freeing 'd'}}
}

int appended(const char *arg, size_t n) {
  float *d = nullptr;
  std::string mode = arg;
  if (mode == "fast")
    cudaMalloc(&d, n); // expected-warning {{'d' (device memory from cudaMalloc) is not freed on every path: a return leaves 'appended' without releasing it; call cudaFree before returning}}
  mode.append("-x");
  if (mode == "fast")
    cudaFree(d);
  return 0; // expected-note {{this return leaves without freeing 'd'}}
}
