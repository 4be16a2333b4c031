// Inside the loop a `continue` skips the free of the per-item host buffer.
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

int upload_items(float** d_items, const int* sizes, int count) {
  int uploaded = 0;
  for (int i = 0; i < count; ++i) {
    size_t bytes = (size_t)sizes[i] * sizeof(float);
    float* tmp = (float*)calloc(sizes[i], sizeof(float)); // expected-warning {{'tmp' (host heap memory from calloc) leaks when an iteration ends early: the loop goes round again without freeing it; call free before continuing [GM004 unpaired-host-allocation]}} expected-note {{declared again here on the next iteration}}
    if (!tmp)
      continue;
    if (sizes[i] == 0)
      continue; // expected-note {{this continue skips the free}}
    tmp[0] = 1.0f;
    cudaMemcpy(d_items[i], tmp, bytes, cudaMemcpyHostToDevice);
    free(tmp);
    ++uploaded;
  }
  return uploaded;
}
