// The twin of GM010_neg_device_selected_through_wrapper: the helper called in the loop only
// logs, so the loop walks elements of data, one 256-byte allocation each.
#include <cuda_runtime.h>
#include <stdio.h>

static void note_item(int i) {
  printf("item %d\n", i);
}

void per_item(float **bufs, int nitems) {
  for (int i = 0; i < nitems; ++i) { // expected-note {{the loop}}
    note_item(i);
    cudaMalloc(&bufs[i], 256); // expected-warning {{cudaMalloc gives each element of this loop its own 256-byte buffer, one allocation per element of data rather than per device or stream; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Allocate one buffer for all the elements and point each element at its slice [GM010 allocation-in-loop]}}
  }
}
