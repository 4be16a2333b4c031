// Virtual memory management API: a physical chunk is created, mapped, used
// and released for every chunk of the stream.
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>

void stream_chunks(CUdeviceptr va, size_t chunk, int nchunks, int dev) {
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = dev;
  CUmemAccessDesc access = {};
  access.location = prop.location;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  for (int c = 0; c < nchunks; ++c) { // expected-note {{the loop}}
    CUmemGenericAllocationHandle h;
    if (cuMemCreate(&h, chunk, &prop, 0) != CUDA_SUCCESS) // expected-warning {{loop-invariant}}
      return;
    cuMemMap(va, chunk, 0, h, 0);
    cuMemSetAccess(va, chunk, &access, 1);
    cuMemsetD8(va, (unsigned char)c, chunk);
    cuMemUnmap(va, chunk);
    cuMemRelease(h);
  }
}
