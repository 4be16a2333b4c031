// Each way main ends the program with device memory still allocated, one allocation each: a
// return after a failed call (an error path), a return on the normal path, and the end of main
// on the normal path and after a failed call.
#include <cuda_runtime.h>
#include <stdio.h>

void fill(float *d, size_t n);

int main(int argc, char **argv) {
  size_t n = 1 << 20;
  float *a = nullptr, *b = nullptr, *c = nullptr, *d = nullptr, *e = nullptr, *f = nullptr;
  cudaMalloc(&a, n); // expected-warning {{'a' (device memory from cudaMalloc) is not freed on an error path before the program ends: a return after a failed call leaves 'main' without releasing it; call cudaFree before returning [GM005 unfreed-at-exit]}}
  if (cudaMalloc(&b, n) != cudaSuccess)
    return 1; // expected-note {{this return after a failed call ends the program without freeing 'a'}}
  cudaFree(a);
  cudaFree(b);
  cudaMalloc(&c, n); // expected-warning {{'c' (device memory from cudaMalloc) is not freed before the program ends: a return leaves 'main' without releasing it; call cudaFree before returning [GM005 unfreed-at-exit]}}
  if (argc > 3)
    return 2; // expected-note {{this return from 'main' ends the program without freeing 'c'}}
  cudaFree(c);
  cudaMalloc(&d, n); // expected-warning {{'d' (device memory from cudaMalloc) is not freed before the program ends: 'main' ends without releasing it; call cudaFree when it is no longer needed [GM005 unfreed-at-exit]}}
  cudaMemset(d, 0, n);
  cudaMalloc(&e, n); // expected-warning {{'e' (device memory from cudaMalloc) is not freed on an error path before the program ends: after a failed call 'main' ends without releasing it; call cudaFree when it is no longer needed [GM005 unfreed-at-exit]}}
  if (cudaMalloc(&f, n) != cudaSuccess) {
    fprintf(stderr, "out of device memory\n");
  } else {
    fill(f, n);
    cudaFree(f);
    cudaFree(e);
  }
} // expected-note {{'main' ends here, and the program with it, without freeing 'd'}} expected-note {{after a failed call 'main' ends here, and the program with it, without freeing 'e'}}
