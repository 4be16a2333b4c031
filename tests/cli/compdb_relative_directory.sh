# A compile database entry whose "directory" is relative is taken from the database's own
# directory (where the build wrote it), not from wherever gmemlint runs: its file, its -I and its
# response files are found there, from any working directory, and a file of the same name
# relative to the working directory is not analysed instead.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
mkdir -p proj/build proj/src proj/inc src
printf '#define SIZE_OF_A 64\n' >proj/inc/size.h
printf -- '-I../inc\n' >proj/src/flags.rsp
cat >proj/src/leak.cu <<'SRC'
#include <cuda_runtime.h>
#include "size.h"
int setup(int fail) {
  float *a = nullptr; cudaMalloc(&a, SIZE_OF_A);
  if (fail) return -1;
  cudaFree(a); return 0;
}
SRC
cat >proj/src/clean.cu <<'SRC'
#include <cuda_runtime.h>
#include "size.h"
int setup(int fail) {
  float *a = nullptr; cudaMalloc(&a, SIZE_OF_A);
  cudaFree(a);
  return fail ? -1 : 0;
}
SRC
# decoys where "../src" leads from $WORK/proj: never to be read
mkdir -p decoy && cp proj/src/leak.cu src/leak.cu && cp proj/src/clean.cu src/clean.cu
cat >proj/build/compile_commands.json <<'JSON'
[{"directory": "../src", "file": "leak.cu", "command": "clang++ -I../inc -c leak.cu"},
 {"directory": "../src", "file": "clean.cu", "arguments": ["clang++", "@flags.rsp", "-c", "clean.cu"]}]
JSON
finding="$WORK/proj/src/leak.cu:4:23: warning: 'a' (device memory from cudaMalloc) is not freed on every path: a return leaves 'setup' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]
$WORK/proj/src/leak.cu:5:13: note: this return leaves without freeing 'a'"
for from in "$WORK" "$WORK/proj" "$WORK/proj/build" "$WORK/decoy"; do
  (cd "$from" && "$GMEMLINT" --no-cache -p "$WORK/proj/build" >"$WORK/out" 2>"$WORK/err") && rc=0 || rc=$?
  expect_rc 1 "-p alone from $from"
  [ ! -s err ] || fail "from $from: every entry's flags found: $(cat err)"
  [ "$(grep -v '^ ' out)" = "$finding" ] || fail "from $from: the finding in full, in proj/src: $(cat out)"
  (cd "$from" && "$GMEMLINT" --no-cache -p "$WORK/proj/build" "$WORK/proj/src/clean.cu" >"$WORK/out" 2>"$WORK/err") && rc=0 || rc=$?
  expect_rc 0 "the clean twin from $from"
  [ ! -s out ] && [ ! -s err ] || fail "the clean twin from $from: $(cat out err)"
done
finish
