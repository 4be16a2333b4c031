#!/usr/bin/env bash
# After tests/gpu/run.sh: joins the runtime-twin programs' telemetry from the GPU run (the device
# tool's files: DIR/churn_hidden-PID.json, twins-PID.json, torch_cat-PID.json,
# managed_hidden-PID.json, small_copies_hidden-PID.json) with the static pass here, and checks that the run reports what the
# static pass cannot see: GM110 at the hidden churn site (no static GM010), GM120 and GM131 in the
# file whose loops are in another file (no static GM020/GM031), GM120 at PyTorch's allocation
# site for torch.cat in a loop, GM130 at the managed buffer a kernel launched through a function
# pointer faulted over (none at the prefetched one, no static GM030), GM121 at the small uploads
# made through a function pointer, against the large upload's bandwidth (no static GM021).
# Usage: bash tests/gpu/join_twins.sh DIR [gmemlint]
set -uo pipefail
cd "$(dirname "$0")/../.."
DIR=$1
GMEMLINT=${2:-build/gmemlint}
status=0
# judge NAME [SOURCES...]: gmemlint on DIR/NAME-*.json (and the sources) into $out, its findings
# printed; a missing telemetry file fails the check and returns 1
judge() {
  local name=$1 files=() f
  shift
  for f in "$DIR"/"$name"-*.json; do # the runtime's files, not the PyTorch view's beside them
    case $f in *.torch.json | *.torch-*.json) ;; *) files+=("$f") ;; esac
  done
  if [ ! -f "${files[0]:-}" ]; then
    echo "FAIL: $name: no telemetry from the GPU run"
    status=1
    return 1
  fi
  out=$("$GMEMLINT" --telemetry "${files[@]}" "$@" 2>&1)
  echo "$out" | grep -E '\[GM|note: confirmed'
}

line=$(grep -n '@hidden_churn' tests/gpu/churn_hidden.cu | cut -d: -f1)
if judge churn_hidden tests/gpu/churn_hidden.cu; then
  echo "$out" | grep -q "churn_hidden.cu:$line: warning: cudaMalloc here ran 256 times .*\[GM110 " ||
    { echo "FAIL: no GM110 at churn_hidden.cu:$line"; status=1; }
  echo "$out" | grep -q 'GM010' && { echo "FAIL: the static pass saw the hidden loop"; status=1; }
fi

# GM120 and GM131: the loops are in twins_main.cu; the static pass is given twins_steps.cu alone
regrow=$(grep -n '@regrow_site' tests/gpu/twins_steps.cu | cut -d: -f1)
pingpong=$(grep -n '@ping_pong_site' tests/gpu/twins_steps.cu | cut -d: -f1)
if judge twins tests/gpu/twins_steps.cu; then
  echo "$out" | grep -q "twins_steps.cu:$regrow: warning: blocks from cudaMalloc here were replaced 31 times in a row .*\[GM120 " ||
    { echo "FAIL: no GM120 (a chain of 31) at twins_steps.cu:$regrow"; status=1; }
  echo "$out" | grep -q "twins_steps.cu:$regrow: note: confirmed: .*31 copies from a block into its replacement" ||
    { echo "FAIL: GM120 does not tie the 31 copies to the replacements"; status=1; }
  echo "$out" | grep -q "twins_steps.cu:$pingpong: warning: pages of this managed memory .*\[GM131 " ||
    { echo "FAIL: no GM131 at twins_steps.cu:$pingpong"; status=1; }
  echo "$out" | grep -qE "twins_steps.cu:$pingpong: note: confirmed: one block changed direction [0-9]+ times .*both ways in (19|20) of the" ||
    { echo "FAIL: GM131 does not show the steps both ways"; status=1; }
  echo "$out" | grep -qE '\[GM0(20|31) ' && { echo "FAIL: the static pass saw the other file's loops"; status=1; }
fi

# GM120 in PyTorch: torch.cat in a loop under gmemrun, judged from the telemetry alone
if judge torch_cat; then
  echo "$out" | grep -qE "warning: blocks from cudaMalloc here were replaced (2[0-3]) times in a row .*\[GM120 " ||
    { echo "FAIL: no GM120 for torch.cat"; status=1; }
fi

# GM130: a kernel launched through a function pointer faults managed memory over on demand
line=$(grep -n '@hidden_managed' tests/gpu/managed_hidden.cu | cut -d: -f1)
kept=$(grep -n '@prefetched_managed' tests/gpu/managed_hidden.cu | cut -d: -f1)
if judge managed_hidden tests/gpu/managed_hidden.cu; then
  echo "$out" | grep -q "managed_hidden.cu:$line: warning: managed memory from cudaMallocManaged here .*\[GM130 " ||
    { echo "FAIL: no GM130 at managed_hidden.cu:$line"; status=1; }
  echo "$out" | grep -q "managed_hidden.cu:$kept: warning" &&
    { echo "FAIL: GM130 at the prefetched buffer (managed_hidden.cu:$kept)"; status=1; }
  echo "$out" | grep -q 'GM030' && { echo "FAIL: the static pass saw the hidden launch"; status=1; }
fi

# GM121: small uploads through a function pointer, held against the large upload's bandwidth
line=$(grep -n '@hidden_small_copy' tests/gpu/small_copies_hidden.cu | cut -d: -f1)
large=$(grep -n '@large_copy' tests/gpu/small_copies_hidden.cu | cut -d: -f1)
if judge small_copies_hidden tests/gpu/small_copies_hidden.cu; then
  echo "$out" | grep -q "small_copies_hidden.cu:$line: warning: cudaMemcpy here made 8192 copies of mean 256 B: .*\[GM121 " ||
    { echo "FAIL: no GM121 at small_copies_hidden.cu:$line"; status=1; }
  echo "$out" | grep -qE "small_copies_hidden.cu:$line: note: confirmed: 8192 copies host-to-device .* against .* for the 64.0 MiB copies at small_copies_hidden.cu:$large: [0-9.]+x slower" ||
    { echo "FAIL: GM121 is not held against the large upload at small_copies_hidden.cu:$large"; status=1; }
  echo "$out" | grep -q "small_copies_hidden.cu:$large: warning" &&
    { echo "FAIL: a finding at the large upload (small_copies_hidden.cu:$large)"; status=1; }
  echo "$out" | grep -q 'GM021' && { echo "FAIL: the static pass saw the hidden loop"; status=1; }
fi

[ $status -eq 0 ] && echo "runtime twins as expected"
exit $status
