# CUDA 13's CCCL (Thrust, CUB, libcu++) refuses a dialect before C++17 with an #error in each
# library, which buried a file in 71 parse errors. gmemlint parses such a file again with
# -std=c++17 (without the preamble built in the old dialect), analyses it in full and says once,
# naming the flag and the fix; alone and with a shared preamble (three files).
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
for f in a b c; do
  cat >$f.cu <<'SRC'
#include <cuda_runtime.h>
#include <thrust/device_vector.h>
int stage(int n) {
  float *d = nullptr;
  cudaMalloc(&d, n);
  if (n > 2)
    return -1;
  cudaFree(d);
  return 0;
}
SRC
done
note() { echo "$1: note: $1: CUDA 13's Thrust, CUB and libcu++ (CCCL) need C++17 and refuse the dialect the flags give (-std=c++14 or older; nvcc 13 refuses it too): parsed with -std=c++17; build with -std=c++17 (CMake: CMAKE_CUDA_STANDARD 17)"; }
leak() { echo "$1:5:3: warning: 'd' (device memory from cudaMalloc) is not freed on every path: a return leaves 'stage' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]"; }
run --no-cache a.cu -- -std=c++14
expect_rc 1 "one file under -std=c++14: the leak decides, no parse error"
[ ! -s "$WORK/err" ] || fail "one file: nothing on stderr: $(head -c 800 "$WORK/err")"
[ "$(grep -E ': (note|warning): ' "$WORK/out" | grep -v 'this return')" = "$(note a.cu)
$(leak a.cu)" ] || fail "one file: the note and the leak: $(cat "$WORK/out")"
run --no-cache --pch=always a.cu b.cu c.cu -- -std=c++14
expect_rc 1 "three files with a shared preamble"
[ ! -s "$WORK/err" ] || fail "three files: nothing on stderr: $(head -c 800 "$WORK/err")"
[ "$(grep -cE "^[abc].cu: note: [abc].cu: CUDA 13's Thrust" "$WORK/out")" -eq 3 ] || fail "three files: a note each: $(cat "$WORK/out")"
[ "$(grep -cE '\[GM001 unpaired-allocation\]$' "$WORK/out")" -eq 3 ] || fail "three files: a leak each: $(cat "$WORK/out")"
run --no-cache --format=json a.cu -- -std=c++14
"$PY" -c 'import json, sys; d = json.load(open(sys.argv[1])); assert [n["kind"] for n in d["notices"]] == ["dialect-raised"], d["notices"]; assert d["summary"]["files_with_errors"] == 0, d["summary"]' \
  "$WORK/out" || fail "JSON: a dialect-raised notice, no file with errors"
# an edit of the main file (its out-of-line __host__ __device__, clang's error) made to the
# text with the preamble's includes blanked is carried onto the whole file for the parse
# without that preamble
for f in d e f; do
  cat >$f.cu <<'SRC'
#include <cuda_runtime.h>
static const int kTag = 1; // ends the run of includes the shared preamble holds
#include <thrust/device_vector.h>
struct Grid {
  int n;
  int stage(int bytes) const;
};
__host__ __device__ int Grid::stage(int bytes) const {
  float *d = nullptr;
  cudaMalloc(&d, bytes);
  if (bytes > n)
    return -2;
  cudaFree(d);
  return 0;
}
SRC
done
run --no-cache --pch=always d.cu e.cu f.cu -- -std=c++14
expect_rc 1 "a main-file edit under a raised dialect, with a shared preamble"
[ ! -s "$WORK/err" ] || fail "edit and raised dialect: no parse error: $(head -c 800 "$WORK/err")"
[ "$(grep -cE "^[def].cu:10:3: warning: 'd' .*\[GM001 unpaired-allocation\]$" "$WORK/out")" -eq 3 ] ||
  fail "edit and raised dialect: a leak each: $(cat "$WORK/out")"
# under C++17 nothing is said
run --no-cache a.cu -- -std=c++17
[ "$(count_out 'CCCL')" -eq 0 ] || fail "-std=c++17: no note: $(cat "$WORK/out")"
finish
