// Nine helpers that allocate and free a scratch buffer on every call. Each is called in a loop in
// driver.cu, and the first in a second loop too: its finding gets the second loop's notes after
// the other eight findings were added to this report (a finding kept by address moved then).
#include <cuda_runtime.h>

void stage1(size_t n) {
  float *scratch;
  cudaMalloc(&scratch, n); // expected-warning {{cudaMalloc in 'stage1' runs on every call, and 'stage1' is called in a loop in}} expected-note@driver.cu:14 {{'stage1' is called in a loop here, in 'run'}} expected-note@driver.cu:13 {{the loop}} expected-note@driver.cu:25 {{'stage1' is called in a loop here, in 'run'}} expected-note@driver.cu:24 {{the loop}}
  cudaFree(scratch);
}
void stage2(size_t n) {
  float *scratch;
  cudaMalloc(&scratch, n); // expected-warning {{cudaMalloc in 'stage2' runs on every call, and 'stage2' is called in a loop in}} expected-note@driver.cu:15 {{'stage2' is called in a loop here, in 'run'}} expected-note@driver.cu:13 {{the loop}}
  cudaFree(scratch);
}
void stage3(size_t n) {
  float *scratch;
  cudaMalloc(&scratch, n); // expected-warning {{cudaMalloc in 'stage3' runs on every call, and 'stage3' is called in a loop in}} expected-note@driver.cu:16 {{'stage3' is called in a loop here, in 'run'}} expected-note@driver.cu:13 {{the loop}}
  cudaFree(scratch);
}
void stage4(size_t n) {
  float *scratch;
  cudaMalloc(&scratch, n); // expected-warning {{cudaMalloc in 'stage4' runs on every call, and 'stage4' is called in a loop in}} expected-note@driver.cu:17 {{'stage4' is called in a loop here, in 'run'}} expected-note@driver.cu:13 {{the loop}}
  cudaFree(scratch);
}
void stage5(size_t n) {
  float *scratch;
  cudaMalloc(&scratch, n); // expected-warning {{cudaMalloc in 'stage5' runs on every call, and 'stage5' is called in a loop in}} expected-note@driver.cu:18 {{'stage5' is called in a loop here, in 'run'}} expected-note@driver.cu:13 {{the loop}}
  cudaFree(scratch);
}
void stage6(size_t n) {
  float *scratch;
  cudaMalloc(&scratch, n); // expected-warning {{cudaMalloc in 'stage6' runs on every call, and 'stage6' is called in a loop in}} expected-note@driver.cu:19 {{'stage6' is called in a loop here, in 'run'}} expected-note@driver.cu:13 {{the loop}}
  cudaFree(scratch);
}
void stage7(size_t n) {
  float *scratch;
  cudaMalloc(&scratch, n); // expected-warning {{cudaMalloc in 'stage7' runs on every call, and 'stage7' is called in a loop in}} expected-note@driver.cu:20 {{'stage7' is called in a loop here, in 'run'}} expected-note@driver.cu:13 {{the loop}}
  cudaFree(scratch);
}
void stage8(size_t n) {
  float *scratch;
  cudaMalloc(&scratch, n); // expected-warning {{cudaMalloc in 'stage8' runs on every call, and 'stage8' is called in a loop in}} expected-note@driver.cu:21 {{'stage8' is called in a loop here, in 'run'}} expected-note@driver.cu:13 {{the loop}}
  cudaFree(scratch);
}
void stage9(size_t n) {
  float *scratch;
  cudaMalloc(&scratch, n); // expected-warning {{cudaMalloc in 'stage9' runs on every call, and 'stage9' is called in a loop in}} expected-note@driver.cu:22 {{'stage9' is called in a loop here, in 'run'}} expected-note@driver.cu:13 {{the loop}}
  cudaFree(scratch);
}
