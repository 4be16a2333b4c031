// GM140 on a GPU: a run made to be capacity-bound. It asks cudaMemGetInfo what is
// free and allocates all of it but 1 GiB in one block (the context and the light kernels need
// little), then holds it for about 2 s while a light kernel runs every 10 ms (one thread block,
// a few microseconds): device memory at 90% or more of the total for most of the run, the SMs
// nearly idle. No allocation fails, so the verdict rests on the NVML samples alone.
// tests/gpu/join_bound.sh expects GM140 capacity-bound at the allocation marked below.
// Usage: bound_capacity [seconds to hold (2)]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <thread>

__global__ void touch(float *p, size_t n) {
  for (size_t i = threadIdx.x; i < n; i += blockDim.x)
    p[i] += 1.0f;
}

int main(int argc, char **argv) {
  double hold_s = argc > 1 ? atof(argv[1]) : 2.0;
  const size_t GiB = 1ull << 30, page = 2ull << 20;
  cudaFree(0);
  size_t free_b = 0, total_b = 0;
  cudaMemGetInfo(&free_b, &total_b);
  size_t want = free_b > 2 * GiB ? (free_b - GiB) / page * page : 0;
  float *held = nullptr;
  if (!want || cudaMalloc(&held, want) != cudaSuccess) { // @bound_hold
    std::printf("bound_capacity: could not allocate %.1f GiB of %.1f GiB free\n",
                (double)want / GiB, (double)free_b / GiB);
    return 1;
  }
  cudaMemset(held, 0, 1 << 20);
  size_t after = 0;
  cudaMemGetInfo(&after, &total_b);
  std::printf("bound_capacity: holding %.1f GiB; %.1f GiB of %.1f GiB used (%.0f%%)\n",
              (double)want / GiB, (double)(total_b - after) / GiB, (double)total_b / GiB,
              100.0 * (double)(total_b - after) / (double)total_b);
  auto t0 = std::chrono::steady_clock::now();
  int launches = 0;
  while (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < hold_s) {
    touch<<<1, 256>>>(held, 1 << 16);
    cudaDeviceSynchronize();
    ++launches;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::printf("bound_capacity: %d light kernels in %.1f s\n", launches, hold_s);
  cudaFree(held);
  return 0;
}
