#include <cuda_runtime.h>

#include "staging.h"

void staging_close(Staging* s) {
  cudaFree(s->dev); // expected-warning {{'Staging::dev' is another address of 'Staging::host' (pinned host memory from cudaHostAlloc, allocated in 'staging_open'), given by cudaHostGetDevicePointer; releasing it with cudaFree is wrong: free 'Staging::host' with cudaFreeHost}} expected-note@staging_open.cu:8 {{allocated here with cudaHostAlloc}} expected-note@staging_open.cu:9 {{cudaHostGetDevicePointer gives the same block another address here}}
  cudaFreeHost(s->host);
}
