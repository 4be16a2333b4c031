// expected-no-diagnostics
// Two whole frame buffers alternate: the pointer changes each iteration by a
// swap, not by advancing through an array, and each copy moves a full frame.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void life_step(const unsigned char* cur, unsigned char* next, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  int alive = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      if ((dx || dy) && x + dx >= 0 && x + dx < w && y + dy >= 0 && y + dy < h)
        alive += cur[(y + dy) * w + x + dx];
  next[y * w + x] = (alive == 3 || (alive == 2 && cur[y * w + x])) ? 1 : 0;
}

void run(unsigned char* h_frame, int w, int h, int gens, void (*show)(const unsigned char*)) {
  size_t bytes = (size_t)w * h;
  unsigned char* a = nullptr;
  unsigned char* b = nullptr;
  cudaMalloc(&a, bytes);
  cudaMalloc(&b, bytes);
  cudaMemcpy(a, h_frame, bytes, cudaMemcpyHostToDevice);
  dim3 block(16, 16), grid((w + 15) / 16, (h + 15) / 16);
  for (int g = 0; g < gens; ++g) {
    life_step<<<grid, block>>>(a, b, w, h);
    cudaMemcpy(h_frame, b, bytes, cudaMemcpyDeviceToHost);
    show(h_frame);
    unsigned char* t = a;
    a = b;
    b = t;
  }
  cudaFree(a);
  cudaFree(b);
}
