// cudaMallocPitch allocation leaks when the 2D copy fails.
#include <cuda_runtime.h>
#include <stdio.h>

int upload_image(const unsigned char* h_img, int width, int height) {
  unsigned char* d_img = nullptr;
  size_t pitch = 0;
  if (cudaMallocPitch((void**)&d_img, &pitch, width, height) != cudaSuccess) // expected-warning {{'d_img' (device memory from cudaMallocPitch) is not freed on an error path: a return after a failed call leaves 'upload_image' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
    return -1;
  cudaError_t e = cudaMemcpy2D(d_img, pitch, h_img, width, width, height,
                               cudaMemcpyHostToDevice);
  if (e != cudaSuccess) {
    fprintf(stderr, "copy failed: %s\n", cudaGetErrorString(e));
    return -1; // expected-note {{this return after a failed call leaves without freeing 'd_img'}}
  }
  printf("pitch %zu\n", pitch);
  cudaFree(d_img);
  return 0;
}
