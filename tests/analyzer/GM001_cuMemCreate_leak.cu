// Virtual memory management: a physical allocation handle from cuMemCreate
// is never released when mapping fails.
#include <cuda.h>
#include <cuda_runtime.h>

CUresult map_physical(CUdeviceptr va, size_t size, int device) {
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  CUmemGenericAllocationHandle handle;
  CUresult r = cuMemCreate(&handle, size, &prop, 0); // expected-warning {{'handle' (physical memory handle from cuMemCreate) is not freed on an error path: a return after a failed call leaves 'map_physical' without releasing it; call cuMemRelease before returning [GM001 unpaired-allocation]}}
  if (r != CUDA_SUCCESS)
    return r;
  r = cuMemMap(va, size, 0, handle, 0);
  if (r != CUDA_SUCCESS)
    return r; // expected-note {{this return after a failed call leaves without freeing 'handle'}}
  CUmemAccessDesc access = {};
  access.location = prop.location;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  r = cuMemSetAccess(va, size, &access, 1);
  cuMemRelease(handle);
  return r;
}
