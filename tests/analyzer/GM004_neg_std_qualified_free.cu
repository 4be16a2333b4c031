// expected-no-diagnostics
// std::malloc / std::free through the <cstdlib> namespace.
#include <cuda_runtime.h>
#include <cstdlib>

int download(const int* d_src, int n) {
  int* h = static_cast<int*>(std::malloc(n * sizeof(int)));
  if (h == nullptr)
    return -1;
  cudaMemcpy(h, d_src, n * sizeof(int), cudaMemcpyDeviceToHost);
  int first = h[0];
  std::free(h);
  return first;
}
