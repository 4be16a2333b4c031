# Shared helpers for CLI tests: `source testlib.bash`; $GMEMLINT is the binary, $ROOT the repo, $WORK a
# scratch directory removed at exit. Every check names what it expected.
set -u
GMEMLINT=$(realpath "$1")
ROOT=$(realpath "$2")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# gmemlint's result cache goes under $WORK, never into the user's ~/.cache: a test starts cold
# and writes nothing outside its own directory
export XDG_CACHE_HOME="$WORK/cache"
failures=0
# Debian's python3 (with python3-jsonschema from bootstrap.sh), not whatever python3 is first on PATH
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# run CMD...: runs gmemlint, capturing stdout to $WORK/out, stderr to $WORK/err, status to $rc
run() {
  rc=0
  "$GMEMLINT" "$@" >"$WORK/out" 2>"$WORK/err" || rc=$?
}
# run_capped SECONDS ARGS...: run, with gmemlint's CPU time capped, so that a cost grown back to
# quadratic fails its test rather than stalling the suite
run_capped() {
  local cap=$1
  shift
  rc=0
  (
    ulimit -t "$cap"
    exec "$GMEMLINT" "$@"
  ) >"$WORK/out" 2>"$WORK/err" || rc=$?
}
# expect_stage_under STAGE LIMIT: --time-report's line for STAGE (the start of its label as
# printed: "flow", "unit summary") in $WORK/err gave under LIMIT seconds; the figure is logged
expect_stage_under() {
  local seconds
  seconds=$(awk -v stage="  $1" 'index($0, stage) == 1 && substr($0, length(stage) + 1, 1) ~ /[ ,]/ {
      print $(NF - 1); exit }' "$WORK/err")
  if [ -z "$seconds" ]; then
    fail "the time report's $1 stage: $(head -c 600 "$WORK/err")"
    return
  fi
  awk -v s="$seconds" -v limit="$2" 'BEGIN {exit !(s < limit)}' || fail "$1 stage under $2 s: $seconds s"
  echo "$1 stage: $seconds s"
}
expect_rc() { [ "$rc" -eq "$1" ] || fail "$2: exit status $rc, expected $1 (stderr: $(head -c 600 "$WORK/err"))"; }
expect_out() { grep -qE -- "$1" "$WORK/out" || fail "$2: stdout lacks /$1/: $(head -c 600 "$WORK/out")"; }
expect_err() { grep -qE -- "$1" "$WORK/err" || fail "$2: stderr lacks /$1/: $(head -c 600 "$WORK/err")"; }
expect_no_out() { ! grep -qE -- "$1" "$WORK/out" || fail "$2: stdout has /$1/"; }
count_out() { grep -cE -- "$1" "$WORK/out" || true; }
finish() {
  if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed" >&2
    exit 1
  fi
  echo "all checks passed"
}

# A small source with one leak on an error path (GM001 at line 4, column 7).
write_leak() {
  cat >"$1" <<'SRC'
#include <cuda_runtime.h>
int setup(int n) {
  float *a = nullptr, *b = nullptr;
  if (cudaMalloc(&a, n) != cudaSuccess)
    return -1;
  if (cudaMalloc(&b, n) != cudaSuccess)
    return -1;
  cudaFree(a);
  cudaFree(b);
  return 0;
}
SRC
}
write_clean() {
  cat >"$1" <<'SRC'
#include <cuda_runtime.h>
int setup(int n) {
  float *a = nullptr;
  if (cudaMalloc(&a, n) != cudaSuccess)
    return -1;
  cudaFree(a);
  return 0;
}
SRC
}
