// expected-no-diagnostics
#include "stage.cuh"

void run(const char *data, size_t chunk, int nchunks) {
  int n = static_cast<int>(chunk / sizeof(float));
  for (int c = 0; c < nchunks; ++c) {
    stage_chunk(data + static_cast<size_t>(c) * chunk, chunk);
    score_chunk(n);
  }
}
