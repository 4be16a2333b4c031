// The device buffer is released only when verbose is set.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void fill(int* out, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = v;
}

void fill_and_report(int n, bool verbose) {
  int* d_out = nullptr;
  cudaMalloc(&d_out, n * sizeof(int)); // expected-warning {{GM001}}
  fill<<<(n + 127) / 128, 128>>>(d_out, n, 7);
  cudaDeviceSynchronize();
  if (verbose) {
    int first = 0;
    cudaMemcpy(&first, d_out, sizeof(int), cudaMemcpyDeviceToHost);
    printf("first = %d\n", first);
    cudaFree(d_out);
  }
} // expected-note {{'fill_and_report' ends here without freeing 'd_out'}}
