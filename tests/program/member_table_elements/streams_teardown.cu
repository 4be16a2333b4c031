// expected-no-diagnostics
#include <cstdlib>
#include <cuda_runtime.h>

#include "streams.h"

void streams_teardown(StreamSet *set) {
  for (int i = 0; i < set->count; ++i)
    cudaFree(set->d_inputs[i]);
  free(set->d_inputs);
  free(set->d_outputs);
}

int main() {
  StreamSet set;
  streams_setup(&set, 4, 1 << 20);
  streams_teardown(&set);
  return 0;
}
