// Per-frame upload through a host staging buffer, allocated and freed on every
// iteration: the staging copy is not a regrowth (GM020 stays silent), so the
// per-iteration device and pinned allocations are GM010's findings.
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
  for (int f = 0; f < nframes; ++f) { // expected-note {{the loop}}
    const int n = frames[f].width * frames[f].height;
    float* h_stage = (float*)malloc((n + PAD) * sizeof(float));
    memcpy(h_stage, frames[f].pixels, n * sizeof(float));
    memset(h_stage + n, 0, PAD * sizeof(float));
    float* d_frame = nullptr;
    cudaMalloc(&d_frame, (n + PAD) * sizeof(float)); // expected-warning {{size varies}}
    cudaMemcpy(d_frame, h_stage, (n + PAD) * sizeof(float), cudaMemcpyHostToDevice);
    free(h_stage);
    normalise<<<(n + 255) / 256, 256>>>(d_frame, n, 1.f / 255.f);
    cudaMemcpy(h_out + done, d_frame, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d_frame);
    done += n;
  }
}

void upload_chunks(const int* const* chunks, const int* lens, int nchunks, int* d_all) {
  int offset = 0;
  for (int c = 0; c < nchunks; ++c) { // expected-note 2 {{the loop}}
    int* h_pinned = nullptr;
    cudaMallocHost(&h_pinned, (lens[c] + PAD) * sizeof(int)); // expected-warning {{cudaMallocHost runs on every iteration of this loop and its size varies, which also fragments device memory; on an H200 cudaMallocHost costs 0.8 ms for 256 bytes and 465 ms for 1 GiB, because it pins the pages. Allocate the largest size once before the loop, or use cudaMallocAsync from a stream-ordered memory pool [GM010 allocation-in-loop]}}
    memcpy(h_pinned, chunks[c], lens[c] * sizeof(int));
    int* d_chunk = nullptr;
    cudaMalloc(&d_chunk, (offset + lens[c]) * sizeof(int)); // expected-warning {{size varies}}
    cudaMemcpy(d_chunk + offset, h_pinned, lens[c] * sizeof(int), cudaMemcpyHostToDevice);
    cudaFreeHost(h_pinned);
    cudaMemcpy(d_all, d_chunk, (offset + lens[c]) * sizeof(int), cudaMemcpyDeviceToDevice);
    cudaFree(d_chunk);
    offset += lens[c];
  }
}
