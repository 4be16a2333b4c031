// A leak five lambdas deep, and one four deep. A lambda's function is named after the function
// it is in and every lambda between, up to four lambdas; deeper, the name counts the lambdas
// around it, so that generated code nesting thousands of them keeps its names short.
#include <cuda_runtime.h>

int deep(int n) {
  return [&] {
    return [&] {
      return [&] {
        return [&] {
          int* fourth = nullptr;
          cudaMalloc(&fourth, n * sizeof(int)); // expected-warning {{'fourth' (device memory from cudaMalloc) is not freed on every path: a return leaves 'lambda in lambda in lambda in lambda in deep' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
          return [&] {
            int* fifth = nullptr;
            cudaMalloc(&fifth, n * sizeof(int)); // expected-warning {{'fifth' (device memory from cudaMalloc) is not freed on every path: a return leaves 'lambda in 4 lambdas in deep' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
            return 0; // expected-note {{this return leaves without freeing 'fifth'}}
          }(); // expected-note@-4 {{this return leaves without freeing 'fourth'}}
        }();
      }();
    }();
  }();
}
