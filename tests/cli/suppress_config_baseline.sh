# NOLINT comments, .gmemlint configuration (rule switches and project allocators), --enable and
# --disable, and baselines that survive moved lines.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
mkdir proj
write_leak proj/a.cu

run proj/a.cu
expect_rc 1 "leak found"
run --disable=GM001 proj/a.cu
expect_rc 0 "--disable"
run --only=GM002,GM003 proj/a.cu
expect_rc 0 "--enable other rules"
run --only=unpaired-allocation proj/a.cu
expect_rc 1 "--enable by name"

printf '[rules]\ndisable = GM001\n' >proj/.gmemlint
run proj/a.cu
expect_rc 0 ".gmemlint disables a rule"
run --config=/dev/null proj/a.cu
expect_rc 1 "--config overrides the upward search"
rm proj/.gmemlint

# a project's own allocator and free, declared as a family
cat >proj/pool.cu <<'SRC'
#include <cuda_runtime.h>
#include <stddef.h>
extern "C" int pool_alloc(void **out, size_t bytes);
extern "C" void pool_release(void *p);
int work(size_t n) {
  float *buf = nullptr;
  if (pool_alloc((void **)&buf, n) != 0)
    return -1;
  if (n > 1024)
    return -2;
  pool_release(buf);
  cudaFree(buf);
  return 0;
}
SRC
run proj/pool.cu
expect_rc 0 "unknown wrappers are escapes without a config"
cat >proj/.gmemlint <<'INI'
; our stream-ordered pool
[family team-pool]
description = pool memory
free = pool_release

[alloc pool_alloc]
family = team-pool
pointer = 0
size = 1

[free pool_release]
pointer = 0
frees = team-pool
INI
run proj/pool.cu
expect_rc 1 "declared wrappers are checked"
expect_out "pool.cu:7:7: warning: 'buf' \(pool memory from pool_alloc\) is not freed on every path.*\[GM001" "leak through a declared allocator"
expect_out "pool.cu:12:3: warning: .*freed twice.*\[GM003" "double free through a declared free"

# baselines: adopt today's findings, fail only on new ones, survive moved lines
write_leak b.cu
run --write-baseline base.json b.cu
expect_rc 1 "write-baseline still reports"
"$PY" -c "import json; d=json.load(open('base.json')); assert d['version']==1 and len(d['findings'])==1" || fail "baseline content"
run --baseline base.json b.cu
expect_rc 0 "baselined finding is not reported"
[ ! -s "$WORK/out" ] || fail "baselined finding printed"
{ echo '// moved'; echo; cat b.cu; } >b2.cu && mv b2.cu b.cu
run --baseline base.json b.cu
expect_rc 0 "baseline survives moved lines"
cat >>b.cu <<'SRC'
void more(int n) {
  float *d;
  cudaMalloc(&d, n);
  if (n > 4)
    return;
  cudaFree(d);
}
SRC
sed -i '1i #include <stdlib.h>' b.cu
run --baseline base.json b.cu
expect_rc 1 "new finding fails"
[ "$(count_out 'warning:')" -eq 1 ] || fail "only the new finding is reported: $(cat "$WORK/out")"
expect_out "b.cu:[0-9]+:[0-9]+: warning: 'd' \(device memory from cudaMalloc\)" "the new finding"

# GM004 (host heap leaks) is off by default: --enable names it, `all` includes it, and
# .gmemlint's [rules] enable adds it to the default rules
mkdir -p host
cat >host/h.cu <<'SRC'
#include <cuda_runtime.h>
#include <stdlib.h>
int stage(int n) {
  float *h = (float *)malloc(n);
  float *d = nullptr;
  if (cudaMalloc(&d, n) != cudaSuccess)
    return -1;
  cudaFree(d);
  free(h);
  return 0;
}
SRC
run --config=/dev/null host/h.cu
expect_rc 0 "a host leak alone is not reported by default"
expect_no_out "GM004" "GM004 is off by default"
run --config=/dev/null --only=GM004 host/h.cu
expect_rc 1 "--only=GM004"
expect_out "h.cu:4:23: warning: 'h' \(host heap memory from malloc\) is not freed on an error path: .*\[GM004 unpaired-host-allocation\]" "--only=GM004 reports the host leak"
# --enable adds to the rules that run (as cppcheck's --enable does); --only runs those alone
# (clang-tidy's -checks=-*,X)
cat >host/both.cu <<'SRC'
#include <cuda_runtime.h>
#include <stdlib.h>
int stage(int n) {
  float *h = (float *)malloc(n);
  float *d = nullptr;
  if (cudaMalloc(&d, n) != cudaSuccess)
    return -1;
  if (n > 4)
    return -2;
  cudaFree(d);
  free(h);
  return 0;
}
SRC
run --config=/dev/null --enable=GM004 host/both.cu
expect_rc 1 "--enable=GM004 on a device and a host leak"
[ "$(grep -oE '\[GM00[14] [a-z-]+\]' "$WORK/out" | sort | uniq -c | tr -s ' ' | tr '\n' ';')" = \
  " 1 [GM001 unpaired-allocation]; 1 [GM004 unpaired-host-allocation];" ] ||
  fail "--enable=GM004 adds GM004 to the default rules: $(cat "$WORK/out")"
run --config=/dev/null --only=GM004 host/both.cu
[ "$(grep -oE '\[GM00[0-9] [a-z-]+\]' "$WORK/out" | sort | uniq -c | tr -s ' ' | tr '\n' ';')" = \
  " 1 [GM004 unpaired-host-allocation];" ] || fail "--only=GM004 runs GM004 alone: $(cat "$WORK/out")"
run --config=/dev/null --enable=GM004 --disable=GM001 host/both.cu
[ "$(grep -oE '\[GM00[0-9] [a-z-]+\]' "$WORK/out" | sort | uniq -c | tr -s ' ' | tr '\n' ';')" = \
  " 1 [GM004 unpaired-host-allocation];" ] || fail "--enable with --disable: $(cat "$WORK/out")"
run --config=/dev/null --only=GM004 --disable=GM004 host/both.cu
expect_rc 0 "--disable takes a rule out of --only's too"
run --config=/dev/null --only=GM999 host/both.cu
expect_rc 2 "an unknown rule in --only"
[ "$(cat "$WORK/err")" = "gmemlint: error: unknown rule 'GM999' in --only (see --list-rules)" ] ||
  fail "--only's unknown rule: $(cat "$WORK/err")"
run --config=/dev/null --enable=all host/h.cu
expect_out "\[GM004 unpaired-host-allocation\]" "--enable=all includes GM004"
run --config=/dev/null --disable=GM003 host/h.cu
expect_no_out "GM004" "--disable alone leaves GM004 off"
printf '[rules]\nenable = GM004\n' >host/.gmemlint
run host/h.cu
expect_out "\[GM004 unpaired-host-allocation\]" ".gmemlint enable = GM004 turns it on"
run --disable=GM004 host/h.cu
expect_no_out "GM004" "--disable=GM004 wins over .gmemlint"
finish
