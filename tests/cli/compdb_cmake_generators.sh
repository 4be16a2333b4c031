# Real CMake: tests/cmake_projects/mixed configured (not built) with the Unix Makefiles generator
# (include directories in --options-file CMakeFiles/<t>.dir/includes_CUDA.rsp), with C++ include
# directories in @CMakeFiles/<t>.dir/includes_CXX.rsp too, and with Ninja (flags inline), then
# linted with -p: every file parses, the findings are the same lines from every generator.
source "$(dirname "$0")/testlib.bash"
NVCC=${CUDA_PATH:-/usr/local/cuda}/bin/nvcc
for tool in cmake ninja; do
  if ! command -v "$tool" >/dev/null; then
    echo "SKIP: $tool not found (bootstrap.sh installs cmake and ninja-build)"
    exit 0
  fi
done
cp -r "$ROOT/tests/cmake_projects/mixed" "$WORK/mixed"
cd "$WORK/mixed"
configure() { # BUILD_DIR GENERATOR [CMAKE_ARGS...]
  local dir=$1 gen=$2
  shift 2
  cmake -S . -B "$dir" -G "$gen" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DCMAKE_CUDA_COMPILER="$NVCC" \
    "$@" >"$WORK/cmake.log" 2>&1 || fail "cmake -G '$gen' $*: $(tail -20 "$WORK/cmake.log")"
}
configure build-make "Unix Makefiles"
configure build-make-rsp "Unix Makefiles" -DCMAKE_CXX_USE_RESPONSE_FILE_FOR_INCLUDES=ON
configure build-ninja Ninja
# the shapes this test is about, as CMake writes them
grep -q -- '--options-file CMakeFiles/kernels.dir/includes_CUDA.rsp' build-make/compile_commands.json ||
  fail "Unix Makefiles: the CUDA include directories are expected in an options file"
grep -q -- '@CMakeFiles/hostlib.dir/includes_CXX.rsp' build-make-rsp/compile_commands.json ||
  fail "Unix Makefiles with response files: the C++ include directories are expected in an @file"
grep -q -- '-x cu -c [^ ]*/src/launch.cpp' build-ninja/compile_commands.json ||
  fail "launch.cpp is expected to be compiled with -x cu"
! grep -q -- '--options-file\|@CMakeFiles' build-ninja/compile_commands.json ||
  fail "Ninja: flags are expected inline"

sed "s|@DIR@|$WORK/mixed|" expected.txt >"$WORK/expected"
for dir in build-make build-make-rsp build-ninja; do
  run -p "$dir"
  expect_rc 1 "$dir: findings"
  [ ! -s "$WORK/err" ] || fail "$dir: nothing expected on stderr (no parse errors or notes): $(head -c 1500 "$WORK/err")"
  diff -u "$WORK/expected" "$WORK/out" >"$WORK/diff" || fail "$dir: findings differ from expected.txt: $(cat "$WORK/diff")"
done
# a file the build does not know takes a similar entry's flags, options file included
cp src/kernels.cu src/unlisted.cu
for dir in build-make build-ninja; do
  run -p "$dir" src/unlisted.cu
  expect_rc 1 "$dir: a file with no entry"
  ! grep -q 'clang:\|parse error' "$WORK/err" || fail "$dir: a file with no entry parses: $(head -c 1500 "$WORK/err")"
  expect_out "^src/unlisted.cu:12:8: warning: 'a' \(device memory from cudaMalloc\) is not freed on an error path: .*\[GM001 unpaired-allocation\]$" \
    "$dir: a file with no entry: the finding"
done
finish
