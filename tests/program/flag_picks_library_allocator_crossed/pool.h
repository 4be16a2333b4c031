// A registered-memory library (pool.cu) and a solver that uses it or plain device memory, as a
// flag says (solver.cu).
#pragma once
#include <cstddef>

int pool_alloc(float **out, size_t count);
void pool_free(float *p);
void fill(float *p, size_t count);

struct SolverOptions {
  bool registered;
  size_t count;
};
