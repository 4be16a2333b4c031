#!/usr/bin/env bash
# Instructions per cudaMallocAsync/cudaFreeAsync pair for each way in, counted by callgrind against
# the simulated CUDA runtime: plain, the gmemcc build (forced include, libgmemrt.a), and the plain
# build under gmemrun (wrapped entry points; with and without the caller lookup). A deterministic
# figure for work on the hot path here, where no GPU is; the H200's timings (tests/gpu/run.sh)
# remain the ones that count. Needs valgrind and a configured build (default: build/).
# Usage: bash bench/runtime_instructions.sh [BUILD_DIR] [PAIRS]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=$(cd "${1:-build}" && pwd)
PAIRS=${2:-100000}
command -v valgrind >/dev/null || { echo "runtime_instructions: error: valgrind not found" >&2; exit 2; }
CUDA=${CUDA_PATH:-/usr/local/cuda}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
SIM=$BUILD/tests
g++ -O2 -g -I"$CUDA/include" bench/sim_churn.cpp -o "$W/plain" -L"$SIM" -lsimcudart \
  -Wl,-rpath,"$SIM"
g++ -O2 -g -I"$CUDA/include" -Iinclude/gmemlint -include gmem_forced.h bench/sim_churn.cpp \
  -o "$W/gmemcc" "$BUILD/runtime/libgmemrt.a" -L"$SIM" -lsimcudart -Wl,-rpath,"$SIM" -ljansson \
  -ldw -lunwind -lpthread
export GMEMRT_CUPTI_LIBRARY=$SIM/libfakecupti.so
export GMEMRUN_DRIVER=$SIM/libsimcudart.so # the simulated runtime plays the driver for gmemrun
# instructions inside measured_pairs (the loop after a warm-up), per pair
count() {
  local out=$W/cg.$1
  shift
  valgrind --tool=callgrind --trace-children=yes --toggle-collect=measured_pairs \
    --callgrind-out-file="$out.%p" "$@" >/dev/null 2>&1
  local total=0
  for f in "$out".*; do
    local n
    n=$(callgrind_annotate --inclusive=yes "$f" 2>/dev/null | awk '/:measured_pairs / {gsub(",", "", $1); print $1; exit}')
    [ -n "$n" ] && total=$n
  done
  echo $((total / PAIRS))
}
plain=$(count plain "$W/plain" "$PAIRS")
cc=$(count gmemcc env GMEMRT_OUTPUT="$W/cc-%p.json" "$W/gmemcc" "$PAIRS")
# the simulated driver's own cost of reporting to a subscriber-less stand-in CUPTI, without the
# runtime (GMEMRT_DISABLE=1): gmemrun's rows are counted over this one
base=$(count injected env GMEMRT_DISABLE=1 "$BUILD/gmemrun" -q -o "$W/base-%p.json" -- "$W/plain" \
  "$PAIRS")
run=$(count gmemrun "$BUILD/gmemrun" -q -o "$W/run-%p.json" -- "$W/plain" "$PAIRS")
api=$(count gmemrun_api env GMEMRT_CALLER_SITES=0 "$BUILD/gmemrun" -q -o "$W/api-%p.json" -- \
  "$W/plain" "$PAIRS")
echo "instructions per cudaMallocAsync+cudaFreeAsync pair ($PAIRS pairs, simulated runtime):"
printf '  %-28s %6d\n' plain "$plain"
printf '  %-28s %6d  (+%d over plain)\n' gmemcc "$cc" $((cc - plain))
printf '  %-28s %6d\n' "injected, runtime disabled" "$base"
printf '  %-28s %6d  (+%d over injected)\n' gmemrun "$run" $((run - base))
printf '  %-28s %6d  (+%d over injected)\n' "gmemrun, no caller lookup" "$api" $((api - base))
