// expected-no-diagnostics
// Allocations made only when a counter has one value: the first device of a
// device loop, or the first call of a step function that counts its calls in
// a static it only increases. Such a test is true once, however often the
// loop runs.
#include <cuda_runtime.h>

static int iter = 0;
static float* d_table;
static float* d_work;

__global__ void gain(float* table, float* work, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) work[i] = table[i];
}

static void alloc_tables(int n) { cudaMalloc(&d_table, n * sizeof(float)); }

float pgain(int n) {
  if (iter == 0)
    alloc_tables(n);
  if (iter == 0)
    cudaMalloc(&d_work, n * sizeof(float));
  gain<<<(n + 255) / 256, 256>>>(d_table, d_work, n);
  iter++;
  return 0.f;
}

void search(int n, int rounds) {
  for (int r = 0; r < rounds; ++r)
    pgain(n);
}

void reference_on_first_device(float** h_ref, int ndev, size_t bytes) {
  for (int dev = 0; dev < ndev; ++dev) {
    cudaSetDevice(dev);
    if (dev == 0)
      cudaMallocHost(h_ref, bytes);
  }
}
