// expected-no-diagnostics
#include <cuda_runtime.h>

#include "solver.h"

void solver_release(Solver *s) {
  switch (s->prec) {
  case PREC_SINGLE:
    cudaFree(s->d_matrix);
    cudaFree(s->d_residual);
    break;
  case PREC_DOUBLE:
    cudaFree(s->d_matrix);
    cudaFree(s->d_residual);
    break;
  case PREC_HALF:
    cudaFree(s->d_matrix);
    cudaFree(s->d_residual);
    break;
  }
  cudaFree(s->d_rhs);
}

int main() {
  Solver s;
  solver_init(&s, PREC_HALF, 1024);
  solver_release(&s);
  return 0;
}
