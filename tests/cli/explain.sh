# --explain: what the run kept from its report, and why. A latent free (silent by default), a
# finding a NOLINT comment suppresses and a function cut short are each said as a note in text
# and as a `suppressed` entry in JSON, with the rule, the reason and the finding's own message;
# without --explain nothing of them is printed, and the findings are the same either way.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
cat >stage.cu <<'SRC'
#include <cuda_runtime.h>
extern bool g_pinned;
void log_progress(const char *what);
int stage(size_t n) {
  float *a = nullptr;
  if (g_pinned)
    cudaMallocHost(&a, n);
  else
    cudaMalloc(&a, n);
  log_progress("allocated");
  if (g_pinned)
    cudaFreeHost(a);
  else
    cudaFree(a);
  return 0;
}
int quiet(size_t n) {
  float *b;
  if (cudaMalloc(&b, n) != cudaSuccess) // NOLINT(GM001)
    return 1;
  return 0;
}
SRC
cat >wide.cu <<'SRC'
#include <cuda_runtime.h>
void sink(int);
float *wide(const bool *f, size_t n) {
  float *p = nullptr;
SRC
# 16 flags, each deciding an allocation: more paths than the engine keeps apart
for i in $(seq 0 15); do
  echo "  float *q$i = nullptr; if (f[$i]) cudaMalloc(&q$i, n);" >>wide.cu
done
for i in $(seq 0 15); do
  echo "  if (f[$i]) cudaFree(q$i);" >>wide.cu
done
echo "  return p;" >>wide.cu
echo "}" >>wide.cu

run --no-cache stage.cu
expect_rc 0 "default: the latent frees and the NOLINT-ed leak are silent"
expect_no_out "not reported" "default: nothing said of them"

run --no-cache --explain stage.cu
expect_rc 0 "--explain changes no finding and no exit status"
expect_out "^stage.cu:12:5: note: GM002 mismatched-free not reported \(latent\): 'a' \(device memory from cudaMalloc\) is released with cudaFreeHost, which frees pinned host memory; use cudaFree; it holds only on paths that rest on a value gmemlint could not keep or on code clang could not type \(--latent reports it\)$" "the latent free on the device buffer, said"
expect_out "^stage.cu:14:5: note: GM002 mismatched-free not reported \(latent\): 'a' \(pinned host memory from cudaMallocHost\) is released with cudaFree, which frees device memory; use cudaFreeHost; it holds" "the latent free on the pinned buffer, said"
expect_out "^stage.cu:19:7: note: GM001 unpaired-allocation not reported \(nolint\): a NOLINT comment suppresses it: 'b' \(device memory from cudaMalloc\) is not freed on every path: a return leaves 'quiet' without releasing it; call cudaFree before returning$" "the NOLINT-ed leak, said"
[ "$(count_out 'not reported')" -eq 3 ] || fail "--explain: exactly three notes"

run --no-cache --latent --explain stage.cu
expect_rc 1 "--latent reports the latent frees"
expect_no_out "not reported \(latent\)" "--latent: reported, so not said as kept out"

run --no-cache --explain --format=json stage.cu
python3 - "$WORK/out" <<'PY' || fail "JSON suppressed entries"
import json, sys
doc = json.load(open(sys.argv[1]))
got = sorted((s["rule"], s["reason"], s["line"], s["column"], s["function"]) for s in doc["suppressed"])
want = [("GM001", "nolint", 19, 7, "quiet"), ("GM002", "latent", 12, 5, "stage"),
        ("GM002", "latent", 14, 5, "stage")]
assert got == want, got
assert doc["findings"] == [], doc["findings"]
assert all(s["message"].startswith(s["rule"] + " ") for s in doc["suppressed"])
PY
run --no-cache --format=json stage.cu
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert "suppressed" not in d, d' "$WORK/out" ||
  fail "JSON without --explain has no suppressed entries"

run --no-cache --explain --format=json wide.cu
python3 - "$WORK/out" <<'PY' || fail "a function cut short is said in suppressed"
import json, sys
doc = json.load(open(sys.argv[1]))
cut = [s for s in doc["suppressed"] if s["reason"] == "cut-short"]
assert len(cut) == 1, doc["suppressed"]
s = cut[0]
assert (s["rule"], s["line"], s["function"]) == ("", 3, "wide"), s
assert s["message"] == "not reported (cut-short): what the paths of 'wide' past the budget would show is not known", s
assert any(n["kind"] == "cut-short" for n in doc["notices"]), doc["notices"]
PY

run --no-cache --explain --format=sarif stage.cu
python3 - "$WORK/out" <<'PY' || fail "SARIF gives them as notifications"
import json, sys
doc = json.load(open(sys.argv[1]))
notes = doc["runs"][0]["invocations"][0]["toolExecutionNotifications"]
sup = [n for n in notes if n["descriptor"]["id"] == "suppressed"]
assert len(sup) == 3 and all(n["level"] == "note" for n in sup), notes
PY

run --help
expect_out "--explain" "--help lists --explain"
finish
