// Overhead probe: the same source built plain and with gmemcc's forced include.
// cudaMalloc/cudaFree pairs, cudaMallocAsync/cudaFreeAsync pairs, and kernel-bound work.
// Usage: churn [PAIRS [ASYNC_PAIRS [AB_PAIRS]]]
#include <algorithm>
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
  /* In-process A/B (third argument: pairs per side): chunks of cudaMallocAsync pairs as the build
   * routes them (through the hooks in a gmemcc build) alternate with chunks that call the CUDA
   * runtime directly, the parentheses keeping gmem_forced.h's function-like macros out. Both sides
   * see the same drift, so their ratio is the hooks' cost; in a plain build it is noise only. */
  int ab_pairs = argc > 3 ? atoi(argv[3]) : 0;
  double ab_ratio[2 * CHUNKS], ab_hooked[2 * CHUNKS], ab_direct[2 * CHUNKS];
  int ab_chunks = ab_pairs > 0 ? 2 * CHUNKS : 0;
  for (int c = 0; c < ab_chunks; ++c) {
    int n = ab_pairs / ab_chunks;
    double t[2];
    for (int side = 0; side < 2; ++side) {
      bool hooked = (side ^ c) & 1; /* which side goes first alternates too */
      auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < n; ++i) {
        if (hooked) {
          cudaMallocAsync(&p, 1 << 20, s);
          cudaFreeAsync(p, s);
        } else {
          (cudaMallocAsync)(&p, 1 << 20, s);
          (cudaFreeAsync)(p, s);
        }
      }
      t[hooked] = seconds_since(t0) / n * 1e6;
    }
    ab_hooked[c] = t[1];
    ab_direct[c] = t[0];
    ab_ratio[c] = t[1] / t[0];
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
  if (ab_chunks) {
    std::sort(ab_ratio, ab_ratio + ab_chunks);
    std::sort(ab_hooked, ab_hooked + ab_chunks);
    std::sort(ab_direct, ab_direct + ab_chunks);
    /* medians, and the ratio's quartiles as its spread */
    std::printf("ab_hooked_us=%.4f ab_direct_us=%.4f ab_overhead_pct=%.2f ab_q1_pct=%.2f "
                "ab_q3_pct=%.2f\n",
                ab_hooked[ab_chunks / 2], ab_direct[ab_chunks / 2],
                (ab_ratio[ab_chunks / 2] - 1) * 100, (ab_ratio[ab_chunks / 4] - 1) * 100,
                (ab_ratio[3 * ab_chunks / 4] - 1) * 100);
  }
  return 0;
}
