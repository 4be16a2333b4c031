#include "cuda_util.h"
#include "particles.h"

void particles_init(Particles *p, size_t n) {
  device_array(&p->pos, 3 * n);
  device_array(&p->vel, 3 * n); // expected-warning {{'Particles::vel' (device memory from device_array) is never freed: no function in the program releases it, while 'Particles::pos' of the same Particles is freed in 'particles_free'; free it there with cudaFree [GM001 unpaired-allocation]}} expected-note@particles_free.cu:6 {{'Particles::pos' is freed here, in 'particles_free'}}
}
