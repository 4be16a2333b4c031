// Lambdas within lambdas, each with locals of its own. 'staging' belongs to the outer lambda
// and is freed by the lambda inside it, which captures it: not reported. 'scratch', its sibling,
// is freed by nobody: reported in the outer lambda. Each inner lambda leaks a buffer of its own,
// reported in a function named after every lambda around it, in the warning and in its note.
#include <cuda_runtime.h>

int run_stages(int n) {
  auto stage = [&]() {
    float* staging = nullptr;
    float* scratch = nullptr;
    cudaMalloc(&staging, n * sizeof(float));
    cudaMalloc(&scratch, n * sizeof(float)); // expected-warning {{'scratch' (device memory from cudaMalloc) is not freed on every path: a return leaves 'lambda in run_stages' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
    auto finish = [&]() {
      cudaFree(staging);
      int* counts = nullptr;
      cudaMalloc(&counts, n * sizeof(int)); // expected-warning {{'counts' (device memory from cudaMalloc) is not freed on every path: a return leaves 'lambda in lambda in run_stages' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
      auto last = [n]() {
        char* flags = nullptr;
        cudaMalloc(&flags, n); // expected-warning {{'flags' (device memory from cudaMalloc) is not freed on every path: a return leaves 'lambda in lambda in lambda in run_stages' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
        return 0; // expected-note {{this return leaves without freeing 'flags'}}
      };
      return last(); // expected-note {{this return leaves without freeing 'counts'}}
    };
    auto trace = [&]() {
      int* marks = nullptr;
      cudaMalloc(&marks, n * sizeof(int)); // expected-warning {{'marks' (device memory from cudaMalloc) is not freed on every path through 'lambda in lambda in run_stages'; call cudaFree when it is no longer needed [GM001 unpaired-allocation]}}
    }; // expected-note {{'lambda in lambda in run_stages' ends here without freeing 'marks'}}
    trace();
    return finish(); // expected-note {{this return leaves without freeing 'scratch'}}
  };
  return stage();
}
