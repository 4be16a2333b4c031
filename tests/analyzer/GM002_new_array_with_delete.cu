// new[] memory released with scalar delete.
#include <cuda_runtime.h>

float mean_of_device(const float* d, int n) {
  float* h = new float[n]; // expected-note {{allocated here with new[]}}
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  float s = 0.f;
  for (int i = 0; i < n; ++i) s += h[i];
  delete h; // expected-warning {{'h' (heap array from new[]) is released with delete, which frees heap object; use delete[] [GM002 mismatched-free]}}
  return n ? s / n : 0.f;
}
