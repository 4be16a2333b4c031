// expected-no-diagnostics
#include <cuda_runtime.h>

#include "workspace.h"

Workspace::~Workspace() {
  cudaFree(d_input_);
  cudaFree(d_output_);
}
