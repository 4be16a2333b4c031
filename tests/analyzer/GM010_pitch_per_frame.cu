// Video pipeline: a pitched frame buffer allocated for every frame even
// though all frames have the same resolution.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void to_gray(unsigned char* frame, size_t pitch, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    unsigned char* row = frame + y * pitch;
    row[x] = (unsigned char)(row[x] / 2);
  }
}

void process_frames(const unsigned char* const* h_frames, int nframes, int w, int h,
                    unsigned char* h_out) {
  dim3 block(16, 16), grid((w + 15) / 16, (h + 15) / 16);
  for (int f = 0; f < nframes; ++f) { // expected-note {{the loop}}
    unsigned char* d_frame = nullptr;
    size_t pitch = 0;
    cudaMallocPitch((void**)&d_frame, &pitch, w, h); // expected-warning {{loop-invariant}}
    cudaMemcpy2D(d_frame, pitch, h_frames[f], w, w, h, cudaMemcpyHostToDevice);
    to_gray<<<grid, block>>>(d_frame, pitch, w, h);
    cudaMemcpy2D(h_out + (size_t)f * w * h, w, d_frame, pitch, w, h, cudaMemcpyDeviceToHost);
    cudaFree(d_frame);
  }
}
