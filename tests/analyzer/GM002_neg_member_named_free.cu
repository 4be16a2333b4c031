// Calls through function-pointer members named like the C library's and the toolkit's frees
// (`b->iface.free(b)`, `ops.free(p)`, `ops->cudaFree(p)`) call whatever the member holds, and a
// function of the program's own namespace named free is not libc's: none of them is a free of
// a family, so nothing here is a mismatched free.
// expected-no-diagnostics
#include <cuda_runtime.h>
#include <stdlib.h>

struct buffer;
struct buffer_iface {
  void (*free)(struct buffer* b);
  void (*cudaFree)(void* p);
};
struct buffer {
  struct buffer_iface iface;
  float* data;
};

void buffer_release(struct buffer* b) {
  b->iface.free(b);
}

void release_host(struct buffer_iface ops) {
  float* table = new float[16];
  table[0] = 1.0f;
  ops.free((struct buffer*)table);
  delete[] table;
}

void release_device(struct buffer_iface* ops) {
  float* d = NULL;
  if (cudaMalloc(&d, 64) != cudaSuccess)
    return;
  ops->cudaFree(d);
  cudaFree(d);
}

namespace pool {
void free(void* p) {
  cudaFree(p);
}
} // namespace pool

void release_pooled() {
  float* d = NULL;
  if (cudaMalloc(&d, 64) != cudaSuccess)
    return;
  pool::free(d);
}

template <typename Ops> struct holder {
  Ops ops;
  void drop(float* p) { ops.free(p); }
};

void release_held(holder<struct buffer_iface>* h) {
  float* d = NULL;
  if (cudaMalloc(&d, 64) != cudaSuccess)
    return;
  h->drop(d);
  cudaFree(d);
}
