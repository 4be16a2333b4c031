// expected-no-diagnostics
#include <cuda_runtime.h>

#include "particles.h"

Particles::~Particles() {
  if (pinned_)
    cudaFreeHost(h_positions_);
  else
    delete[] h_positions_;
  cudaFree(d_positions_);
}

int main() {
  Particles p(1024, true);
  return 0;
}
