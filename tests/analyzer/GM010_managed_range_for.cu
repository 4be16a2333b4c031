// Range-for over a table of problem sizes, each iteration allocating managed
// memory for its problem.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void iota(int* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = i;
}

int main() {
  const int sizes[] = {1 << 10, 1 << 14, 1 << 18, 1 << 20};
  long long checksum = 0;
  for (int n : sizes) { // expected-note {{the loop}}
    int* v = nullptr;
    cudaMallocManaged(&v, n * sizeof(int)); // expected-warning {{varies}}
    iota<<<(n + 255) / 256, 256>>>(v, n);
    cudaDeviceSynchronize();
    checksum += v[n - 1];
    cudaFree(v);
  }
  printf("%lld\n", checksum);
  return 0;
}
// expected-rules-unchecked GM031: GM031 reports a buffer allocated and freed inside each iteration as migrating back and forth; reported as a likely false positive
