// A flag member tested twice with a store that may change it in between: to the flag itself,
// through a pointer to it, or through a reference to it. The second test may then disagree with
// the first, so heap memory can reach cudaFreeHost.
#include <cuda_runtime.h>
#include <stdlib.h>

struct Layer {
  float *out;
  int out_pinned;
};

int pinned_wanted(void);

void flag_rewritten(Layer *l, int n) {
  if (!l->out_pinned)
    l->out = (float *)realloc(l->out, n * sizeof(float)); // expected-note {{allocated here with realloc}}
  l->out_pinned = pinned_wanted();
  if (l->out_pinned)
    cudaFreeHost(l->out); // expected-warning {{'l->out' (host heap memory from realloc) is released with cudaFreeHost, which frees pinned host memory; use free}}
}

void flag_written_through_pointer(Layer *l, int n) {
  int *flag = &l->out_pinned;
  if (!l->out_pinned)
    l->out = (float *)realloc(l->out, n * sizeof(float)); // expected-note {{allocated here with realloc}}
  *flag = pinned_wanted();
  if (l->out_pinned)
    cudaFreeHost(l->out); // expected-warning {{'l->out' (host heap memory from realloc) is released with cudaFreeHost, which frees pinned host memory; use free}}
}

void flag_read_through_reference(Layer *l, int n) {
  int &pinned = l->out_pinned;
  if (!pinned)
    l->out = (float *)realloc(l->out, n * sizeof(float)); // expected-note {{allocated here with realloc}}
  l->out_pinned = pinned_wanted();
  if (pinned)
    cudaFreeHost(l->out); // expected-warning {{'l->out' (host heap memory from realloc) is released with cudaFreeHost, which frees pinned host memory; use free}}
}
