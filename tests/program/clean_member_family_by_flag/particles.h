// Positions live in pinned memory or on the plain heap, as a flag decides (particles_init.cu);
// the destructor (particles_release.cu) frees each with its own call under the same flag.
#pragma once
#include <cstddef>

float *make_host_array(size_t count); // defined in a file this program does not show

class Particles {
public:
  Particles(size_t count, bool pinned);
  ~Particles();

private:
  bool pinned_;
  float *h_positions_;
  float *d_positions_;
};
