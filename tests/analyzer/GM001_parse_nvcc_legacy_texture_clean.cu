// The clean twin of GM001_parse_nvcc_legacy_texture_leak.cu: the buffer bound to the texture
// reference is unbound and freed on every path, and cudaThreadExit (CUDA 3's cudaDeviceReset)
// ends the program. Parsed with gmemlint's declarations of the CUDA 11 API: the notice that says
// so is the only diagnostic (any finding would be unexpected).
#include <cuda_runtime.h>

texture<float, 2, cudaReadModeElementType> tex_img; // expected-note {{uses APIs removed from the CUDA toolkit (texture<...>, cudaThreadExit); parsed with gmemlint's declarations of the CUDA 11 API}}

__global__ void sample(float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    out[y * w + x] = tex2D(tex_img, x + 0.5f, y + 0.5f);
}

int sample_all(const float *h_img, float *d_out, int w, int h) {
  float *d_img = nullptr;
  size_t pitch = 0;
  if (cudaMallocPitch(&d_img, &pitch, w * sizeof(float), h) != cudaSuccess)
    return -1;
  cudaMemcpy2D(d_img, pitch, h_img, w * sizeof(float), w * sizeof(float), h,
               cudaMemcpyHostToDevice);
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  if (cudaBindTexture2D(0, tex_img, d_img, desc, w, h, pitch) != cudaSuccess) {
    cudaFree(d_img);
    return -2;
  }
  dim3 block(16, 16), grid((w + 15) / 16, (h + 15) / 16);
  sample<<<grid, block>>>(d_out, w, h);
  cudaUnbindTexture(tex_img);
  cudaFree(d_img);
  cudaThreadExit();
  return 0;
}
