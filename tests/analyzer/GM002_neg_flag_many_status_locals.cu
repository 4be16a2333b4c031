// expected-no-diagnostics
// One flag picks the family and, after many checked calls, the matching free. Each check
// declares its own status local: writing those must not forget the flag's decision, however many
// variables the function has (dependencies were once one bit per variable modulo 62).
#include <cuda_runtime.h>

#define CHECK(call)                  \
  {                                  \
    cudaError_t status = (call);     \
    if (status != cudaSuccess)       \
      return 1;                      \
  }

int stage(bool pinned, size_t bytes, cudaStream_t stream) {
  float* h = nullptr;
  if (pinned)
    CHECK(cudaMallocHost(&h, bytes))
  else
    h = new float[bytes / sizeof(float)];
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  CHECK(cudaStreamSynchronize(stream))
  if (pinned)
    CHECK(cudaFreeHost(h))
  else
    delete[] h;
  return 0;
}
// expected-rules-unchecked GM001 GM004: the CHECK returns leave 'h' on their error paths; the many checks are the shape, GM001/GM004 tests cover such leaks
