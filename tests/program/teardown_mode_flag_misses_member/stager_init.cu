#include <cuda_runtime.h>

#include "stager.h"

void stager_init(Stager *s, bool overlap, size_t n) {
  s->overlap = overlap;
  cudaMallocHost(&s->h_pinned, n * sizeof(float)); // expected-warning {{'Stager::h_pinned' (pinned host memory from cudaMallocHost) is not freed on every path: 'stager_release' releases it only on some branches of an if, while 'Stager::d_buf' of the same Stager is freed there on every path; free it on every branch (or after the if) with cudaFreeHost [GM001 unpaired-allocation]}} expected-note@stager_release.cu:9 {{'Stager::h_pinned' is freed here, on this branch only}}
  cudaMalloc(&s->d_buf, n * sizeof(float));
}
