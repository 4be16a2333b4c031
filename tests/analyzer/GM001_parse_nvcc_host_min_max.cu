// nvcc's crt/math_functions.h gives host code min and max for int, unsigned, long, long long,
// their unsigned and mixed signed/unsigned forms, float and double (and umin, llmax, ...);
// clang's CUDA headers make them device-only. gmemlint's compat header declares them for
// host code, so this file parses cleanly and its leak is found (--verify counts a clang error
// as a problem).
#include <cuda_runtime.h>

int upload_tiles(const float *host, int rows, int cols, unsigned tile, long stride, size_t cap) {
  int lo = min(rows, cols), hi = max(rows, cols);
  unsigned t = max(tile, 1) + min(2, tile);
  long s = max(stride, 16L);
  size_t bytes = min((size_t)lo * hi * t, cap) + max(cap, (size_t)0);
  float scale = max(1.0f, host[0]) + min(host[1], 0.5f);
  double mixed = max(scale, 2.0) + min(0.25, scale);
  unsigned long long big = max(1ull, (unsigned long long)s) + min((long long)s, 4ull);
  unsigned u = umin(t, 8u) + umax(t, 1u);
  long long ll = llmin(1ll, (long long)s) + llmax(2ll, 3ll);
  float *d_tiles = nullptr;
  cudaMalloc(&d_tiles, bytes); // expected-warning {{'d_tiles' (device memory from cudaMalloc) is not freed on every path}}
  if (mixed > big + u + ll)
    return -1; // expected-note {{this return leaves without freeing 'd_tiles'}}
  cudaMemcpy(d_tiles, host, bytes, cudaMemcpyHostToDevice);
  cudaFree(d_tiles);
  return 0;
}

// Device code keeps clang's own device overloads.
__global__ void clamp_kernel(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] = max(min(v[i], 255), 0);
}
