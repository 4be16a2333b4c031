// GM140 on a GPU: a run made to be bandwidth-bound. A streaming copy kernel (one
// 16-byte load and store per element, nothing else) over 2 GiB, repeated back to back for about
// 1.5 s: the SMs run a kernel all the time (NVML's SM utilisation near 100%), and device memory
// is busy for most of it. tests/gpu/join_bound.sh expects GM140 bandwidth-bound for the run.
// Usage: bound_bandwidth [seconds (1.5)] [GiB per buffer (2)]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void stream_copy(const float4 *__restrict__ in, float4 *__restrict__ out, size_t n) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = in[i];
}

int main(int argc, char **argv) {
  double secs = argc > 1 ? atof(argv[1]) : 1.5;
  size_t bytes = (size_t)((argc > 2 ? atof(argv[2]) : 2.0) * (1ull << 30));
  size_t n = bytes / sizeof(float4);
  float4 *in = nullptr, *out = nullptr;
  if (cudaMalloc(&in, bytes) != cudaSuccess)
    return 1;
  if (cudaMalloc(&out, bytes) != cudaSuccess) {
    cudaFree(in);
    return 1;
  }
  cudaMemset(in, 1, bytes);
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  unsigned blocks = (unsigned)(sms > 0 ? sms * 8 : 1024);
  cudaDeviceSynchronize();
  auto t0 = std::chrono::steady_clock::now();
  double elapsed = 0;
  long copies = 0;
  while (elapsed < secs) {
    for (int k = 0; k < 10; ++k)
      stream_copy<<<blocks, 512>>>(in, out, n);
    copies += 10;
    cudaDeviceSynchronize();
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  std::printf("bound_bandwidth: %ld copies of %.1f GiB in %.2f s: %.0f GB/s read+write\n", copies,
              (double)bytes / (1ull << 30), elapsed, 2.0 * (double)bytes * copies / elapsed / 1e9);
  cudaFree(out);
  cudaFree(in);
  return 0;
}
