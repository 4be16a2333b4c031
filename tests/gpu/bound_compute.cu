// GM140 on a GPU: a run made to be compute-bound, which must get no GM140. Each
// thread of an arithmetic kernel runs a long chain of fused multiply-adds in registers over a
// 4 MiB buffer (read once, written once), repeated back to back for about 1.5 s: NVML's SM
// utilisation near 100%, device memory nearly idle. tests/gpu/join_bound.sh expects no GM140
// and `gmemlint report` to say "neither".
// Usage: bound_compute [seconds (1.5)]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void fma_chain(float *p, int reps) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  float a = p[i], b = a * 0.5f + 1.0f;
  for (int r = 0; r < reps; ++r) {
    a = fmaf(a, 1.000001f, b);
    b = fmaf(b, 0.999999f, a);
  }
  p[i] = a + b;
}

int main(int argc, char **argv) {
  double secs = argc > 1 ? atof(argv[1]) : 1.5;
  const size_t n = 1u << 20; // 4 MiB of floats: stays in L2
  float *p = nullptr;
  if (cudaMalloc(&p, n * sizeof(float)) != cudaSuccess)
    return 1;
  cudaMemset(p, 0, n * sizeof(float));
  cudaDeviceSynchronize();
  auto t0 = std::chrono::steady_clock::now();
  double elapsed = 0;
  long launches = 0;
  while (elapsed < secs) {
    for (int k = 0; k < 10; ++k)
      fma_chain<<<(unsigned)(n / 256), 256>>>(p, 1 << 13);
    launches += 10;
    cudaDeviceSynchronize();
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  double flops = 4.0 * (1 << 13) * (double)n * launches;
  std::printf("bound_compute: %ld launches in %.2f s: %.1f TFLOP/s\n", launches, elapsed,
              flops / elapsed / 1e12);
  cudaFree(p);
  return 0;
}
