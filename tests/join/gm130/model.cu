// GM130: managed memory migrated to the GPU on demand where the static pass cannot see the
// kernel (launched through a function pointer), next to a launch it does see (GM030 has the
// verdict there), a site that migrated too little to matter, one that was mostly prefetched,
// and one first touched by the kernel (faults, nothing migrated).
#include <cuda_runtime.h>

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}

typedef void (*launch_fn)(float *x, int n);

static void launch_scale(float *x, int n) {
  scale<<<(n + 255) / 256, 256>>>(x, n);
}

static void fill(float *x, int n) {
  for (int i = 0; i < n; ++i)
    x[i] = 1.0f;
}

int main() {
  const int n = 1 << 24;
  launch_fn launchers[1] = {launch_scale};

  float *weights; // GM130: 64 MiB migrated on demand, the launch hidden behind launchers[]
  cudaMallocManaged(&weights, n * sizeof(float));
  fill(weights, n);
  launchers[0](weights, n);

  float *bias; // below the thresholds: 256 KiB on demand, 4 fault groups
  cudaMallocManaged(&bias, (1 << 16) * sizeof(float));
  fill(bias, 1 << 16);
  launchers[0](bias, 1 << 16);

  float *acts; // mostly prefetched: only stragglers came on demand
  cudaMallocManaged(&acts, n * sizeof(float));
  fill(acts, n);
  cudaMemLocation gpu = {cudaMemLocationTypeDevice, 0};
  cudaMemPrefetchAsync(acts, (n - (1 << 19)) * sizeof(float), gpu, 0, 0);
  launchers[0](acts, n);

  float *scratch; // first touched by the kernel: 192 fault groups, nothing to migrate
  cudaMallocManaged(&scratch, (3 << 20) * sizeof(float));
  launchers[0](scratch, 3 << 20);

  float *grads; // a launch the static pass sees: GM030 has the verdict, no GM130
  cudaMallocManaged(&grads, n * sizeof(float));
  fill(grads, n);
  scale<<<(n + 255) / 256, 256>>>(grads, n);

  cudaDeviceSynchronize();
  cudaFree(weights);
  cudaFree(bias);
  cudaFree(acts);
  cudaFree(scratch);
  cudaFree(grads);
  return 0;
}
