// expected-no-diagnostics
// The other program keeps its buffers for the life of the process: nothing of its own is freed,
// whatever tool_a.cu's globals of the same name (`d_in`) and its function of the same name
// (`setup`) do.
#include <cuda_runtime.h>

float *d_in;
float *d_cache;
float *d_table;

void table_init(size_t n) { cudaMalloc(&d_table, n * sizeof(float)); }

void setup(size_t n) {
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMalloc(&d_cache, n * sizeof(float));
  table_init(n);
}

int main() {
  setup(1 << 20);
  return 0;
}
