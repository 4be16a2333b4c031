# A pointer named by code clang could not type has a fate we cannot see: a declaration
# of an unknown type (`buffer_t b = wrap(ptr, n);` with buffer_t undeclared) is dropped by clang,
# so ptr must not look leaked; what that code does not name is still judged. With the -D that
# declares the type the file parses, and the same code is judged as written.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
mkdir proj
cat >proj/buffer.h <<'SRC'
#ifdef HAVE_BUFFER
typedef size_t buffer_t;
static inline buffer_t wrap(const float *p, size_t n) { return p ? n : 0; }
#endif
SRC
cat >proj/wrap.cu <<'SRC'
#include <cuda_runtime.h>
#include "buffer.h"
int wrapped(size_t n) {
  float *ptr;
  if (cudaMalloc(&ptr, n) != cudaSuccess)
    return -1;
  buffer_t b = wrap(ptr, n);
  return b == n ? 0 : 1;
}
int not_named(size_t n) {
  float *q;
  if (cudaMalloc(&q, n) != cudaSuccess)
    return -1;
  buffer_t b = wrap(nullptr, n);
  return b == n ? 0 : 1;
}
SRC
run --config=/dev/null --only=GM001 --allow-parse-errors proj/wrap.cu -- -Iproj
expect_rc 1 "a leak in a file with errors"
expect_err "wrap.cu:7:3: note: clang: unknown type name 'buffer_t'" "clang's error shown as a note"
[ "$(count_out 'warning:')" -eq 1 ] || fail "one finding, not resting on the untyped code: $(cat "$WORK/out")"
expect_out "wrap.cu:12:7: warning: 'q' \(device memory from cudaMalloc\) is not freed on every path: a return leaves 'not_named' without releasing it; call cudaFree before returning \[GM001 unpaired-allocation\]" "q is not named by the untyped code"
expect_out "wrap.cu:15:3: note: this return leaves without freeing 'q'" "the note on q's leak"
expect_no_out "'ptr'" "ptr went into code clang could not type"

run --config=/dev/null --only=GM001 proj/wrap.cu -- -Iproj -DHAVE_BUFFER
expect_rc 1 "with the -D the file parses"
[ "$(count_out 'warning:')" -eq 2 ] || fail "both leaks once the types are known: $(cat "$WORK/out")"
expect_out "wrap.cu:5:7: warning: 'ptr' \(device memory from cudaMalloc\) is not freed on every path: a return leaves 'wrapped' without releasing it; call cudaFree before returning \[GM001 unpaired-allocation\]" "wrap, a same-file helper, only reads ptr"
expect_out "wrap.cu:12:7: warning: 'q' \(device memory from cudaMalloc\)" "q leaks as before"
finish
