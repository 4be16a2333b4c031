// A leak only where a host call failed (fopen returned null) is an error-path leak: a run that
// opened its file and freed everything did not take that path, so the verdict is not-exercised,
// not dismissed.
#include <cuda_runtime.h>
#include <stdio.h>

int load(const char *path, int n) { // not-exercised: the leak needs fopen to fail
  float *d = nullptr;
  cudaMalloc(&d, n);
  FILE *f = fopen(path, "rb");
  if (!f)
    return -1;
  fclose(f);
  cudaFree(d);
  return 0;
}
