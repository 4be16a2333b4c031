// expected-no-diagnostics
// Ownership moved to the caller, local pointer nulled; later cleanup of the
// (now null) local is a no-op.
#include <cuda_runtime.h>

int make_table(int** out, int n) {
  int* d = nullptr;
  int rc = -1;
  if (cudaMalloc(&d, n * sizeof(int)) != cudaSuccess)
    goto done;
  if (cudaMemset(d, 0, n * sizeof(int)) != cudaSuccess)
    goto done;
  *out = d;
  d = nullptr;
  rc = 0;
done:
  cudaFree(d);
  return rc;
}
