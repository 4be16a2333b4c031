# -p build/: each file's own flags from compile_commands.json (nvcc- and clang-style entries),
# and -j N: parallel runs print exactly what a serial run prints, in input order.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
mkdir -p src include build
cat >include/config.h <<'SRC'
#pragma once
#define STAGING_BYTES 4096
SRC
# parses only with -Iinclude and -DUSE_PINNED
cat >src/stage.cu <<'SRC'
#include <cuda_runtime.h>
#include "config.h"
#ifndef USE_PINNED
#error "build with -DUSE_PINNED"
#endif
void stage() {
  float *h = nullptr;
  if (cudaMallocHost(&h, STAGING_BYTES) != cudaSuccess)
    return;
  cudaFree(h);
}
SRC
cat >src/other.cpp <<'SRC'
#include <cuda_runtime.h>
#include "config.h"
int run(int fail) {
  char *buf; cudaMalloc(&buf, STAGING_BYTES);
  if (fail)
    return -1;
  cudaFree(buf);
  return 0;
}
SRC
cat >build/compile_commands.json <<JSON
[
  {"directory": "$WORK/build",
   "command": "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -I../include -DUSE_PINNED --generate-code=arch=compute_90,code=[compute_90,sm_90] -std=c++17 -x cu -c $WORK/src/stage.cu -o stage.o",
   "file": "$WORK/src/stage.cu"},
  {"directory": "$WORK/build",
   "arguments": ["/usr/bin/c++", "-I", "$WORK/include", "-O2", "-c", "../src/other.cpp", "-o", "other.o"],
   "file": "../src/other.cpp"}
]
JSON

run src/stage.cu
expect_rc 3 "without -p the file has errors (and no finding in what parsed)"
expect_err "note: clang: .*(config.h' file not found|build with -DUSE_PINNED)" "missing flags show as clang notes"

run -p build src/stage.cu
expect_rc 1 "with -p"
[ ! -s "$WORK/err" ] || fail "with -p there should be no parse errors: $(cat "$WORK/err")"
expect_out "src/stage.cu:10:3: warning: .*\[GM002 mismatched-free\]" "finding with the database's flags"

run src/stage.cu -- -Iinclude -DUSE_PINNED
expect_rc 1 "flags after --"
[ ! -s "$WORK/err" ] || fail "flags after -- should parse cleanly: $(cat "$WORK/err")"

run -p build
expect_rc 1 "-p alone analyses every entry"
expect_out "stage.cu:10:3: warning: .*GM002" "entry 1 analysed"
expect_out "other.cpp:4:[0-9]+: warning: .*GM001" "entry 2 analysed"

write_leak unlisted.cu
run -p build unlisted.cu
expect_rc 1 "file missing from the database still analysed"
expect_err "gmemlint: warning: unlisted.cu: no entry in compile_commands.json; using (default flags|the flags of a similar entry)" "missing entry warning"

# parallel runs: same output, same order, as -j 1
for i in 1 2 3 4 5 6; do write_leak "p$i.cu"; done
write_clean p7.cu
run -j 1 p*.cu
cp "$WORK/out" serial.txt
mkdir -p "$WORK/tmp"
TMPDIR="$WORK/tmp" run -j 2 p*.cu
cmp -s serial.txt "$WORK/out" || fail "-j 2 output differs from -j 1"
[ -z "$(ls -A "$WORK/tmp")" ] || fail "a shared preamble was left in TMPDIR: $(ls -A "$WORK/tmp")"
run -j 2 --pch=never p*.cu
cmp -s serial.txt "$WORK/out" || fail "--pch=never output differs from the shared-preamble run"
[ "$(grep -c 'warning:' serial.txt)" -eq 6 ] || fail "six leaks expected"
finish
