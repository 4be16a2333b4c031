# cmake --install into a scratch prefix: the programs, the three runtime libraries, the headers,
# the man pages (from each program's own help), gmemrt.pc, and the CMake package. A consumer
# project (LANGUAGES CUDA CXX) uses find_package(gmemlint) and gmemlint_instrument(); its
# objects call the runtime's hooks, its programs carry the runtime, and running one (no GPU
# needed: the hook records the failed call) writes telemetry naming the call's site.
source "$(dirname "$0")/testlib.bash"
BUILD=$(dirname "$GMEMLINT")
P=$WORK/prefix
cd "$WORK"
cmake --install "$BUILD" --prefix "$P" >install.log 2>&1 || fail "cmake --install: $(tail install.log)"
# the layout is GNUInstallDirs' (as configured): exactly these files, each installed once
layout() { sed -n "s/^CMAKE_INSTALL_$1:PATH=//p" "$BUILD/CMakeCache.txt"; }
BINDIR=$(layout BINDIR) LIBDIR=$(layout LIBDIR) INCLUDEDIR=$(layout INCLUDEDIR) MANDIR=$(layout MANDIR)
MANDIR=${MANDIR:-$(layout DATAROOTDIR)/man} # GNUInstallDirs' default, left out of the cache
DATADIR=$(layout DATADIR)
DATADIR=${DATADIR:-$(layout DATAROOTDIR)}
[ -n "$BINDIR" ] && [ -n "$LIBDIR" ] && [ -n "$INCLUDEDIR" ] && [ -n "$MANDIR" ] ||
  fail "the build's CMakeCache.txt names no GNUInstallDirs layout"
{
  for f in gmemlint gmemcc gmemrun; do echo "$BINDIR/$f"; done
  for f in libgmemrt.a libgmemrt.so libgmemrt_inject.so pkgconfig/gmemrt.pc \
    cmake/gmemlint/gmemlintConfig.cmake cmake/gmemlint/gmemlintConfigVersion.cmake \
    cmake/gmemlint/gmemlintDeps.cmake cmake/gmemlint/instrument-all.cmake; do
    echo "$LIBDIR/$f"
  done
  for h in "$ROOT"/include/gmemlint/*.h; do echo "$INCLUDEDIR/gmemlint/$(basename "$h")"; done
  for f in gmemlint gmemcc gmemrun; do echo "$MANDIR/man1/$f.1"; done
  for f in sitecustomize.py gmemlint_torch.py; do echo "$DATADIR/gmemlint/python/$f"; done
} | sort >tree.expected
(cd "$P" && find . -type f -o -type l | sed 's|^\./||' | sort) >tree.installed
diff -u tree.expected tree.installed >tree.diff || fail "the installed tree: $(cat tree.diff)"
sed -n 's/^-- \(Installing\|Up-to-date\): //p' install.log | sort | uniq -d >twice
[ ! -s twice ] || fail "installed more than once: $(cat twice)"
for h in "$ROOT"/include/gmemlint/*.h; do
  cmp -s "$h" "$P/$INCLUDEDIR/gmemlint/$(basename "$h")" || fail "public header $(basename "$h")"
done

# the installed programs run from the prefix
"$P/$BINDIR/gmemlint" --version >v.out 2>&1 || fail "installed gmemlint --version: $(cat v.out)"
write_leak leak.cu
"$P/$BINDIR/gmemlint" --no-cache leak.cu >lint.out 2>&1
[ $? -eq 1 ] && grep -q "leak.cu:4:7: warning:" lint.out || fail "installed gmemlint lints: $(cat lint.out)"
"$P/$BINDIR/gmemcc" --gmem-link-flags >cc.out 2>&1 || fail "installed gmemcc: $(cat cc.out)"
grep -q "$P/$LIBDIR/libgmemrt.a" cc.out || fail "installed gmemcc uses the installed runtime: $(cat cc.out)"
"$P/$BINDIR/gmemrun" --help >run.out 2>&1 || fail "installed gmemrun --help"
# the installed gmemrun puts the installed PyTorch shim on PYTHONPATH (the simulated driver
# stands in for libcuda: gmemrun runs nothing without one)
GMEMRUN_DRIVER="$BUILD/tests/libsimcudart.so" "$P/$BINDIR/gmemrun" -q -- \
  sh -c 'echo "$PYTHONPATH"' >pp.out 2>&1 || fail "installed gmemrun runs sh: $(cat pp.out)"
[ "$(cat pp.out)" = "$(realpath "$P/$DATADIR/gmemlint/python")" ] ||
  fail "installed gmemrun's PYTHONPATH: $(cat pp.out)"

# man pages: the same options as --help, and they render
for prog in gmemlint gmemcc gmemrun; do
  page=$P/$MANDIR/man1/$prog.1
  head -1 "$page" | grep -q "^\.TH $(echo $prog | tr a-z A-Z) 1" || fail "$prog.1: no .TH line"
  grep -q '^\.SH NAME' "$page" || fail "$prog.1: no NAME section"
  ! grep -q "$BUILD\|$ROOT" "$page" || fail "$prog.1 names the build tree"
  if command -v man >/dev/null; then
    MANWIDTH=100 man -l "$page" >"$prog.txt" 2>&1 || fail "man -l $prog.1: $(head "$prog.txt")"
  fi
done
grep -q 'install\\-hook' "$P/$MANDIR/man1/gmemlint.1" || fail "gmemlint.1 lists --install-hook"
grep -q 'gmem\\-lint' "$P/$MANDIR/man1/gmemcc.1" || fail "gmemcc.1 lists --gmem-lint"
grep -q 'step\\-api' "$P/$MANDIR/man1/gmemrun.1" || fail "gmemrun.1 lists --step-api"
if [ -f gmemrun.txt ]; then
  grep -qE '^ +--step-api NAME' gmemrun.txt || fail "gmemrun.1 renders its options: $(cat gmemrun.txt)"
  grep -q 'EXIT STATUS' gmemcc.txt || fail "gmemcc.1 has EXIT STATUS"
fi

# pkg-config
export PKG_CONFIG_PATH="$P/$LIBDIR/pkgconfig"
cflags=$(pkg-config --cflags gmemrt) || fail "pkg-config --cflags gmemrt"
libs=$(pkg-config --libs gmemrt) || fail "pkg-config --libs gmemrt"
forced=$(pkg-config --variable=forced_include gmemrt)
# the paths are relative to the .pc file (${pcfiledir}), so the prefix can move; <gmemlint/...>
# and the headers' own directory are both on the include path
incdirs=$(for d in $(echo "$cflags" | tr ' ' '\n' | sed -n 's/^-I//p' | head -2); do realpath -m "$d"; done)
[ "$incdirs" = "$(realpath "$P/$INCLUDEDIR")
$(realpath "$P/$INCLUDEDIR/gmemlint")" ] || fail "Cflags: $cflags"
# no library by this machine's path: the prefix's own, the rest by name
for word in $libs; do
  case $word in
  /*) [ "$(realpath -m "$word")" = "$(realpath "$P/$LIBDIR/libgmemrt.a")" ] || fail "Libs names $word: $libs" ;;
  esac
done
[ "$(pkg-config --print-requires-private gmemrt | tr '\n' ' ')" = "jansson libdw " ] ||
  fail "Requires.private: $(pkg-config --print-requires-private gmemrt)"
rtlib=$(realpath -m "$(echo "$libs" | tr ' ' '\n' | grep 'libgmemrt\.a$')")
[ "$rtlib" = "$(realpath "$P/$LIBDIR/libgmemrt.a")" ] || fail "Libs: $libs"
[[ "$libs" == *jansson* && "$libs" == *unwind* ]] || fail "Libs has the runtime's dependencies: $libs"
[ "$(realpath "$forced")" = "$(realpath "$P/$INCLUDEDIR/gmemlint/gmem_forced.h")" ] || fail "forced_include: $forced"
[ "$(pkg-config --modversion gmemrt)" = "$("$P/$BINDIR/gmemlint" --version | awk '{print $2}')" ] ||
  fail "gmemrt.pc's version is gmemlint's"

NVCC=$(command -v nvcc || echo "${CUDA_PATH:-/usr/local/cuda}/bin/nvcc")
if [ ! -x "$NVCC" ]; then
  echo "skipped the builds: nvcc not found"
  finish
  exit 0
fi
CUDALIB=$(dirname "$(realpath "$NVCC")")/../lib64

# a C program built with pkg-config's flags, with a cuda.h of its own on the include path and
# gmem_step() from <gmemlint/gmemrt.h>
mkdir -p pcinc
printf '#define PC_BYTES 64\n' >pcinc/cuda.h
cat >pc.c <<'SRC'
#include "cuda.h"
#include <cuda_runtime.h>
#include <gmemlint/gmemrt.h>
int main(void) {
  void *p = 0;
  if (cudaMalloc(&p, PC_BYTES) == cudaSuccess)
    cudaFree(p);
  gmem_step();
  return 0;
}
SRC
pc_build() { # WHAT: builds pc_app from pc.c with pkg-config's flags as they are now
  local cflags libs forced
  cflags=$(pkg-config --cflags gmemrt) && libs=$(pkg-config --libs gmemrt) &&
    forced=$(pkg-config --variable=forced_includes gmemrt) || fail "$1: pkg-config"
  rm -f pc.o pc_app
  # shellcheck disable=SC2086
  if cc -Ipcinc $cflags $forced -c pc.c -o pc.o 2>pc.err &&
    cc pc.o $libs -L"$CUDALIB" -lcudart -Wl,-rpath,"$CUDALIB" -o pc_app 2>>pc.err; then
    nm pc.o | grep -qE " U gmemrt_cudaMalloc$" || fail "$1: pc.o calls gmemrt_cudaMalloc"
    "$P/$BINDIR/gmemcc" --gmem-check pc_app >check.out 2>&1 || fail "$1: pc_app: $(cat check.out)"
  else
    fail "$1: build with pkg-config's flags: $(cat pc.err)"
  fi
}
pc_build "pkg-config"

# a CMake consumer: find_package(gmemlint) and gmemlint_instrument
mkdir consumer
cat >consumer/CMakeLists.txt <<'EOF'
cmake_minimum_required(VERSION 3.20)
project(consumer LANGUAGES CUDA CXX)
find_package(gmemlint 0.1 REQUIRED)
add_executable(app app.cu host.cpp)
target_link_libraries(app kern) # the plain signature: gmemlint_instrument works with it too
gmemlint_instrument(app)
add_library(kern STATIC kern.cu)
target_compile_features(kern PUBLIC cxx_std_17)
gmemlint_instrument(kern)
add_executable(plain plain.cu) # not instrumented
foreach(t gmemrt gmemrt_preload gmemrt_inject gmemlint gmemcc gmemrun)
  if(NOT TARGET gmemlint::${t})
    message(FATAL_ERROR "no imported target gmemlint::${t}")
  endif()
endforeach()
get_target_property(lint gmemlint::gmemlint IMPORTED_LOCATION)
message(STATUS "gmemlint::gmemlint is ${lint}")
add_custom_target(lint_version ALL COMMAND gmemlint::gmemlint --version)
EOF
cat >consumer/app.cu <<'SRC'
#include <cstdio>
#include <cuda_runtime.h>
__global__ void fill(float *p) { p[threadIdx.x] = 1.0f; }
void host_pinned();
void kern_scratch();
int main() {
  float *p = nullptr;
  cudaError_t e = cudaMalloc(&p, 64 * sizeof(float));
  if (e == cudaSuccess) {
    fill<<<1, 64>>>(p);
    cudaFree(p);
  }
  host_pinned();
  kern_scratch();
  std::printf("cudaMalloc: %s\n", cudaGetErrorString(e));
  return 0;
}
SRC
cat >consumer/host.cpp <<'SRC'
#include <cuda_runtime.h>
void host_pinned() {
  void *h = nullptr;
  if (cudaMallocHost(&h, 256) == cudaSuccess)
    cudaFreeHost(h);
}
SRC
cat >consumer/kern.cu <<'SRC'
#include <cuda_runtime.h>
void kern_scratch() {
  void *d = nullptr;
  if (cudaMalloc(&d, 128) == cudaSuccess)
    cudaFree(d);
}
SRC
cat >consumer/plain.cu <<'SRC'
#include <cuda_runtime.h>
int main() {
  void *d = nullptr;
  return cudaMalloc(&d, 16) == cudaSuccess ? cudaFree(d) : 0;
}
SRC
if cmake -S consumer -B consumer/build -DCMAKE_PREFIX_PATH="$P" -DCMAKE_CUDA_COMPILER="$NVCC" \
  -DCMAKE_CUDA_ARCHITECTURES=90 >configure.log 2>&1; then
  grep -q "gmemlint::gmemlint is $P/$BINDIR/gmemlint" configure.log || fail "imported gmemlint: $(cat configure.log)"
  if cmake --build consumer/build -j 2 >build.log 2>&1; then
    grep -q "^gmemlint $("$P/$BINDIR/gmemlint" --version | awk '{print $2}')" build.log ||
      fail "the imported gmemlint ran in the build: $(cat build.log)"
    B=consumer/build
    nm "$B/CMakeFiles/app.dir/app.cu.o" | grep -qE " U gmemrt_cudaMalloc$" ||
      fail "app.cu.o (CUDA) calls gmemrt_cudaMalloc"
    nm "$B/CMakeFiles/app.dir/host.cpp.o" | grep -qE " U gmemrt_cudaMallocHost$" ||
      fail "host.cpp.o (C++) calls gmemrt_cudaMallocHost"
    nm "$B/CMakeFiles/kern.dir/kern.cu.o" | grep -qE " U gmemrt_cudaMalloc$" ||
      fail "kern.cu.o (static library) calls gmemrt_cudaMalloc"
    nm "$B/app" | grep -qE " T gmemrt_cudaMalloc$" || fail "app carries the runtime's hooks"
    nm "$B/app" | grep -qE " T gmemrt_dump$" || fail "app carries gmemrt_dump"
    ! nm "$B/CMakeFiles/plain.dir/plain.cu.o" | grep -q gmemrt_ || fail "plain.cu is not instrumented"
    ! nm "$B/plain" | grep -q gmemrt_ || fail "plain does not carry the runtime"
    # run it: without a GPU every call fails, and is still recorded at its site
    (cd "$B" && GMEMRT_OUTPUT="$WORK/telemetry-%p.json" ./app >app.out 2>&1) ||
      fail "app exited $?: $(cat "$B/app.out")"
    set -- "$WORK"/telemetry-*.json
    if [ -f "$1" ]; then
      "$PY" - "$1" <<'PY' || fail "the telemetry names app.cu:8, host.cpp:4 and kern.cu:4: $(head -c 2000 "$1")"
import json, sys
sites = json.load(open(sys.argv[1]))["sites"]
want = {("app.cu", 8, "cudaMalloc"), ("host.cpp", 4, "cudaMallocHost"), ("kern.cu", 4, "cudaMalloc")}
got = {(s["file"].rsplit("/", 1)[-1], s["line"], s["api"]) for s in sites
       if s["calls"] + s.get("failed_calls", 0) >= 1}
sys.exit(0 if want <= got else 1)
PY
    else
      fail "app wrote no telemetry: $(cat "$B/app.out")"
    fi
  else
    fail "consumer build: $(tail -n 30 build.log)"
  fi
else
  fail "consumer configure: $(tail -n 30 configure.log)"
fi

# the installed tree moved elsewhere: pkg-config's flags follow it
mv "$P" "$WORK/moved"
P=$WORK/moved
export PKG_CONFIG_PATH="$P/$LIBDIR/pkgconfig"
pkg-config --cflags --libs gmemrt >moved.flags 2>&1 || fail "pkg-config after the move: $(cat moved.flags)"
! grep -q "$WORK/prefix" moved.flags || fail "pkg-config names the old prefix: $(cat moved.flags)"
pc_build "the moved prefix"
finish
