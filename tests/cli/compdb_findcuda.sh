# CMake's FindCUDA module (cuda_add_executable, cuda_add_library) leaves its .cu files out of
# compile_commands.json: tests/cmake_projects/findcuda configured with it, then linted with -p.
# Both .cu files are read with the flags of the nvcc scripts FindCUDA generates (the include
# directory, -D from add_definitions, CUDA_NVCC_FLAGS' -D: without them each fails to parse),
# the note says the database lacked them, and the same holds when there is no database at all.
source "$(dirname "$0")/testlib.bash"
if ! command -v cmake >/dev/null; then
  echo "SKIP: cmake not found (bootstrap.sh installs it)"
  exit 0
fi
cp -r "$ROOT/tests/cmake_projects/findcuda" "$WORK/proj"
cd "$WORK/proj"
cmake -S . -B build -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
  -DCUDA_TOOLKIT_ROOT_DIR="${CUDA_PATH:-/usr/local/cuda}" >"$WORK/cmake.log" 2>&1 ||
  fail "cmake with FindCUDA: $(tail -20 "$WORK/cmake.log")"
"$PY" -c 'import json, sys; assert [e["file"].rsplit("/", 1)[-1] for e in json.load(open(sys.argv[1]))] == ["host.cpp"]' \
  build/compile_commands.json || fail "CMake is expected to list host.cpp alone: $(cat build/compile_commands.json)"
script=$WORK/proj/build/CMakeFiles/demo.dir/src/demo_generated_main.cu.o.cmake
[ -f "$script" ] || fail "FindCUDA's script for main.cu is expected at $script"

findings() { grep -E ': warning: ' "$WORK/out" | sed "s|$WORK/proj/||"; }
cat >expected <<'TXT'
src/main.cu:9:7: warning: 'd' (device memory from cudaMalloc) is not freed on every path: a return leaves 'stage' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]
lib/kernels.cu:13:3: warning: 'd' (device memory from cudaMalloc) is not freed on an error path: a return after a failed call leaves 'run_fill' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]
TXT
run --no-cache -p build
expect_rc 1 "-p build: both FindCUDA files linted"
[ "$(cat "$WORK/err")" = "gmemlint: note: build/compile_commands.json lacks 2 CUDA files that CMake's FindCUDA module compiles (cuda_add_executable, cuda_add_library): read from the nvcc scripts it generates (e.g. $script)" ] ||
  fail "-p build: the note in full, nothing else (no parse error): $(cat "$WORK/err")"
findings >got
diff -u expected got >diff || fail "-p build: the findings: $(cat diff)"
run --no-cache --format=json -p build
"$PY" -c 'import json, sys; s = json.load(open(sys.argv[1]))["summary"]; assert (s["files"], s["files_with_errors"]) == (3, 0), s' \
  "$WORK/out" || fail "-p build: 3 files analysed, none with errors"

# a file named with -p gets its script's flags too
run --no-cache -p build lib/kernels.cu
expect_rc 1 "-p build lib/kernels.cu"
[ "$(findings)" = "$(tail -1 expected)" ] || fail "a FindCUDA file named: $(cat "$WORK/out")"
# the flags are the scripts': without them the files do not parse
run --no-cache src/main.cu lib/kernels.cu
expect_rc 3 "without the scripts' flags"
expect_err "'scale.h' file not found" "without the scripts' flags: the include directory is missing"

# a build of FindCUDA targets alone: no compile_commands.json, the scripts are the database
rm build/compile_commands.json
run --no-cache -p build
expect_rc 1 "-p build without compile_commands.json"
[ "$(cat "$WORK/err")" = "gmemlint: note: build/compile_commands.json does not exist; its build has 2 CUDA files that CMake's FindCUDA module compiles (cuda_add_executable, cuda_add_library): read from the nvcc scripts it generates (e.g. $script)" ] ||
  fail "no database: the note in full: $(cat "$WORK/err")"
findings >got
diff -u expected got >diff || fail "no database: the findings: $(cat diff)"
# and a build directory with neither is still an error
mkdir empty
run --no-cache -p empty
expect_rc 2 "neither a database nor FindCUDA scripts"
expect_err "^gmemlint: error: empty/compile_commands.json: cannot open compile database \(is empty a build directory\?\)" "neither: the error"
finish
