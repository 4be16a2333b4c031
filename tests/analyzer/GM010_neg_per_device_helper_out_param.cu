// expected-no-diagnostics
// Per-device setup through a helper that allocates into its out-parameter:
// each iteration of the device loop hands the helper a different table
// element, directly or through a local stored into the table afterwards.
// The setup exemption follows the call.
#include <cuda_runtime.h>

enum { MAX_DEVICES = 8 };

struct Split {
  char* data_device[MAX_DEVICES];
};

static cudaError_t device_malloc(void** ptr, size_t size, int device) {
  cudaSetDevice(device);
  return cudaMalloc(ptr, size);
}

void init_split(Split* extra, int ndev, size_t size) {
  for (int id = 0; id < ndev; ++id) {
    char* buf;
    device_malloc((void**)&buf, size, id);
    cudaMemset(buf, 0, size);
    extra->data_device[id] = buf;
  }
}

void init_table(float** bufs, int ndev, size_t size) {
  for (int id = 0; id < ndev; ++id)
    device_malloc((void**)&bufs[id], size, id);
}

void init_table_by_offset(float** bufs, int ndev, size_t size) {
  for (int id = 0; id < ndev; ++id)
    device_malloc((void**)(bufs + id), size, id);
}
