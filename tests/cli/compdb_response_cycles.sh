# -p build/: response files that name themselves, directly or through others (@file, nvcc's
# --options-file and both mixed): one warning naming the cycle, the rest of the entry's flags
# read, no time lost (each mention used to be read again, to 16 deep), and every line on stderr
# gmemlint's own (libclang's expansion of @file printed its cycle message bare).
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
mkdir -p src build
for f in self optf mixed many dir; do
  cat >"src/$f.cu" <<'SRC'
#include <cuda_runtime.h>
#if !defined(FROM_RSP) || FROM_RSP != 7
#error "FROM_RSP=7 comes from a response file"
#endif
int setup(int fail) {
  float *a = nullptr; cudaMalloc(&a, FROM_RSP);
  if (fail) return -1;
  cudaFree(a); return 0;
}
SRC
done
printf -- '@self.rsp @self.rsp -DFROM_RSP=7 @self.rsp\n' >build/self.rsp
printf -- '--options-file b.rsp -DFROM_RSP=7\n' >build/a.rsp
printf -- '-optf a.rsp,a.rsp\n' >build/b.rsp
printf -- '--options-file=n.rsp -DFROM_RSP=7\n' >build/m.rsp
printf -- '@m.rsp @m.rsp\n' >build/n.rsp
# no cycle, but each options file names the next twice: 2^10 reads unless bounded
for i in 0 1 2 3 4 5 6 7 8; do printf -- '-optf d%d.rsp,d%d.rsp\n' $((i + 1)) $((i + 1)) >"build/d$i.rsp"; done
printf -- '-DFROM_RSP=7\n' >build/d9.rsp
mkdir build/dir.rsp # one libclang cannot read either: it said so bare, too
cat >build/compile_commands.json <<JSON
[
  {"directory": "$WORK/build", "command": "nvcc @self.rsp -c $WORK/src/self.cu",
   "file": "$WORK/src/self.cu"},
  {"directory": "$WORK/build", "command": "nvcc --options-file a.rsp -c $WORK/src/optf.cu",
   "file": "$WORK/src/optf.cu"},
  {"directory": "$WORK/build", "arguments": ["nvcc", "-optf", "n.rsp", "-c", "$WORK/src/mixed.cu"],
   "file": "$WORK/src/mixed.cu"},
  {"directory": "$WORK/build", "command": "nvcc --options-file d0.rsp -c $WORK/src/many.cu",
   "file": "$WORK/src/many.cu"},
  {"directory": "$WORK/build", "command": "nvcc @dir.rsp -DFROM_RSP=7 -c $WORK/src/dir.cu",
   "file": "$WORK/src/dir.cu"}
]
JSON

check() { # FILE RSP CHAIN
  rc=0
  timeout 10 "$GMEMLINT" -p build "src/$1" >"$WORK/out" 2>"$WORK/err" || rc=$?
  expect_rc 1 "$1: a cycle of response files, read in bounded time"
  expect_out "^src/$1:6:23: warning: 'a' \(device memory from cudaMalloc\) is not freed on every path: .*\[GM001 unpaired-allocation\]$" \
    "$1: the rest of the entry's flags read"
  local want="gmemlint: warning: src/$1: response file $WORK/build/$2 includes itself ($3); that mention is left out, the rest of its flags are read"
  [ "$(cat "$WORK/err")" = "$want" ] || fail "$1: one warning expected: $want; stderr: $(head -c 600 "$WORK/err")"
  ! grep -qv '^gmemlint:' "$WORK/err" || fail "$1: a line not gmemlint's on stderr: $(grep -v '^gmemlint:' "$WORK/err" | head -c 300)"
}
check self.cu self.rsp "self.rsp -> self.rsp"
check optf.cu a.rsp "a.rsp -> b.rsp -> a.rsp"
check mixed.cu n.rsp "n.rsp -> m.rsp -> n.rsp"

rc=0
timeout 10 "$GMEMLINT" -p build src/many.cu >"$WORK/out" 2>"$WORK/err" || rc=$?
expect_rc 1 "a file named twice by each of ten: read a bounded number of times"
expect_out "^src/many.cu:6:23: warning: .*\[GM001 unpaired-allocation\]$" "many.cu: the flags read"
expect_err "^gmemlint: warning: src/many.cu: its entry in compile_commands.json names response files more than 256 times; $WORK/build/d[0-9]\.rsp and those after it are left out$" \
  "many.cu: the bound named"
[ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "many.cu: one warning expected: $(head -c 600 "$WORK/err")"

run -p build src/dir.cu
expect_rc 1 "an @file that is a directory: the rest of the entry read"
want="gmemlint: warning: src/dir.cu: cannot read response file $WORK/build/dir.rsp, named by its entry in compile_commands.json: Is a directory; parsing without the flags it holds"
[ "$(cat "$WORK/err")" = "$want" ] || fail "dir.cu: one warning expected: $want; stderr: $(head -c 600 "$WORK/err")"
finish
