// Training loop, all rules on. Managed weights are prefetched by a helper and
// only touched by kernels in the loop; the loss is read back from one address;
// the mask uses cudaMallocAsync. Findings: the per-step gradient cudaMalloc
// (GM010) and the managed error buffer, cleared on the host, then written densely
// without prefetch (GM030).
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CUDA_CHECK(x)                                                   \
  do {                                                                  \
    cudaError_t e_ = (x);                                               \
    if (e_ != cudaSuccess) {                                            \
      fprintf(stderr, "%s\n", cudaGetErrorString(e_));                  \
      exit(1);                                                          \
    }                                                                   \
  } while (0)

__global__ void forward_backward(const float* w, const float* x, const float* mask, float* grad,
                                 float* loss, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float r = w[i] * x[i] * mask[i] - 1.f;
    grad[i] = 2.f * r * x[i];
    atomicAdd(loss, r * r / n);
  }
}

__global__ void sgd(float* w, const float* grad, float lr, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    w[i] -= lr * grad[i];
}

__global__ void sample_error(const float* w, const float* x, float* err, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) err[i] = w[i] * x[i] - 1.f; // expected-note {{'sample_error' indexes it by thread here}}
}

static void prefetch_to_device(const void* p, size_t bytes, cudaStream_t s) {
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  cudaMemLocation loc = {};
  loc.type = cudaMemLocationTypeDevice;
  loc.id = dev;
  CUDA_CHECK(cudaMemPrefetchAsync(p, bytes, loc, 0, s));
}

int main() {
  const int n = 1 << 20, steps = 200;
  const size_t bytes = n * sizeof(float);
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));

  float *w = nullptr, *d_x = nullptr, *d_loss = nullptr, *h_x = nullptr;
  CUDA_CHECK(cudaMallocManaged(&w, bytes));
  CUDA_CHECK(cudaMalloc(&d_x, bytes));
  CUDA_CHECK(cudaMalloc(&d_loss, sizeof(float)));
  CUDA_CHECK(cudaMallocHost(&h_x, bytes));
  for (int i = 0; i < n; ++i) w[i] = 0.5f;
  prefetch_to_device(w, bytes, s);

  dim3 block(256), grid((n + 255) / 256);
  auto update = [&](const float* g, float lr) { sgd<<<grid, block, 0, s>>>(w, g, lr, n); };

  float loss = 0.f;
  for (int step = 0; step < steps; ++step) { // expected-note {{the loop}}
    for (int i = 0; i < n; ++i) h_x[i] = 1.f + 0.001f * ((i + step) % 17);
    CUDA_CHECK(cudaMemcpyAsync(d_x, h_x, bytes, cudaMemcpyHostToDevice, s));
    float *grad = nullptr, *mask = nullptr;
    CUDA_CHECK(cudaMalloc(&grad, bytes)); // expected-warning {{cudaMalloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it [GM010 allocation-in-loop]}}
    CUDA_CHECK(cudaMallocAsync(&mask, bytes, s));
    CUDA_CHECK(cudaMemsetAsync(mask, 0, bytes, s));
    CUDA_CHECK(cudaMemsetAsync(d_loss, 0, sizeof(float), s));
    forward_backward<<<grid, block, 0, s>>>(w, d_x, mask, grad, d_loss, n);
    update(grad, 0.01f);
    CUDA_CHECK(cudaMemcpyAsync(&loss, d_loss, sizeof(float), cudaMemcpyDeviceToHost, s));
    CUDA_CHECK(cudaFreeAsync(mask, s));
    CUDA_CHECK(cudaStreamSynchronize(s));
    CUDA_CHECK(cudaFree(grad));
    if (step % 50 == 0) printf("step %d loss %f\n", step, loss);
  }

  float* err = nullptr;
  CUDA_CHECK(cudaMallocManaged(&err, bytes)); // expected-warning {{'err' (managed memory from cudaMallocManaged) reaches kernel 'sample_error', which reads it densely, with no cudaMemPrefetchAsync or cudaMemAdvise before the launch: the GPU faults its pages over on demand (on an H200 a dense kernel over 1 GiB ran in 271 ms this way and in 0.75 ms after a prefetch). Prefetch it to the device before the launch, or use cudaMalloc and explicit copies [GM030 managed-dense-access]}}
  memset(err, 0, bytes);
  sample_error<<<grid, block, 0, s>>>(w, d_x, err, n); // expected-note {{launched here without a prefetch}}
  CUDA_CHECK(cudaStreamSynchronize(s));
  printf("w[0]=%f err[0]=%f\n", w[0], err[0]);

  CUDA_CHECK(cudaFree(err));
  CUDA_CHECK(cudaFreeHost(h_x));
  CUDA_CHECK(cudaFree(d_loss));
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(w));
  CUDA_CHECK(cudaStreamDestroy(s));
  return 0;
}
