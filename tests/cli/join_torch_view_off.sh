# A Python run whose PyTorch view was off (its telemetry's torch_view, written by the runtime
# under gmemrun): `gmemlint --telemetry` and `gmemlint report` say so, once a file, with the
# reason; a run with the view on, or a file without torch_view (no Python program), says nothing;
# a torch_view of another state is a schema error naming the field.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
telemetry() { # telemetry FILE [TORCH_VIEW_JSON]
  local view=${2:+, \"torch_view\": $2}
  cat >"$1" <<JSON
{"version": 2, "tool": "gmemrt", "pid": 4242, "program": "/usr/bin/python3.11", "reason": "exit",
 "duration_ms": 12.5,
 "process": {"peak_live_bytes": 0, "live_bytes": 0, "live_count": 0, "steps": 0},
 "sites": []$view}
JSON
}
cat >serve.cu <<'SRC'
int main() { return 0; }
SRC
telemetry off.json '{"state": "off", "reason": "GMEMRUN_PYTHON_DIR=/opt/x holds no sitecustomize.py"}'
telemetry on.json '{"state": "on", "reason": ""}'
telemetry plain.json
note="gmemlint: note: off.json: the PyTorch view was off in this Python run (GMEMRUN_PYTHON_DIR=/opt/x holds no sitecustomize.py); what it shows rests on the CUDA calls alone, not on the caching allocator's tensors, and PyTorch's own allocations (its cache, cuBLAS workspaces) are left unjudged: run it with the shim to see the lines that hold them"

run --no-cache --telemetry off.json --telemetry on.json --telemetry plain.json serve.cu
expect_rc 0 "--telemetry with a view off: no finding, status 0"
[ "$(cat "$WORK/err")" = "$note" ] || fail "--telemetry: stderr is the one note: $(cat "$WORK/err")"

run report off.json on.json plain.json
expect_rc 0 "report with a view off"
[ "$(grep -c 'PyTorch view was off' "$WORK/err")" -eq 1 ] || fail "report: the note once on stderr: $(cat "$WORK/err")"
expect_out "^    the PyTorch view was off: GMEMRUN_PYTHON_DIR=/opt/x holds no sitecustomize.py$" "report: the run's line says it"
[ "$(count_out 'PyTorch view was off')" -eq 1 ] || fail "report: only the off run says it: $(cat "$WORK/out")"

run --no-cache --telemetry on.json --telemetry plain.json serve.cu
[ ! -s "$WORK/err" ] || fail "views on or unsaid: nothing on stderr: $(cat "$WORK/err")"

# recorded on the GPU machine (tests/gpu/run.sh, "reloc_noshim"): torch_leak_steps.py under a
# relocated gmemrun whose GMEMRUN_PYTHON_DIR names a folder without the shim. PyTorch's caching
# allocator (libc10_cuda: 16 segments, 1.2 GiB at exit) and cuBLAS's workspaces (128.3 MiB) are
# no GM101 leaks: the note says they were left unjudged
RECORDED="$ROOT/tests/join/torch_relocated/noshim/reloc_noshim-1310.json"
run --no-cache --telemetry "$RECORDED"
expect_rc 0 "the recorded run without the shim: the framework's memory is not a leak"
[ ! -s "$WORK/out" ] || fail "the recorded run without the shim: no finding: $(cat "$WORK/out")"
[ "$(cat "$WORK/err")" = "gmemlint: note: $RECORDED: the PyTorch view was off in this Python run (GMEMRUN_PYTHON_DIR=/tmp/tmp.CcpsN9gh2p/empty holds no sitecustomize.py); what it shows rests on the CUDA calls alone, not on the caching allocator's tensors, and PyTorch's own allocations (its cache, cuBLAS workspaces) are left unjudged: run it with the shim to see the lines that hold them" ] ||
  fail "the recorded run: the note in full: $(cat "$WORK/err")"

telemetry bad.json '{"state": "maybe"}'
run --no-cache --telemetry bad.json serve.cu
expect_rc 2 "a torch_view state that is neither on nor off"
expect_err "^gmemlint: error: bad.json: torch_view.state: expected \"on\" or \"off\", found \"maybe\"$" "the schema error names the field"
finish
