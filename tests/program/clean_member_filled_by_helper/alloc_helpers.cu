// expected-no-diagnostics
#include <cuda_runtime.h>

#include "net.h"

void dev_alloc(void **p, size_t n) { cudaMalloc(p, n); }

void pinned_alloc(void **p, size_t n) { cudaMallocHost(p, n); }
