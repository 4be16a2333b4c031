# A file's run of system headers reached through its own quoted headers (include_run.h,
# gm_include_run_scan_through): when a file begins with `#include "H"` and H (found in the file's
# directory or an -I directory) begins with system includes, after `#pragma once` or an include
# guard, those join the file's run and its preamble; anything else first in H (a #define) ends
# the run there. The output is byte-identical to --pch=never either way.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
mkdir sys inc src
# a system header whose macro decides whether step() frees its buffer
printf '#pragma once\n#define SYS_RELEASE(p) cudaFree(p)\n' >sys/release.h
printf '#pragma once\n#define SYS_OTHER 1\n' >sys/other.h
# reached through a chain: src/app.h (pragma once) -> inc/common.h (include guard)
printf '#pragma once\n#include <cuda_runtime.h>\n#include "common.h"\nint app(void);\n' >src/app.h
printf '#ifndef COMMON_H\n#define COMMON_H\n#include <release.h>\n#include <other.h>\n#endif\n' >inc/common.h
# not reached: a #define comes first in the header, and may change what a system header means
printf '#pragma once\n#define LOCAL 1\n#include <release.h>\n' >src/defines_first.h
body() {
  cat <<'SRC'
void step(int n) {
  float *buf = nullptr;
  cudaMalloc(&buf, n);
  SYS_RELEASE(buf);
}
int setup(int n) {
  float *a = nullptr, *b = nullptr;
  if (cudaMalloc(&a, n) != cudaSuccess)
    return -1;
  if (cudaMalloc(&b, n) != cudaSuccess)
    return -1;
  cudaFree(a);
  cudaFree(b);
  return 0;
}
SRC
}
{ printf '#include "app.h"\n'; body; } >src/through.cu
{ printf '#include <cuda_runtime.h>\n#include "defines_first.h"\n'; body; } >src/stops.cu
{ printf '#include "missing.h"\n'; body; } >src/missing.cu
LEAK="^src/through\.cu:9:7: warning: 'a' \(device memory from cudaMalloc\) is not freed on an error path: a return after a failed call leaves 'setup' without releasing it; call cudaFree before returning \[GM001 unpaired-allocation\]$"
FLAGS=(-- -isystem sys -I inc)
held() { grep -E '^  on a chained preamble' "$WORK/err" | sed 's/^  on a chained preamble *//'; }

for f in through stops missing; do
  run --no-cache --no-progress -j 1 --pch=never src/$f.cu "${FLAGS[@]}"
  cp out $f.never
  cp err $f.never.err
  run --no-cache --no-progress -j 1 --cache-stats --time-report src/$f.cu "${FLAGS[@]}"
  cmp -s out $f.never || fail "$f: output differs from --pch=never: $(diff $f.never out | head)"
  sed '/^gmemlint: cache/d; /time report/,$d' err | cmp -s - $f.never.err ||
    fail "$f: messages differ from --pch=never: $(cat err)"
  case $f in
  through)
    expect_rc 1 "through: the error-path leak"
    expect_out "$LEAK" "through: GM001 in setup, in full"
    expect_no_out 'through\.cu:4:' "through: buf freed by the system header's macro"
    # cuda_runtime.h, release.h and other.h, none of them the file's own directive
    [ "$(held)" = "1 of 1 parses, holding 3 of their 3 leading system includes" ] ||
      fail "through: the headers reached through app.h and common.h: $(held)"
    ;;
  stops)
    [ "$(held)" = "1 of 1 parses, holding 1 of their 1 leading system includes" ] ||
      fail "stops: only the file's own <cuda_runtime.h>: $(held)"
    ;;
  missing)
    expect_rc 3 "missing: a parse error, as without preambles"
    [ "$(held)" = "0 of 1 parses, holding 0 of their 0 leading system includes" ] ||
      fail "missing: nothing reached: $(held)"
    ;;
  esac
done

# a changed header reached through the chain is noticed by the store, as the file's own are
run --no-cache --no-progress -j 1 --cache-stats src/through.cu "${FLAGS[@]}"
expect_err '^gmemlint: cache: preambles: 2 reused, 0 stored' "through: the second run reuses both"
printf '#pragma once\n#define SYS_RELEASE(p) ((void)(p))\n' >sys/release.h
run --no-cache --no-progress -j 1 --cache-stats src/through.cu "${FLAGS[@]}"
expect_err '^gmemlint: cache: preambles: 1 reused, 1 stored' "through: release.h changed, rebuilt"
expect_out "^src/through\.cu:4:3: warning: 'buf' \(device memory from cudaMalloc\) is not freed on every path through 'step'; call cudaFree when it is no longer needed \[GM001 unpaired-allocation\]$" "through: the changed macro"
cp out changed.out
run --no-cache --no-progress -j 1 --pch=never src/through.cu "${FLAGS[@]}"
cmp -s out changed.out || fail "through, changed: differs from --pch=never: $(diff changed.out out)"
finish
