// Leaks only on paths after a failed call say so ("on an error path", SARIF level note); a leak
// that the normal path also has keeps the normal wording. One function per way of losing it.
#include <cuda_runtime.h>

void log_failure(const char* what);

int leak_at_return(int n) {
  float *a = nullptr, *b = nullptr;
  cudaMalloc(&a, n); // expected-warning {{'a' (device memory from cudaMalloc) is not freed on an error path: a return after a failed call leaves 'leak_at_return' without releasing it}}
  if (cudaMalloc(&b, n) != cudaSuccess)
    return -1; // expected-note {{this return after a failed call leaves without freeing 'a'}}
  cudaFree(a);
  cudaFree(b);
  return 0;
}

void leak_at_end(int n) {
  float *a = nullptr, *b = nullptr;
  cudaMalloc(&a, n); // expected-warning {{'a' (device memory from cudaMalloc) is not freed on an error path: after a failed call 'leak_at_end' ends without releasing it}}
  if (cudaMalloc(&b, n) != cudaSuccess) {
    log_failure("b");
  } else {
    cudaFree(a);
    cudaFree(b);
  }
} // expected-note {{after a failed call 'leak_at_end' ends here without freeing 'a'}}

void leak_by_overwrite(int n, float* fallback) {
  float *a = nullptr, *b = nullptr;
  cudaMalloc(&a, n); // expected-warning {{'a' (device memory from cudaMalloc) leaks on an error path: after a failed call its only pointer is overwritten}}
  if (cudaMalloc(&b, n) != cudaSuccess) {
    a = fallback; // expected-note {{overwritten here while it still owns the memory}}
    log_failure("b");
    return;
  }
  cudaFree(a);
  cudaFree(b);
}

void leak_by_continue(int steps, int n) {
  for (int i = 0; i < steps; ++i) {
    float* a; // expected-note {{declared again here on the next iteration}}
    cudaMalloc(&a, n); // expected-warning {{'a' (device memory from cudaMalloc) leaks on an error path: after a failed call the loop goes round again without freeing it}}
    float* b;
    if (cudaMalloc(&b, n) != cudaSuccess)
      continue; // expected-note {{this continue skips the free}}
    cudaFree(b);
    cudaFree(a);
  }
}

// the normal path leaks too: the normal wording, the normal path's return
int leak_on_both(int n, int early) {
  float *a = nullptr, *b = nullptr;
  cudaMalloc(&a, n); // expected-warning {{'a' (device memory from cudaMalloc) is not freed on every path: a return leaves 'leak_on_both' without releasing it}}
  if (cudaMalloc(&b, n) != cudaSuccess)
    return -1;
  if (early) {
    cudaFree(b);
    return 1; // expected-note {{this return leaves without freeing 'a'}}
  }
  cudaFree(a);
  cudaFree(b);
  return 0;
}
// expected-rules-unchecked GM010: the loop allocates on every iteration as the shape needs; GM010's own tests cover that
