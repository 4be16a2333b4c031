#!/usr/bin/env bash
# Generated code: one function of 12000 lambdas, each called where it is made. Each lambda the
# flow engine met looked its body up by scanning every function of the file, as each call looked
# up its callee's summary: N^2 string compares, 2 s of the flow stage at 12000 (0.9 s at 8000).
# Now the functions are indexed by USR once per file: 0.1 s. The CPU-time limit turns a return
# of the quadratic work into a failure rather than a slow pass. The buffer the last lambda frees
# is not reported; the one nobody frees is.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
count=12000
{
  echo '#include <cuda_runtime.h>'
  echo 'int many(int n) {'
  echo '  float *p = nullptr, *q = nullptr;'
  echo '  cudaMalloc(&p, n);'
  echo '  cudaMalloc(&q, n);'
  echo '  int s = 0;'
  for ((i = 0; i < count; i++)); do echo "  auto l$i = [&] { return s + $i; }; s += l$i();"; done
  echo '  auto release = [&] { cudaFree(p); };'
  echo '  release();'
  echo '  return s;'
  echo '}'
} >many.cu
run_capped 60 --no-cache -j 1 --time-report many.cu
expect_rc 1 "$count lambdas"
expect_out "^many.cu:5:3: warning: 'q' \(device memory from cudaMalloc\) is not freed on every path: a return leaves 'many' without releasing it; call cudaFree before returning \[GM001 unpaired-allocation\]$" \
  "the leak beside the lambdas"
expect_out "^many.cu:$((count + 9)):3: note: this return leaves without freeing 'q'$" "its note"
[ "$(count_out ': (warning|note):')" -eq 2 ] || fail "one warning, one note: $(cut -c1-200 "$WORK/out")"
expect_stage_under "flow" 0.6
finish
