// A managed "changed" flag: the host resets it through *flag and reads it
// back each round while kernels write it.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void propagate(const int* row_ptr, const int* col, int* label, int* changed, int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  for (int j = row_ptr[v]; j < row_ptr[v + 1]; ++j) {
    int u = col[j];
    if (label[u] < label[v]) {
      label[v] = label[u];
      *changed = 1;
    }
  }
}

int components(const int* d_row_ptr, const int* d_col, int* d_label, int n) {
  int* changed = nullptr;
  cudaMallocManaged(&changed, sizeof(int)); // expected-warning {{'changed' (managed memory from cudaMallocManaged) is used by a kernel and by host code in the same loop, so its pages migrate to the GPU and back on every iteration; keep the data on the device and copy back only what the host needs, or prefetch it explicitly each way (cudaMemPrefetchAsync) [GM031 managed-ping-pong]}}
  int rounds = 0;
  do { // expected-note {{the loop}}
    *changed = 0;
    propagate<<<(n + 255) / 256, 256>>>(d_row_ptr, d_col, d_label, changed, n); // expected-note {{a kernel uses it here}}
    cudaDeviceSynchronize();
    ++rounds;
  } while (*changed); // expected-note {{and host code touches it here, in the same loop}}
  cudaFree(changed);
  return rounds;
}
