# Code clang could not type is never the ground of a finding. A header that needs a -D
# the user did not pass leaves a struct's field types undeclared; `free(p->seq); free(p->v);
# free(p);` must not become "'p' freed twice" (clang's recovery expression for `p->seq` is not
# `p`). With the -D the file parses and the same code is clean; valid code in a file with parse
# errors is still checked. (The twin with declared types: tests/analyzer/pairing_opaque_valid_member.cu.)
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
mkdir proj
cat >proj/seq.h <<'SRC'
#ifdef HAVE_IDX
typedef int idx_t;
typedef struct { int dims; } shape_t;
#endif
struct seq_set {
  idx_t *seq;
  float *v;
};
struct shaped;
void set_shape(void *p, shape_t s);
SRC
cat >proj/release.cu <<'SRC'
#include <cuda_runtime.h>
#include <stdlib.h>
#include "seq.h"
void release(struct seq_set *p) {
  free(p->seq);
  free(p->v);
  free(p);
}
void release_copy(struct seq_set *p) {
  idx_t *s = p->seq;
  float *x = (float *)p->v;
  free(s);
  free(x);
  free(p);
}
void release_param(idx_t *q) {
  free(q);
  free(q);
}
int hand_over(size_t n, shape_t shape) {
  float *d = nullptr;
  if (cudaMalloc(&d, n) != cudaSuccess)
    return -1;
  set_shape(d, shape);
  return 0;
}
SRC
run --config=/dev/null --only=GM001,GM002,GM003 proj/release.cu -- -Iproj
expect_rc 3 "no finding rests on code clang could not type (exit 3: parse errors)"
expect_no_out "freed twice" "a member clang could not type is not its struct"
expect_err "release.cu.*unknown type name 'idx_t'" "clang's errors shown as notes"
expect_err "parse error\(s\); findings may be incomplete" "the warning about parse errors"

run --config=/dev/null --only=GM001,GM002,GM003 proj/release.cu -- -Iproj -DHAVE_IDX
expect_rc 1 "with the -D the file parses"
[ "$(count_out 'warning:')" -eq 1 ] || fail "one finding once the types are known: $(cat "$WORK/out")"
expect_out "release.cu:18:3: warning: 'q' is freed twice" "release_param frees q twice"

# calls clang could not resolve take what they are given (an unknown callee), and valid code
# in a file with errors is still checked
cat >proj/calls.cu <<'SRC'
#include <cuda_runtime.h>
#include <stdlib.h>
struct opts { mode_t mode; };
void configure(void *p, mode_t m);
void keep(void *p);
int undeclared_callee(size_t n) {
  float *d = nullptr;
  if (cudaMalloc(&d, n) != cudaSuccess)
    return -1;
  register_buffer(d);
  return 0;
}
int invalid_callee(size_t n) {
  float *d = nullptr;
  if (cudaMalloc(&d, n) != cudaSuccess)
    return -1;
  configure(d, 0);
  return 0;
}
int wrong_arguments(size_t n) {
  float *d = nullptr;
  if (cudaMalloc(&d, n) != cudaSuccess)
    return -1;
  keep(d, 1);
  return 0;
}
void member_of_incomplete(struct later *w) {
  free(w->buf);
  free(w);
}
void valid(float *q) {
  free(q);
  free(q);
}
SRC
run --config=/dev/null --only=GM001,GM002,GM003 --allow-parse-errors proj/calls.cu
expect_rc 1 "valid code in a file with errors"
[ "$(count_out 'warning:')" -eq 1 ] || fail "only the valid function's finding: $(cat "$WORK/out")"
expect_out "calls.cu:33:3: warning: 'q' is freed twice" "the double free in valid code"

# advice given with a signature no toolkit has does not resolve, but is advice: a call clang
# could not resolve keeps its prefetch row, which can only spare a finding
cat >proj/advise.cu <<'SRC'
#include <cuda_runtime.h>
__global__ void twice(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= 2;
}
int run(int n) {
  float *m = nullptr;
  if (cudaMallocManaged(&m, n * sizeof(float)) != cudaSuccess)
    return -1;
  cudaMemAdvise(m, n * sizeof(float), cudaMemAdviseSetPreferredLocation, 0, 0);
  twice<<<(n + 255) / 256, 256>>>(m, n);
  cudaDeviceSynchronize();
  cudaFree(m);
  return 0;
}
SRC
run --config=/dev/null --enable=all --allow-parse-errors proj/advise.cu
expect_rc 0 "unresolved advice is still advice"
expect_err "no matching function for call to 'cudaMemAdvise'" "the call does not resolve"

# advice given with CUDA 11's signature (an int device) resolves with the legacy layer (README,
# "Files are parsed as nvcc parses them"), and is advice
cat >proj/advise11.cu <<'SRC'
#include <cuda_runtime.h>
__global__ void twice(float *p, int n) { p[threadIdx.x] *= 2; }
int run(int n) {
  float *m = nullptr;
  if (cudaMallocManaged(&m, n * sizeof(float)) != cudaSuccess)
    return -1;
  cudaMemAdvise(m, n * sizeof(float), cudaMemAdviseSetPreferredLocation, 0);
  twice<<<(n + 255) / 256, 256>>>(m, n);
  cudaDeviceSynchronize();
  cudaFree(m);
  return 0;
}
SRC
run --config=/dev/null --enable=all proj/advise11.cu
expect_rc 0 "CUDA 11's advice is advice"
expect_out "note: proj/advise11.cu: uses APIs removed from the CUDA toolkit \(cudaMemAdvise\)" "the legacy layer"
grep -q 'clang:' "$WORK/err" && fail "CUDA 11's advice: $(grep 'clang:' "$WORK/err" | head -3)"
finish
