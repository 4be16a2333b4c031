#include <cuda_runtime.h>

#include "solver.h"

static size_t element_size(Precision prec) {
  return prec == PREC_DOUBLE ? 8 : prec == PREC_SINGLE ? 4 : 2;
}

void solver_init(Solver *s, Precision prec, size_t n) {
  s->prec = prec;
  cudaMalloc(&s->d_matrix, n * n * element_size(prec));
  cudaMalloc(&s->d_rhs, n * element_size(prec));
  cudaMalloc(&s->d_residual, n * element_size(prec)); // expected-warning {{'Solver::d_residual' (device memory from cudaMalloc) is not freed on every path: 'solver_release' releases it only in some cases of its switch, while 'Solver::d_matrix' of the same Solver is freed there on every path; free it in every case (or after the switch) with cudaFree [GM001 unpaired-allocation]}} expected-note@solver_release.cu:10 {{'Solver::d_residual' is freed here, in this case of the switch only}} expected-note@solver_release.cu:14 {{'Solver::d_residual' is freed here, in this case of the switch only}}
}
