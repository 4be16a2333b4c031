#!/bin/bash
# On the GPU machine: build the probe and the churn loop (static cudart, as nvcc builds by
# default), then time the churn under each PROBE_MODE, alternating, three rounds.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
CUDA=${CUDA:-/usr/local/cuda}
B=${B:-/tmp/cupti_cost}
mkdir -p "$B"
DEPS=$HERE/../../.gpu-deps # tests/gpu/prepare.sh gathers libunwind for the GPU machine
export LD_LIBRARY_PATH=$DEPS/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
cc -O2 -shared -fPIC -o "$B/probe.so" "$HERE/probe_inject.c" -I"$CUDA/include" -I"$DEPS/include" -L"$DEPS/lib" \
  -L"$CUDA/extras/CUPTI/lib64" -L"$CUDA/lib64" -Wl,-rpath,"$CUDA/extras/CUPTI/lib64" \
  -Wl,-rpath,"$CUDA/lib64" -lcupti -lunwind -ldl || exit 1
"$CUDA/bin/nvcc" -O2 -g -Xlinker -export-dynamic -o "$B/churn" "$HERE/../../tests/gpu/churn.cu" || exit 1
for round in 1 2 3; do
  for m in ${MODES:-none sub rt drv rt+drv drv+unw gpa gpa+unw act act+src}; do
    printf '%-8s ' "$m"
    PROBE_MODE=$m CUDA_INJECTION64_PATH="$B/probe.so" "$B/churn" 5000 200000 2>"$B/err-$m.txt"
    [ "$round" = 1 ] && sed 's/^/    /' "$B/err-$m.txt"
  done
done
# the shared cudart fetches its entry points the same way?
"$CUDA/bin/nvcc" -O2 -g -cudart shared -o "$B/churn_shared" "$HERE/../../tests/gpu/churn.cu" || exit 1
for m in none gpa; do
  printf 'shared %-8s ' "$m"
  PROBE_MODE=$m CUDA_INJECTION64_PATH="$B/probe.so" "$B/churn_shared" 5000 200000 2>"$B/err-s-$m.txt"
  sed 's/^/    /' "$B/err-s-$m.txt"
done
