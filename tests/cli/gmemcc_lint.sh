# --gmem-lint (or GMEMCC_LINT=1): before compiling, gmemcc runs gmemlint on each source with the
# compile's -I/-D/-U/-std/-include flags and writes <object>.gmemlint.json; findings do not stop
# the build, nor does a source gmemlint cannot analyse. The compiler is a fake one (no nvcc
# needed): what is checked is the static pass and what reaches the compiler.
source "$(dirname "$0")/testlib.bash"
source "$(dirname "$0")/gmemcc_lib.bash"
FNVCC=$WORK/bin/nvcc
fake_compiler "$FNVCC"
mapfile -t NV_PRE < <(compile_prefix "$FNVCC") # cuda.h, the forced header, <gmemlint/...>
cd "$WORK"
mkdir -p obj inc
# The leak exists only with -DLEAKY and its header only on -Iinc: the finding proves the flags
# reached gmemlint.
cat >inc/config.h <<'SRC'
#define EARLY_RETURN return -1
SRC
cat >leak.cu <<'SRC'
#include <cuda_runtime.h>
#include "config.h"
int setup(int n) {
  float *a = nullptr;
  if (cudaMalloc(&a, n) != cudaSuccess)
    return -1;
#ifdef LEAKY
  if (n > 4)
    EARLY_RETURN;
#endif
  cudaFree(a);
  return 0;
}
SRC
write_clean clean.cu

findings() { # JSON FILE: prints rule:line for each finding
  "$PY" -c 'import json,sys; print(" ".join("%s:%d" % (f["rule"], f["line"]) for f in json.load(open(sys.argv[1]))["findings"]))' "$1"
}

gmemcc_run --gmem-lint "$FNVCC" -Iinc -DLEAKY -std=c++17 -c leak.cu -o obj/leak.o
expect_rc 0 "--gmem-lint with findings"
expect_argv "--gmem-lint is not passed on" "${NV_PRE[@]}" -Iinc -DLEAKY -std=c++17 -c leak.cu -o obj/leak.o
if [ -f obj/leak.o.gmemlint.json ]; then
  [ "$(findings obj/leak.o.gmemlint.json)" = "GM001:5" ] ||
    fail "obj/leak.o.gmemlint.json: expected GM001 at line 5, got '$(findings obj/leak.o.gmemlint.json)'"
else
  fail "no obj/leak.o.gmemlint.json (stderr: $(head -c 600 "$WORK/err"))"
fi

# without -DLEAKY there is nothing to find; nvcc's spellings of the flags are understood
GMEMCC_LINT=1 gmemcc_run "$FNVCC" --include-path inc --std=c++17 -c leak.cu -o obj/leak.o
expect_rc 0 "GMEMCC_LINT=1"
[ "$(findings obj/leak.o.gmemlint.json)" = "" ] || fail "without -DLEAKY: '$(findings obj/leak.o.gmemlint.json)'"

# a compile and link of two sources: reports named after each source, in the working directory
GMEMCC_VERBOSE=1 gmemcc_run "$FNVCC" --gmem-lint -I inc -D LEAKY leak.cu clean.cu -o app
expect_rc 0 "lint of a compile and link"
expect_err "^gmemcc: .*/gmemlint --format=json -o leak.o.gmemlint.json leak.cu -- -Iinc -DLEAKY$" \
  "the gmemlint command line"
[ "$(findings leak.o.gmemlint.json)" = "GM001:5" ] || fail "leak.o.gmemlint.json: '$(findings leak.o.gmemlint.json)'"
[ -f clean.o.gmemlint.json ] && [ "$(findings clean.o.gmemlint.json)" = "" ] || fail "clean.o.gmemlint.json missing or not empty"
[ ! -e obj/app.gmemlint.json ] && [ ! -e app.gmemlint.json ] || fail "a report named after the program"

# no lint where nothing is compiled: -E, a link of objects
rm -f ./*.gmemlint.json
gmemcc_run "$FNVCC" --gmem-lint -E leak.cu
gmemcc_run "$FNVCC" --gmem-lint leak.o -o app
set -- ./*.gmemlint.json
[ ! -e "$1" ] || fail "lint ran where nothing was compiled: $*"

# a source gmemlint cannot analyse (empty): a warning, and the compile still runs
: >empty.cu
gmemcc_run "$FNVCC" --gmem-lint -c empty.cu
expect_rc 0 "lint failure does not fail the compile"
expect_err "^gmemcc: warning: gmemlint could not analyse 'empty.cu' \(exit status 2\); compiling it anyway" \
  "lint failure warning"
expect_argv "compiled after a lint failure" "${NV_PRE[@]}" -c empty.cu

# gmemlint neither next to gmemcc nor on PATH: a warning, and the compile still runs
mkdir -p alone
cp "$GMEMCC" alone/gmemcc
rc=0
PATH=/usr/bin:/bin alone/gmemcc "$FNVCC" --gmem-lint -c clean.cu >"$WORK/out" 2>"$WORK/err" || rc=$?
expect_rc 0 "no gmemlint"
expect_err "^gmemcc: warning: cannot run 'gmemlint': No such file or directory; compiling without the static pass" \
  "no gmemlint warning"
expect_argv "compiled without gmemlint" "${NV_PRE[@]}" -c clean.cu
finish
