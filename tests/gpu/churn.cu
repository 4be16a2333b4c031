// Overhead probe: the same source built plain and with gmemcc's forced include.
// cudaMalloc/cudaFree pairs, cudaMallocAsync/cudaFreeAsync pairs, and kernel-bound work.
// Usage: churn [PAIRS [ASYNC_PAIRS [AB_PAIRS [AB_SYNC_PAIRS]]]]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

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

/* The A/B's sides: the pair as the build routes it, the runtime called directly, the driver. */
enum { AB_ROUTED, AB_DIRECT, AB_DRIVER, AB_SIDES };

static double median(double *v, int n) {
  std::sort(v, v + n);
  return v[n / 2];
}

/* Per side, each chunk's microseconds a pair; per comparison (routed against direct, routed
 * against the driver), each chunk's ratio. Printed as medians, the ratios with their quartiles. */
struct ab_result {
  int chunks;
  double us[AB_SIDES][2 * CHUNKS], ratio[2][2 * CHUNKS];
  void print(const char *direct_name, const char *driver_name) {
    const char *names[2] = {direct_name, driver_name};
    for (int k = 0; k < 2; ++k) {
      double routed = median(us[AB_ROUTED], chunks), other = median(us[1 + k], chunks);
      median(ratio[k], chunks); /* sorted: the quartiles by index */
      std::printf("%s_routed_us=%.4f %s_other_us=%.4f %s_overhead_pct=%.2f %s_q1_pct=%.2f "
                  "%s_q3_pct=%.2f\n",
                  names[k], routed, names[k], other, names[k], (ratio[k][chunks / 2] - 1) * 100,
                  names[k], (ratio[k][chunks / 4] - 1) * 100, names[k],
                  (ratio[k][3 * chunks / 4] - 1) * 100);
    }
  }
};

/* 2*CHUNKS chunks of pairs_per_side/(2*CHUNKS) pairs on each side, the sides' order rotating from
 * chunk to chunk so that none always runs first. */
template <typename Pair> static ab_result ab_chunks(int pairs_per_side, Pair pair) {
  ab_result r;
  r.chunks = 2 * CHUNKS;
  int n = pairs_per_side / r.chunks > 0 ? pairs_per_side / r.chunks : 1;
  for (int c = 0; c < r.chunks; ++c) {
    for (int k = 0; k < AB_SIDES; ++k) {
      int side = (k + c) % AB_SIDES;
      auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < n; ++i)
        pair(side);
      r.us[side][c] = seconds_since(t0) / n * 1e6;
    }
    r.ratio[0][c] = r.us[AB_ROUTED][c] / r.us[AB_DIRECT][c];
    r.ratio[1][c] = r.us[AB_ROUTED][c] / r.us[AB_DRIVER][c];
  }
  return r;
}

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
  /* In-process A/B (third argument: async pairs per side; fourth: cudaMalloc pairs per side).
   * Chunks of pairs as the build routes them (through the hooks in a gmemcc build, through the
   * wrapped driver entry points under gmemrun) alternate with chunks that skip the runtime:
   * cudaMallocAsync called directly (the parentheses keep gmem_forced.h's function-like macros
   * out; only a gmemcc build differs), and the driver's own functions, taken from libcuda with
   * dlsym, which neither gmemcc nor gmemrun sees. Each chunk's sides ran seconds apart in one
   * process, so their ratio is free of the drift between processes: routed/direct is gmemcc's
   * cost, and routed/driver under gmemrun against the same ratio of a plain run is gmemrun's. */
  int ab_pairs = argc > 3 ? atoi(argv[3]) : 0;
  int ab_sync_pairs = argc > 4 ? atoi(argv[4]) : 0;
  if (ab_pairs > 0 || ab_sync_pairs > 0) {
    void *libcuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    auto drv_alloc_async =
        libcuda ? (CUresult(*)(CUdeviceptr *, size_t, CUstream))dlsym(libcuda, "cuMemAllocAsync")
                : nullptr;
    auto drv_free_async =
        libcuda ? (CUresult(*)(CUdeviceptr, CUstream))dlsym(libcuda, "cuMemFreeAsync") : nullptr;
    auto drv_alloc =
        libcuda ? (CUresult(*)(CUdeviceptr *, size_t))dlsym(libcuda, "cuMemAlloc_v2") : nullptr;
    auto drv_free = libcuda ? (CUresult(*)(CUdeviceptr))dlsym(libcuda, "cuMemFree_v2") : nullptr;
    if (!drv_alloc_async || !drv_free_async || !drv_alloc || !drv_free) {
      std::fprintf(stderr, "churn: error: libcuda's allocation functions not found\n");
      return 1;
    }
    CUdeviceptr dp;
    if (ab_pairs > 0) {
      ab_result r = ab_chunks(ab_pairs, [&](int side) {
        if (side == AB_ROUTED) {
          cudaMallocAsync(&p, 1 << 20, s);
          cudaFreeAsync(p, s);
        } else if (side == AB_DIRECT) {
          (cudaMallocAsync)(&p, 1 << 20, s);
          (cudaFreeAsync)(p, s);
        } else {
          drv_alloc_async(&dp, 1 << 20, (CUstream)s);
          drv_free_async(dp, (CUstream)s);
        }
      });
      cudaStreamSynchronize(s);
      r.print("ab", "drv");
    }
    if (ab_sync_pairs > 0) {
      ab_result r = ab_chunks(ab_sync_pairs, [&](int side) {
        if (side == AB_ROUTED) {
          cudaMalloc(&p, 1 << 20);
          cudaFree(p);
        } else if (side == AB_DIRECT) {
          (cudaMalloc)(&p, 1 << 20);
          (cudaFree)(p);
        } else {
          drv_alloc(&dp, 1 << 20);
          drv_free(dp);
        }
      });
      r.print("ab_sync", "drv_sync");
    }
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
