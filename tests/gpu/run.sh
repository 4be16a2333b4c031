#!/usr/bin/env bash
# GPU checks of libgmemrt, in one run on the GPU machine: builds the runtime and small real CUDA
# programs with nvcc, runs them, and checks their telemetry. Run tests/gpu/prepare.sh first on the
# development machine (it gathers jansson and libunwind, which the GPU machine lacks) and carry
# .gpu-deps. Usage (device tool): bash tests/gpu/run.sh   -- results also land in $OUT.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
DEPS=$ROOT/.gpu-deps
CUDA=${CUDA_PATH:-/usr/local/cuda}
B=$(mktemp -d)
RES=${OUT:-$B/out}
mkdir -p "$RES"
export LD_LIBRARY_PATH=$DEPS/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
[ -d "$DEPS" ] || { echo "run tests/gpu/prepare.sh first and carry .gpu-deps" >&2; exit 2; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader

echo "== build libgmemrt"
for f in runtime/*.c; do
  gcc -std=c17 -O2 -D_GNU_SOURCE -fPIC -Wall -Wextra -Iinclude/gmemlint -I"$CUDA/include" \
    -I"$DEPS/include" -c "$f" -o "$B/$(basename "$f" .c).o"
done
ar rcs "$B/libgmemrt.a" "$B"/*.o
LIBS=(-L"$B" -lgmemrt -L"$DEPS/lib" -ljansson -lunwind -Xlinker -rpath-link="$DEPS/lib")
FLAGS=(-O2 -std=c++17 -arch=sm_90 -Iinclude/gmemlint)

echo "== build programs (instrumented with -include gmem_forced.h, and churn also plain)"
for p in leak oom churn managed; do
  nvcc "${FLAGS[@]}" -include gmem_forced.h "tests/gpu/$p.cu" -o "$B/$p" "${LIBS[@]}"
done
nvcc "${FLAGS[@]}" tests/gpu/churn.cu -o "$B/churn_plain"
nvcc "${FLAGS[@]}" -include gmem_forced.h tests/gpu/driver.cu -o "$B/driver" "${LIBS[@]}" -lcuda

echo "== run"
GMEMRT_OUTPUT="$RES/leak-%p.json" "$B/leak"
GMEMRT_OUTPUT="$RES/oom-%p.json" GMEMRT_STACK_DEPTH=0 "$B/oom" | tee "$RES/oom.txt"
GMEMRT_OUTPUT="$RES/managed-%p.json" GMEMRT_NVML=1 GMEMRT_NVML_MS=20 "$B/managed"
GMEMRT_OUTPUT="$RES/driver-%p.json" "$B/driver"
python3 tests/gpu/check_gpu.py "$RES"

echo "== overhead: plain vs instrumented, alternating, five runs each"
for i in 1 2 3 4 5; do
  echo "plain        $("$B/churn_plain" 20000 200000)"
  echo "instrumented $(GMEMRT_OUTPUT="$RES/churn-%p.json" "$B/churn" 20000 200000)"
done | tee "$RES/overhead.txt"
python3 - "$RES" <<'PY'
import glob, json, sys
doc = json.load(open(sorted(glob.glob(sys.argv[1] + "/churn-*.json"))[0]))
pools = doc["process"]["pools"]
print(f"pools after the cudaMallocAsync churn: {pools}")
assert pools and pools[0]["sampled"] and pools[0]["used_high_bytes"] >= 1 << 20, pools
assert pools[0]["reserved_high_bytes"] >= pools[0]["used_high_bytes"], pools
PY
python3 - "$RES/overhead.txt" <<'PY'
import re, statistics, sys
rows = {"plain": [], "instrumented": []}
for line in open(sys.argv[1]):
    kind = line.split()[0]
    rows[kind].append({k: float(v) for k, v in re.findall(r"(\w+)=([\d.]+)", line)})
for key, label in (("pair_us", "cudaMalloc+cudaFree pair"),
                   ("async_pair_us", "cudaMallocAsync+cudaFreeAsync pair"),
                   ("kernel_ms", "kernel-bound loop")):
    p = statistics.median(r[key] for r in rows["plain"])
    i = statistics.median(r[key] for r in rows["instrumented"])
    print(f"{label}: plain {p:.4g}, instrumented {i:.4g}, overhead {100 * (i / p - 1):+.1f}%")
PY
echo "gpu checks: ok"
