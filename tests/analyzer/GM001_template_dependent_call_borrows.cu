// Inside a template, a call whose arguments depend on a template parameter is resolved by clang
// only per instantiation. It is resolved here to the candidates the file declares: a function
// template of that name, or every overload of it. Where each candidate only reads the buffer,
// the call borrows it, and a leak after it is still a leak. (Twin: GM001_neg_template_dependent_call.cu.)
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
  cudaMalloc(&d, n * sizeof(T)); // expected-warning {{'d' (device memory from cudaMalloc) is not freed on every path: a return leaves 'run_template_helper' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
  fill<T><<<1, 1>>>(d, n);
  show(d, n);
  return; // expected-note {{this return leaves without freeing 'd'}}
}

template <typename T> void run_overloads(int n) {
  T *d;
  cudaMalloc(&d, n * sizeof(T)); // expected-warning {{'d' (device memory from cudaMalloc) is not freed on every path: a return leaves 'run_overloads' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
  report(d, n);
  return; // expected-note {{this return leaves without freeing 'd'}}
}

// instantiated twice and explicitly: still one finding, at the template as written
template void run_template_helper<float>(int);
void use_them(int n) {
  run_template_helper<double>(n);
  run_overloads<float>(n);
  run_overloads<double>(n);
}
