# Real builds through gmemcc: the object calls the runtime's hooks, the program carries the
# runtime, with nvcc's static cudart (the default), with -cudart shared, and with g++ on host
# code linked against the static cudart. Running the programs needs no GPU: the hook records the
# call (failed, without a device) at its site and the telemetry file names that site.
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
__global__ void fill(float *p) { p[threadIdx.x] = 1.0f; }
int main() {
  float *p = nullptr;
  if (cudaMalloc(&p, 64 * sizeof(float)) != cudaSuccess) {
    std::puts("no CUDA device");
    return 0;
  }
  fill<<<1, 64>>>(p);
  cudaFree(p);
  return 0;
}
SRC

# compile, then link, as two steps (static cudart)
gmemcc_run -c app.cu -o app.o
expect_rc 0 "gmemcc -c app.cu"
nm app.o >nm.obj
grep -qE " U gmemrt_cudaMalloc$" nm.obj || fail "app.o does not call gmemrt_cudaMalloc: $(grep gmemrt nm.obj)"
grep -qE " U gmemrt_cudaFree$" nm.obj || fail "app.o does not call gmemrt_cudaFree"
gmemcc_run app.o -o app_static
expect_rc 0 "gmemcc app.o -o app_static"
nm app_static >nm.static
grep -qE " T gmemrt_cudaMalloc$" nm.static || fail "app_static lacks the runtime's gmemrt_cudaMalloc"
grep -qE " T gmemrt_dump$" nm.static || fail "app_static lacks gmemrt_dump"
! readelf -d app_static | grep -q "libcudart\.so" || fail "app_static links the shared cudart"

# compile and link in one step, shared cudart
gmemcc_run -cudart shared app.cu -o app_shared
expect_rc 0 "gmemcc -cudart shared app.cu"
nm app_shared | grep -qE " T gmemrt_cudaMalloc$" || fail "app_shared lacks gmemrt_cudaMalloc"
readelf -d app_shared | grep -q "NEEDED.*libcudart\.so" || fail "app_shared does not need libcudart.so"
for dep in libjansson libunwind; do
  readelf -d app_shared | grep -q "NEEDED.*$dep\.so" || fail "app_shared does not need $dep"
done

# g++ on host code whose only CUDA calls are hooked: libgmemrt.a is what calls cudart, so gmemcc
# names the user's -lcudart_static again after it
cat >host.cpp <<'SRC'
#include <cstdio>
#include <cuda_runtime.h>
int main() {
  void *p = nullptr;
  if (cudaMalloc(&p, 256) != cudaSuccess) {
    std::puts("no CUDA device");
    return 0;
  }
  cudaFree(p);
  return 0;
}
SRC
CUDALIB=$(dirname "$(realpath "$NVCC")")/../lib64
if command -v g++ >/dev/null && [ -f "$CUDALIB/libcudart_static.a" ]; then
  gmemcc_run g++ -c host.cpp -o host.o
  expect_rc 0 "gmemcc g++ -c host.cpp"
  nm host.o | grep -qE " U gmemrt_cudaMalloc$" || fail "host.o does not call gmemrt_cudaMalloc"
  gmemcc_run g++ host.o -o app_gxx -L"$CUDALIB" -lcudart_static -ldl -lrt -lpthread
  expect_rc 0 "gmemcc g++ link with -lcudart_static"
  nm app_gxx | grep -qE " T gmemrt_cudaMalloc$" || fail "app_gxx lacks gmemrt_cudaMalloc"
  apps="app_static app_shared app_gxx"
else
  echo "skipped the g++ build: no g++ or no $CUDALIB/libcudart_static.a"
  apps="app_static app_shared"
fi

# each program reports its cudaMalloc (app.cu:6, host.cpp:5) by its site
for app in $apps; do
  rm -f telemetry-*.json
  GMEMRT_OUTPUT="$WORK/telemetry-%p.json" "./$app" >"$app.out" 2>&1 || fail "$app exited $?: $(cat "$app.out")"
  set -- telemetry-*.json
  if [ ! -f "$1" ]; then
    fail "$app wrote no telemetry file ($(cat "$app.out"))"
    continue
  fi
  site="app.cu:6"
  [ "$app" != app_gxx ] || site="host.cpp:5"
  "$PY" - "$1" "$site" <<'PY' || fail "$app's telemetry lacks the $site cudaMalloc site"
import json, sys
sites = json.load(open(sys.argv[1]))["sites"]
file, line = sys.argv[2].split(":")
sys.exit(0 if any(s["file"].endswith(file) and s["line"] == int(line) and s["api"] == "cudaMalloc"
                  and s["calls"] + s.get("failed_calls", 0) >= 1 for s in sites) else 1)
PY
done
finish
