# A compile database's precompiled header: gmemlint cannot use the build's PCH (it is tied to the
# compiler that wrote it, and gmemlint builds its own preambles), so it includes the header the
# PCH was made from (HEADER.pch or HEADER.gch beside HEADER, or NAME.pch beside NAME.h, .hpp,
# .hxx or .cuh) in its place, once, whether the
# entry says -include-pch PCH or, as CMake writes it for clang, -Xclang -include-pch -Xclang PCH
# -Xclang -include -Xclang HEADER. The header here has no guard: a second include is an error.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
mkdir -p src build
cat >src/pre.h <<'SRC'
#include <cuda_runtime.h>
inline void release(float *p) { cudaFree(p); }
SRC
: >src/pre.h.pch # never read: its contents are the real compiler's
cp src/pre.h src/other.h
: >src/other.h.gch
cat >src/leak.cu <<'SRC'
int setup(int n) {
  float *a = nullptr;
  cudaMalloc(&a, n);
  if (n > 4)
    return -1;
  release(a);
  return 0;
}
SRC
cat >src/clean.cu <<'SRC'
int setup(int n) {
  float *a = nullptr;
  cudaMalloc(&a, n);
  release(a);
  return n > 4 ? -1 : 0;
}
SRC
finding="src/leak.cu:3:3: warning: 'a' (device memory from cudaMalloc) is not freed on every path: a return leaves 'setup' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]
src/leak.cu:5:5: note: this return leaves without freeing 'a'"
entries() { # COMMAND-WITHOUT-FILE: one entry for each source
  printf '[{"directory": "%s", "file": "leak.cu", "command": "%s -c leak.cu"},\n' "$WORK/src" "$1"
  printf ' {"directory": "%s", "file": "clean.cu", "command": "%s -c clean.cu"}]\n' "$WORK/src" "$1"
}
cp src/pre.h src/third.cuh
for form in "clang++ -include-pch pre.h.pch" \
  "clang++ -include-pch third.pch" \
  "clang++ -include-pch $WORK/src/other.h.gch" \
  "clang++ -Xclang -include-pch -Xclang $WORK/src/pre.h.pch -Xclang -include -Xclang $WORK/src/pre.h" \
  "clang++ -Xclang -include-pch -Xclang pre.h.pch -Xclang -include -Xclang pre.h"; do
  entries "$form" >build/compile_commands.json
  run --no-cache -p build src/leak.cu
  expect_rc 1 "$form: the leak"
  [ ! -s "$WORK/err" ] || fail "$form: the header is included once, in the PCH's place: $(cat "$WORK/err")"
  [ "$(grep -v '^ ' "$WORK/out")" = "$finding" ] || fail "$form: the finding in full: $(cat "$WORK/out")"
  run --no-cache -p build src/clean.cu
  expect_rc 0 "$form: the clean twin"
  [ ! -s "$WORK/out" ] && [ ! -s "$WORK/err" ] || fail "$form: clean twin: $(cat "$WORK/out" "$WORK/err")"
done

# a PCH whose header is not beside it: dropped, with a warning naming it, and the parse says
# what is missing
entries "clang++ -include-pch ../nowhere.pch" >build/compile_commands.json
run --no-cache -p build src/clean.cu
expect_rc 3 "a PCH without its header"
[ "$(head -1 err)" = "gmemlint: warning: src/clean.cu: precompiled header $WORK/src/../nowhere.pch, named by its entry in compile_commands.json, is the build compiler's and the header it was made from is not beside it; parsing without it" ] ||
  fail "a PCH without its header: the warning in full: $(cat err)"
expect_err "^gmemlint: warning: src/clean.cu: 1 parse error\(s\); findings may be incomplete; its only function, 'setup', holds an error, analysed with what clang could type$" \
  "a PCH without its header: the parse error is reported"
finish
