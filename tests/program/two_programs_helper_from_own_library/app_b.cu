// expected-no-diagnostics
// The other program: its make_buffer hands out a slice of a static pool and allocates nothing,
// so its early return keeps nothing.
#include <cuda_runtime.h>

static float pool[1 << 16];

void make_buffer(float **p, size_t n) { *p = n <= sizeof pool / sizeof *pool ? pool : nullptr; }

int run_b(size_t n) {
  float *h = nullptr;
  make_buffer(&h, n);
  if (n > 4096)
    return -1;
  h[0] = 1.0f;
  return 0;
}

int main() { return run_b(1024); }
