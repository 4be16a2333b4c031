// expected-no-diagnostics
#include "pool.cuh"

int backward(int n) { return stage_scratch(2 * n); }
