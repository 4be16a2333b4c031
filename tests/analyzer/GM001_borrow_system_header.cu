// A function declared in a system header that the table does not name borrows its pointer
// arguments: the IPC handle query keeps no reference to the buffer, which still leaks.
#include <cuda_runtime.h>

int export_buffer(cudaIpcMemHandle_t *handle, size_t n) {
  float *d = nullptr;
  if (cudaMalloc(&d, n) != cudaSuccess) // expected-warning {{'d' (device memory from cudaMalloc) is not freed on an error path}}
    return -1;
  if (cudaIpcGetMemHandle(handle, d) != cudaSuccess)
    return -1; // expected-note {{this return after a failed call leaves without freeing 'd'}}
  cudaFree(d);
  return 0;
}
