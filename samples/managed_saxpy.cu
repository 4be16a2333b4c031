// managed_saxpy.cu — saxpy on managed memory first touched by the host, with no prefetch.
//
// x and y come from cudaMallocManaged and are initialised on the host, so their pages live in
// host memory when the kernel starts. The kernel's dense, grid-stride access then faults the
// pages over to the GPU one group at a time, and the launch runs orders of magnitude slower than
// the same kernel on resident memory. Memory is freed correctly (cudaFree is the right call for
// managed memory): gmemlint reports no GM001-GM003 finding. GM030 (managed-dense-access) is the
// rule for the missing prefetch; at run time CUPTI shows GPU page faults and host-to-device
// migration on the allocation's range. Compare managed_saxpy_prefetch.cu.
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

  CUDA_CHECK(cudaEventRecord(start));
  saxpy<<<sms * 8, 256>>>(kN, 3.0f, x, y);  // pages migrate on demand, fault by fault
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaEventRecord(stop));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));

  float max_err = 0.0f;
  for (size_t i = 0; i < kN; i += 4096) max_err = std::fmax(max_err, std::fabs(y[i] - 5.0f));

  std::printf("managed_saxpy: %zu MiB managed, no prefetch, kernel %.2f ms, max error %.1f\n",
              2 * bytes >> 20, ms, max_err);

  CUDA_CHECK(cudaEventDestroy(stop));
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaFree(y));
  CUDA_CHECK(cudaFree(x));
  return 0;
}
