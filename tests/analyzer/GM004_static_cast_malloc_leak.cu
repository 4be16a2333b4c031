// static_cast around std::malloc; the buffer leaks at the end.
#include <cuda_runtime.h>
#include <cstdlib>
#include <cstdio>

void print_head(const float* d_v, int n) {
  float* h = static_cast<float*>(std::malloc(n * sizeof(float))); // expected-warning {{'h' (host heap memory from malloc) is not freed on every path through 'print_head'; call free when it is no longer needed [GM004 unpaired-host-allocation]}}
  if (!h)
    return;
  cudaMemcpy(h, d_v, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n && i < 4; ++i)
    std::printf("%f\n", h[i]);
} // expected-note {{'print_head' ends here without freeing 'h'}}
