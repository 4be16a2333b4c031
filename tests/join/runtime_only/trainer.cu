// Runtime-only findings (GM101-GM106): the static pass finds nothing wrong here except the leak
// in load_weights (GM001, whose site therefore gets no GM101); the telemetry shows what the
// program did at run time (see expected.txt).
#include <cuda_runtime.h>

struct Model {
  float *weights;
  float *grads;
};

static Model g_model;

void init_model(size_t n) {
  cudaMalloc(&g_model.weights, n * sizeof(float)); // GM101: never freed before exit
  cudaMalloc(&g_model.grads, n * sizeof(float));
}

float *activations(size_t n) {
  float *a = nullptr;
  cudaMalloc(&a, n * sizeof(float)); // GM102: callers keep one per step
  return a;
}

float *staging(size_t n) {
  float *h = nullptr;
  cudaMallocHost(&h, n * sizeof(float)); // GM105: released elsewhere with cudaFree
  return h;
}

float *scratch(size_t n) {
  float *s = nullptr;
  cudaMalloc(&s, n * sizeof(float)); // GM106: two owners free it
  return s;
}

float *big_batch(size_t n) {
  float *b = nullptr;
  if (cudaMalloc(&b, n * sizeof(float)) != cudaSuccess) // GM103 and GM104 at run time
    return nullptr;
  return b;
}

int load_weights(size_t n, const float *host) {
  float *tmp = nullptr;
  if (cudaMalloc(&tmp, n * sizeof(float)) != cudaSuccess) // GM001 (confirmed), not GM101
    return -1;
  if (cudaMemcpy(tmp, host, n * sizeof(float), cudaMemcpyHostToDevice) != cudaSuccess)
    return -1;
  cudaMemcpy(g_model.weights, tmp, n * sizeof(float), cudaMemcpyDeviceToDevice);
  cudaFree(tmp);
  return 0;
}
