// A network's buffers, filled through allocation helpers that take the member's address
// (alloc_helpers.cu, another file than the init in net_init.cu); net_release.cu frees every
// one of them.
#pragma once
#include <cstddef>

struct Net {
  float *w;
  float *g;
  float *staging;
};

void dev_alloc(void **p, size_t n);
void pinned_alloc(void **p, size_t n);
void net_init(Net *n, size_t k);
void net_release(Net *n);
