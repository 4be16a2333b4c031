// expected-no-diagnostics
// Lazy initialisation whose pointer lives across iterations: freed and reset only after the
// loop, or reset in the loop only when the shape changes (not on every path), or held in an
// element of a table that each iteration copies out and back.
#include <cuda_runtime.h>
#include <stddef.h>

__global__ void fill(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 1.0f;
}

void reset_after_loop(int n, int steps) {
  float *p = NULL;
  for (int s = 0; s < steps; ++s) {
    if (p == NULL)
      cudaMalloc(&p, n * sizeof(float));
    fill<<<(n + 255) / 256, 256>>>(p, n);
  }
  cudaFree(p);
  p = NULL;
}

void reset_on_resize(const int *shapes, int steps) {
  float *p = nullptr;
  int shape = 0;
  for (int s = 0; s < steps; ++s) {
    if (shapes[s] != shape) {
      cudaFree(p);
      p = nullptr;
      shape = shapes[s];
    }
    if (!p)
      cudaMalloc(&p, shape * sizeof(float));
    fill<<<(shape + 255) / 256, 256>>>(p, shape);
  }
  cudaFree(p);
}

struct Layer {
  float *delta;
  int outputs;
};

void deltas(Layer *layers, int nlayers) {
  for (int k = 0; k < nlayers; ++k) {
    Layer l = layers[k];
    if (!l.delta)
      cudaMalloc(&l.delta, l.outputs * sizeof(float));
    fill<<<(l.outputs + 255) / 256, 256>>>(l.delta, l.outputs);
    layers[k] = l;
  }
}
