// expected-no-diagnostics
// The twin of GM001_template_dependent_call_borrows.cu: the same dependent calls, with the buffer
// freed after them; and calls whose candidates may keep the buffer (one overload stores it, a
// template frees it, a name the file only declares), where what happens to it is not ours to
// judge.
#include <cuda_runtime.h>

template <typename T> __global__ void fill(T *d, int n) {
  if (threadIdx.x < n)
    d[threadIdx.x] = T();
}

template <typename T> void show(const T *d, int n) {
  if (d == nullptr || n == 0)
    return;
  cudaMemset((void *)d, 0, n * sizeof(T));
}

void report(const float *d, int n) { cudaMemset((void *)d, 0, n * sizeof(float)); }
void report(const double *d, int n) { cudaMemset((void *)d, 0, n * sizeof(double)); }

template <typename T> void run_template_helper(int n) {
  T *d;
  cudaMalloc(&d, n * sizeof(T));
  fill<T><<<1, 1>>>(d, n);
  show(d, n);
  cudaFree(d);
}

template <typename T> void run_overloads(int n) {
  T *d;
  cudaMalloc(&d, n * sizeof(T));
  report(d, n);
  cudaFree(d);
}

static float *kept_float;
void keep(float *d, int n) { kept_float = n ? d : nullptr; }
void keep(double *d, int n) { cudaMemset(d, 0, n * sizeof(double)); }

template <typename T> void release(T *d, int n) {
  if (n >= 0)
    cudaFree(d);
}

template <typename T> void attach(T *d, int n);

template <typename T> void hand_to_overloads(int n) {
  T *d;
  cudaMalloc(&d, n * sizeof(T));
  keep(d, n);
}

template <typename T> void hand_to_template(int n) {
  T *d;
  cudaMalloc(&d, n * sizeof(T));
  release(d, n);
}

template <typename T> void hand_to_declared(int n) {
  T *d;
  cudaMalloc(&d, n * sizeof(T));
  attach(d, n);
}
