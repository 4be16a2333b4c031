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

# A branch on code clang could not type (a header not found) is a guess either way, but only
# until its two ways meet: a leak later in the function, on paths that rest on neither way, is
# manifest; a free the untyped branch decides stays latent.
cat >untyped.cu <<'SRC'
#include <cuda_runtime.h>
#include "missing_config.h"
int stage(size_t n) {
  if (cfg_verbose(CONFIG_LEVEL))
    n += 16;
  float *d;
  if (cudaMalloc(&d, n) != cudaSuccess)
    return 1;
  return 0;
}
int decided(size_t n) {
  float *d;
  cudaMalloc(&d, n);
  if (cfg_owns(CONFIG_LEVEL))
    cudaFree(d);
  return 0;
}
SRC
run --no-cache --allow-parse-errors untyped.cu
expect_rc 1 "a leak after an untyped branch's two ways meet is reported"
expect_out "^untyped.cu:7:7: warning: 'd' \(device memory from cudaMalloc\) is not freed on every path: a return leaves 'stage' without releasing it; call cudaFree before returning \[GM001 unpaired-allocation\]$" "the manifest leak after the untyped branch"
expect_out "^untyped.cu:9:3: note: this return leaves without freeing 'd'$" "its note"
[ "$(count_out 'warning: .*GM001')" -eq 1 ] || fail "the free decided by the untyped branch stays latent"
run --no-cache --allow-parse-errors --latent untyped.cu
expect_out "^untyped.cu:13:3: warning: 'd' \(device memory from cudaMalloc\) is not freed on every path: a return leaves 'decided' without releasing it; call cudaFree before returning \[GM001 unpaired-allocation\]$" "--latent: the leak that rests on the untyped branch"

run --help
expect_out "--latent" "--help lists --latent"
finish
