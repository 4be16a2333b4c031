// Iterative solver: the kernel updates a managed residual array and the host
// sums it on every iteration to test convergence, so the pages migrate to
// the GPU and back each time round.
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>

__global__ void sweep(float* u, float* resid, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1) {
    float nu = 0.5f * (u[i - 1] + u[i + 1]);
    resid[i] = fabsf(nu - u[i]);
    u[i] = nu;
  }
}

int solve(float* d_u, int n, float tol) {
  float* resid = nullptr;
  cudaMallocManaged(&resid, n * sizeof(float)); // expected-warning {{'resid' (managed memory from cudaMallocManaged) is used by a kernel and by host code in the same loop, so its pages migrate to the GPU and back on every iteration; keep the data on the device and copy back only what the host needs, or prefetch it explicitly each way (cudaMemPrefetchAsync) [GM031 managed-ping-pong]}}
  int it = 0;
  for (; it < 10000; ++it) { // expected-note {{the loop}}
    sweep<<<(n + 255) / 256, 256>>>(d_u, resid, n); // expected-note {{a kernel uses it here}}
    cudaDeviceSynchronize();
    float sum = 0.f;
    for (int i = 1; i < n - 1; ++i)
      sum += resid[i]; // expected-note {{and host code touches it here, in the same loop}}
    if (sum < tol)
      break;
  }
  cudaFree(resid);
  return it;
}
// expected-rules-unchecked GM030: the managed memory is launched on without a prefetch as the shape needs; GM030's own tests cover that
