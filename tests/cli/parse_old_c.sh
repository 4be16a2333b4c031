#!/usr/bin/env bash
# C sources written for GCC before 14 (the host compiler nvcc builds them with): calls to functions
# no header declared and implicit int are warnings there, errors in clang 16 and later. gmemlint
# parses them as the host compiler does: no parse errors, the file's findings, exit 1.
source "$(dirname "$0")/testlib.bash"
cat >"$WORK/old.c" <<'SRC'
#include <cuda_runtime_api.h>
#include <stdio.h>

static count;

int upload(const float *host, int n) {
  float *dev = 0;
  if (cudaMalloc((void **)&dev, n * sizeof(float)) != cudaSuccess)
    return -1;
  if (!isatty(1))
    log_progress(n);
  if (cudaMemcpy(dev, host, n * sizeof(float), cudaMemcpyHostToDevice) != cudaSuccess)
    return -2;
  cudaFree(dev);
  count++;
  return 0;
}
SRC
cd "$WORK"
run --no-cache old.c
expect_rc 1 "an old C file with a leak"
cat >"$WORK/expected" <<'OUT'
old.c:8:7: warning: 'dev' (device memory from cudaMalloc) is not freed on an error path: a return after a failed call leaves 'upload' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]
  if (cudaMalloc((void **)&dev, n * sizeof(float)) != cudaSuccess)
      ^
old.c:13:5: note: this return after a failed call leaves without freeing 'dev'
    return -2;
    ^
OUT
diff -u "$WORK/expected" "$WORK/out" >"$WORK/diff" || fail "old.c's findings: $(cat "$WORK/diff")"
[ ! -s "$WORK/err" ] || fail "old.c parses as GCC 12 parses it, with nothing on stderr: $(head -c 600 "$WORK/err")"
finish
