// A pool whose members are allocated by pool_init and freed by pool_release (pool.cu).
#pragma once
#include <cuda_runtime.h>

struct Pool {
  float *device_rows;
  float *device_cols;
  float *pinned_rows;
};

int pool_init(Pool *pool, int n);
void pool_release(Pool *pool);
