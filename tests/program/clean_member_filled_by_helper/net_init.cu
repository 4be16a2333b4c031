// expected-no-diagnostics
#include "net.h"

void net_init(Net *n, size_t k) {
  dev_alloc((void **)&n->w, k * sizeof(float));
  dev_alloc((void **)&n->g, k * sizeof(float));
  pinned_alloc((void **)&n->staging, k * sizeof(float));
}
