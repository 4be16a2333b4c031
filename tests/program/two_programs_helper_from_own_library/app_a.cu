// A folder of two programs linted together: app_a.cu with lib_a.cu, and app_b.cu, which defines
// main and its own make_buffer. Each file that defines main roots a program, and a call goes to
// the definition that program can link: app_a's make_buffer is lib_a.cu's, which allocates, so
// the early return leaks. Read as one program, app_b.cu's make_buffer (it allocates nothing)
// could be taken for it and the leak hidden.
#include <cuda_runtime.h>

void make_buffer(float **p, size_t n);

int run_a(size_t n) {
  float *d = nullptr;
  make_buffer(&d, n); // expected-warning {{'d' (device memory from make_buffer) is not freed on every path: a return leaves 'run_a' without releasing it; call cudaFree before returning}} expected-note@+2 {{this return leaves without freeing 'd'}}
  if (n > 4096)
    return -1;
  cudaFree(d);
  return 0;
}

int main() { return run_a(1024); }
