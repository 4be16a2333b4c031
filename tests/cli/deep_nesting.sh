# An expression nested 2000 parentheses deep (within clang's limit of 2048) is analysed: libclang
# used to parse on a thread of its own with an 8 MB stack, which such nesting overflowed
# (gmemlint died with SIGSEGV); the parse now runs on gmemlint's worker thread and its stack.
source "$(dirname "$0")/testlib.bash" "$@"
cd "$WORK"
depth=2000
open=$(printf '%*s' "$depth" '' | tr ' ' '(')
close=$(printf '%*s' "$depth" '' | tr ' ' ')')
cat >deep.cu <<SRC
#include <cuda_runtime.h>
int setup(int n) {
  float *a = nullptr, *b = nullptr;
  if (cudaMalloc(&a, ${open}n${close}) != cudaSuccess)
    return -1;
  if (cudaMalloc(&b, n) != cudaSuccess)
    return -1;
  cudaFree(a);
  cudaFree(b);
  return 0;
}
SRC
for jobs in 1 2; do
  run --no-cache -j "$jobs" --only=GM001 deep.cu
  expect_rc 1 "-j $jobs: 2000 nested parentheses"
  [ ! -s "$WORK/err" ] || fail "-j $jobs: stderr: $(head -c 600 "$WORK/err")"
  expect_out "^deep.cu:4:7: warning: 'a' \(device memory from cudaMalloc\) is not freed on an error path: a return after a failed call leaves 'setup' without releasing it; call cudaFree before returning \[GM001 unpaired-allocation\]$" "-j $jobs: the leak after the deep expression"
  expect_out "^deep.cu:7:5: note: this return after a failed call leaves without freeing 'a'$" "-j $jobs: its note"
  [ "$(count_out ': (warning|note):')" -eq 2 ] || fail "-j $jobs: one warning, one note: $(cut -c1-200 "$WORK/out")"
done
finish
