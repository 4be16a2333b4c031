# The legacy layer (analyzer/frontend/cuda11_legacy.cuh): a file that uses APIs removed since
# CUDA 11 is parsed with gmemlint's declarations of them, and a legacy-api notice says so in
# every format, from the result cache too; with a shared preamble the output is the same; a file
# that does not need the layer never sees it (its own `texture` type is its own).
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
cat >old.cu <<'SRC'
#include <cuda_runtime.h>
int copy_in(const float *h, int n) {
  float *d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return -1;
  if (cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice) != cudaSuccess)
    return -2;
  cudaThreadSynchronize();
  cudaFree(d);
  return 0;
}
SRC
# its own texture template and a clockRate of its own: no error, so no legacy layer
cat >own.cu <<'SRC'
#include <cuda_runtime.h>
template <class T> struct texture { T *data; int clockRate; };
int own(int n) {
  texture<float> t;
  t.clockRate = n;
  float *d = nullptr;
  cudaMalloc(&d, n);
  return t.clockRate;
}
SRC
NOTICE="old.cu: uses APIs removed from the CUDA toolkit \(cudaThreadSynchronize\); parsed with gmemlint's declarations of the CUDA 11 API"

run --no-cache old.cu
expect_rc 1 "the leak in code for CUDA 11 is found"
expect_out "^old.cu:8:3: note: $NOTICE$" "the notice, at the first use"
expect_out "^old.cu:4:7: warning: 'd' \(device memory from cudaMalloc\) is not freed on an error path" "GM001"
grep -q 'clang:' "$WORK/err" && fail "old.cu: parse errors: $(grep 'clang:' "$WORK/err" | head -3)"

run --no-cache own.cu
expect_rc 1 "own.cu: the leak of d"
expect_no_out "uses APIs removed" "own.cu needs no legacy layer"
grep -q 'clang:' "$WORK/err" && fail "own.cu: parse errors: $(grep 'clang:' "$WORK/err" | head -3)"

run --no-cache --format=json old.cu own.cu
"$PY" - "$WORK/out" <<'PY' || fail "JSON notice"
import json, sys
n = json.load(open(sys.argv[1]))["notices"]
assert [(x["kind"], x["file"], x["line"], x["column"]) for x in n] == [("legacy-api", "old.cu", 8, 3)], n
assert n[0]["message"].startswith("old.cu: uses APIs removed from the CUDA toolkit (cudaThreadSynchronize)"), n
PY
run --no-cache --format=sarif old.cu
"$PY" - "$WORK/out" <<'PY' || fail "SARIF notification"
import json, sys
inv = json.load(open(sys.argv[1]))["runs"][0]["invocations"][0]
notes = [n for n in inv["toolExecutionNotifications"] if n["descriptor"]["id"] == "legacy-api"]
assert len(notes) == 1 and notes[0]["level"] == "note", inv
assert notes[0]["locations"][0]["physicalLocation"]["region"] == {"startLine": 8, "startColumn": 3}, notes
PY

# the result cache stores the parse (no virtual header among its files) and replays the notice
C=(--cache-dir="$WORK/cache" --cache-stats --no-progress)
run "${C[@]}" old.cu own.cu
cp "$WORK/out" cold.out
expect_err '0 hit\(s\), 2 miss\(es\), 2 stored' "both stored"
run "${C[@]}" old.cu own.cu
expect_err '2 hit\(s\), 0 miss\(es\), 0 stored' "both hit"
cmp -s cold.out "$WORK/out" || fail "cache hit differs: $(diff cold.out "$WORK/out" | head)"
grep -rqa --exclude-dir=preambles '__gmemlint__' "$WORK/cache" && fail "the cache lists a virtual header as a file read"

# with a shared preamble (three files or more), the same output
cp old.cu old2.cu
run --no-cache --pch=always old.cu own.cu old2.cu
cp "$WORK/out" pch.out
run --no-cache --pch=never old.cu own.cu old2.cu
cmp -s pch.out "$WORK/out" || fail "--pch=always and never differ: $(diff pch.out "$WORK/out" | head)"
[ "$(grep -c 'uses APIs removed' pch.out)" -eq 2 ] || fail "a notice for old.cu and old2.cu: $(cat pch.out)"
finish
