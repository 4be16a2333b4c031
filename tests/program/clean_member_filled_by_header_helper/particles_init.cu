// expected-no-diagnostics
#include "cuda_util.h"
#include "particles.h"

void particles_init(Particles *p, size_t n) {
  device_array(&p->pos, 3 * n);
  device_array(&p->vel, 3 * n);
}
