// A polling loop breaks out on timeout and returns without freeing the
// pinned status buffer.
#include <cuda_runtime.h>
#include <stdio.h>

int wait_for_flag(const int* d_flag, int max_polls) {
  int* h_flag = nullptr;
  if (cudaMallocHost(&h_flag, sizeof(int)) != cudaSuccess) // expected-warning {{'h_flag' (pinned host memory from cudaMallocHost) is not freed on every path: a return leaves 'wait_for_flag' without releasing it; call cudaFreeHost before returning [GM001 unpaired-allocation]}}
    return -1;
  int polls = 0;
  bool done = false;
  while (true) {
    cudaMemcpy(h_flag, d_flag, sizeof(int), cudaMemcpyDeviceToHost);
    if (*h_flag != 0) {
      done = true;
      break;
    }
    if (++polls >= max_polls)
      break;
  }
  if (!done) {
    fprintf(stderr, "timed out after %d polls\n", polls);
    return -2; // expected-note {{this return leaves without freeing 'h_flag'}}
  }
  cudaFreeHost(h_flag);
  return polls;
}
