// Memory chosen by a disjunction of option flags, in a function with more paths than the engine
// keeps apart, released under a narrower test: with only `prefetch` or `both` set, managed memory
// reaches free(). Paths joined where they differ only in flags that decide no allocation or free
// (the printing ones) must not hide it.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

struct Options {
  bool flag(const char *name) const;
};

__global__ void relax(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 0.5f;
}

float solve(const Options &op, int n, int iters) {
  const bool managed = op.flag("managed");
  const bool advise = op.flag("advise");
  const bool prefetch = op.flag("prefetch");
  const bool both = op.flag("both");
  const bool v1 = op.flag("v1"), v2 = op.flag("v2"), v3 = op.flag("v3"), v4 = op.flag("v4");
  const bool v5 = op.flag("v5"), v6 = op.flag("v6"), v7 = op.flag("v7");
  float *x;
  if (managed || advise || prefetch || both)
    cudaMallocManaged(&x, n * sizeof(float)); // expected-note {{allocated here with cudaMallocManaged}}
  else
    x = (float *)malloc(n * sizeof(float));
  if (v1) printf("1a\n");
  if (v2) printf("2a\n");
  if (v3) printf("3a\n");
  if (v4) printf("4a\n");
  if (v5) printf("5a\n");
  if (v6) printf("6a\n");
  if (v7) printf("7a\n");
  for (int it = 0; it < iters; it++) {
    if (managed)
      relax<<<(n + 255) / 256, 256>>>(x, n);
    else if (advise)
      relax<<<(n + 127) / 128, 128>>>(x, n);
  }
  if (v1) printf("1b\n");
  if (v2) printf("2b\n");
  if (v3) printf("3b\n");
  if (v4) printf("4b\n");
  if (v5) printf("5b\n");
  if (v6) printf("6b\n");
  if (v7) printf("7b\n");
  float first = x[0];
  if (managed || advise)
    cudaFree(x);
  else
    free(x); // expected-warning {{'x' (managed memory from cudaMallocManaged) is released with free, which frees host heap memory; use cudaFree}}
  return first;
}
