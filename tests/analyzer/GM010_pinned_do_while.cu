// A real do/while loop (not the do { } while (0) macro idiom) that allocates
// a pinned staging buffer on every pass.
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

int read_chunk(char* dst, size_t cap); // fills dst, returns bytes read, 0 at end

void upload_stream(char* d_dst, size_t chunk) {
  size_t off = 0;
  int got = 0;
  do { // expected-note {{the loop}}
    char* staging = nullptr;
    cudaMallocHost(&staging, chunk); // expected-warning {{loop-invariant}}
    got = read_chunk(staging, chunk);
    if (got > 0)
      cudaMemcpy(d_dst + off, staging, (size_t)got, cudaMemcpyHostToDevice);
    off += (size_t)got;
    cudaFreeHost(staging);
  } while (got > 0);
}
