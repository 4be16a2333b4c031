// Host heap buffers kept per thread in file-scope tables, as GPU ones are: the release function
// frees one and forgets its sibling (GM001's global siblings, for the heap). The clean twin is
// the second pair, all freed.
#include <stdlib.h>

#define MAX_THREADS 8

static float *h_input[MAX_THREADS];
static float *h_output[MAX_THREADS];

void host_init(int thr, size_t n) {
  h_input[thr] = (float *)malloc(n * sizeof(float));
  h_output[thr] = (float *)malloc(n * sizeof(float)); // expected-warning {{'h_output[]' (host heap memory from malloc) is never freed: no function in the program releases it, while 'h_input[]', allocated with it in 'host_init', is freed in 'host_release'; free it there with free [GM004 unpaired-host-allocation]}}
}

void host_release(int thr) {
  free(h_input[thr]); // expected-note {{'h_input[]' is freed here, in 'host_release'}}
}

static int *h_counts[MAX_THREADS];
static int *h_offsets[MAX_THREADS];

void index_init(int thr, size_t n) {
  h_counts[thr] = new int[n];
  h_offsets[thr] = new int[n + 1];
}

void index_release(int thr) {
  delete[] h_counts[thr];
  delete[] h_offsets[thr];
}
