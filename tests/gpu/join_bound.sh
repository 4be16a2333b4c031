#!/usr/bin/env bash
# After tests/gpu/run.sh: judges the GM140 programs' telemetry from the GPU run (the device tool's
# files: DIR/bound_capacity-PID.json, bound_bandwidth-PID.json, bound_compute-PID.json, each run
# with GMEMRT_NVML=1 GMEMRT_NVML_MS=50) with gmemlint --telemetry and `gmemlint report`, and checks
# each verdict: the program that holds nearly all device memory is capacity-bound (from the
# samples, not from an out-of-memory event) at its allocation; the streaming copy is
# bandwidth-bound; the arithmetic kernel gets no GM140 and the report says "neither". It prints
# each run's NVML figures, from which the thresholds in analyzer/runtime_view/nvml_verdict.h can
# be checked against the H200.
# Usage: bash tests/gpu/join_bound.sh DIR [gmemlint]
set -uo pipefail
cd "$(dirname "$0")/../.."
DIR=$1
GMEMLINT=${2:-build/gmemlint}
status=0
fail() {
  echo "FAIL: $*"
  status=1
}

# judge NAME: the join of NAME's telemetry with its source in $out, its report's NVML part in
# $report; both printed. Returns 1 when the GPU run left no telemetry.
judge() {
  local files=("$DIR/$1"-*.json)
  if [ ! -f "${files[0]}" ]; then
    fail "$1: no telemetry from the GPU run"
    return 1
  fi
  out=$("$GMEMLINT" --telemetry "${files[@]}" "tests/gpu/$1.cu" 2>&1)
  report=$("$GMEMLINT" report "${files[@]}" 2>&1 | sed -n '/^NVML samples/,$p')
  echo "== $1"
  echo "$out" | grep -E '\[GM|note: confirmed'
  echo "$report"
}

if judge bound_capacity; then
  line=$(grep -n '@bound_hold' tests/gpu/bound_capacity.cu | cut -d: -f1)
  echo "$out" | grep -qE "bound_capacity.cu:$line: warning: the run of bound_capacity \(pid [0-9]+\) was capacity-bound: device memory was nearly full .*\[GM140 " ||
    fail "no GM140 capacity-bound at bound_capacity.cu:$line"
  echo "$out" | grep -qE "bound_capacity.cu:$line: note: confirmed: capacity-bound: device [0-9]+ was at least 90% full while kernels ran less than 50% of the time in" ||
    fail "the capacity verdict does not rest on the NVML samples"
  echo "$out" | grep -q 'out-of-memory' && fail "bound_capacity ran out of memory: it should hold, not fail"
fi

if judge bound_bandwidth; then
  echo "$out" | grep -qE "bound_bandwidth-[0-9]+\.json: warning: the run of bound_bandwidth \(pid [0-9]+\) was bandwidth-bound: .*\[GM140 " ||
    fail "no GM140 bandwidth-bound for the streaming copy"
  echo "$report" | grep -q '^    verdict: bandwidth-bound: ' || fail "the report does not say bandwidth-bound"
fi

if judge bound_compute; then
  echo "$out" | grep -q 'GM140' && fail "GM140 on the compute-bound program"
  echo "$report" | grep -q '^    verdict: neither: ' || fail "the report does not say neither for the compute-bound program"
fi

[ $status -eq 0 ] && echo "GM140 verdicts as expected"
exit $status
