// cudaMemcpy, cudaMemset, memcpy and printf do not take ownership.
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

void roundtrip(const char* msg) {
  size_t len = strlen(msg) + 1;
  char* d_msg = nullptr;
  cudaMalloc(&d_msg, len); // expected-warning {{'d_msg' (device memory from cudaMalloc) is not freed on every path through 'roundtrip'; call cudaFree when it is no longer needed [GM001 unpaired-allocation]}}
  cudaMemset(d_msg, 0, len);
  cudaMemcpy(d_msg, msg, len, cudaMemcpyHostToDevice);
  char back[256];
  memset(back, 0, sizeof back);
  cudaMemcpy(back, d_msg, len < sizeof back ? len : sizeof back, cudaMemcpyDeviceToHost);
  printf("device copy at %p: %s\n", (void*)d_msg, back);
} // expected-note {{'roundtrip' ends here without freeing 'd_msg'}}
