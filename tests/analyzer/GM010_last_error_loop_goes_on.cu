// Loops whose condition reads the runtime's last status but go round again after an allocation
// that succeeded: one that continues while calls succeed, one where a launch after the
// allocation sets the status the condition reads, one that reallocates while the last status
// is success, one whose condition holds after a success too (`failed || more`), and one whose
// status variable holds a launch's status. Each allocates on every iteration.
#include <cuda_runtime.h>

__global__ void fill(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 1.0f;
}

void while_it_works(int n, int steps) {
  float *tmp = nullptr;
  int step = 0;
  do { // expected-note {{the loop}}
    cudaMalloc(&tmp, n * sizeof(float)); // expected-warning {{cudaMalloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it}}
    fill<<<(n + 255) / 256, 256>>>(tmp, n);
    cudaFree(tmp);
  } while (cudaGetLastError() == cudaSuccess && ++step < steps);
}

void launch_sets_the_status(int n) {
  float *tmp = nullptr;
  cudaMalloc(&tmp, n * sizeof(float));
  while (cudaGetLastError() != cudaSuccess) { // expected-note {{the loop}}
    cudaFree(tmp);
    cudaMalloc(&tmp, n * sizeof(float)); // expected-warning {{cudaMalloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it}}
    fill<<<(n + 255) / 256, 256>>>(tmp, n);
  }
  cudaFree(tmp);
}

void reallocate_while_it_works(int n) {
  float *tmp = nullptr;
  cudaMalloc(&tmp, n * sizeof(float));
  while (cudaGetLastError() == cudaSuccess) { // expected-note {{the loop}}
    cudaFree(tmp);
    cudaMalloc(&tmp, n * sizeof(float)); // expected-warning {{cudaMalloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it}}
  }
}

void status_or_more_rounds(int n, int rounds) {
  float *tmp = nullptr;
  cudaError_t err = cudaSuccess;
  while (err != cudaSuccess || rounds-- > 0) { // expected-note {{the loop}}
    cudaMalloc(&tmp, n * sizeof(float)); // expected-warning {{cudaMalloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it}}
    err = cudaGetLastError();
    fill<<<(n + 255) / 256, 256>>>(tmp, n);
    cudaFree(tmp);
  }
}

void launch_status_in_a_variable(int n) {
  float *tmp = nullptr;
  cudaError_t err = cudaErrorMemoryAllocation;
  while (err != cudaSuccess) { // expected-note {{the loop}}
    cudaMalloc(&tmp, n * sizeof(float)); // expected-warning {{cudaMalloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it}}
    fill<<<(n + 255) / 256, 256>>>(tmp, n);
    err = cudaGetLastError();
    cudaFree(tmp);
  }
}
