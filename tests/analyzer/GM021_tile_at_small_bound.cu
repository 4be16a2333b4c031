// Tiles uploaded one per iteration and consumed by a kernel in the same iteration: a constant
// size reports only while it is small (at most 4096 bytes), since a launch in the loop is a
// reason to copy a large tile at a time. A tile of exactly 4096 bytes is small; one of 4097 is
// not.
#include <cuda_runtime.h>

__global__ void consume(char* tile, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) tile[i] ^= 1;
}

void upload_small_tiles(char* d, const char* h, int ntiles) {
  for (int t = 0; t < ntiles; ++t) { // expected-note {{the loop}}
    cudaMemcpy(d + t * 4096, h + t * 4096, 4096, cudaMemcpyHostToDevice); // expected-warning {{cudaMemcpy moves 4096 bytes per iteration to or from an address that advances with the loop; the fixed cost of each call dominates such small copies. Copy the whole range with one cudaMemcpy (staging the pieces in one buffer if they are scattered), or a strided block with cudaMemcpy2D [GM021 small-transfer-in-loop]}}
    consume<<<16, 256>>>(d + t * 4096, 4096);
  }
}

// one byte past the bound: a large tile that the kernel works on before the next one comes
void upload_large_tiles(char* d, const char* h, int ntiles) {
  for (int t = 0; t < ntiles; ++t) {
    cudaMemcpy(d + t * 4097, h + t * 4097, 4097, cudaMemcpyHostToDevice);
    consume<<<17, 256>>>(d + t * 4097, 4097);
  }
}
