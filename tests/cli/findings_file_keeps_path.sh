# Findings written as JSON and read back (a *.gmemlint.json from gmemcc --gmem-lint) keep what
# kind of path a leak is on: an error-path leak stays a SARIF note, a normal-path one a warning.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
cat >paths.cu <<'SRC'
#include <cuda_runtime.h>
int on_error(size_t n) {
  float *a = nullptr, *b = nullptr;
  cudaMalloc(&a, n);
  if (cudaMalloc(&b, n) != cudaSuccess)
    return -1;
  cudaFree(b);
  cudaFree(a);
  return 0;
}
int on_normal(size_t n, int k) {
  float *c = nullptr;
  cudaMalloc(&c, n);
  if (k > 2)
    return 1;
  cudaFree(c);
  return 0;
}
SRC
run --no-cache --format=json paths.cu
expect_rc 1 "the leaks are findings"
cp "$WORK/out" paths.gmemlint.json
run --format=json paths.gmemlint.json
expect_out '"path": "error"' "JSON read back: the error-path leak"
expect_out '"path": "normal"' "JSON read back: the normal-path leak"
run --format=sarif paths.gmemlint.json
levels=$("$PY" -c 'import json,sys; r=json.load(open(sys.argv[1]))["runs"][0]["results"]; print(" ".join(sorted(x["level"] for x in r)))' "$WORK/out")
[ "$levels" = "note warning" ] || fail "SARIF levels after reading back: '$levels', expected 'note warning'"
finish
