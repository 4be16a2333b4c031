// The positive twin of GM021_neg_scan_readback_found_offset: after each scan
// the host reads the tags back one at a time at an offset the loop steps
// (`offset` grows by one per iteration), so the copies are pieces of one range
// and one copy of the whole range would do, even though each value read back
// decides whether the search stops.
#include <cuda_runtime.h>
#include <stdint.h>

__global__ void tag_all(const uint32_t* data, uint16_t* tags, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    tags[i] = (uint16_t)(data[i] & 0xffff);
}

int first_tagged(const uint32_t* d_data, uint16_t* d_tags, int n) {
  tag_all<<<(n + 255) / 256, 256>>>(d_data, d_tags, n);
  uint32_t offset = 0;
  for (int i = 0; i < n; ++i) { // expected-note {{the loop}}
    uint16_t tag;
    offset = offset + 1;
    cudaMemcpy(&tag, d_tags + offset, sizeof(uint16_t), cudaMemcpyDeviceToHost); // expected-warning {{cudaMemcpy moves 2 bytes per iteration to or from an address that advances with the loop; the fixed cost of each call dominates such small copies. Copy the whole range with one cudaMemcpy (staging the pieces in one buffer if they are scattered), or a strided block with cudaMemcpy2D}}
    if (tag != 0)
      return (int)offset;
  }
  return -1;
}
