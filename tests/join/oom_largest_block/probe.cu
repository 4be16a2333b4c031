// The out-of-memory verdict at its edge, largest block == request: a block as large as the
// request is large enough. With free memory covering the request, a probe finding such a block
// means the shortage passed (transient: nothing reported) and one byte less means fragmentation.
// With free memory short of it, the freed-but-held memory covers the rest in both cases, so only
// the probe decides between capacity and fragmentation. (The runtime's probe searches below
// min(free, request), so it records neither of the last two; the judge takes a file's figures
// as they come.)
#include <cuda_runtime.h>
#include <stddef.h>

static void try_block_fits(size_t bytes) {
  void *p = NULL;
  if (cudaMalloc(&p, bytes) == cudaSuccess) // free covers it, largest == request: transient
    cudaFree(p);
}

static void try_block_byte_short(size_t bytes) {
  void *p = NULL;
  if (cudaMalloc(&p, bytes) == cudaSuccess) // free covers it, largest == request - 1: GM103
    cudaFree(p);
}

static void try_held_block_fits(size_t bytes) {
  void *p = NULL;
  if (cudaMalloc(&p, bytes) == cudaSuccess) // free short, largest == request: GM104
    cudaFree(p);
}

static void try_held_block_byte_short(size_t bytes) {
  void *p = NULL;
  if (cudaMalloc(&p, bytes) == cudaSuccess) // free short, largest == request - 1: GM103
    cudaFree(p);
}

int main() {
  try_block_fits(1u << 30);
  try_block_byte_short(1u << 30);
  try_held_block_fits(1u << 30);
  try_held_block_byte_short(1u << 30);
  return 0;
}
