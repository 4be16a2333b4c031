// expected-no-diagnostics
// Per-frame upload through a host staging buffer: each iteration allocates a
// padded host buffer and a device buffer, packs the frame on the host, copies
// the staging buffer to the device and frees it. The copy's source is made and
// freed within the same iteration; it is not the previous iteration's buffer,
// so nothing is regrown (GM010 reports the per-frame cudaMalloc instead).
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

__global__ void normalise(float* px, int n, float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) px[i] *= scale;
}

struct Frame {
  const float* pixels;
  int width, height;
};

enum { PAD = 64 };

void upload_frames(const Frame* frames, int nframes, float* h_out) {
  size_t done = 0;
  for (int f = 0; f < nframes; ++f) {
    const int n = frames[f].width * frames[f].height;
    const size_t bytes = (n + PAD) * sizeof(float);
    float* h_stage = (float*)malloc(bytes);
    memcpy(h_stage, frames[f].pixels, n * sizeof(float));
    memset(h_stage + n, 0, PAD * sizeof(float));
    float* d_frame = nullptr;
    cudaMalloc(&d_frame, (n + PAD) * sizeof(float));
    cudaMemcpy(d_frame, h_stage, bytes, cudaMemcpyHostToDevice);
    free(h_stage);
    normalise<<<(n + 255) / 256, 256>>>(d_frame, n, 1.f / 255.f);
    cudaMemcpy(h_out + done, d_frame, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d_frame);
    done += n;
  }
}

// The same with a pinned staging buffer freed by cudaFreeHost, and the sizes
// accumulated in a running offset.
void upload_chunks(const int* const* chunks, const int* lens, int nchunks, int* d_all) {
  int offset = 0;
  for (int c = 0; c < nchunks; ++c) {
    int* h_pinned = nullptr;
    cudaMallocHost(&h_pinned, (lens[c] + PAD) * sizeof(int));
    memcpy(h_pinned, chunks[c], lens[c] * sizeof(int));
    int* d_chunk = nullptr;
    cudaMalloc(&d_chunk, (offset + lens[c]) * sizeof(int));
    cudaMemcpy(d_chunk + offset, h_pinned, lens[c] * sizeof(int), cudaMemcpyHostToDevice);
    cudaFreeHost(h_pinned);
    cudaMemcpy(d_all, d_chunk, (offset + lens[c]) * sizeof(int), cudaMemcpyDeviceToDevice);
    cudaFree(d_chunk);
    offset += lens[c];
  }
}
// expected-rules-unchecked GM010: the loop allocates on every iteration as the shape needs; GM010's own tests cover that
