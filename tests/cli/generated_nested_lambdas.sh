#!/usr/bin/env bash
# Generated code (issue 30): 1500 lambdas, each within the one before. Building each lambda's
# model once walked its whole subtree again for its captures and asked clang for its call
# operator's USR, which spells every enclosing lambda: N^2 work, past this test's 30 s of CPU
# (13 s of the model stage at 1000). Now the walk is made once, from the outermost lambda, and a
# lambda's calls are keyed by its closure: 0.2 s. The CPU-time limit turns a return of the
# quadratic work into a failure rather than a slow pass; clang's own parse of the file takes
# about 5 s (CUDA mode; it grows faster than N itself). The leak beside the lambdas is reported.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
depth=1500
{
  echo '#include <cuda_runtime.h>'
  echo 'int nested(int n) {'
  echo '  float *p = nullptr;'
  echo '  cudaMalloc(&p, n);'
  printf '  return '
  for ((i = 0; i < depth; i++)); do printf '[&]{ return '; done
  printf 'n'
  for ((i = 0; i < depth; i++)); do printf '; }()'; done
  echo ';'
  echo '}'
} >nested.cu
run_capped 30 --no-cache -j 1 --time-report nested.cu
expect_rc 1 "$depth nested lambdas"
expect_out "^nested.cu:4:3: warning: 'p' \(device memory from cudaMalloc\) is not freed on every path: a return leaves 'nested' without releasing it; call cudaFree before returning \[GM001 unpaired-allocation\]$" \
  "the leak beside the lambdas"
expect_out "^nested.cu:5:3: note: this return leaves without freeing 'p'$" "its note"
[ "$(count_out ': (warning|note):')" -eq 2 ] || fail "one warning, one note: $(cut -c1-200 "$WORK/out")"
expect_stage_under "model" 4
finish
