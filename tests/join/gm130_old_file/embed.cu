// GM130 across telemetry format versions: version 1 files written before CUPTI's causes were
// split counted the driver's speculative prefetch in htod_prefetch_bytes, so that figure is no
// evidence that the program prefetched; version 1 files written after the split, and version 2
// files (htod_user_prefetch_bytes), count only the program's own cudaMemPrefetchAsync.
#include <cuda_runtime.h>

__global__ void relu(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && v[i] < 0.0f)
    v[i] = 0.0f;
}

typedef void (*stage_fn)(float *v, int n);

static void run_relu(float *v, int n) {
  relu<<<(n + 255) / 256, 256>>>(v, n);
}

static void load(float *v, int n) {
  for (int i = 0; i < n; ++i)
    v[i] = (float)(i % 7) - 3.0f;
}

int main() {
  const int n = 1 << 24;
  stage_fn stages[1] = {run_relu};
  cudaMemLocation gpu = {cudaMemLocationTypeDevice, 0};

  float *tokens; // old file: faulted over, the driver's speculation counted as prefetch: GM130
  cudaMallocManaged(&tokens, n * sizeof(float));
  load(tokens, n);
  stages[0](tokens, n);

  float *cache; // written after the split, before the rename: the program prefetched
  cudaMallocManaged(&cache, n * sizeof(float));
  load(cache, n);
  cudaMemPrefetchAsync(cache, n * sizeof(float), gpu, 0, 0);
  stages[0](cache, n);

  float *logits; // a version 2 file: the program prefetched
  cudaMallocManaged(&logits, n * sizeof(float));
  load(logits, n);
  cudaMemPrefetchAsync(logits, n * sizeof(float), gpu, 0, 0);
  stages[0](logits, n);

  cudaDeviceSynchronize();
  cudaFree(tokens);
  cudaFree(cache);
  cudaFree(logits);
  return 0;
}
