// expected-no-diagnostics
#include "cuda_util.h"
#include "particles.h"

void particles_free(Particles *p) {
  device_release(&p->pos);
  device_release(&p->vel);
}

int main() {
  Particles p;
  particles_init(&p, 1024);
  particles_free(&p);
  return 0;
}
