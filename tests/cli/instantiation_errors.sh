# Files are parsed as incomplete units (frontend.c): clang does not instantiate the function
# templates a file uses, since the model is of the code as written. An error that only an
# instantiation finds (a dependent call to nothing) is then no parse error, and the leak beside it
# is found as before; an error in code as written is still reported, with its note.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
cat >inst.cu <<'SRC'
#include <cuda_runtime.h>
template <typename T> T twice(T v) { return no_such_helper(v) * 2; }
float use_twice(float x) { return twice(x); }
template <typename T> T *make(size_t n) {
  T *p = nullptr;
  cudaMalloc(&p, n * sizeof(T));
  return p;
}
void leaks() {
  float *a = make<float>(16);
  a[0] = use_twice(1.0f);
}
SRC
cat >written.cu <<'SRC'
#include <cuda_runtime.h>
float broken(float x) { return no_such_helper(x); }
void leaks() {
  float *a = nullptr;
  cudaMalloc(&a, 64);
}
SRC
run --no-cache --no-progress inst.cu
expect_rc 1 "inst.cu: a finding"
expect_out "inst.cu:10:[0-9]+: warning: 'a' .*GM001" "the leak through the template is found"
! grep -q "parse error" err || fail "an error only an instantiation finds is not reported: $(cat err)"
! grep -q "no_such_helper" err || fail "no note for the uninstantiated call: $(cat err)"
run --no-cache --no-progress written.cu
expect_rc 3 "written.cu: a finding, and a parse error (exit 3)"
expect_out "written.cu:5:[0-9]+: warning: .*GM001" "the leak beside the error is found"
expect_err "written.cu:2:[0-9]+: note: clang: use of undeclared identifier 'no_such_helper'" \
  "an error in code as written is reported"
expect_err "written.cu: 1 parse error\(s\)" "and counted"
finish
