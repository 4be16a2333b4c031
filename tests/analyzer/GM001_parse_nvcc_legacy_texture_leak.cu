// Code written for CUDA 11: a texture reference bound to a cudaMalloc'd buffer, and the device
// management calls of CUDA 3 (cudaThreadSynchronize). CUDA 12 removed both; gmemlint parses the
// file with its own declarations of the CUDA 11 API, says so, and finds the buffer leaked when
// binding fails: the texture only borrows it.
#include <cuda_runtime.h>

texture<float, 1, cudaReadModeElementType> tex_in; // expected-note {{uses APIs removed from the CUDA toolkit (texture<...>, cudaThreadSynchronize, cudaDeviceProp::clockRate); parsed with gmemlint's declarations of the CUDA 11 API}}

__global__ void gather(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex1Dfetch(tex_in, i);
}

int gather_all(const float *h_in, float *d_out, int n) {
  float *d_in = nullptr;
  size_t bytes = n * sizeof(float);
  if (cudaMalloc(&d_in, bytes) != cudaSuccess) // expected-warning {{'d_in' (device memory from cudaMalloc) is not freed on an error path: a return after a failed call leaves 'gather_all' without releasing it; call cudaFree before returning}}
    return -1;
  cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice);
  if (cudaBindTexture(0, tex_in, d_in, bytes) != cudaSuccess)
    return -2; // expected-note {{this return after a failed call leaves without freeing 'd_in'}}
  gather<<<(n + 255) / 256, 256>>>(d_out, n);
  cudaThreadSynchronize();
  cudaUnbindTexture(tex_in);
  cudaFree(d_in);
  return 0;
}

int clock_khz(int device) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, device);
  return prop.clockRate;
}
