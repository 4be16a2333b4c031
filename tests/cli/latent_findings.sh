# Manifest and latent findings: a free whose path needs a global flag, tested twice, to change in
# between through a call gmemlint does not follow is latent (silent by default, reported with
# --latent, with its full message); a leak on a plain error path is manifest (reported either way).
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
cat >stage.cu <<'SRC'
#include <cuda_runtime.h>
extern bool g_pinned;
void log_progress(const char *what);
int stage(size_t n) {
  float *a = nullptr;
  if (g_pinned)
    cudaMallocHost(&a, n);
  else
    cudaMalloc(&a, n);
  log_progress("allocated");
  if (g_pinned)
    cudaFreeHost(a);
  else
    cudaFree(a);
  return 0;
}
SRC
write_leak leak.cu

run --no-cache stage.cu
expect_rc 0 "latent only: silent by default"
run --no-cache --latent stage.cu
expect_rc 1 "--latent reports the latent frees"
expect_out "^stage.cu:12:5: warning: 'a' \(device memory from cudaMalloc\) is released with cudaFreeHost, which frees pinned host memory; use cudaFree \[GM002 mismatched-free\]$" "latent GM002 on the device buffer"
expect_out "^stage.cu:14:5: warning: 'a' \(pinned host memory from cudaMallocHost\) is released with cudaFree, which frees device memory; use cudaFreeHost \[GM002 mismatched-free\]$" "latent GM002 on the pinned buffer"
[ "$(count_out 'warning:')" -eq 2 ] || fail "--latent: exactly the two latent findings"

run --no-cache leak.cu stage.cu
expect_rc 1 "a manifest leak is reported by default"
expect_out "^leak.cu:4:7: warning: 'a' \(device memory from cudaMalloc\) is not freed on an error path" "manifest GM001 by default"
expect_no_out "GM002" "the latent frees stay silent beside it"
run --no-cache --latent leak.cu stage.cu
expect_out "^leak.cu:4:7: warning: 'a' \(device memory from cudaMalloc\) is not freed on an error path" "manifest GM001 with --latent"
[ "$(count_out 'GM002')" -eq 2 ] || fail "--latent: the two latent frees beside the manifest leak"

run --help
expect_out "--latent" "--help lists --latent"
finish
