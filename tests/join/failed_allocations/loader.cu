// GM001 verdicts when allocations failed at run time: a failed cudaMalloc allocated nothing,
// so the telemetry beside this file (run.json) must not be read as "everything was freed".
#include <cuda_runtime.h>

int load_all_failed(int n) { // every allocation failed for lack of memory
  float *a = nullptr, *b = nullptr;
  if (cudaMalloc(&a, n) != cudaSuccess)
    return -1;
  if (cudaMalloc(&b, n) != cudaSuccess)
    return -1;
  cudaFree(a);
  cudaFree(b);
  return 0;
}

int load_some_failed(int n) { // 2 of 7 failed; the 5 that succeeded were freed
  float *a = nullptr, *b = nullptr;
  if (cudaMalloc(&a, n) != cudaSuccess)
    return -1;
  if (cudaMalloc(&b, n) != cudaSuccess)
    return -1;
  cudaFree(a);
  cudaFree(b);
  return 0;
}

int kept_when_asked(int n, int keep) { // 3 of 4 failed, with two errors; the one made was freed
  float *a = nullptr;
  cudaMalloc(&a, n);
  if (!keep)
    cudaFree(a);
  return 0;
}

int no_device(int n, int keep) { // a machine without a GPU: every call failed
  float *a = nullptr;
  cudaMalloc(&a, n);
  if (!keep)
    cudaFree(a);
  return 0;
}
