// expected-no-diagnostics
// new/delete and new[]/delete[] correctly paired; malloc/free too.
#include <cuda_runtime.h>
#include <stdlib.h>

struct Timing { float ms; };

float timed_copy(float* d_dst, int n) {
  float* h = new float[n];
  for (int i = 0; i < n; ++i) h[i] = 0.f;
  Timing* t = new Timing{0.f};
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  cudaMemcpy(d_dst, h, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  cudaEventElapsedTime(&t->ms, a, b);
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  int* counts = (int*)malloc(4 * sizeof(int));
  if (counts) {
    counts[0] = n;
    free(counts);
  }
  float ms = t->ms;
  delete t;
  delete[] h;
  return ms;
}
