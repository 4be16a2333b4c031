// nvcc accepts braced initialisers as a launch's grid and block (`k<<<grid, {x, y, 1}>>>`);
// clang's parser does not. gmemlint parses such a file as nvcc does (the braces become a dim3 in
// memory, every line and the columns outside the launch configuration kept), so the function
// that launches is analysed and its leak found.
#include <cuda_runtime.h>

__global__ void blur(const float *in, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    out[y * w + x] = in[y * w + x];
}

int run_blur(const float *h_in, int w, int h, int bx, int by, cudaStream_t stream) {
  float *d_in = nullptr, *d_out = nullptr;
  size_t bytes = (size_t)w * h * sizeof(float);
  if (cudaMalloc(&d_in, bytes) != cudaSuccess)
    return -1;
  cudaMalloc(&d_out, bytes); // expected-warning {{'d_out' (device memory from cudaMalloc) is not freed on an error path: a return after a failed call leaves 'run_blur' without releasing it; call cudaFree before returning}}
  cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice);
  dim3 grid{(unsigned)(w + bx - 1) / bx, (unsigned)(h + by - 1) / by, 1};
  blur<<<grid, {bx, by, 1}, 0, stream>>>(d_in, d_out, w, h);
  blur<<<{(unsigned)w / 16, (unsigned)h / 16},{16, 16}>>>(d_in, d_out, w, h);
  blur<<<grid,{8,8}, 0, stream>>>(d_in, d_out, w, h);
  cudaFree(d_in);
  if (cudaStreamSynchronize(stream) != cudaSuccess) return -2; // expected-note {{this return after a failed call leaves without freeing 'd_out'}}
  cudaFree(d_out);
  return 0;
}
