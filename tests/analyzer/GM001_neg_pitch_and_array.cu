// expected-no-diagnostics
// cudaMallocPitch with cudaFree, cudaMallocArray with cudaFreeArray.
#include <cuda_runtime.h>

int blur_setup(const unsigned char* img, int w, int h) {
  unsigned char* d_img = nullptr;
  size_t pitch = 0;
  if (cudaMallocPitch((void**)&d_img, &pitch, w, h) != cudaSuccess)
    return -1;
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<unsigned char>();
  cudaArray_t arr = nullptr;
  if (cudaMallocArray(&arr, &desc, w, h) != cudaSuccess) {
    cudaFree(d_img);
    return -1;
  }
  cudaMemcpy2D(d_img, pitch, img, w, w, h, cudaMemcpyHostToDevice);
  cudaMemcpy2DToArray(arr, 0, 0, d_img, pitch, w, h, cudaMemcpyDeviceToDevice);
  cudaFreeArray(arr);
  cudaFree(d_img);
  return 0;
}
