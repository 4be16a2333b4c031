// Hundreds of tiny device buffers allocated one by one, one per point or per
// sample: the loop walks data, not devices, and each buffer holds a few
// bytes. One allocation for all the points would do.
#include <cuda_runtime.h>

struct Sample {
  float* d_feat;
  int label;
};

void alloc_points(float** d_pts, int npoints) {
  for (int i = 0; i < npoints; ++i) { // expected-note {{the loop}}
    cudaMalloc(&d_pts[i], 3 * sizeof(float)); // expected-warning {{cudaMalloc gives each element of this loop its own 12-byte buffer, one allocation per element of data rather than per device or stream; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Allocate one buffer for all the elements and point each element at its slice}}
  }
}

void prepare_samples(Sample* samples) {
  for (int s = 0; s < 500; ++s) // expected-note {{the loop}}
    cudaMalloc(&samples[s].d_feat, 1024); // expected-warning {{cudaMalloc gives each element of this loop its own 1024-byte buffer, one allocation per element of data rather than per device or stream; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Allocate one buffer for all the elements and point each element at its slice}}
}
