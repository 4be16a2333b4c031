// expected-no-diagnostics
// Host buffers kept pinned or on the heap by a flag member, reallocated under one test of the
// flag and released under the same test again; in between, stores to other members (the buffers
// themselves, a size) cannot change the flag, so both tests agree. Nothing to report.
#include <cuda_runtime.h>
#include <stdlib.h>

struct Layer {
  float *out, *delta;
  int out_pinned, delta_pinned;
  int n;
};

void resize(Layer *l, int n) {
  l->n = n;
  if (!l->out_pinned)
    l->out = (float *)realloc(l->out, n * sizeof(float));
  if (!l->delta_pinned)
    l->delta = (float *)realloc(l->delta, n * sizeof(float));
  if (l->out_pinned) {
    cudaFreeHost(l->out);
    cudaMallocHost(&l->out, n * sizeof(float));
  }
  if (l->delta_pinned) {
    cudaFreeHost(l->delta);
    cudaMallocHost(&l->delta, n * sizeof(float));
  }
}

void release(Layer &l) {
  if (l.out_pinned)
    cudaFreeHost(l.out);
  else
    free(l.out);
  l.out = NULL;
  l.n = 0;
  if (l.out_pinned)
    l.out_pinned = 0;
  if (l.delta_pinned)
    cudaFreeHost(l.delta);
  else
    free(l.delta);
}
