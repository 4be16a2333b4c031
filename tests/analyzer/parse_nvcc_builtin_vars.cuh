// A project helper header (used by GM001_parse_nvcc_builtin_vars.cu) that declares the built-in
// variables for its host-side code, as nvcc accepts and clang, which declares them with types of
// its own, does not.
#pragma once
#include <cuda_runtime.h>

extern const uint3 threadIdx;
extern const uint3 blockIdx;
extern const dim3 blockDim;
extern const dim3 gridDim;
extern const int warpSize;

__device__ inline int global_index() { return blockIdx.x * blockDim.x + threadIdx.x; }
