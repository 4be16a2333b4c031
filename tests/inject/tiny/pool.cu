// The pool's members, allocated and freed in two functions of this file.
#include "pool.h"

int pool_init(Pool *pool, int n) {
  if (cudaMalloc(&pool->device_rows, n * sizeof(float)) != cudaSuccess) return 1;
  if (cudaMalloc(&pool->device_cols, n * sizeof(float)) != cudaSuccess) {
    cudaFree(pool->device_rows);
    return 1;
  }
  if (cudaMallocHost(&pool->pinned_rows, n * sizeof(float)) != cudaSuccess) {
    cudaFree(pool->device_cols);
    cudaFree(pool->device_rows);
    return 1;
  }
  return 0;
}

void pool_release(Pool *pool) {
  cudaFreeHost(pool->pinned_rows);
  cudaFree(pool->device_cols);
  cudaFree(pool->device_rows);
}
