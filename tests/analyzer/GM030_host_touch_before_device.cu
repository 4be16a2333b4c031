// Managed buffers the host touches before a dense kernel on some path, although the device
// touches them too: edited on the host after a cudaMemset, filled on the host on one branch
// and by cudaMemset on the other, read and written by the host between the launches of a loop,
// copied into from host memory, or handed to a function of another file (which may fill it on
// the host). Those pages sit on the host when the kernel runs.
#include <cuda_runtime.h>

void load_samples(float* v, int n);

__global__ void scale(float* v, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= a; // expected-note 5 {{'scale' indexes it by thread here}}
}

void edited_after_memset(int n) {
  float* v = nullptr;
  cudaMallocManaged(&v, n * sizeof(float)); // expected-warning {{'v' (managed memory from cudaMallocManaged) reaches kernel 'scale', which reads it densely, with no cudaMemPrefetchAsync or cudaMemAdvise before the launch: the GPU faults its pages over on demand (on an H200 a dense kernel over 1 GiB ran in 271 ms this way and in 0.75 ms after a prefetch). Prefetch it to the device before the launch, or use cudaMalloc and explicit copies [GM030 managed-dense-access]}}
  cudaMemset(v, 0, n * sizeof(float));
  for (int i = 0; i < n; ++i) v[i] = 1.f;
  scale<<<(n + 255) / 256, 256>>>(v, 2.f, n); // expected-note {{launched here without a prefetch}}
  cudaDeviceSynchronize();
  cudaFree(v);
}

void filled_on_one_branch(int n, int on_host) {
  float* v = nullptr;
  cudaMallocManaged(&v, n * sizeof(float)); // expected-warning {{'v' (managed memory from cudaMallocManaged) reaches kernel 'scale', which reads it densely, with no cudaMemPrefetchAsync or cudaMemAdvise before the launch: the GPU faults its pages over on demand (on an H200 a dense kernel over 1 GiB ran in 271 ms this way and in 0.75 ms after a prefetch). Prefetch it to the device before the launch, or use cudaMalloc and explicit copies [GM030 managed-dense-access]}}
  if (on_host) {
    for (int i = 0; i < n; ++i) v[i] = 1.f;
  } else {
    cudaMemset(v, 0, n * sizeof(float));
  }
  scale<<<(n + 255) / 256, 256>>>(v, 2.f, n); // expected-note {{launched here without a prefetch}}
  cudaDeviceSynchronize();
  cudaFree(v);
}

float host_between_launches(int n, int steps) {
  float* v = nullptr;
  cudaMallocManaged(&v, n * sizeof(float)); // expected-warning {{'v' (managed memory from cudaMallocManaged) reaches kernel 'scale', which reads it densely, with no cudaMemPrefetchAsync or cudaMemAdvise before the launch: the GPU faults its pages over on demand (on an H200 a dense kernel over 1 GiB ran in 271 ms this way and in 0.75 ms after a prefetch). Prefetch it to the device before the launch, or use cudaMalloc and explicit copies [GM030 managed-dense-access]}}
  cudaMemset(v, 0, n * sizeof(float));
  for (int s = 0; s < steps; ++s) {
    scale<<<(n + 255) / 256, 256>>>(v, 2.f, n); // expected-note {{launched here without a prefetch}}
    cudaDeviceSynchronize();
    v[s] += 1.f;
  }
  float r = v[0];
  cudaFree(v);
  return r;
}

void copied_from_host(const float* h, int n) {
  float* v = nullptr;
  cudaMallocManaged(&v, n * sizeof(float)); // expected-warning {{'v' (managed memory from cudaMallocManaged) reaches kernel 'scale', which reads it densely, with no cudaMemPrefetchAsync or cudaMemAdvise before the launch: the GPU faults its pages over on demand (on an H200 a dense kernel over 1 GiB ran in 271 ms this way and in 0.75 ms after a prefetch). Prefetch it to the device before the launch, or use cudaMalloc and explicit copies [GM030 managed-dense-access]}}
  cudaMemcpy(v, h, n * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<(n + 255) / 256, 256>>>(v, 2.f, n); // expected-note {{launched here without a prefetch}}
  cudaDeviceSynchronize();
  cudaFree(v);
}

void loaded_elsewhere(int n) {
  float* v = nullptr;
  cudaMallocManaged(&v, n * sizeof(float)); // expected-warning {{'v' (managed memory from cudaMallocManaged) reaches kernel 'scale', which reads it densely, with no cudaMemPrefetchAsync or cudaMemAdvise before the launch: the GPU faults its pages over on demand (on an H200 a dense kernel over 1 GiB ran in 271 ms this way and in 0.75 ms after a prefetch). Prefetch it to the device before the launch, or use cudaMalloc and explicit copies [GM030 managed-dense-access]}}
  load_samples(v, n);
  scale<<<(n + 255) / 256, 256>>>(v, 2.f, n); // expected-note {{launched here without a prefetch}}
  cudaDeviceSynchronize();
  cudaFree(v);
}
// expected-rules-unchecked GM031: host_between_launches really ping-pongs 'v' in its loop; GM031's own tests cover that
