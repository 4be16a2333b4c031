# --export-fixes writes clang-tidy's YAML; clang-apply-replacements applies it, and the fixed
# file parses and no longer allocates in the loop.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
cat >train.cu <<'SRC'
#include <cuda_runtime.h>
__global__ void step(float *t, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    t[i] += 1.0f;
}
void train(int steps, int n) {
  float *scratch = nullptr;
  for (int s = 0; s < steps; ++s) {
    cudaMalloc(&scratch, n * sizeof(float)); // per-step scratch
    step<<<(n + 255) / 256, 256>>>(scratch, n);
    cudaFree(scratch);
  }
}
void tiles(int count, const int *sizes) {
  float *tile = nullptr;
  for (int t = 0; t < count; ++t) {
    cudaMalloc(&tile, sizes[t] * sizeof(float)); // varies: no mechanical fix
    step<<<1, 256>>>(tile, sizes[t]);
    cudaFree(tile);
  }
}
SRC
run --only=GM010 --export-fixes fixes.yaml train.cu
expect_rc 1 "findings"
[ "$(count_out 'warning:')" -eq 2 ] || fail "two GM010 findings expected: $(cat "$WORK/out")"
"$PY" - fixes.yaml <<'PY' || fail "fix YAML content"
import sys, re
text = open(sys.argv[1]).read()
assert text.startswith("---\nMainSourceFile: ") and text.rstrip().endswith("...")
assert text.count("DiagnosticName: \"GM010\"") == 1, text   # only the invariant one has a fix
assert text.count("- FilePath:") == 4, text
PY
APPLY=/usr/lib/llvm-22/bin/clang-apply-replacements
if [ -x "$APPLY" ]; then
  mkdir fixes && cp fixes.yaml fixes/train.yaml
  "$APPLY" fixes || fail "clang-apply-replacements rejected the fixes"
  grep -q "^  cudaMalloc(&scratch, n \* sizeof(float)); // per-step scratch$" train.cu || fail "allocation hoisted before the loop: $(cat train.cu)"
  grep -q "^  cudaFree(scratch);$" train.cu || fail "free moved after the loop: $(cat train.cu)"
  clang-22 -fsyntax-only -x cuda --cuda-host-only -nocudalib -Wno-unknown-cuda-version --cuda-path=/usr/local/cuda train.cu || fail "fixed file does not parse"
  run --only=GM010 train.cu
  [ "$(count_out 'warning:')" -eq 1 ] || fail "after the fix only the varying one remains: $(cat "$WORK/out")"
else
  fail "clang-apply-replacements not found at $APPLY (bootstrap.sh installs clang-tools-22)"
fi
finish
