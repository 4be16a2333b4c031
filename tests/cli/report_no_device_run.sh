# A real run where every allocation fails: a program built with gmemcc and nvcc, run with no
# usable device (no driver on CI; CUDA_VISIBLE_DEVICES= hides a GPU where there is one), and
# what gmemlint report and the join say of it: the errors the program itself saw, never
# "freed"; and gmemrun on the same program where there is no driver: exit 3, the program not run.
source "$(dirname "$0")/testlib.bash"
source "$(dirname "$0")/gmemcc_lib.bash"
if ! have_nvcc; then
  echo "skipped: nvcc not found on PATH or in /usr/local/cuda/bin"
  exit 0
fi
cd "$WORK"
cat >app.cu <<'SRC'
#include <cstdio>
#include <cuda_runtime.h>
int main() {
  for (int i = 0; i < 3; i++) {
    float *d = nullptr;
    cudaError_t rc = cudaMalloc(&d, 1 << 20);
    if (rc != cudaSuccess) {
      std::printf("%s\n", cudaGetErrorName(rc));
      continue;
    }
    cudaFree(d);
  }
  return 0;
}
SRC
gmemcc_run -g app.cu -o app
expect_rc 0 "gmemcc app.cu"
CUDA_VISIBLE_DEVICES= GMEMRT_OUTPUT="$WORK/run-%p.json" GMEMRT_NVML=0 ./app >seen.txt 2>app.err ||
  fail "app failed: $(cat app.err)"
error=$(head -1 seen.txt)
[ "$(sort -u seen.txt | wc -l)" -eq 1 ] && [ "$(wc -l <seen.txt)" -eq 3 ] && [[ $error == cudaError* ]] ||
  fail "expected three failures with one error: $(cat seen.txt)"
run report run-*.json
expect_rc 0 "report"
for want in '  none: no allocation succeeded (3 of 3 failed; see "Failed allocations")' \
  "Failed allocations: 3 of 3" \
  "  app.cu:6 cudaMalloc: 3 of 3 allocations from this site failed ($error)"; do
  grep -qxF -- "$want" "$WORK/out" || fail "report lacks '$want': $(cat "$WORK/out")"
done
expect_no_out "everything allocated was freed" "report"

# gmemrun needs the driver; where there is none (CI) it says so before running the program
if ! "$PY" -c 'import ctypes; ctypes.CDLL("libcuda.so.1")' 2>/dev/null; then
  rc=0
  "$(dirname "$GMEMLINT")/gmemrun" -o "$WORK/inj-%p.json" -- ./app >gmemrun.out 2>gmemrun.err || rc=$?
  [ "$rc" -eq 3 ] || fail "gmemrun without a driver: exit $rc, expected 3"
  [ ! -s gmemrun.out ] || fail "gmemrun ran the program: $(cat gmemrun.out)"
  [ "$(cat gmemrun.err)" = "gmemrun: error: no CUDA driver (libcuda.so.1 could not be loaded: libcuda.so.1: cannot open shared object file: No such file or directory); ./app was not run: the runtime attaches through the driver" ] ||
    fail "gmemrun without a driver said: $(cat gmemrun.err)"
fi
finish
