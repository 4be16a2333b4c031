// GM021 verdicts: each function copies row by row in a loop; the telemetry beside this file
// says how many copies each made and how large they were (see expected.txt).
#include <cuda.h>
#include <cuda_runtime.h>

void rows_small(float *d, const float *h, int rows) { // confirmed: 4096 copies of 256 B
  for (int r = 0; r < rows; ++r)
    cudaMemcpy(d + r * 64, h + r * 64, 64 * sizeof(float), cudaMemcpyHostToDevice);
}

void rows_large(float *d, const float *h, int rows, size_t row) { // dismissed: 1 MiB each
  for (int r = 0; r < rows; ++r)
    cudaMemcpy(d + r * row, h + r * row, row * sizeof(float), cudaMemcpyHostToDevice);
}

void rows_unused(float *d, const float *h, int rows) { // not-exercised
  for (int r = 0; r < rows; ++r)
    cudaMemcpy(d + r * 64, h + r * 64, 64 * sizeof(float), cudaMemcpyHostToDevice);
}

void rows_driver(CUdeviceptr d, const float *h, int rows) { // unverifiable: cuMemcpyHtoD
  for (int r = 0; r < rows; ++r)
    cuMemcpyHtoD(d + r * 256, h + r * 64, 64 * sizeof(float));
}
