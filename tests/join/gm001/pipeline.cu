// GM001 verdicts: each function leaks its first buffer on an error path; the telemetry beside
// this file says what happened at run time (see expected.txt).
#include <cuda_runtime.h>
#include <stdlib.h>

int live_at_exit(int n) { // confirmed: 3 allocations still live at exit
  float *a = nullptr, *b = nullptr;
  if (cudaMalloc(&a, n) != cudaSuccess)
    return -1;
  if (cudaMalloc(&b, n) != cudaSuccess)
    return -1;
  cudaFree(a);
  cudaFree(b);
  return 0;
}

int grows_per_step(int n) { // confirmed: live bytes grow from step to step
  float *a = nullptr, *b = nullptr;
  if (cudaMalloc(&a, n) != cudaSuccess)
    return -1;
  if (cudaMalloc(&b, n) != cudaSuccess)
    return -1;
  cudaFree(a);
  cudaFree(b);
  return 0;
}

int always_freed(int n) { // not-exercised: the leak needs a failed cudaMalloc, which never came
  float *a = nullptr, *b = nullptr;
  if (cudaMalloc(&a, n) != cudaSuccess)
    return -1;
  if (cudaMalloc(&b, n) != cudaSuccess)
    return -1;
  cudaFree(a);
  cudaFree(b);
  return 0;
}

int never_called(int n) { // not-exercised: absent from the telemetry
  float *a = nullptr, *b = nullptr;
  if (cudaMalloc(&a, n) != cudaSuccess)
    return -1;
  if (cudaMalloc(&b, n) != cudaSuccess)
    return -1;
  cudaFree(a);
  cudaFree(b);
  return 0;
}

int host_buffer(int n) { // h leaks: GM004's (off by default), no runtime evidence
  float *h = (float *)malloc(n);
  float *d = nullptr;
  if (cudaMalloc(&d, n) != cudaSuccess)
    return -1;
  cudaFree(d);
  free(h);
  return 0;
}

int crashed(int n) { // unverifiable: live only in a run that ended on a signal
  float *a = nullptr, *b = nullptr;
  if (cudaMalloc(&a, n) != cudaSuccess)
    return -1;
  if (cudaMalloc(&b, n) != cudaSuccess)
    return -1;
  cudaFree(a);
  cudaFree(b);
  return 0;
}

int kept_when_asked(int n, int keep) { // dismissed: ran, and the normal path that leaks never did
  float *a = nullptr;
  cudaMalloc(&a, n);
  if (!keep)
    cudaFree(a);
  return 0;
}
