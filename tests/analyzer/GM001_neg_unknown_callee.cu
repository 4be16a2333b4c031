// expected-no-diagnostics
// Passed to functions whose bodies are not in this file: they may keep it.
#include <cuda_runtime.h>
#include <stdlib.h>

void register_device_buffer(const char* name, void* dptr, size_t bytes);
void defer_host_free(void* p);

int setup_tables(int n) {
  void* d_table = nullptr;
  if (cudaMalloc(&d_table, n * sizeof(int)) != cudaSuccess)
    return -1;
  cudaMemset(d_table, 0, n * sizeof(int));
  register_device_buffer("table", d_table, n * sizeof(int));

  char* scratch = (char*)malloc(1024);
  if (!scratch)
    return -1;
  scratch[0] = 0;
  defer_host_free(scratch);
  return 0;
}
