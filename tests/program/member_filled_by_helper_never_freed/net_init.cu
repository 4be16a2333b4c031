#include "net.h"

void net_init(Net *n, size_t k) {
  dev_alloc((void **)&n->w, k * sizeof(float));
  dev_alloc((void **)&n->g, k * sizeof(float)); // expected-warning {{'Net::g' (device memory from dev_alloc) is never freed: no function in the program releases it, while 'Net::staging' of the same Net is freed in 'net_release'; free it there with cudaFree [GM001 unpaired-allocation]}} expected-note@net_release.cu:7 {{'Net::staging' is freed here, in 'net_release'}}
  pinned_alloc((void **)&n->staging, k * sizeof(float));
}
