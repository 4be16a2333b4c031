// expected-no-diagnostics
// Globals whose leak the program cannot show:
// - tables no function frees at all: buffers that live as long as the process (a per-device
//   cache), on purpose or not, with no release function that forgot them;
// - a table handed to a function with no body here, which may keep or free it;
// - a global other files can see, in a run of this file alone: another file may free it.
#include <cuda_runtime.h>
#include <stdint.h>

#define MAX_DEVICES 8

static uint32_t *d_cache[MAX_DEVICES];
static uint32_t *h_cache[MAX_DEVICES];

void cache_init(int dev) {
  cudaMalloc(&d_cache[dev], 1 << 20);
  cudaMallocHost(&h_cache[dev], 1 << 20);
}

static float *d_table[MAX_DEVICES];
static float *d_scratch[MAX_DEVICES];
void register_buffer(float *buffer); // in another file: may keep it

void table_init(int dev) {
  cudaMalloc(&d_table[dev], 1 << 20);
  cudaMalloc(&d_scratch[dev], 1 << 16);
  register_buffer(d_scratch[dev]);
}

void table_release(int dev) { cudaFree(d_table[dev]); }

float *d_shared[MAX_DEVICES]; // visible to other files
float *d_partial[MAX_DEVICES];

void shared_init(int dev) {
  cudaMalloc(&d_shared[dev], 1 << 20);
  cudaMalloc(&d_partial[dev], 1 << 20);
}

void shared_release(int dev) { cudaFree(d_shared[dev]); }
