// The device buffer is released only when verbose is set.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void fill(int* out, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = v;
}

void fill_and_report(int n, bool verbose) {
  int* d_out = nullptr;
  cudaMalloc(&d_out, n * sizeof(int)); // expected-warning {{'d_out' (device memory from cudaMalloc) is not freed on every path through 'fill_and_report'; call cudaFree when it is no longer needed [GM001 unpaired-allocation]}}
  fill<<<(n + 127) / 128, 128>>>(d_out, n, 7);
  cudaDeviceSynchronize();
  if (verbose) {
    int first = 0;
    cudaMemcpy(&first, d_out, sizeof(int), cudaMemcpyDeviceToHost);
    printf("first = %d\n", first);
    cudaFree(d_out);
  }
} // expected-note {{'fill_and_report' ends here without freeing 'd_out'}}
