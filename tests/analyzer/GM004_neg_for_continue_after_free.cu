// expected-no-diagnostics
// Per-item buffer in a loop; every `continue` frees it first.
#include <cuda_runtime.h>
#include <stdlib.h>

int upload_items(float** d_items, const int* sizes, int count) {
  int uploaded = 0;
  for (int i = 0; i < count; ++i) {
    if (sizes[i] <= 0)
      continue;
    float* tmp = (float*)calloc(sizes[i], sizeof(float));
    if (!tmp)
      continue;
    tmp[0] = 1.0f;
    if (cudaMemcpy(d_items[i], tmp, sizes[i] * sizeof(float),
                   cudaMemcpyHostToDevice) != cudaSuccess) {
      free(tmp);
      continue;
    }
    free(tmp);
    ++uploaded;
  }
  return uploaded;
}
