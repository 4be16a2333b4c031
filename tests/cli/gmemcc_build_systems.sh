# gmemcc in build systems: tests/gmemcc/cmake_project (which knows nothing of gmemlint) built by
# CMake with CMAKE_CUDA_COMPILER_LAUNCHER=gmemcc, and by make with NVCC=gmemcc. The programs must
# carry the runtime and their objects must call its hooks.
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
finish
