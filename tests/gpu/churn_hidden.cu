// Runtime twins: allocation churn the static pass cannot see. The per-batch stage is
// called through a table of function pointers, so GM010 stays silent on this file; the run's
// telemetry shows the churn and GM110 reports it (tests/gpu/join_twins.sh checks it).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 0.5f;
}

typedef void (*stage_fn)(const float *in, float *out, int n);

static void normalise_stage(const float *in, float *out, int n) {
  float *scratch;
  cudaMalloc(&scratch, n * sizeof(float)); // @hidden_churn
  cudaMemcpy(scratch, in, n * sizeof(float), cudaMemcpyDeviceToDevice);
  scale<<<(n + 255) / 256, 256>>>(scratch, n);
  cudaMemcpy(out, scratch, n * sizeof(float), cudaMemcpyDeviceToDevice);
  cudaFree(scratch);
}

int main() {
  const int n = 1 << 20, batches = 256;
  float *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMalloc(&d_out, n * sizeof(float));
  cudaMemset(d_in, 0, n * sizeof(float));
  stage_fn stages[] = {normalise_stage};
  for (int b = 0; b < batches; ++b)
    stages[b % 1](d_in, d_out, n);
  cudaDeviceSynchronize();
  cudaFree(d_in);
  cudaFree(d_out);
  printf("churn_hidden: %d batches\n", batches);
  return 0;
}
