// Overhead probe: the same source built plain and with gmemcc's forced include.
// cudaMalloc/cudaFree pairs, cudaMallocAsync/cudaFreeAsync pairs, and kernel-bound work.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void work(float *p, size_t n, int reps) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) {
    float v = p[i];
    for (int r = 0; r < reps; ++r)
      v = v * 1.0000001f + 0.5f;
    p[i] = v;
  }
}

static double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/* Each loop is timed in CHUNKS equal parts as well: the GPU machine's timings drift by tens of
 * percent within seconds, and noise only adds time, so the quietest part estimates a call's own
 * cost (the *_min figures) next to the whole loop's mean. */
enum { CHUNKS = 20 };

int main(int argc, char **argv) {
  int pairs = argc > 1 ? atoi(argv[1]) : 20000;
  int async_pairs = argc > 2 ? atoi(argv[2]) : 200000;
  cudaFree(0);
  void *p;
  double sync_s = 0, sync_min = 1e30;
  for (int c = 0; c < CHUNKS; ++c) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < pairs / CHUNKS; ++i) {
      cudaMalloc(&p, 1 << 20);
      cudaFree(p);
    }
    double s = seconds_since(t0);
    sync_s += s;
    sync_min = s < sync_min ? s : sync_min;
  }
  cudaStream_t s;
  cudaStreamCreate(&s);
  double async_s = 0, async_min = 1e30;
  for (int c = 0; c < CHUNKS; ++c) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < async_pairs / CHUNKS; ++i) {
      cudaMallocAsync(&p, 1 << 20, s);
      cudaFreeAsync(p, s);
    }
    double t = seconds_since(t0);
    async_s += t;
    async_min = t < async_min ? t : async_min;
  }
  cudaStreamSynchronize(s);
  float *d;
  size_t n = 64u << 20;
  cudaMalloc(&d, n * sizeof(float));
  auto t0 = std::chrono::steady_clock::now();
  for (int k = 0; k < 20; ++k)
    work<<<(unsigned)((n + 255) / 256), 256>>>(d, n, 200);
  cudaDeviceSynchronize();
  double kernel_s = seconds_since(t0);
  cudaFree(d);
  int sync_done = pairs / CHUNKS * CHUNKS, async_done = async_pairs / CHUNKS * CHUNKS;
  std::printf("pair_us=%.3f pair_min_us=%.3f async_pair_us=%.4f async_pair_min_us=%.4f "
              "kernel_ms=%.2f\n",
              sync_s / sync_done * 1e6, sync_min / (pairs / CHUNKS) * 1e6,
              async_s / async_done * 1e6, async_min / (async_pairs / CHUNKS) * 1e6,
              kernel_s * 1e3);
  return 0;
}
