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
    CUDA_CHECK(cudaMemcpy(h_boxes + 4 * b, d_boxes + 4 * b, 4 * sizeof(int), // expected-warning {{cudaMemcpy moves 16 bytes per iteration to or from an address that advances with the loop; the fixed cost of each call dominates such small copies. Copy the whole range with one cudaMemcpy (staging the pieces in one buffer if they are scattered), or a strided block with cudaMemcpy2D [GM021 small-transfer-in-loop]}}
                          cudaMemcpyDeviceToHost));
  }
}
