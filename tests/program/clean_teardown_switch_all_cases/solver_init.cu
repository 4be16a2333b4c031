// expected-no-diagnostics
#include <cuda_runtime.h>

#include "solver.h"

static size_t element_size(Precision prec) {
  return prec == PREC_DOUBLE ? 8 : prec == PREC_SINGLE ? 4 : 2;
}

void solver_init(Solver *s, Precision prec, size_t n) {
  s->prec = prec;
  cudaMalloc(&s->d_matrix, n * n * element_size(prec));
  cudaMalloc(&s->d_rhs, n * element_size(prec));
  cudaMalloc(&s->d_residual, n * element_size(prec));
}
