// expected-no-diagnostics
// Particle culling: each round the survivors are copied into a new, smaller
// buffer and the old one is freed. The buffer shrinks, it never grows, so
// there is no quadratic concatenation.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void mark_alive(const float* energy, int* alive, int n, float cut) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) alive[i] = energy[i] > cut;
}

int count_alive(const int* d_alive, int n); // returns how many survive (sorted first)

void cull(float* d_energy, int n, int rounds) {
  int* d_alive = nullptr;
  cudaMalloc(&d_alive, n * sizeof(int));
  for (int r = 0; r < rounds && n > 0; ++r) {
    mark_alive<<<(n + 255) / 256, 256>>>(d_energy, d_alive, n, 0.1f * r);
    int survivors = count_alive(d_alive, n);
    float* smaller = nullptr;
    cudaMalloc(&smaller, survivors * sizeof(float));
    cudaMemcpy(smaller, d_energy, survivors * sizeof(float), cudaMemcpyDeviceToDevice);
    cudaFree(d_energy);
    d_energy = smaller;
    n = survivors;
  }
  cudaFree(d_alive);
  cudaFree(d_energy);
}
// expected-rules-unchecked GM010: the loop allocates on every iteration as the shape needs; GM010's own tests cover that
