// expected-no-diagnostics
// Borrowing calls (cuBLAS, libc) in between, then the free: clean. A function declared in the
// user's own code but defined elsewhere may keep the pointer: not a leak here.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <string.h>

void register_buffer(float* p); // defined in another file: may keep it

int dot(cublasHandle_t handle, const float* hx, int n, float* result) {
  float* d_x = nullptr;
  cudaMalloc(&d_x, n * sizeof(float));
  cublasSetVector(n, sizeof(float), hx, 1, d_x, 1);
  cublasSdot(handle, n, d_x, 1, d_x, 1, result);
  cudaFree(d_x);
  return 0;
}

void keep_elsewhere(size_t n) {
  float* d_kept = nullptr;
  cudaMalloc(&d_kept, n);
  register_buffer(d_kept);
  float* d_part = nullptr;
  cudaMalloc(&d_part, n);
  register_buffer(&d_part[0]); // &p[i] is still p: the callee may keep the block
}
