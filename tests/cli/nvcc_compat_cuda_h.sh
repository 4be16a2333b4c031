# A project header named as a toolkit header (include/cuda.h) on the -I path: clang's CUDA wrapper
# includes "cuda.h" by name, so it got the project's and every CUDA file broke; nvcc's headers
# never include it that way. gmemlint then parses with a copy of the wrapper that names the
# toolkit's headers by path (analyzer/frontend/cuda_wrapper.c): no parse error, the findings
# found, with and without a shared preamble, while the file's own `#include "cuda.h"` still gets
# the project's header (as with nvcc). A project header with nvcc-only syntax (spaced chevrons,
# host declarations of threadIdx) is read as nvcc reads it too.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
mkdir -p proj/include
cat >proj/include/cuda.h <<'SRC'
/* the project's own: no CUDA_VERSION, nothing of the driver API */
#pragma once
#define PROJECT_DEVICE_COUNT 4
SRC
cat >proj/include/launch.cuh <<'SRC'
#pragma once
extern const uint3 threadIdx;
extern const dim3 blockDim;
__global__ void fill(float *v, int n);
#define LAUNCH_FILL(v, n) fill << < ((n) + 255) / 256, 256 >> >(v, n)
SRC
for i in 1 2 3; do
  cat >proj/f$i.cu <<SRC
#include "cuda.h"
#include "launch.cuh"
#include <cuda_runtime.h>
int step$i(int n) {
  float *d = nullptr;
  cudaMalloc(&d, n * PROJECT_DEVICE_COUNT);
  LAUNCH_FILL(d, n);
  if (cudaDeviceSynchronize() != cudaSuccess)
    return -1;
  cudaFree(d);
  return 0;
}
SRC
done
for pch in always never; do
  run --no-cache --pch=$pch proj/f1.cu proj/f2.cu proj/f3.cu -- -Iproj/include
  expect_rc 1 "--pch=$pch: the leaks are found"
  grep -q 'clang:' "$WORK/err" && fail "--pch=$pch: parse errors: $(grep 'clang:' "$WORK/err" | head -3)"
  [ "$(count_out "^proj/f[123].cu:6:3: warning: 'd' \(device memory from cudaMalloc\) is not freed on an error path")" -eq 3 ] ||
    fail "--pch=$pch: GM001 in each file: $(cat "$WORK/out")"
  cp "$WORK/out" "$pch.out"
done
cmp -s always.out never.out || fail "--pch=always and never differ: $(diff always.out never.out | head)"
grep -q '__gmemlint__' always.out "$WORK/err" && fail "a virtual header's path is shown"
finish
