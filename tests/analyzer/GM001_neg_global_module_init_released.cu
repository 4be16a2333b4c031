// expected-no-diagnostics
// The clean twin of GM001_global_module_init_under_caller.cu: the module has a free function and
// the algorithm's release calls it. A second module's table, set up by a caller that frees
// nothing, lives for the process and is left alone, and so does a cache set up by a dispatcher
// that allocates nothing itself, beside a scan whose own buffer is freed.
#include <cuda_runtime.h>
#include <stdint.h>

#define MAX_THREADS 8

static uint32_t *d_round_keys[MAX_THREADS];
static uint32_t *d_hash[MAX_THREADS];
static bool ready[MAX_THREADS];

__global__ void round_kernel(uint32_t *hash, const uint32_t *keys) { hash[threadIdx.x] ^= keys[0]; }

void module_init(int thr) { cudaMalloc(&d_round_keys[thr], 64 * sizeof(uint32_t)); }
void module_free(int thr) { cudaFree(d_round_keys[thr]); }

void module_hash(int thr, uint32_t *hash) { round_kernel<<<1, 32>>>(hash, d_round_keys[thr]); }

int algo_scan(int thr, size_t n) {
  if (!ready[thr]) {
    cudaMalloc(&d_hash[thr], n * sizeof(uint32_t));
    module_init(thr);
    ready[thr] = true;
  }
  module_hash(thr, d_hash[thr]);
  return 0;
}

void algo_release(int thr) {
  cudaFree(d_hash[thr]);
  module_free(thr);
  ready[thr] = false;
}

static float *d_lookup[MAX_THREADS];
static float *d_weights[MAX_THREADS];

void lookup_init(int thr) { cudaMalloc(&d_lookup[thr], 1024 * sizeof(float)); }

void model_setup(int thr) {
  cudaMalloc(&d_weights[thr], 4096 * sizeof(float));
  lookup_init(thr);
}

static float *d_cache[MAX_THREADS];

void cache_init(int thr) { cudaMalloc(&d_cache[thr], 1024 * sizeof(float)); }

void run_all(int thr) {
  algo_scan(thr, 1024);
  cache_init(thr);
}
