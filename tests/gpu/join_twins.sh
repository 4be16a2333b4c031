#!/usr/bin/env bash
# After tests/gpu/run.sh: joins the runtime-twin programs' telemetry from the GPU run (the device
# tool's files, DIR/churn_hidden-PID.json) with the static pass here, and checks that the run
# reports what the static pass cannot see (GM110 at the hidden churn site, no static GM010).
# Usage: bash tests/gpu/join_twins.sh DIR [gmemlint]
set -uo pipefail
cd "$(dirname "$0")/../.."
DIR=$1
GMEMLINT=${2:-build/gmemlint}
status=0
files=("$DIR"/churn_hidden-*.json)
[ -f "${files[0]}" ] || { echo "churn_hidden: no telemetry from the GPU run"; exit 1; }
line=$(grep -n '@hidden_churn' tests/gpu/churn_hidden.cu | cut -d: -f1)
out=$("$GMEMLINT" --telemetry "${files[@]}" tests/gpu/churn_hidden.cu 2>&1)
echo "$out" | grep -E '\[GM|note: confirmed'
echo "$out" | grep -q "churn_hidden.cu:$line: warning: cudaMalloc here ran 256 times .*\[GM110 " ||
  { echo "FAIL: no GM110 at churn_hidden.cu:$line"; status=1; }
echo "$out" | grep -q 'GM010' && { echo "FAIL: the static pass saw the hidden loop"; status=1; }
[ $status -eq 0 ] && echo "runtime twins as expected"
exit $status
