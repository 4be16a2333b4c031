// Runtime twins: the step functions of tests/gpu/twins_main.cu, in their own file.
// The loops that call them are in the other file, so the static pass given this file sees no
// regrown buffer (GM020) and no host/kernel ping-pong (GM031); the run shows both, and GM120 and
// GM131 report them here (tests/gpu/join_twins.sh checks it).
#include <cuda_runtime.h>

__global__ void relax(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1)
    v[i] = 0.5f * (v[i - 1] + v[i + 1]);
}

// Appends len floats to a device buffer by regrowing it: allocate larger, copy, free the old.
void append_chunk(float **data, size_t *n, const float *chunk, size_t len) {
  float *grown;
  cudaMalloc(&grown, (*n + len) * sizeof(float)); // @regrow_site
  if (*data)
    cudaMemcpy(grown, *data, *n * sizeof(float), cudaMemcpyDeviceToDevice);
  cudaMemcpy(grown + *n, chunk, len * sizeof(float), cudaMemcpyDeviceToDevice);
  cudaFree(*data);
  *data = grown;
  *n += len;
}

float *make_field(int n) {
  float *field;
  cudaMallocManaged(&field, n * sizeof(float)); // @ping_pong_site
  for (int i = 0; i < n; ++i)
    field[i] = (float)(i % 7);
  return field;
}

// One solver step: the GPU relaxes the field, then the host reads a probe value from it.
float relax_and_probe(float *field, int n) {
  relax<<<(n + 255) / 256, 256>>>(field, n);
  cudaDeviceSynchronize();
  return field[n / 2] + field[n / 3];
}
