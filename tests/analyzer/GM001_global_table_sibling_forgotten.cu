// Per-thread buffers kept in file-scope tables: an init function allocates a set of them, a
// release function frees some and forgets one. The tables are members of the program's global
// object, and the ones allocated together are siblings: the forgotten one leaks once per thread
// each time the program tears the set down and builds it again.
#include <cuda_runtime.h>
#include <stdint.h>

#define MAX_THREADS 8

static uint32_t *d_state[MAX_THREADS];
static uint32_t *d_found[MAX_THREADS];
static float *d_constants;
static float *d_lookup;

__global__ void step(uint32_t *state, uint32_t *found) { found[0] = state[threadIdx.x]; }

// Only reads the buffers (launches with them): handing them here keeps them the tables'.
static void launch_step(uint32_t *state, uint32_t *found) { step<<<1, 32>>>(state, found); }

void worker_init(int thr, size_t n) {
  cudaMalloc(&d_state[thr], n * sizeof(uint32_t));
  cudaMalloc((void **)&d_found[thr], 2 * sizeof(uint32_t)); // expected-warning {{'d_found[]' (device memory from cudaMalloc) is never freed: no function in the program releases it, while 'd_state[]', allocated with it in 'worker_init', is freed in 'worker_release'; free it there with cudaFree [GM001 unpaired-allocation]}}
  cudaMalloc(&d_constants, 64 * sizeof(float));
  cudaMalloc(&d_lookup, 256 * sizeof(float)); // expected-warning {{'d_lookup' (device memory from cudaMalloc) is never freed: no function in the program releases it, while 'd_state[]', allocated with it in 'worker_init', is freed in 'worker_release'; free it there with cudaFree [GM001 unpaired-allocation]}}
}

int worker_scan(int thr) {
  uint32_t found[2];
  cudaMemset(d_found[thr], 0, 2 * sizeof(uint32_t));
  launch_step(d_state[thr], d_found[thr]);
  cudaMemcpy(found, d_found[thr], sizeof found, cudaMemcpyDeviceToHost);
  return d_lookup && d_constants ? (int)found[0] : -1;
}

// Both findings point here: the release function that frees their sibling.
void worker_release(int thr) {
  if (d_state[thr])
    cudaFree(d_state[thr]); // expected-note 2 {{'d_state[]' is freed here, in 'worker_release'}}
  cudaFree(d_constants);
}
