// A module's per-thread buffers, allocated by its init function, which the algorithm's scan
// calls next to allocating its own: the algorithm's release function frees its own buffer and
// never releases the module's (the module has no free function at all). The buffers set up
// under one caller are siblings, as those of one function are.
#include <cuda_runtime.h>
#include <stdint.h>

#define MAX_THREADS 8

static uint32_t *d_round_keys[MAX_THREADS];
static uint32_t *d_hash[MAX_THREADS];
static bool ready[MAX_THREADS];

__global__ void round_kernel(uint32_t *hash, const uint32_t *keys) { hash[threadIdx.x] ^= keys[0]; }

void module_init(int thr) {
  cudaMalloc(&d_round_keys[thr], 64 * sizeof(uint32_t)); // expected-warning {{'d_round_keys[]' (device memory from cudaMalloc) is never freed: no function in the program releases it, while 'd_hash[]', allocated with it under 'algo_scan', is freed in 'algo_release'; free it there with cudaFree [GM001 unpaired-allocation]}}
}

void module_hash(int thr, uint32_t *hash) { round_kernel<<<1, 32>>>(hash, d_round_keys[thr]); }

int algo_scan(int thr, size_t n) {
  if (!ready[thr]) {
    cudaMalloc(&d_hash[thr], n * sizeof(uint32_t));
    module_init(thr); // expected-note {{'algo_scan' calls 'module_init' here, which allocates 'd_round_keys[]'}}
    ready[thr] = true;
  }
  module_hash(thr, d_hash[thr]);
  return 0;
}

void algo_release(int thr) {
  cudaFree(d_hash[thr]); // expected-note {{'d_hash[]' is freed here, in 'algo_release'}}
  ready[thr] = false;
}
