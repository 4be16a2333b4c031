// 64-byte records pushed with cudaMemcpyAsync on a stream; the destination
// pointer is incremented in the loop.
#include <cuda_runtime.h>
#include <stdio.h>

struct alignas(16) Particle {
  float pos[4];
  float vel[4];
  float acc[4];
  float mass[4];
};

void push_particles(Particle* d_dst, const Particle* h_src, int n, cudaStream_t stream) {
  const char* src = (const char*)h_src;
  char* dst = (char*)d_dst;
  for (int k = 0; k < n; ++k) { // expected-note {{the loop}}
    cudaMemcpyAsync(dst, src, 64, cudaMemcpyHostToDevice, stream); // expected-warning {{cudaMemcpyAsync moves 64 bytes per iteration to or from an address that advances with the loop; the fixed cost of each call dominates such small copies. Copy the whole range with one cudaMemcpyAsync (staging the pieces in one buffer if they are scattered), or a strided block with cudaMemcpy2D [GM021 small-transfer-in-loop]}}
    dst += 64;
    src += 64;
  }
  cudaStreamSynchronize(stream);
}
