// GM110: allocation churn the static pass cannot see (a stage called through a function
// pointer), next to churn it does see (GM010 has the verdict there), a stage that ran too few
// times, and a setup loop that keeps its buffers (many calls, never churn).
#include <cuda_runtime.h>

typedef void (*stage_fn)(const float *in, int n);

static void scratch_stage(const float *in, int n) {
  float *tmp;
  cudaMalloc(&tmp, n * sizeof(float));
  cudaMemcpy(tmp, in, n * sizeof(float), cudaMemcpyDeviceToDevice);
  cudaFree(tmp);
}

static void warmup_stage(const float *in, int n) {
  float *probe;
  cudaMalloc(&probe, n * sizeof(float));
  cudaMemcpy(probe, in, n * sizeof(float), cudaMemcpyDeviceToDevice);
  cudaFree(probe);
}

int main() {
  const int n = 1 << 18;
  float *d_in;
  cudaMalloc(&d_in, n * sizeof(float));
  stage_fn stages[2] = {warmup_stage, scratch_stage};
  for (int step = 0; step < 10; ++step)
    stages[0](d_in, n);
  for (int step = 0; step < 4096; ++step)
    stages[1](d_in, n);
  for (int step = 0; step < 400; ++step) {
    float *x;
    cudaMalloc(&x, n * sizeof(float));
    cudaMemcpy(x, d_in, n * sizeof(float), cudaMemcpyDeviceToDevice);
    cudaFree(x);
  }
  float *kept[64];
  for (int i = 0; i < 64; ++i)
    cudaMalloc(&kept[i], n * sizeof(float));
  for (int i = 0; i < 64; ++i)
    cudaFree(kept[i]);
  cudaFree(d_in);
  return 0;
}
