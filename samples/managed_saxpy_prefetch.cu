// managed_saxpy_prefetch.cu — the fixed form of managed_saxpy.cu: the same saxpy on managed
// memory initialised on the host, with cudaMemPrefetchAsync moving both arrays to the GPU before
// the launch and y back to the host before the host reads it.
//
// The prefetch migrates the pages in bulk at copy-engine bandwidth instead of fault by fault, so
// the kernel runs at device-memory speed. gmemlint reports nothing here: the memory is freed with
// cudaFree (right for managed memory), and GM030 (managed-dense-access) sees the prefetch before
// the launch. At run time CUPTI shows no GPU page faults on the arrays' ranges during the kernel.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                   \
  do {                                                                                     \
    cudaError_t err_ = (call);                                                             \
    if (err_ != cudaSuccess) {                                                             \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,            \
                   cudaGetErrorString(err_));                                              \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

constexpr size_t kN = 64u << 20;  // 64M floats: 256 MiB per array, 512 MiB managed in all

__global__ void saxpy(size_t n, float a, const float *x, float *y) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    y[i] = a * x[i] + y[i];
}

int main() {
  const size_t bytes = kN * sizeof(float);
  float *x, *y;
  CUDA_CHECK(cudaMallocManaged(&x, bytes));
  CUDA_CHECK(cudaMallocManaged(&y, bytes));

  // Host first touch: every page starts out resident in host memory.
  for (size_t i = 0; i < kN; ++i) {
    x[i] = 1.0f;
    y[i] = 2.0f;
  }

  int sms = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));

  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
#if CUDART_VERSION >= 13000
  cudaMemLocation on_gpu{}, on_host{};
  on_gpu.type = cudaMemLocationTypeDevice;
  on_gpu.id = dev;
  on_host.type = cudaMemLocationTypeHost;
  CUDA_CHECK(cudaMemPrefetchAsync(x, bytes, on_gpu, 0, stream));
  CUDA_CHECK(cudaMemPrefetchAsync(y, bytes, on_gpu, 0, stream));
#else
  CUDA_CHECK(cudaMemPrefetchAsync(x, bytes, dev, stream));
  CUDA_CHECK(cudaMemPrefetchAsync(y, bytes, dev, stream));
#endif
  CUDA_CHECK(cudaStreamSynchronize(stream));  // time the kernel alone, as in managed_saxpy.cu

  CUDA_CHECK(cudaEventRecord(start, stream));
  saxpy<<<sms * 8, 256, 0, stream>>>(kN, 3.0f, x, y);  // pages are already resident
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaEventRecord(stop, stream));
#if CUDART_VERSION >= 13000
  CUDA_CHECK(cudaMemPrefetchAsync(y, bytes, on_host, 0, stream));
#else
  CUDA_CHECK(cudaMemPrefetchAsync(y, bytes, cudaCpuDeviceId, stream));
#endif
  CUDA_CHECK(cudaStreamSynchronize(stream));
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));

  float max_err = 0.0f;
  for (size_t i = 0; i < kN; i += 4096) max_err = std::fmax(max_err, std::fabs(y[i] - 5.0f));

  std::printf("managed_saxpy_prefetch: %zu MiB managed, prefetched, kernel %.2f ms, max error %.1f\n",
              2 * bytes >> 20, ms, max_err);

  CUDA_CHECK(cudaStreamDestroy(stream));
  CUDA_CHECK(cudaEventDestroy(stop));
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaFree(y));
  CUDA_CHECK(cudaFree(x));
  return 0;
}
