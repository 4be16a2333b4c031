// expected-no-diagnostics
// A local std::string set once and compared with a constant decides the allocation and its free
// alike: both tests of `mode == "fast"` take the same way on every path, so no path allocates
// without freeing. The twin GM001_string_mode_changed_between_tests changes the string between
// the two tests.
#include <cuda_runtime.h>
#include <string>

int run(const char *arg, size_t n) {
  float *d = nullptr;
  std::string mode = arg;
  if (mode == "fast")
    cudaMalloc(&d, n);
  if (mode == "fast")
    cudaFree(d);
  return 0;
}
