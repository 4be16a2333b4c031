// expected-no-diagnostics
// The clean twin of GM001_global_table_sibling_forgotten.cu: the release function frees every
// per-thread buffer the init function allocated.
#include <cuda_runtime.h>
#include <stdint.h>

#define MAX_THREADS 8

static uint32_t *d_state[MAX_THREADS];
static uint32_t *d_found[MAX_THREADS];
static float *d_constants;
static float *d_lookup;

__global__ void step(uint32_t *state, uint32_t *found) { found[0] = state[threadIdx.x]; }

static void launch_step(uint32_t *state, uint32_t *found) { step<<<1, 32>>>(state, found); }

void worker_init(int thr, size_t n) {
  cudaMalloc(&d_state[thr], n * sizeof(uint32_t));
  cudaMalloc((void **)&d_found[thr], 2 * sizeof(uint32_t));
  cudaMalloc(&d_constants, 64 * sizeof(float));
  cudaMalloc(&d_lookup, 256 * sizeof(float));
}

int worker_scan(int thr) {
  uint32_t found[2];
  cudaMemset(d_found[thr], 0, 2 * sizeof(uint32_t));
  launch_step(d_state[thr], d_found[thr]);
  cudaMemcpy(found, d_found[thr], sizeof found, cudaMemcpyDeviceToHost);
  return d_lookup && d_constants ? (int)found[0] : -1;
}

void worker_release(int thr) {
  if (d_state[thr])
    cudaFree(d_state[thr]);
  cudaFree(d_found[thr]);
  cudaFree(d_constants);
  cudaFree(d_lookup);
}
