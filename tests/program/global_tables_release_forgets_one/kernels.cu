// expected-no-diagnostics
#include "worker.h"

__global__ void step(uint32_t *state, uint32_t *found) { found[0] = state[threadIdx.x]; }

void launch_step(uint32_t *state, uint32_t *found) { step<<<1, 32>>>(state, found); }
