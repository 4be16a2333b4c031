// GM020 verdicts: each function regrows a buffer on every iteration (the torch.cat pattern);
// the telemetry beside this file says how the sizes grew (see expected.txt).
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

float *gather(int chunks, size_t chunk) { // confirmed: sizes grew 63 times
  float *all = nullptr;
  size_t have = 0;
  for (int c = 0; c < chunks; ++c) {
    float *bigger = nullptr;
    cudaMalloc(&bigger, (have + chunk) * sizeof(float));
    if (all)
      cudaMemcpy(bigger, all, have * sizeof(float), cudaMemcpyDeviceToDevice);
    cudaFree(all);
    all = bigger;
    have += chunk;
  }
  return all;
}

float *short_run(int chunks, size_t chunk) { // dismissed: grew only twice
  float *all = nullptr;
  size_t have = 0;
  for (int c = 0; c < chunks; ++c) {
    float *bigger = nullptr;
    cudaMalloc(&bigger, (have + chunk) * sizeof(float));
    if (all)
      cudaMemcpy(bigger, all, have * sizeof(float), cudaMemcpyDeviceToDevice);
    cudaFree(all);
    all = bigger;
    have += chunk;
  }
  return all;
}

float *never_called(int chunks, size_t chunk) { // not-exercised
  float *all = nullptr;
  size_t have = 0;
  for (int c = 0; c < chunks; ++c) {
    float *bigger = nullptr;
    cudaMalloc(&bigger, (have + chunk) * sizeof(float));
    if (all)
      cudaMemcpy(bigger, all, have * sizeof(float), cudaMemcpyDeviceToDevice);
    cudaFree(all);
    all = bigger;
    have += chunk;
  }
  return all;
}

char *host_log(int lines) { // unverifiable: malloc is a host call
  char *log = nullptr;
  size_t len = 0;
  for (int i = 0; i < lines; ++i) {
    char *bigger = (char *)malloc(len + 64);
    if (log)
      memcpy(bigger, log, len);
    free(log);
    log = bigger;
    len += 64;
  }
  return log;
}
