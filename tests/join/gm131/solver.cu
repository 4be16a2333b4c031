// GM131: managed memory a kernel and the host take turns on, where the loop is behind a function
// pointer (the static pass cannot see it), memory that went to the device and back once (below
// the threshold), and a loop GM031 sees (its verdict covers the site).
#include <cuda_runtime.h>

__global__ void relax(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1)
    v[i] = 0.5f * (v[i - 1] + v[i + 1]);
}

typedef float (*phase_fn)(float *v, int n);

static float gpu_phase(float *v, int n) {
  relax<<<(n + 255) / 256, 256>>>(v, n);
  cudaDeviceSynchronize();
  return 0;
}

static float host_phase(float *v, int n) {
  return v[n / 2];
}

int main() {
  const int n = 1 << 20;
  float *field, *once, *seen;
  cudaMallocManaged(&field, n * sizeof(float));
  cudaMallocManaged(&once, n * sizeof(float));
  cudaMallocManaged(&seen, n * sizeof(float));
  phase_fn phases[2] = {gpu_phase, host_phase};
  float sum = 0;
  for (int step = 0; step < 50; ++step)
    for (int p = 0; p < 2; ++p)
      sum += phases[p](field, n);
  sum += phases[0](once, n) + phases[1](once, n);
  for (int step = 0; step < 50; ++step) {
    relax<<<(n + 255) / 256, 256>>>(seen, n);
    cudaDeviceSynchronize();
    sum += seen[n / 2];
  }
  cudaFree(field);
  cudaFree(once);
  cudaFree(seen);
  return sum > 0;
}
