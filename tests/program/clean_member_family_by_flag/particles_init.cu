// expected-no-diagnostics
#include <cuda_runtime.h>

#include "particles.h"

Particles::Particles(size_t count, bool pinned) : pinned_(pinned) {
  if (pinned_)
    cudaMallocHost(&h_positions_, count * 4 * sizeof(float));
  else
    h_positions_ = make_host_array(count * 4);
  cudaMalloc(&d_positions_, count * 4 * sizeof(float));
}
