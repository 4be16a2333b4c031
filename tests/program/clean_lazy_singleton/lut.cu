// expected-no-diagnostics
#include <cuda_runtime.h>

#include "lut.h"

const LookupTable &lookup_table() {
  static LookupTable table = {nullptr, nullptr};
  if (!table.d_values) {
    cudaMalloc(&table.d_values, 1024 * sizeof(float));
    cudaMalloc(&table.d_index, 1024 * sizeof(int));
  }
  return table;
}
