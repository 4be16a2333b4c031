// expected-no-diagnostics
// This program frees both of its copies' buffers.
#include "common.h"

int main() {
  setup_main(1 << 20);
  cudaFree(workspace);
  cudaFree(d_scale);
  return 0;
}
