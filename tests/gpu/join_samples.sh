#!/usr/bin/env bash
# After tests/gpu/run.sh: joins the samples' telemetry from the GPU run (the device tool's files,
# DIR/samples/NAME-PID.json) with the static findings here, and checks each verdict against
# tests/e2e/samples_expected.txt, the list the simulated run in CI is held to.
# Usage: bash tests/gpu/join_samples.sh DIR [gmemlint]
set -uo pipefail
cd "$(dirname "$0")/../.."
DIR=$1
GMEMLINT=${2:-build/gmemlint}
got=$(mktemp)
for src in samples/*.cu; do
  n=$(basename "$src" .cu)
  files=("$DIR"/samples/"$n"-*.json)
  if [ ! -f "${files[0]}" ]; then
    echo "$n: no telemetry from the GPU run"
    continue
  fi
  "$GMEMLINT" --telemetry "${files[@]}" "$src" 2>&1 | grep -E "(warning|note): (confirmed|dismissed|not-exercised|unverifiable|.*\[GM1)" | sed 's|^.*/samples/|samples/|'
  "$GMEMLINT" --format=json --telemetry "${files[@]}" "$src" 2>/dev/null |
    /usr/bin/python3 -c '
import json, sys
for f in json.load(sys.stdin)["findings"]:
    print(sys.argv[1], f["rule"], f["line"], f.get("verdict", "none"))' "$n" >>"$got"
done
echo "== verdicts against tests/e2e/samples_expected.txt (- expected, + H200)"
if diff -u <(grep -v '^#' tests/e2e/samples_expected.txt | sort) <(sort "$got"); then
  echo "all verdicts as expected"
else
  exit 1
fi
