// expected-no-diagnostics
// exit(1), an exit whose status is not known, abort() and a failed assertion end a failed run:
// no one frees before them, and on real code they are mostly a check macro's, with every buffer
// of the program still allocated. Nothing is reported there, in main or in another function.
#include <assert.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                   \
  do {                                                                \
    cudaError_t err_ = (call);                                        \
    if (err_ != cudaSuccess) {                                        \
      fprintf(stderr, "%s\n", cudaGetErrorString(err_));              \
      exit(EXIT_FAILURE);                                             \
    }                                                                 \
  } while (0)

static void die(const char *what) {
  fprintf(stderr, "%s\n", what);
  exit(1);
}

void scale(float *d_out, size_t n, int status) {
  float *tmp = nullptr;
  CHECK(cudaMalloc(&tmp, n));
  CHECK(cudaMemcpy(tmp, d_out, n, cudaMemcpyDeviceToDevice));
  if (n > (1u << 30))
    die("too large");
  if (n == 0)
    exit(status);
  if (n == 1)
    abort();
  assert(n % 4 == 0);
  CHECK(cudaMemcpy(d_out, tmp, n, cudaMemcpyDeviceToDevice));
  cudaFree(tmp);
}

int main(int argc, char **argv) {
  size_t n = argc > 1 ? (size_t)atoi(argv[1]) : 1024;
  float *d = nullptr, *e = nullptr;
  CHECK(cudaMalloc(&d, n));
  CHECK(cudaMalloc(&e, n));
  if (argc > 2) {
    fprintf(stderr, "usage: %s [n]\n", argv[0]);
    exit(2);
  }
  scale(d, n, 3);
  cudaFree(e);
  cudaFree(d);
  return 0;
}
