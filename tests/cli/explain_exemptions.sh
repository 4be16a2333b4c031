# --explain on what the program-wide checks and GM020 keep out: a member or a global that lives
# for the process (GM001), a wrong free the flow engine judged in its own function (GM002, not
# reported twice), a regrowth that doubles the size (GM020 and GM010): each said as a note with
# its reason, in full, and as a JSON `suppressed` entry; without --explain, nothing of them.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
cat >objects.cu <<'SRC'
#include <cuda_runtime.h>
#include <stdlib.h>
struct Pool {
  float *d_block;
  void reserve(size_t n) { cudaMalloc(&d_block, n); }
};
Pool *make_pool(size_t n) {
  Pool *p = new Pool;
  p->reserve(n);
  return p;
}
static float *g_lookup;
void init_lookup(size_t n) { cudaMalloc(&g_lookup, n); }
struct Stage {
  float *buf;
  void pin(size_t n) { cudaMallocHost(&buf, n); }
  void scratch(size_t n) {
    cudaMalloc(&buf, n);
    free(buf);
  }
};
SRC
cat >doubling.cu <<'SRC'
#include <cuda_runtime.h>
float *doubling(int rounds) {
  size_t size = 1024;
  float *buf = nullptr;
  cudaMalloc(&buf, size);
  for (int r = 0; r < rounds; ++r) {
    float *nb = nullptr;
    cudaMalloc(&nb, size * 2);
    cudaMemcpy(nb, buf, size, cudaMemcpyDeviceToDevice);
    cudaFree(buf);
    buf = nb;
    size *= 2;
  }
  return buf;
}
SRC
cat >want <<'OUT'
objects.cu:5:28: note: GM001 unpaired-allocation not reported (process-lifetime): 'Pool::d_block' (device memory from cudaMalloc) is never freed in the files analysed: nothing of its object is freed, and no object of its class is destroyed while the program runs: a process-lifetime cache or singleton
objects.cu:13:30: note: GM001 unpaired-allocation not reported (process-lifetime): 'g_lookup' (device memory from cudaMalloc) is never freed, and no global allocated with it is freed either: a table that lives for the process
objects.cu:19:5: note: GM002 mismatched-free not reported (own-block): 'Stage::buf' is also given pinned host memory from cudaMallocHost elsewhere, and released here with free: the free receives a block its own function allocated, judged by the flow engine
objects.cu:19:5: warning: 'buf' (device memory from cudaMalloc) is released with free, which frees host heap memory; use cudaFree [GM002 mismatched-free]
objects.cu:18:5: note: allocated here with cudaMalloc
doubling.cu:8:5: note: GM010 allocation-in-loop not reported (geometric-size): cudaMalloc in a loop: size multiplied on each iteration
doubling.cu:8:5: note: GM020 growing-concatenation not reported (geometric-size): cudaMalloc regrows a buffer in a loop, copying the old contents: size multiplied on each iteration
OUT
run --no-cache --explain objects.cu doubling.cu
expect_rc 1 "the wrong free is still reported"
grep -E ': (warning|note): ' "$WORK/out" >got || true
diff -u want got >diff || fail "--explain notes: $(cat diff)"

run --no-cache objects.cu doubling.cu
expect_no_out "not reported" "without --explain: no notes"
[ "$(count_out ': warning: ')" -eq 1 ] || fail "without --explain: the one finding: $(cat "$WORK/out")"

run --no-cache --explain --format=json objects.cu doubling.cu
"$PY" - "$WORK/out" <<'PY' || fail "JSON suppressed entries"
import json, sys
doc = json.load(open(sys.argv[1]))
got = [(s["rule"], s["reason"], s["file"].split("/")[-1], s["line"], s["function"]) for s in doc["suppressed"]]
want = [("GM001", "process-lifetime", "objects.cu", 5, "reserve"),
        ("GM001", "process-lifetime", "objects.cu", 13, "init_lookup"),
        ("GM002", "own-block", "objects.cu", 19, "scratch"),
        ("GM010", "geometric-size", "doubling.cu", 8, "doubling"),
        ("GM020", "geometric-size", "doubling.cu", 8, "doubling")]
assert sorted(got) == sorted(want), got
PY
# GM004, the host heap's twin of GM001's member check, says the same of a host member
cat >host.cu <<'SRC'
#include <stdlib.h>
struct Names {
  char *table;
  void fill(size_t n) { table = (char *)malloc(n); }
};
Names *make_names(size_t n) {
  Names *s = new Names;
  s->fill(n);
  return s;
}
SRC
run --no-cache --explain --only=GM004 --disable=GM001 host.cu
expect_out "^host.cu:4:41: note: GM004 unpaired-host-allocation not reported \(process-lifetime\): 'Names::table' \(host heap memory from malloc\) is never freed in the files analysed: nothing of its object is freed, and no object of its class is destroyed while the program runs: a process-lifetime cache or singleton$" "GM004's member note"
finish
