// Out-of-memory verdicts judged by gmemlint from the figures a version 2 telemetry file records
// (the runtime writes no verdict): one failing request per verdict and per way to reach it.
#include <cuda_runtime.h>
#include <stddef.h>

static void try_alloc(size_t bytes) {
  void *p = NULL;
  if (cudaMalloc(&p, bytes) == cudaSuccess) // free memory enough, no block large enough: GM103
    cudaFree(p);
}

static void try_after_frees(size_t bytes) {
  void *p = NULL;
  if (cudaMalloc(&p, bytes) == cudaSuccess) // free short, freed-but-held memory covers it: GM103
    cudaFree(p);
}

static void try_pool(size_t bytes, cudaStream_t s) {
  void *p = NULL;
  if (cudaMallocAsync(&p, bytes, s) == cudaSuccess) // the pool's unused memory covers it: GM103
    cudaFreeAsync(p, s);
}

static void try_full(size_t bytes) {
  void *p = NULL;
  if (cudaMalloc(&p, bytes) == cudaSuccess) // free and held memory short of the request: GM104
    cudaFree(p);
}

static void try_passing(size_t bytes) {
  void *p = NULL;
  if (cudaMalloc(&p, bytes) == cudaSuccess) // the probe found a block large enough: transient
    cudaFree(p);
}

static void try_unprobed(size_t bytes) {
  void *p = NULL;
  if (cudaMalloc(&p, bytes) == cudaSuccess) // free memory enough, no probe: unknown
    cudaFree(p);
}

static void try_blind(size_t bytes) {
  void *p = NULL;
  if (cudaMalloc(&p, bytes) == cudaSuccess) // cudaMemGetInfo failed, no figures: unknown
    cudaFree(p);
}

int main() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  try_alloc(1u << 30);
  try_after_frees(1u << 30);
  try_pool(1u << 28, s);
  try_full(1u << 31);
  try_passing(1u << 20);
  try_unprobed(1u << 30);
  try_blind(1u << 30);
  cudaStreamDestroy(s);
  return 0;
}
