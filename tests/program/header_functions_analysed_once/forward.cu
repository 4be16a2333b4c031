#include "pool.cuh" // its finding is kept in backward.cu's report, the first file to include it
#include "kernels/fill.cu" // expected-warning@kernels/fill.cu:11 {{'tmp' (device memory from cudaMalloc) is not freed on every path through 'fill_once'; call cudaFree when it is no longer needed [GM001 unpaired-allocation]}} expected-note@kernels/fill.cu:13 {{'fill_once' ends here without freeing 'tmp'}} expected-note {{'fill.cu' is analysed where 'forward.cu' includes it}}

int forward(int n) {
  fill_once(n);
  return stage_scratch(n);
}
