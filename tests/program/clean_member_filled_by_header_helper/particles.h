// Particle buffers: particles_init.cu fills them through cuda_util.h's helper, particles_free.cu
// releases both.
#pragma once
#include <cstddef>

struct Particles {
  float *pos;
  float *vel;
};

void particles_init(Particles *p, size_t n);
void particles_free(Particles *p);
