// Runtime twins: managed memory faulted over by a kernel the static pass cannot see.
// The kernel is launched through a table of function pointers, so GM030 stays silent on this
// file; CUPTI's counters in the run show the on-demand migration and GM130 reports it at the
// allocation (tests/gpu/join_twins.sh checks it). The second buffer is prefetched before the
// same launch: no GM130 there.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale(float *x, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}

typedef void (*launch_fn)(float *x, size_t n);

static void launch_scale(float *x, size_t n) {
  scale<<<(unsigned)((n + 255) / 256), 256>>>(x, n);
}

int main() {
  const size_t n = 64u << 20; // 256 MiB of floats (keep managed buffers at 1 GiB or less)
  launch_fn launchers[] = {launch_scale};
  float *hidden, *prefetched;
  cudaMallocManaged(&hidden, n * sizeof(float));     // @hidden_managed
  cudaMallocManaged(&prefetched, n * sizeof(float)); // @prefetched_managed
  for (size_t i = 0; i < n; ++i)
    hidden[i] = prefetched[i] = 1.0f;
  int device = 0;
  cudaGetDevice(&device);
  cudaMemLocation loc = {cudaMemLocationTypeDevice, device};
  cudaMemPrefetchAsync(prefetched, n * sizeof(float), loc, 0, 0);
  launchers[0](hidden, n);
  launchers[0](prefetched, n);
  cudaDeviceSynchronize();
  std::printf("managed_hidden: %.1f %.1f\n", hidden[n - 1], prefetched[n - 1]);
  cudaFree(hidden);
  cudaFree(prefetched);
  return 0;
}
