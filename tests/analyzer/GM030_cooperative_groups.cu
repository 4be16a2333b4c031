// Kernels written with cooperative groups: the thread's position comes from
// grid.thread_rank(), this_thread_block().thread_rank() or
// block.thread_index(), and the grid-stride loop steps by grid.size(). Each
// indexes its managed buffer densely, the host fills each first, and nothing is
// prefetched.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void scale_grid(float* x, float a, size_t n) {
  cg::grid_group grid = cg::this_grid();
  for (unsigned long long i = grid.thread_rank(); i < n; i += grid.size())
    x[i] *= a; // expected-note {{'scale_grid' indexes it by thread here}}
}

__global__ void offset_block(int* v, int base) {
  unsigned r = cg::this_thread_block().thread_rank();
  v[r] += base; // expected-note {{indexes it by thread}}
}

__global__ void transpose_tile(float* out, int width) {
  cg::thread_block block = cg::this_thread_block();
  int col = block.group_index().x * 32 + block.thread_index().x;
  int row = block.group_index().y * 32 + block.thread_index().y;
  out[row * width + col] = 0.f; // expected-note {{indexes it by thread}}
}

void run(size_t n, int width) {
  float* x = nullptr;
  int* v = nullptr;
  float* img = nullptr;
  cudaMallocManaged(&x, n * sizeof(float)); // expected-warning {{kernel 'scale_grid'}}
  cudaMallocManaged(&v, 256 * sizeof(int)); // expected-warning {{kernel 'offset_block'}}
  cudaMallocManaged(&img, (size_t)width * width * sizeof(float)); // expected-warning {{kernel 'transpose_tile'}}
  for (size_t i = 0; i < n; ++i)
    x[i] = 1.f;
  for (int i = 0; i < 256; ++i)
    v[i] = 0;
  for (int i = 0; i < width * width; ++i)
    img[i] = 1.f;
  scale_grid<<<128, 256>>>(x, 2.f, n); // expected-note {{launched here}}
  offset_block<<<1, 256>>>(v, 7); // expected-note {{launched here}}
  transpose_tile<<<dim3(width / 32, width / 32), dim3(32, 32)>>>(img, width); // expected-note {{launched here}}
  cudaDeviceSynchronize();
  cudaFree(img);
  cudaFree(v);
  cudaFree(x);
}
