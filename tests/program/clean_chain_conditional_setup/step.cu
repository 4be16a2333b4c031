// expected-no-diagnostics
#include <cuda_runtime.h>

#include "setup.cuh"

static int use_sm5_path = 1;
static int hashing = 1;
static int ready[16];

void advance(const float *d_in, size_t n) {
  (void)d_in;
  if (use_sm5_path)
    ensure_scratch(n);
  if (!ready[0]) {
    make_frame(n);
    ready[0] = 1;
  }
}

void init_thread(int thr_id, size_t n) {
  if (hashing)
    alloc_hash(thr_id, n);
}
