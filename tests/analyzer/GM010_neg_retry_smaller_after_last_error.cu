// expected-no-diagnostics
// A retry loop that asks again for less memory only after the previous request failed: the
// status its condition reads back (cudaGetLastError) is the allocation's own, so the loop goes
// round again only when nothing was allocated. Each buffer is allocated once; nothing to report.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void scale(float *p, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= 2.0f;
}

int pinned_then_device(size_t elems) {
  float *host = nullptr, *dev = nullptr;
  cudaMallocHost((void **)&host, elems * sizeof(float));
  while (cudaGetLastError() != cudaSuccess) {
    elems /= 2;
    if (elems == 0) {
      fprintf(stderr, "no pinned buffer\n");
      return -1;
    }
    cudaMallocHost((void **)&host, elems * sizeof(float));
  }
  cudaMalloc((void **)&dev, elems * sizeof(float));
  while (!(cudaGetLastError() == cudaSuccess)) {
    elems /= 2;
    if (elems == 0) {
      cudaFreeHost(host);
      return -1;
    }
    cudaMalloc((void **)&dev, elems * sizeof(float));
  }
  cudaMemcpy(dev, host, elems * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<(unsigned)((elems + 255) / 256), 256>>>(dev, elems);
  cudaFree(dev);
  cudaFreeHost(host);
  return 0;
}

int managed_for_form(size_t elems) {
  float *buf = nullptr;
  cudaError_t err;
  cudaMallocManaged((void **)&buf, elems * sizeof(float));
  for (int tries = 0; (err = cudaPeekAtLastError()) != cudaSuccess; ++tries) {
    cudaGetLastError(); // clear the sticky status before asking again
    if (tries > 8)
      return -1;
    elems /= 2;
    cudaMallocManaged((void **)&buf, elems * sizeof(float));
  }
  scale<<<(unsigned)((elems + 255) / 256), 256>>>(buf, elems);
  cudaDeviceSynchronize();
  cudaFree(buf);
  return 0;
}

// Two buffers, each status kept in a variable: the loop goes round while either failed.
int two_statuses(size_t elems) {
  float *a = nullptr, *b = nullptr;
  cudaMallocHost((void **)&a, elems * sizeof(float));
  cudaError_t err_a = cudaGetLastError();
  cudaMallocHost((void **)&b, elems * sizeof(float));
  cudaError_t err_b = cudaGetLastError();
  while (err_a != cudaSuccess || err_b != cudaSuccess) {
    if (err_a == cudaSuccess)
      cudaFreeHost(a);
    if (err_b == cudaSuccess)
      cudaFreeHost(b);
    elems /= 2;
    if (elems == 0)
      return -1;
    cudaMallocHost((void **)&a, elems * sizeof(float));
    err_a = cudaGetLastError();
    cudaMallocHost((void **)&b, elems * sizeof(float));
    err_b = cudaGetLastError();
  }
  cudaFreeHost(b);
  cudaFreeHost(a);
  return 0;
}

// A probe of how much the device grants, bounded by the size: it stops at the first success.
size_t largest_grant(size_t bytes) {
  void *probe = nullptr;
  cudaMalloc(&probe, bytes);
  while (cudaGetLastError() != cudaSuccess && bytes != 0) {
    bytes >>= 1;
    cudaMalloc(&probe, bytes);
  }
  cudaFree(probe);
  return bytes;
}
