#!/usr/bin/env bash
# On the GPU machine: what NVML sampling (GMEMRT_NVML=1) costs an instrumented run, to decide
# whether it can be on by default. Builds libgmemrt (static) and, with -include gmem_forced.h,
# tests/gpu/churn.cu (cudaMalloc/cudaFree and cudaMallocAsync pairs: the sampling thread takes
# the runtime's lock that every hooked call takes) and two kernel-heavy programs,
# tests/gpu/bound_compute.cu and bound_bandwidth.cu (the sampler's NVML queries while kernels
# run). Runs each ROUNDS times with GMEMRT_NVML=0 and =1, interleaved (the order alternates from
# round to round: the machine drifts within a minute), and prints per figure the median of each,
# the difference, and the median of the per-round ratios, with each side's spread (max/min) to
# tell the difference from the noise. It checks that the =1 runs did sample.
# Usage (device tool): bash bench/nvml_cost.sh   ROUNDS=7 (rounds), NVML_MS=100 (the interval
# that default-on sampling would use). Carry .gpu-deps (tests/gpu/prepare.sh). Results also land
# in $OUT/nvml_cost.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
DEPS=$ROOT/.gpu-deps
CUDA=${CUDA_PATH:-/usr/local/cuda}
ROUNDS=${ROUNDS:-7}
NVML_MS=${NVML_MS:-100}
B=$(mktemp -d)
export LD_LIBRARY_PATH=$DEPS/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
[ -d "$DEPS" ] || { echo "run tests/gpu/prepare.sh first and carry .gpu-deps" >&2; exit 2; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader

echo "== build libgmemrt (static) and the programs, instrumented"
CFLAGS=(-std=c17 -O2 -g -D_GNU_SOURCE -fPIC -Wall -Wextra -Iinclude/gmemlint -I"$CUDA/include"
        -I"$DEPS/include")
mkdir -p "$B/static"
for f in runtime/*.c; do
  case "$f" in runtime/inject*.c | runtime/imports.c | runtime/preload.c) continue ;; esac
  gcc "${CFLAGS[@]}" -c "$f" -o "$B/static/$(basename "$f" .c).o"
done
ar rcs "$B/libgmemrt.a" "$B"/static/*.o
LIBS=("$B/libgmemrt.a" -L"$DEPS/lib" -ljansson -ldw -lunwind -Xlinker -rpath-link="$DEPS/lib")
for p in churn bound_compute bound_bandwidth; do
  nvcc -O2 -std=c++17 -arch=sm_90 -Iinclude/gmemlint -include gmem_forced.h "tests/gpu/$p.cu" \
    -o "$B/$p" "${LIBS[@]}"
done

# one run: prints "<program> nvml=<0|1> key=value ..." and leaves its telemetry in $B
run_one() {
  local prog=$1 nvml=$2 line
  shift 2
  line=$(GMEMRT_OUTPUT="$B/$prog-nvml$nvml-%p.json" GMEMRT_NVML=$nvml GMEMRT_NVML_MS=$NVML_MS \
    GMEMRT_STACK_DEPTH=0 "$B/$prog" "$@" | tail -1)
  case $prog in
  churn) echo "churn nvml=$nvml $line" ;;
  bound_compute) echo "compute nvml=$nvml tflops=$(echo "$line" | sed -E 's/.*: ([0-9.]+) TFLOP\/s.*/\1/')" ;;
  bound_bandwidth) echo "bandwidth nvml=$nvml gbps=$(echo "$line" | sed -E 's/.*: ([0-9.]+) GB\/s.*/\1/')" ;;
  esac
}

echo "== $ROUNDS rounds, GMEMRT_NVML=0 and =1 interleaved, sampling every $NVML_MS ms"
for ((r = 0; r < ROUNDS; r++)); do
  order=(0 1)
  [ $((r % 2)) -eq 1 ] && order=(1 0)
  for nvml in "${order[@]}"; do
    run_one churn "$nvml" 20000 200000
    run_one bound_compute "$nvml" 1.5
    run_one bound_bandwidth "$nvml" 1.5 2
  done
done | tee "$B/nvml_cost.txt"

python3 - "$B" <<'PY' | tee -a "$B/nvml_cost.txt"
import glob, json, re, statistics, sys
B = sys.argv[1]
# the =1 runs sampled, the =0 runs did not
for nvml in ("0", "1"):
    docs = [json.load(open(f)) for f in glob.glob(f"{B}/*-nvml{nvml}-*.json")]
    rows = [len(d["nvml"].get("samples", [])) for d in docs]
    avail = sum(d["nvml"]["available"] for d in docs)
    print(f"GMEMRT_NVML={nvml}: {len(docs)} runs, NVML available in {avail}, samples per run "
          f"{min(rows) if rows else 0}..{max(rows) if rows else 0}"
          + ("" if nvml == "0" or avail == len(docs) else
             f"  WARNING: not sampled: {docs[0]['nvml'].get('reason')}"))
# figures: lower is better for times, higher for rates
better_lower = {"pair_us": 1, "pair_min_us": 1, "async_pair_us": 1, "async_pair_min_us": 1,
                "kernel_ms": 1, "tflops": 0, "gbps": 0}
runs = {}  # (program, key) -> {"0": [..], "1": [..]} in round order
for line in open(f"{B}/nvml_cost.txt"):
    m = re.match(r"(\w+) nvml=([01]) (.*)", line)
    if not m:
        continue
    for k, v in re.findall(r"(\w+)=([\d.]+)", m.group(3)):
        runs.setdefault((m.group(1), k), {"0": [], "1": []})[m.group(2)].append(float(v))
print(f"{'figure':28} {'NVML off':>10} {'NVML on':>10} {'diff':>8} {'ratio/round':>12} "
      f"{'spread off':>11} {'spread on':>10}")
for (prog, k), v in runs.items():
    off, on = v["0"], v["1"]
    if not off or not on:
        continue
    mo, mn = statistics.median(off), statistics.median(on)
    # cost as a fraction: more time, or less rate, with sampling on
    cost = (mn / mo - 1) if better_lower[k] else (mo / mn - 1)
    ratios = [(b / a if better_lower[k] else a / b) for a, b in zip(off, on) if a and b]
    spread = lambda xs: max(xs) / min(xs) - 1 if min(xs) > 0 else float("nan")
    print(f"{prog + ' ' + k:28} {mo:10.4g} {mn:10.4g} {cost * 100:+7.1f}% "
          f"{(statistics.median(ratios) - 1) * 100:+11.1f}% {spread(off) * 100:10.1f}% "
          f"{spread(on) * 100:9.1f}%")
print("diff and ratio/round: the cost of sampling (positive: slower with NVML on); compare "
      "with the spreads, the noise of each side")
PY
[ -n "${OUT:-}" ] && cp "$B/nvml_cost.txt" "$OUT/nvml_cost.txt"
echo "nvml cost: done"
