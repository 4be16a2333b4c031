// expected-no-diagnostics
#include <cuda_runtime.h>

#include "setup.cuh"

#define MAX_GPUS 16

static float *g_scratch;
static float *g_frame;
static unsigned *d_hash[MAX_GPUS];

void ensure_scratch(size_t n) {
  if (!g_scratch)
    cudaMalloc(&g_scratch, n * sizeof(float));
}

void alloc_hash(int thr_id, size_t n) { cudaMalloc(&d_hash[thr_id], n * sizeof(unsigned)); }

void make_frame(size_t n) { cudaMalloc(&g_frame, n * sizeof(float)); }
