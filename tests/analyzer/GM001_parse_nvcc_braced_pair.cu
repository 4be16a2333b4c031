// A launch whose grid and block are both braced initialisers: both are rewritten, with no blank
// needed on the line (`k<<<{a,b},{c,d}>>>` has none), so the function that launches is analysed.
// Character literals with a prefix (`L'"'`) and blanks inside literals are left as they are.
#include <cuda_runtime.h>

__global__ void fill(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = 0.0f;
}

int run_fill(int n, unsigned a, unsigned b, unsigned c, unsigned d, cudaStream_t s) {
  float *p = nullptr, *q = nullptr;
  if (cudaMalloc(&p, n * sizeof(float)) != cudaSuccess)
    return -1;
  cudaMalloc(&q, n * sizeof(float)); // expected-warning {{'q' (device memory from cudaMalloc) is not freed on an error path: a return after a failed call leaves 'run_fill' without releasing it; call cudaFree before returning}}
  fill<<<{1,1}, {2,2}>>>(p, n);
  fill<<<{a, b}, {c, d}, 0, s>>>(p, n);
fill<<<{a,b},{c,d}>>>(q,n);
  wchar_t wq = L'"'; const char *t = "k<<<g, {1,1}>>>"; fill<<<a, {c, d}>>>(q, n); // "
  char16_t uq = u'"'; char32_t Uq = U'"'; fill<<<a, {c, d}>>>(p, n); // "
  fill<<<(unsigned)sizeof(' '),{1,1} >>>(p, n);
  (void)wq, (void)t, (void)uq, (void)Uq;
  cudaFree(p);
  if (cudaStreamSynchronize(s) != cudaSuccess) return -2; // expected-note {{this return after a failed call leaves without freeing 'q'}}
  cudaFree(q);
  return 0;
}
