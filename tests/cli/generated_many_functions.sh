#!/usr/bin/env bash
# Generated code (issue 30): 8000 small allocating functions in one file. GM010 once walked every
# other function body for each allocation, about 25 s of CPU here; the per-file call index makes it
# a look-up, well under a second. A CPU-time limit turns a return of the quadratic search into a
# failure (SIGXCPU) rather than a slow pass; the one function called in a loop is still reported.
source "$(dirname "$0")/testlib.bash"

gen="$WORK/many_functions.cu"
bash "$ROOT/bench/generated_code.sh" functions 8000 >"$gen"
cat >>"$gen" <<'SRC'
void drive(int n) {
  for (int i = 0; i < n; i++)
    step7999();
}
SRC
rc=0
(
  ulimit -t 10
  exec "$GMEMLINT" --no-cache -j 1 --only=GM010 "$gen"
) >"$WORK/out" 2>"$WORK/err" || rc=$?
expect_rc 1 "8000 generated functions, GM010"
[ "$(count_out 'warning:')" -eq 1 ] || fail "8000 generated functions: one finding expected: $(cat "$WORK/out")"
expect_out "^$gen:39999:3: warning: cudaMalloc in 'step7999' runs on every iteration of a loop that calls 'step7999'; on an H200 a cudaMalloc\+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync\+cudaFreeAsync from a stream-ordered pool costs about 1 us\. Allocate once outside the loop and pass the buffer in, or use cudaMallocAsync from a memory pool \[GM010 allocation-in-loop\]$" \
  "the allocation of the function called in a loop"
expect_out "^$gen:40004:5: note: 'step7999' is called in a loop here$" "the note at the call"
finish
