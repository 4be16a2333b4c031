// The guarding flag is modified between the conditional allocation and the
// conditional free, so the correlation is broken and the buffer can leak.
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

void upload_maybe_staged(float* d, const float* src, int n, int want_staging) {
  int staged = want_staging;
  float* stage = NULL;
  if (staged)
    stage = (float*)malloc(n * sizeof(float)); // expected-warning {{'stage' (host heap memory from malloc) is not freed on every path through 'upload_maybe_staged'; call free when it is no longer needed [GM004 unpaired-host-allocation]}}
  if (stage) {
    memcpy(stage, src, n * sizeof(float));
    cudaMemcpy(d, stage, n * sizeof(float), cudaMemcpyHostToDevice);
  }
  staged = n > 4096;
  if (staged)
    free(stage);
} // expected-note {{'upload_maybe_staged' ends here without freeing 'stage'}}
