#include <cuda_runtime.h>

#include "context.h"

SolverContext g_solver;

void solver_setup(int n) {
  cudaMalloc(&g_solver.d_matrix, sizeof(double) * n * n);
  cudaMalloc(&g_solver.d_rhs, sizeof(double) * n);
  cudaMalloc(&g_solver.d_pivots, sizeof(int) * n); // expected-warning {{'SolverContext::d_pivots' (device memory from cudaMalloc) is never freed}} expected-note@teardown.cu:7 {{'SolverContext::d_matrix' is freed here, in 'solver_teardown'}}
}
