// Two host tables; the second failing leaks the first.  The expectation
// uses the @+N form.
#include <cuda_runtime.h>
#include <stdlib.h>

struct Tables { int* keys; float* vals; };

int build_tables(Tables* t, int n) {
  // expected-warning@+1 {{'keys' (host heap memory from calloc) is not freed on an error path: a return after a failed call leaves 'build_tables' without releasing it; call free before returning [GM004 unpaired-host-allocation]}}
  int* keys = (int*)calloc(n, sizeof(int));
  if (!keys)
    return -1;
  float* vals = (float*)calloc(n, sizeof(float));
  if (!vals)
    return -1; // expected-note {{this return after a failed call leaves without freeing 'keys'}}
  for (int i = 0; i < n; ++i) { keys[i] = i; vals[i] = 0.5f * i; }
  t->keys = keys;
  t->vals = vals;
  return 0;
}
