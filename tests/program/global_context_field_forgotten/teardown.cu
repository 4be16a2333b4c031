// expected-no-diagnostics
#include <cuda_runtime.h>

#include "context.h"

void solver_teardown() {
  cudaFree(g_solver.d_matrix);
  cudaFree(g_solver.d_rhs);
}

int main() {
  solver_setup(512);
  solver_teardown();
  return 0;
}
