// Runtime twins: the loops over tests/gpu/twins_steps.cu's step functions. A buffer
// grows by 32 appends of 1 MiB, and a managed field goes to the GPU and back in each of 20 steps.
#include <cstdio>
#include <cuda_runtime.h>
#include <gmemrt.h>

void append_chunk(float **data, size_t *n, const float *chunk, size_t len);
float *make_field(int n);
float relax_and_probe(float *field, int n);

int main() {
  const size_t len = 1 << 18;
  float *chunk, *data = nullptr;
  size_t n = 0;
  cudaMalloc(&chunk, len * sizeof(float));
  cudaMemset(chunk, 0, len * sizeof(float));
  for (int i = 0; i < 32; ++i)
    append_chunk(&data, &n, chunk, len);
  const int cells = 4 << 20;
  float *field = make_field(cells), probe = 0;
  for (int step = 0; step < 20; ++step) {
    probe += relax_and_probe(field, cells);
    gmem_step();
  }
  printf("twins: %zu floats appended, probe %g\n", n, probe);
  cudaFree(data);
  cudaFree(chunk);
  cudaFree(field);
  return 0;
}
