# The README's CMake recipe, with real CMake, nvcc and gcc: tests/gmemcc/instrument_project (a
# program linked as CUDA, a C++ program whose .cpp calls cudaMalloc, a shared library used by a
# program, a static CUDA library in a program linked as C++) built against an installed gmemlint, both ways: the project calling
# gmemlint_instrument() after find_package(gmemlint), and the project left as it is with
# -DCMAKE_PROJECT_INCLUDE=<prefix>/lib/cmake/gmemlint/instrument-all.cmake. gmemcc --gmem-check
# must find every target instrumented (and none in a plain build); turning instrumentation on
# or off must rebuild the objects; the programs, run without a GPU, record their failed calls
# at their sites, the shared library's in the same file as its program's.
source "$(dirname "$0")/testlib.bash"
source "$(dirname "$0")/gmemcc_lib.bash"
if ! have_nvcc; then
  echo "skipped: nvcc not found on PATH or in /usr/local/cuda/bin"
  exit 0
fi
PROJECT=$ROOT/tests/gmemcc/instrument_project
P=$WORK/prefix
cd "$WORK"
cmake --install "$(dirname "$GMEMLINT")" --prefix "$P" >install.log 2>&1 ||
  { fail "cmake --install: $(tail install.log)"; finish; exit 1; }
BINARIES=(cuda_app cxx_app libdev.so so_app lib_app)

configure() { # DIR WHAT CMAKE-ARGS...
  local dir=$1 what=$2
  shift 2
  cmake -S "$PROJECT" -B "$dir" -DCMAKE_CUDA_COMPILER="$NVCC" -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DCMAKE_PREFIX_PATH="$P" "$@" >configure.log 2>&1 || fail "$what: configure: $(tail -n 20 configure.log)"
}
build() { # DIR WHAT
  cmake --build "$1" -j 2 >build.log 2>&1 || fail "$2: build: $(tail -n 30 build.log)"
}
check() { # DIR: gmemcc --gmem-check on the project's binaries, output in $WORK/out
  rc=0
  (cd "$1" && "$P/bin/gmemcc" --gmem-check "${BINARIES[@]}") >out 2>err || rc=$?
}
expect_output() { # WHAT: stdout is exactly the lines on standard input
  cat >expected
  diff -u expected out >diff.txt || fail "$1: $(cat diff.txt)"
}
expect_instrumented() { # WHAT
  expect_rc 0 "$1: gmemcc --gmem-check"
  expect_output "$1" <<OUT
cuda_app: instrumented: 1 unit compiled with gmem_forced.h, libgmemrt linked in
  unit: $PROJECT/app.cu
cxx_app: instrumented: 2 units compiled with gmem_forced.h, libgmemrt linked in
  unit: $PROJECT/host.cpp
  unit: $PROJECT/sizes.c
libdev.so: instrumented: 1 unit compiled with gmem_forced.h, libgmemrt linked in
  unit: $PROJECT/dev.cpp
so_app: instrumented: 1 unit compiled with gmem_forced.h; libgmemrt comes from a shared library it loads
  unit: $PROJECT/main.cpp
lib_app: instrumented: 1 unit compiled with gmem_forced.h, libgmemrt linked in
  unit: $PROJECT/kern.cu
OUT
}
expect_plain() { # WHAT
  expect_rc 1 "$1: gmemcc --gmem-check"
  expect_output "$1" <<OUT
cuda_app: not instrumented: no unit was compiled with gmem_forced.h and libgmemrt is not linked in
cxx_app: not instrumented: no unit was compiled with gmem_forced.h and libgmemrt is not linked in
libdev.so: not instrumented: no unit was compiled with gmem_forced.h and libgmemrt is not linked in
so_app: not instrumented: no unit was compiled with gmem_forced.h and libgmemrt is not linked in
lib_app: not instrumented: no unit was compiled with gmem_forced.h and libgmemrt is not linked in
OUT
}
expect_rebuilt() { # WHAT: every object was compiled again
  for obj in cuda_app.dir/app.cu.o cxx_app.dir/host.cpp.o cxx_app.dir/sizes.c.o dev.dir/dev.cpp.o \
    so_app.dir/main.cpp.o kern.dir/kern.cu.o; do
    grep -q "object CMakeFiles/$obj$" build.log || fail "$1: $obj was not rebuilt: $(cat build.log)"
  done
}

# a plain build, then the same build directory instrumented, then plain again
B=$WORK/b
configure "$B" "plain" -G "Unix Makefiles"
build "$B" "plain"
check "$B"
expect_plain "plain build"
configure "$B" "gmemlint_instrument" -DUSE_GMEMLINT=ON
build "$B" "gmemlint_instrument"
expect_rebuilt "instrumentation turned on"
check "$B"
expect_instrumented "gmemlint_instrument()"

# the programs run (no GPU: each call fails, and is recorded at its site)
for prog in cuda_app cxx_app so_app lib_app; do
  (cd "$B" && GMEMRT_OUTPUT="$WORK/$prog-%p.json" "./$prog" >"$WORK/$prog.out" 2>&1) ||
    fail "$prog exited $?: $(cat "$WORK/$prog.out")"
done
"$PY" - "$WORK" >sites.txt 2>&1 <<'PY' || fail "telemetry: $(cat sites.txt)"
import glob, json, sys
for prog in ("cuda_app", "cxx_app", "so_app", "lib_app"):
    files = glob.glob(f"{sys.argv[1]}/{prog}-*.json")
    print(prog, len(files), "file(s):", ", ".join(sorted(
        f"{s['file'].rsplit('/', 1)[-1]}:{s['line']} {s['api']}" for f in files
        for s in json.load(open(f))["sites"] if s["calls"] + s.get("failed_calls", 0) >= 1)))
PY
cat >expected <<'OUT'
cuda_app 1 file(s): app.cu:6 cudaMalloc
cxx_app 1 file(s): host.cpp:11 cudaMalloc
so_app 1 file(s): dev.cpp:4 cudaMalloc, main.cpp:6 cudaMallocHost
lib_app 1 file(s): kern.cu:4 cudaMalloc
OUT
diff -u expected sites.txt >diff.txt || fail "the runs' sites: $(cat diff.txt)"

configure "$B" "instrumentation off" -DUSE_GMEMLINT=OFF
build "$B" "instrumentation off"
expect_rebuilt "instrumentation turned off"
check "$B"
expect_plain "instrumentation turned off"

# the project left as it is: one option at configure time
for generator in "Unix Makefiles" Ninja; do
  if [ "$generator" = Ninja ] && ! command -v ninja >/dev/null; then
    echo "skipped instrument-all with Ninja: ninja not found"
    continue
  fi
  A=$WORK/all-${generator// /_}
  configure "$A" "instrument-all ($generator)" -G "$generator" \
    -DCMAKE_PROJECT_INCLUDE="$P/lib/cmake/gmemlint/instrument-all.cmake"
  grep -q "^-- gmemlint: instrumented cuda_app cxx_app dev so_app kern$" configure.log ||
    fail "instrument-all lists the targets it instruments: $(cat configure.log)"
  build "$A" "instrument-all ($generator)"
  check "$A"
  expect_instrumented "instrument-all.cmake ($generator)"
done
finish
