// Freed once through the original pointer and again through an alias.
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

float upload_and_sum(float* d_dst, const float* src, int n) {
  float* buf = (float*)malloc(n * sizeof(float)); // expected-note {{allocated here with malloc}}
  if (!buf)
    return 0.f;
  memcpy(buf, src, n * sizeof(float));
  float* cursor = buf;
  float s = 0.f;
  for (int i = 0; i < n; ++i)
    s += cursor[i];
  cudaMemcpy(d_dst, buf, n * sizeof(float), cudaMemcpyHostToDevice);
  free(buf); // expected-note {{first freed here}}
  free(cursor); // expected-warning {{'buf' (host heap memory from malloc) is freed twice: free already released it on this path; set the pointer to null after freeing it, or free it in one place [GM003 double-free]}}
  return s;
}
