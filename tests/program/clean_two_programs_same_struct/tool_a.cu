// expected-no-diagnostics
// Two programs of one project linted together: each defines its own `struct Context`. This one
// frees everything it allocates.
#include <cuda_runtime.h>

struct Context {
  float *d_a;
  float *d_b;
};

static void open_context(Context *c, size_t n) {
  cudaMalloc(&c->d_a, n * sizeof(float));
  cudaMalloc(&c->d_b, n * sizeof(float));
}

static void close_context(Context *c) {
  cudaFree(c->d_a);
  cudaFree(c->d_b);
}

int main() {
  Context c;
  open_context(&c, 1024);
  close_context(&c);
  return 0;
}
