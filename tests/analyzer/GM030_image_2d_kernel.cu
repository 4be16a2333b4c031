// 2-D image kernel: the index y * width + x is affine in the thread and block
// indices, so the access is dense.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void invert(unsigned char* img, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) {
    int idx = y * width + x;
    img[idx] = 255 - img[idx]; // expected-note {{'invert' indexes it by thread here}}
  }
}

void process(const unsigned char* src, int width, int height, unsigned char* dst) {
  unsigned char* img = nullptr;
  cudaMallocManaged(&img, (size_t)width * height); // expected-warning {{'img' (managed memory from cudaMallocManaged) reaches kernel 'invert', which reads it densely, with no cudaMemPrefetchAsync or cudaMemAdvise before the launch: the GPU faults its pages over on demand (on an H200 a dense kernel over 1 GiB ran in 271 ms this way and in 0.75 ms after a prefetch). Prefetch it to the device before the launch, or use cudaMalloc and explicit copies [GM030 managed-dense-access]}}
  for (int i = 0; i < width * height; ++i) img[i] = src[i];
  dim3 block(16, 16);
  dim3 grid((width + 15) / 16, (height + 15) / 16);
  invert<<<grid, block>>>(img, width, height); // expected-note {{launched here without a prefetch}}
  cudaDeviceSynchronize();
  for (int i = 0; i < width * height; ++i) dst[i] = img[i];
  cudaFree(img);
}
