#!/usr/bin/env bash
# End to end on samples/, without a GPU: each sample is built with gmemcc against the simulated
# CUDA runtime (tests/runtime/simcuda.c, host-backed, 2 MiB pages as the driver reports them, and
# the stand-in libcupti fed by its managed-memory emulation), run, and joined with gmemlint
# --telemetry; every finding's verdict is checked against tests/e2e/samples_expected.txt
# (sample rule line verdict), exactly: no finding missing, none extra.
source "$(dirname "$0")/testlib.bash" "$1" "$2"
BUILD=$(dirname "$GMEMLINT")
GMEMCC=$BUILD/gmemcc
SIMDIR=$BUILD/tests
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
[ -x "$NVCC" ] || { echo "FAIL: nvcc not found (the CUDA toolkit is required)" >&2; exit 1; }
[ -f "$SIMDIR/libsimcudart.so" ] && [ -f "$SIMDIR/libfakecupti.so" ] ||
  { echo "FAIL: build the simulated runtime first (libsimcudart.so, libfakecupti.so)" >&2; exit 1; }

build_and_run() {
  local n=$1
  "$GMEMCC" "$NVCC" -std=c++17 -gencode arch=compute_90,code=compute_90 -cudart none \
    -o "$WORK/$n" "$ROOT/samples/$n.cu" -L"$SIMDIR" -lsimcudart -Xlinker -rpath="$SIMDIR" \
    >"$WORK/$n.build" 2>&1 || { fail "$n: gmemcc build failed: $(head -c 800 "$WORK/$n.build")"; return; }
  (cd "$WORK" && SIMCUDA_HOST_BACKED=1 SIMCUDA_CAPACITY=$((8 << 30)) SIMCUDA_PAGE=$((2 << 20)) \
    GMEMRT_CUPTI_LIBRARY="$SIMDIR/libfakecupti.so" GMEMRT_OUTPUT="$WORK/$n-%p.json" \
    timeout 120 "./$n" >"$WORK/$n.out" 2>&1) || fail "$n: the program failed: $(cat "$WORK/$n.out")"
  local files=("$WORK/$n"-*.json)
  [ ${#files[@]} -eq 1 ] && [ -f "${files[0]}" ] || { fail "$n: expected one telemetry file"; return; }
  rc=0
  "$GMEMLINT" --format=json --telemetry "${files[0]}" "$ROOT/samples/$n.cu" >"$WORK/$n.join" \
    2>"$WORK/$n.err" || rc=$?
  [ "$rc" -le 1 ] || fail "$n: the join exited $rc: $(head -c 600 "$WORK/$n.err")"
  "$PY" - "$n" "$WORK/$n.join" >>"$WORK/got.txt" <<'PY'
import json, os, sys
name, path = sys.argv[1], sys.argv[2]
for f in json.load(open(path))["findings"]:
    print(name, f["rule"], f["line"], f.get("verdict", "none"))
PY
}

for n in $(ls "$ROOT/samples"/*.cu | xargs -n1 basename | sed 's/\.cu$//'); do
  build_and_run "$n"
done
sort "$WORK/got.txt" >"$WORK/got.sorted"
grep -v '^#' "$ROOT/tests/e2e/samples_expected.txt" | sort >"$WORK/want.sorted"
if ! diff -u "$WORK/want.sorted" "$WORK/got.sorted" >"$WORK/diff"; then
  fail "verdicts differ from tests/e2e/samples_expected.txt (- expected, + got):
$(cat "$WORK/diff")"
fi
# every sample has a line in the expectations, or is listed as clean
for n in $(ls "$ROOT/samples"/*.cu | xargs -n1 basename | sed 's/\.cu$//'); do
  grep -q "^$n " "$WORK/want.sorted" || grep -qx "# clean: $n" "$ROOT/tests/e2e/samples_expected.txt" ||
    fail "$n: no expectation in tests/e2e/samples_expected.txt"
done
finish
