// cudaMallocAsync/cudaFreeAsync pairs against the simulated CUDA runtime (tests/runtime/simcuda.c),
// for bench/runtime_instructions.sh: what each way in costs per pair, counted in instructions.
// A warm-up runs first (the first calls of a site describe it once, and each thread times its
// first 4096 calls), so that measured_pairs() holds the steady state the H200's churn loop sees
// after its cudaMalloc loop.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime_api.h>

static void *p = nullptr;

__attribute__((noinline)) static void pairs(int n) {
  for (int i = 0; i < n; i++) {
    cudaMallocAsync(&p, 1 << 20, 0);
    cudaFreeAsync(p, 0);
  }
}

extern "C" __attribute__((noinline)) void measured_pairs(int n) {
  pairs(n);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 200000;
  pairs(2500);
  auto t0 = std::chrono::steady_clock::now();
  measured_pairs(n);
  auto t1 = std::chrono::steady_clock::now();
  std::printf("async_pair_ns=%.1f\n", std::chrono::duration<double, std::nano>(t1 - t0).count() / n);
  return 0;
}
