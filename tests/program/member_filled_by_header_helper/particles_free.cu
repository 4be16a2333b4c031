// expected-no-diagnostics
#include "cuda_util.h"
#include "particles.h"

void particles_free(Particles *p) {
  device_release(&p->pos);
}

int main() {
  Particles p;
  particles_init(&p, 1024);
  particles_free(&p);
  return 0;
}
