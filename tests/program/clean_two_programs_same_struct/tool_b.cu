// expected-no-diagnostics
// The other program's `struct Context` keeps one buffer for the life of the process: nothing of
// it is freed, so it is not a forgotten member, whatever tool_a.cu's Context frees.
#include <cuda_runtime.h>

struct Context {
  float *d_table;
};

static Context g_context;

int main() {
  cudaMalloc(&g_context.d_table, 4096 * sizeof(float));
  return 0;
}
