// expected-no-diagnostics
// A nonce search: each round launches a scan, reads back the index of the
// first hit (a fixed small object that decides whether the search goes on),
// and then reads the one result that index points at. The second copy's
// address comes from a value read back from the device, not from the loop's
// counter: it is not a piece of one range that a larger copy would replace.
#include <cuda_runtime.h>
#include <stdint.h>

__global__ void scan(const uint32_t* data, uint32_t target, uint32_t base, uint32_t* first_hit,
                     uint16_t* tags, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && data[i] + base < target) {
    atomicMin(first_hit, (uint32_t)i + base);
    tags[i] = (uint16_t)(data[i] & 0xffff);
  }
}

struct Search {
  uint32_t hits[2];
  uint32_t start;
};

int search(const uint32_t* d_data, uint32_t* d_first, uint16_t* d_tags, Search* s,
           uint32_t target, int n, int rounds) {
  for (int round = 0; round < rounds; ++round) {
    uint32_t none = UINT32_MAX;
    cudaMemcpy(d_first, &none, sizeof(none), cudaMemcpyHostToDevice);
    scan<<<(n + 255) / 256, 256>>>(d_data, target, s->start, d_first, d_tags, n);
    cudaMemcpy(&s->hits[0], d_first, sizeof(uint32_t), cudaMemcpyDeviceToHost);
    if (s->hits[0] != UINT32_MAX) {
      uint16_t tag;
      uint32_t offset = s->hits[0] - s->start;
      cudaMemcpy(&tag, d_tags + offset, sizeof(uint16_t), cudaMemcpyDeviceToHost);
      if (tag != 0)
        return (int)tag;
    }
    s->start += (uint32_t)n;
  }
  return -1;
}

// The same search with the hit's index kept in a local read back directly.
int search_local(const uint32_t* d_data, uint32_t* d_first, uint16_t* d_tags, uint32_t target,
                 int n) {
  uint32_t start = 0;
  for (;;) {
    scan<<<(n + 255) / 256, 256>>>(d_data, target, start, d_first, d_tags, n);
    uint32_t hit;
    cudaMemcpy(&hit, d_first, sizeof(hit), cudaMemcpyDeviceToHost);
    if (hit == UINT32_MAX)
      break;
    uint16_t tag;
    cudaMemcpy(&tag, d_tags + (hit - start), sizeof(tag), cudaMemcpyDeviceToHost);
    if (tag != 0)
      return (int)tag;
    start += (uint32_t)n;
  }
  return -1;
}
