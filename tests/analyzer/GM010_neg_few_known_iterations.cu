// expected-no-diagnostics
// Loops of a handful of iterations known when compiled repeat an allocation a few times, not per
// step: a test rig's walk over the values of a data-type enumeration (each test allocates once
// and frees at its end), a loop over three fields, and a build retried at most seven times.
#include <cuda_runtime.h>

enum DataType { TYPE_INT, TYPE_UINT, TYPE_FLOAT, TYPE_DOUBLE, TYPE_INVALID };

__global__ void fill(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 0.0f;
}

int run_test(DataType type, int n) {
  float *d = nullptr;
  cudaMalloc(&d, n * sizeof(float) * (type == TYPE_DOUBLE ? 2 : 1));
  for (int size = 1; size <= n; size *= 2)
    fill<<<(size + 255) / 256, 256>>>(d, size);
  cudaFree(d);
  return 0;
}

int all_types(int n) {
  int failed = 0;
  for (DataType t = TYPE_INT; t != TYPE_INVALID; t = DataType((int)t + 1))
    failed += run_test(t, n);
  return failed;
}

void three_fields(float **fields, int n) {
  const int count = 3;
  for (int f = 0; f < count; ++f) {
    float *staging = nullptr;
    cudaMalloc(&staging, n * sizeof(float));
    fill<<<(n + 255) / 256, 256>>>(staging, n);
    cudaMemcpy(fields[f], staging, n * sizeof(float), cudaMemcpyDeviceToDevice);
    cudaFree(staging);
  }
}

unsigned read_failures(const unsigned *d_failures);

bool build(int n, unsigned *d_failures) {
  unsigned failures = 1, attempts = 0;
  while (failures && ++attempts < 8) {
    unsigned *d_count = nullptr;
    cudaMalloc(&d_count, sizeof(unsigned));
    cudaMemset(d_count, 0, sizeof(unsigned));
    fill<<<(n + 255) / 256, 256>>>((float *)d_count, 1);
    cudaFree(d_count);
    failures = read_failures(d_failures);
  }
  return failures == 0;
}
