// The library both programs of this folder link (tool_a.cu and tool_b.cu each define main): its
// setup allocates two tables and its teardown frees one. Each program reaches it, so each finds
// the forgotten table; the finding is said once.
#include <cuda_runtime.h>

float *g_table;
float *g_index;

void setup_tables(size_t n) {
  cudaMalloc(&g_table, n * sizeof(float));
  cudaMalloc(&g_index, n * sizeof(float)); // expected-warning {{'g_index' (device memory from cudaMalloc) is never freed: no function in the program releases it, while 'g_table', allocated with it in 'setup_tables', is freed in 'teardown_tables'; free it there with cudaFree}} expected-note@+4 {{'g_table' is freed here, in 'teardown_tables'}}
}

void teardown_tables() {
  cudaFree(g_table);
}
