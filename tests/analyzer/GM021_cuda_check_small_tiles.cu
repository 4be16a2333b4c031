// Four ints per CUDA_CHECK-wrapped copy, once per bounding box: the finding
// is on the macro invocation line.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CUDA_CHECK(x)                                                   \
  do {                                                                  \
    cudaError_t e_ = (x);                                               \
    if (e_ != cudaSuccess) {                                            \
      fprintf(stderr, "%s\n", cudaGetErrorString(e_));                  \
      exit(1);                                                          \
    }                                                                   \
  } while (0)

void download_boxes(int* h_boxes, const int* d_boxes, int nboxes) {
  for (int b = 0; b < nboxes; ++b) { // expected-note {{the loop}}
    CUDA_CHECK(cudaMemcpy(h_boxes + 4 * b, d_boxes + 4 * b, 4 * sizeof(int), // expected-warning {{GM021}}
                          cudaMemcpyDeviceToHost));
  }
}
