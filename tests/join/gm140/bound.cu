// GM140 runtime-memory-bound: one program, five runs with different NVML samples (*.json).
// capacity.json: device memory about 94% used for most of the run (the weights hold the most)
// bandwidth.json: kernels run nearly all the time and memory is busy most of their time
// compute.json: kernels run all the time, memory nearly idle (an arithmetic kernel); device 1,
//   which the run did not use, is full and busy with another process's work
// few.json: six samples only, too few for a verdict
// idle.json: memory-heavy kernels, but in only 3 of 20 samples (the GPU waits on the host)
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void step(const float *w, float *a, size_t n, size_t nw) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = a[i] * w[i % nw] + 1.0f;
}

int main(int argc, char **argv) {
  size_t nw = argc > 1 ? strtoull(argv[1], nullptr, 0) : 1024;
  size_t n = argc > 2 ? strtoull(argv[2], nullptr, 0) : 1 << 20;
  float *weights, *activations;
  if (cudaMalloc(&weights, nw * sizeof(float)) != cudaSuccess)
    return 1;
  if (cudaMalloc(&activations, n * sizeof(float)) != cudaSuccess) {
    cudaFree(weights);
    return 1;
  }
  for (int i = 0; i < 100; ++i)
    step<<<(unsigned)((n + 255) / 256), 256>>>(weights, activations, n, nw);
  cudaDeviceSynchronize();
  cudaFree(activations);
  cudaFree(weights);
  return 0;
}
