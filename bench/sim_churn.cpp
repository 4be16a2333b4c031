// cudaMallocAsync/cudaFreeAsync pairs against the simulated CUDA runtime (tests/runtime/simcuda.c),
// for bench/runtime_instructions.sh: what each way in costs per pair, counted in instructions.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime_api.h>

int main(int argc, char **argv) {
  int pairs = argc > 1 ? std::atoi(argv[1]) : 200000;
  void *p = nullptr;
  cudaMallocAsync(&p, 1 << 20, 0); // the first call starts CUDA and the injected library
  cudaFreeAsync(p, 0);
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < pairs; i++) {
    cudaMallocAsync(&p, 1 << 20, 0);
    cudaFreeAsync(p, 0);
  }
  auto t1 = std::chrono::steady_clock::now();
  std::printf("async_pair_ns=%.1f\n",
              std::chrono::duration<double, std::nano>(t1 - t0).count() / pairs);
  return 0;
}
