// GM005's verdict is GM001's: a site still live at exit confirms it. With GM005 off (the
// default, this case's expected.txt) the same site is a runtime-only GM101; with GM005 on
// (tests/cli/join.sh) it is GM005 confirmed and no GM101.
#include <cuda_runtime.h>

int main() {
  float *d = nullptr;
  cudaMalloc(&d, 1 << 20);
  cudaMemset(d, 0, 1 << 20);
  return 0;
}
