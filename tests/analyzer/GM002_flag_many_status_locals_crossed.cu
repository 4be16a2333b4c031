// The clean twin of GM002_neg_flag_many_status_locals.cu with the frees crossed: the flag's
// decision survives the many status locals, so each wrong free is found.
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
    CHECK(cudaMallocHost(&h, bytes)) // expected-note {{allocated here with cudaMallocHost}}
  else
    h = new float[bytes / sizeof(float)]; // expected-note {{allocated here with new[]}}
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
  if (!pinned)
    CHECK(cudaFreeHost(h)) // expected-warning {{'h' (heap array from new[]) is released with cudaFreeHost, which frees pinned host memory; use delete[] [GM002 mismatched-free]}}
  else
    delete[] h; // expected-warning {{'h' (pinned host memory from cudaMallocHost) is released with delete-array, which frees heap array; use cudaFreeHost [GM002 mismatched-free]}}
  return 0;
}
// expected-rules-unchecked GM001 GM004: the CHECK returns leave 'h' on their error paths; the many checks are the shape, GM001/GM004 tests cover such leaks
