// A host scratch buffer is malloc'ed and never freed.
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

double checksum_device(const float* d_data, int n) {
  size_t bytes = (size_t)n * sizeof(float);
  float* h = (float*)malloc(bytes); // expected-warning {{'h' (host heap memory from malloc) is not freed on every path: a return leaves 'checksum_device' without releasing it; call free before returning [GM004 unpaired-host-allocation]}}
  if (!h)
    return 0.0;
  memset(h, 0, bytes);
  cudaMemcpy(h, d_data, bytes, cudaMemcpyDeviceToHost);
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += h[i];
  printf("checksum %f\n", s);
  return s; // expected-note {{this return leaves without freeing 'h'}}
}
