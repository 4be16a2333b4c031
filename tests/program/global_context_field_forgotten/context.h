// A global solver context: set up in setup.cu, torn down in teardown.cu, which forgets a field.
#pragma once

struct SolverContext {
  double *d_matrix;
  double *d_rhs;
  int *d_pivots;
};

extern SolverContext g_solver;
void solver_setup(int n);
void solver_teardown();
