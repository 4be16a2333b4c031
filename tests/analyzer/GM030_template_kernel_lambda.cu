// A template kernel launched from inside a lambda; the managed buffer is
// captured by reference, filled by the host and never prefetched.
#include <cuda_runtime.h>
#include <stdio.h>

template <typename T, int BLOCK>
__global__ void fill_value(T* v, T value, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) v[i] = value; // expected-note {{'fill_value' indexes it by thread here}}
}

int main() {
  const int n = 1 << 18;
  float* buf = nullptr;
  cudaMallocManaged(&buf, n * sizeof(float)); // expected-warning {{'buf' (managed memory from cudaMallocManaged) reaches kernel 'fill_value', which reads it densely, with no cudaMemPrefetchAsync or cudaMemAdvise before the launch: the GPU faults its pages over on demand (on an H200 a dense kernel over 1 GiB ran in 271 ms this way and in 0.75 ms after a prefetch). Prefetch it to the device before the launch, or use cudaMalloc and explicit copies [GM030 managed-dense-access]}}
  for (int i = 0; i < n; ++i) buf[i] = 0.f;
  auto launch = [&](float value) { // expected-note {{captured by a lambda that launches the kernel}}
    fill_value<float, 128><<<(n + 127) / 128, 128>>>(buf, value, n); // expected-note {{launched here without a prefetch}}
  };
  launch(3.f);
  cudaDeviceSynchronize();
  printf("%f\n", buf[n - 1]);
  cudaFree(buf);
  return 0;
}
