# gmemcc --gmem-check says what a built file routes through the runtime (the units compiled with
# gmem_forced.h, and whether libgmemrt is linked in), and exits 1 when it is not instrumented.
# Built for real with nvcc and gcc: a project with its own cuda.h on the -I path (which must not
# stand in for the toolkit's, even in a C file) that includes <gmemlint/gmemrt.h> for gmem_step.
source "$(dirname "$0")/testlib.bash"
source "$(dirname "$0")/gmemcc_lib.bash"
if ! have_nvcc; then
  echo "skipped: nvcc not found on PATH or in /usr/local/cuda/bin"
  exit 0
fi
cd "$WORK"
mkdir inc
cat >inc/cuda.h <<'SRC'
/* the project's own cuda.h, not the toolkit's */
#ifndef PROJECT_CUDA_H
#define PROJECT_CUDA_H
#define PROJECT_BLOCK 128
#endif
SRC
cat >plain.c <<'SRC'
#include "cuda.h"
int block_size(void) { return PROJECT_BLOCK; }
SRC
cat >app.cu <<'SRC'
#include "cuda.h"
#include <gmemlint/gmemrt.h>
extern "C" int block_size(void);
int main() {
  void *p = nullptr;
  if (cudaMalloc(&p, block_size()) == cudaSuccess)
    cudaFree(p);
  gmem_step();
  return 0;
}
SRC
cat >dev.cpp <<'SRC'
#include <cuda_runtime.h>
extern "C" int dev_alloc(void) {
  void *p = nullptr;
  return cudaMalloc(&p, 16) == cudaSuccess ? (int)cudaFree(p) : 1;
}
SRC
build() { # WHAT COMMAND...
  local what=$1
  shift
  "$@" >build.out 2>&1 || fail "$what: $(head -c 1500 build.out)"
}
build "gmemcc gcc, a project cuda.h on -I" "$GMEMCC" gcc -Iinc -c plain.c -o plain.o
build "gmemcc nvcc, a project cuda.h on -I" "$GMEMCC" "$NVCC" -Iinc app.cu plain.o -o app
build "gmemcc g++ -fPIC" "$GMEMCC" g++ -fPIC -c dev.cpp -o dev.o
build "a shared library without the runtime" g++ -shared dev.o -o libdev.so
build "plain nvcc" "$NVCC" -Iinc -I"$ROOT/include" app.cu plain.c -o plain_app
printf 'not a binary\n' >notes.txt

# check FILE... : runs gmemcc --gmem-check, output in $WORK/out
check() {
  rc=0
  "$GMEMCC" --gmem-check "$@" >out 2>err || rc=$?
}
expect_output() { # WHAT: stdout is exactly the lines on standard input
  cat >expected
  diff -u expected out >diff.txt || fail "$1: $(cat diff.txt)"
}
check app plain.o
expect_rc 0 "an instrumented program and object"
expect_output "--gmem-check app plain.o" <<OUT
app: instrumented: 2 units compiled with gmem_forced.h, libgmemrt linked in
  unit: app.cu
  unit: plain.c
plain.o: instrumented: 1 unit compiled with gmem_forced.h; libgmemrt comes with the link
  unit: plain.c
OUT
check libdev.so
expect_rc 0 "an instrumented shared library"
expect_output "--gmem-check libdev.so" <<OUT
libdev.so: instrumented: 1 unit compiled with gmem_forced.h; libgmemrt is not linked in: the program that loads this library must provide it
  unit: dev.cpp
OUT
check plain_app app
expect_rc 1 "a program built without gmemcc"
expect_output "--gmem-check plain_app app" <<OUT
plain_app: not instrumented: no unit was compiled with gmem_forced.h and libgmemrt is not linked in
app: instrumented: 2 units compiled with gmem_forced.h, libgmemrt linked in
  unit: app.cu
  unit: plain.c
OUT
check "$RTLIB"
expect_rc 1 "the runtime alone"
expect_output "--gmem-check libgmemrt.a" <<OUT
$RTLIB: not instrumented: libgmemrt is linked in, but no unit was compiled with gmem_forced.h, so no allocation site is recorded
OUT
# stripped: the units stay, the runtime's symbols go
cp app app.stripped && strip app.stripped
check app.stripped
expect_rc 0 "a stripped program"
expect_output "--gmem-check app.stripped" <<OUT
app.stripped: instrumented: 2 units compiled with gmem_forced.h; whether libgmemrt is linked in cannot be told (no symbol table: stripped)
  unit: app.cu
  unit: plain.c
OUT
# an object that calls a hook but names no unit (a gmem_forced.h from before the units)
cat >old.c <<'SRC'
int gmemrt_cudaFree(const char *file, int line, int col, void *ptr);
int release(void *p) { return gmemrt_cudaFree("old.c", 2, 0, p); }
SRC
build "an object of an older header" gcc -c old.c -o old.o
check old.o
expect_rc 0 "an object of an older header"
expect_output "--gmem-check old.o" <<OUT
old.o: instrumented, but names no unit (compiled with a gmem_forced.h older than this gmemcc): it calls libgmemrt's hooks
OUT

check notes.txt missing.o
expect_rc 2 "files that are not binaries"
expect_err "^gmemcc: error: notes.txt: not an ELF object, archive, program or shared library$" "a text file"
expect_err "^gmemcc: error: missing.o: cannot open: No such file or directory$" "a missing file"
check
expect_rc 2 "no file"
expect_err "^gmemcc: error: --gmem-check needs the files to check \(gmemcc --gmem-check ./app\)$" "no file"

# without gmemcc's pre-include of the toolkit's cuda.h, the header says what went wrong
rc=0
gcc -Iinc -I"$(dirname "$(dirname "$HDR")")" -include "$HDR" -c plain.c -o direct.o 2>err || rc=$?
expect_rc 1 "gmem_forced.h after a project cuda.h"
expect_err "error: #error \"gmem_forced.h: the <cuda.h> found first on the include path is not the CUDA toolkit's" \
  "the header names the clash"
finish
