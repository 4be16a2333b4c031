// expected-no-diagnostics
#include "pool.cuh"
#include "kernels/fill.cu"

int forward(int n) {
  fill_once(n);
  return stage_scratch(n);
}
