// A solver whose workspace (solver_init.cu) holds three device buffers on every run, whatever
// the precision; its release (solver_release.cu) switches on the precision and forgets the
// residual buffer in the half-precision case.
#pragma once
#include <cstddef>

enum Precision { PREC_SINGLE, PREC_DOUBLE, PREC_HALF };

struct Solver {
  Precision prec;
  void *d_matrix;
  void *d_rhs;
  void *d_residual;
};

void solver_init(Solver *s, Precision prec, size_t n);
void solver_release(Solver *s);
