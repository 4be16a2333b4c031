#!/usr/bin/env bash
# Where a hooked call's time goes, on the GPU machine (it has no perf): run through the device
# tool after tests/gpu/prepare.sh here, carrying .gpu-deps, build/gmemcc and build/gmemrun.
#   1. stages: tests/gpu/churn.cu under a profiling build of the runtime (-DGMEMRT_PHASES,
#      runtime/phases.h), built with gmemcc's forced include and plain under gmemrun;
#   2. AB_ROUNDS alternating rounds (default 10) of churn's in-process A/B: in each run, the pairs
#      as routed against the runtime called directly and against the driver's own functions, for
#      the plain build, the gmemcc build and gmemrun (whose cost is its routed/driver ratio over
#      plain's: the drift between processes divides out);
#   3. ROUNDS alternating rounds (default 6) of the plain build, the gmemcc build and gmemrun,
#      and gmemrun with one part turned off at a time (stacks, caller sites, NVML, everything);
#   4. CUPTI's own cost, without gmemlint's runtime (bench/cupti_cost, NO_PROBE=1 skips it).
# With BASE=DIR (a tree holding an earlier commit's runtime/ and include/gmemlint/, which
# prepare.sh's caller puts under .gpu-deps), that runtime's gmemcc build and gmemrun join the
# rounds, so before and after are measured on one machine in one call.
# Everything printed also lands in $OUT/profile.tar.gz (run.log, rounds.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
DEPS=$ROOT/.gpu-deps
[ -d "$DEPS" ] || { echo "run tests/gpu/prepare.sh first and carry .gpu-deps" >&2; exit 2; }
B=$(mktemp -d)
RES=$B/out
mkdir -p "$RES"
exec > >(tee "$RES/run.log") 2>&1
LOG_PID=$!
trap 'exec >&- 2>&-; wait "$LOG_PID"; [ -n "${OUT:-}" ] && tar -C "$RES" -czf "$OUT/profile.tar.gz" .' EXIT
export LD_LIBRARY_PATH=$DEPS/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader

echo "== build: the runtime as shipped, its profiling build${BASE:+, and the baseline in $BASE}"
bash tests/gpu/build_runtime.sh "$B/now"
bash tests/gpu/build_runtime.sh "$B/phases" "$ROOT" -DGMEMRT_PHASES
[ -n "${BASE:-}" ] && bash tests/gpu/build_runtime.sh "$B/base" "$ROOT/$BASE"
FLAGS=(-O2 -std=c++17 -arch=sm_90)
churn() { # churn NAME LIBDIR INCLUDEDIR: the forced-include build against that runtime
  nvcc "${FLAGS[@]}" -I"$3" -include gmem_forced.h tests/gpu/churn.cu -o "$B/$1" "$2/libgmemrt.a" \
    -L"$DEPS/lib" -ljansson -ldw -lunwind -Xlinker -rpath-link="$DEPS/lib"
}
nvcc "${FLAGS[@]}" tests/gpu/churn.cu -o "$B/churn_plain"
churn churn_now "$B/now" include/gmemlint
churn churn_phases "$B/phases" include/gmemlint
[ -n "${BASE:-}" ] && churn churn_base "$B/base" "$BASE/include/gmemlint"
PIN=()
if command -v taskset >/dev/null && [ "$(nproc)" -gt 2 ]; then
  PIN=(taskset -c 2)
  echo "(every run pinned to core 2)"
fi
gmemrun() { # gmemrun LIBDIR [ENV=VALUE...]: churn_plain under gmemrun with that runtime
  local lib=$1
  shift
  env "$@" "${PIN[@]}" build/gmemrun -q --library "$lib/libgmemrt_inject.so" \
    -o "$B/gmemrun-%p.json" -- "$B/churn_plain" "${SYNC_PAIRS:-5000}" 200000
}

echo "== 1. stages (the profiling build; its own timing adds to 'ours')"
for i in 1 2; do
  echo "-- gmemcc build, run $i"
  GMEMRT_OUTPUT="$B/phases-%p.json" "${PIN[@]}" "$B/churn_phases" "${SYNC_PAIRS:-5000}" 200000
  echo "-- gmemrun, run $i"
  gmemrun "$B/phases"
done
echo "-- gmemrun without caller sites (GMEMRT_CALLER_SITES=0)"
gmemrun "$B/phases" GMEMRT_CALLER_SITES=0

AB_ROUNDS=${AB_ROUNDS:-10}
echo "== 2. in one process, $AB_ROUNDS alternating rounds: each run's pairs as routed against the"
echo "   runtime called directly and against the driver's own functions (churn's A/B: 40 chunks a"
echo "   side, 400000 cudaMallocAsync and 4000 cudaMalloc pairs a side)"
ab() { # ab WAY COMMAND...: the A/B lines of one run, on one line
  local way=$1
  shift
  echo "$way $("$@" | grep -E '^(ab|drv)' | tr '\n' ' ')"
}
for ((i = 0; i < AB_ROUNDS; i++)); do
  ab plain "${PIN[@]}" "$B/churn_plain" 20 20 400000 4000
  ab gmemcc env GMEMRT_OUTPUT="$B/ab-%p.json" "${PIN[@]}" "$B/churn_now" 20 20 400000 4000
  ab gmemrun env "${PIN[@]}" build/gmemrun -q --library "$B/now/libgmemrt_inject.so" \
    -o "$B/ab-run-%p.json" -- "$B/churn_plain" 20 20 400000 4000
  if [ -n "${BASE:-}" ]; then
    ab gmemcc_base env GMEMRT_OUTPUT="$B/ab-%p.json" "${PIN[@]}" "$B/churn_base" 20 20 400000 4000
    ab gmemrun_base env "${PIN[@]}" build/gmemrun -q --library "$B/base/libgmemrt_inject.so" \
      -o "$B/ab-run-%p.json" -- "$B/churn_plain" 20 20 400000 4000
  fi
done | tee "$RES/ab.txt"
python3 bench/overhead_summary.py "$RES/ab.txt"

ROUNDS=${ROUNDS:-6}
echo "== 3. $ROUNDS rounds, alternating (${SYNC_PAIRS:-5000} cudaMalloc pairs, 200000 async pairs)"
for ((i = 0; i < ROUNDS; i++)); do
  echo "plain           $("${PIN[@]}" "$B/churn_plain" "${SYNC_PAIRS:-5000}" 200000)"
  echo "gmemcc          $(GMEMRT_OUTPUT="$B/r-%p.json" "${PIN[@]}" "$B/churn_now" "${SYNC_PAIRS:-5000}" 200000)"
  echo "gmemrun         $(gmemrun "$B/now")"
  if [ -n "${BASE:-}" ]; then
    echo "gmemcc_base     $(GMEMRT_OUTPUT="$B/r-%p.json" "${PIN[@]}" "$B/churn_base" "${SYNC_PAIRS:-5000}" 200000)"
    echo "gmemrun_base    $(gmemrun "$B/base")"
  fi
  if [ -z "${NO_PARTS:-}" ]; then
    echo "gmemrun_nostack $(gmemrun "$B/now" GMEMRT_STACK_DEPTH=0)"
    echo "gmemrun_api     $(gmemrun "$B/now" GMEMRT_CALLER_SITES=0)"
    echo "gmemrun_nonvml  $(gmemrun "$B/now" GMEMRT_NVML=0)"
    echo "gmemrun_off     $(gmemrun "$B/now" GMEMRT_DISABLE=1)"
  fi
done | tee "$RES/rounds.txt"
python3 bench/overhead_summary.py "$RES/rounds.txt"

if [ -z "${NO_PROBE:-}" ]; then
  echo "== 4. CUPTI alone (bench/cupti_cost's probe): nothing, a bare subscription, callbacks on"
  echo "   APIs the loop never calls, on the allocation functions themselves; three rounds"
  MODES="none sub other drv" B=$B/probe bash bench/cupti_cost/run.sh 2>&1 | grep -v "^ *probe:" |
    head -20 || true
fi
