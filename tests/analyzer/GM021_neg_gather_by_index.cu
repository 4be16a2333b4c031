// expected-no-diagnostics
// Whole blocks of a fixed size are fetched from a device table at indices
// that come from data, into one reused host block; the host pointer does not
// move and the device address is data-dependent (a gather, not a range).
#include <cuda_runtime.h>
#include <stdio.h>

float score_selected(const float* d_table, const int* picks, int npicks, int dim,
                     const float* query) {
  float h_row[1024];
  float best = -1e30f;
  for (int k = 0; k < npicks; ++k) {
    cudaMemcpy(h_row, d_table + (size_t)picks[k] * dim, dim * sizeof(float),
               cudaMemcpyDeviceToHost);
    float s = 0.f;
    for (int d = 0; d < dim; ++d) s += h_row[d] * query[d];
    if (s > best) best = s;
  }
  return best;
}
