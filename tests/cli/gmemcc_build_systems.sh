# gmemcc in build systems: tests/gmemcc/cmake_project (which knows nothing of gmemlint) built by
# CMake with CMAKE_CUDA_COMPILER_LAUNCHER=gmemcc (docs/gmemcc.md's launcher, for CUDA sources
# only), and by make with NVCC=gmemcc. The programs must carry the runtime and their objects
# must call its hooks. Then the README's Make recipe on a Makefile whose compiler variable is
# not NVCC: NVCC=gmemcc builds it uninstrumented, gmemcc --gmem-check says so, make -pn finds
# the variable, and setting that one instruments it.
source "$(dirname "$0")/testlib.bash"
source "$(dirname "$0")/gmemcc_lib.bash"
if ! have_nvcc; then
  echo "skipped: nvcc not found on PATH or in /usr/local/cuda/bin"
  exit 0
fi
PROJECT=$ROOT/tests/gmemcc/cmake_project

has_hooks() { # WHAT PROGRAM OBJECT...
  local what=$1 program=$2
  shift 2
  nm "$program" 2>/dev/null | grep -qE " T gmemrt_cudaMalloc$" ||
    fail "$what: $program lacks the runtime (gmemrt_cudaMalloc)"
  for obj in "$@"; do
    nm "$obj" 2>/dev/null | grep -qE " U gmemrt_cudaMalloc$" ||
      fail "$what: $obj does not call gmemrt_cudaMalloc"
  done
}

# CMake: the launcher runs `gmemcc /path/to/nvcc ...` for each compile. CMake before 4.1 has no
# CUDA linker launcher, so the link gets the runtime through CMAKE_CUDA_STANDARD_LIBRARIES.
CMAKE_ARGS=(-DCMAKE_CUDA_COMPILER="$NVCC" -DCMAKE_CUDA_COMPILER_LAUNCHER="$GMEMCC")
if [ "$(printf '%s\n' "$(cmake --version | sed -n 's/^cmake version //p')" 4.1 | sort -V | head -1)" = 4.1 ]; then
  CMAKE_ARGS+=(-DCMAKE_CUDA_LINKER_LAUNCHER="$GMEMCC")
else
  CMAKE_ARGS+=(-DCMAKE_CUDA_STANDARD_LIBRARIES="$("$GMEMCC" c++ --gmem-link-flags)")
fi
rc=0
cmake -S "$PROJECT" -B "$WORK/cmake" "${CMAKE_ARGS[@]}" >"$WORK/out" 2>"$WORK/err" || rc=$?
expect_rc 0 "cmake configure"
rc=0
cmake --build "$WORK/cmake" -- VERBOSE=1 >"$WORK/out" 2>"$WORK/err" || rc=$?
expect_rc 0 "cmake --build"
expect_out "^$GMEMCC $NVCC .* -c $PROJECT/main.cu" "CMake ran the compile through gmemcc"
has_hooks "CMake" "$WORK/cmake/app" "$WORK/cmake/CMakeFiles/app.dir/main.cu.o" \
  "$WORK/cmake/CMakeFiles/buffers.dir/buffers.cu.o"
grep -q "gmem_forced.h" "$WORK/cmake/CMakeFiles/app.dir/main.cu.o.d" ||
  fail "CMake: the dependency file does not list the forced header"

# make: NVCC=gmemcc for the compiles and the link
mkdir -p "$WORK/make"
rc=0
make -C "$WORK/make" -f "$PROJECT/Makefile" SRC="$PROJECT" NVCC="$GMEMCC" >"$WORK/out" 2>"$WORK/err" || rc=$?
expect_rc 0 "make NVCC=gmemcc"
has_hooks "make" "$WORK/make/app" "$WORK/make/main.o" "$WORK/make/buffers.o"
"$GMEMCC" --gmem-check "$WORK/make/app" >"$WORK/out" 2>&1 || fail "make: --gmem-check: $(cat "$WORK/out")"

# a Makefile that runs nvcc through another variable; its CUDA_HOME ?= must not take the
# machine's own CUDA_HOME (CI sets one that names the toolkit by another path)
unset CUDA_HOME
mkdir -p "$WORK/other"
cd "$WORK/other"
cat >Makefile <<EOF
CUDA_HOME ?= $(dirname "$(dirname "$NVCC")")
CUDA_CC := \$(CUDA_HOME)/bin/nvcc
app: main.o buffers.o
	\$(CUDA_CC) -o \$@ \$^
%.o: $PROJECT/%.cu
	\$(CUDA_CC) -I$PROJECT -c \$< -o \$@
EOF
rc=0
make NVCC="$GMEMCC" >out 2>err || rc=$?
expect_rc 0 "make NVCC=gmemcc with CUDA_CC"
rc=0
"$GMEMCC" --gmem-check app >out 2>err || rc=$?
expect_rc 1 "--gmem-check on the program NVCC=gmemcc did not reach"
[ "$(cat out)" = "app: not instrumented: no unit was compiled with gmem_forced.h and libgmemrt is not linked in" ] ||
  fail "--gmem-check says app is not instrumented: $(cat out)"
# the README's way to find the variable
found=$(make -pn | grep -E '^[A-Za-z_][A-Za-z0-9_]* *[:?+]*= .*nvcc')
[ "$found" = "CUDA_CC := $(dirname "$(dirname "$NVCC")")/bin/nvcc" ] || fail "make -pn | grep finds CUDA_CC: $found"
rm -f app main.o buffers.o
rc=0
make CUDA_CC="$GMEMCC" >out 2>err || rc=$?
expect_rc 0 "make CUDA_CC=gmemcc"
rc=0
"$GMEMCC" --gmem-check app >out 2>err || rc=$?
expect_rc 0 "--gmem-check after make CUDA_CC=gmemcc"
[ "$(cat out)" = "app: instrumented: 2 units compiled with gmem_forced.h, libgmemrt linked in
  unit: $PROJECT/main.cu
  unit: $PROJECT/buffers.cu" ] || fail "--gmem-check lists the units: $(cat out)"
finish
