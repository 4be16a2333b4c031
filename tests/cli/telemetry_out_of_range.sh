# Telemetry values beyond what gmemlint stores them in are schema errors naming the field (exit
# 2), like a value of the wrong type: a line or column above 2^32-1 once wrapped (4294967304 joined
# as line 8 and was "confirmed"), a time past 1e12 ms once came out of --trace as a negative
# timestamp (from about 9.2e12 ms), a device beyond an int wrapped. The largest values that fit
# are still read, and the trace writes them exactly.
source "$(dirname "$0")/testlib.bash"
CASE="$ROOT/tests/join/gm001"
REPORT="$ROOT/tests/report"
MS="a number of milliseconds from -1e12 to 1e12"

# mutate SRC OUT PYTHON: OUT is SRC's telemetry with PYTHON applied to its document d
mutate() {
  "$PY" - "$1" "$2" "$3" <<'PY' || fail "could not write $2"
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PY
}

# bad NAME SRC PYTHON MESSAGE: report on the mutated file fails with exactly MESSAGE
bad() {
  mutate "$2" "$WORK/$1.json" "$3"
  run report "$WORK/$1.json"
  expect_rc 2 "$1"
  local want="gmemlint: error: $WORK/$1.json: $4"
  [ "$(head -n 1 "$WORK/err")" = "$want" ] ||
    fail "$1: stderr is '$(head -c 400 "$WORK/err")', expected '$want'"
  [ ! -s "$WORK/out" ] || fail "$1: a report was printed: $(head -c 200 "$WORK/out")"
}

bad line "$CASE/run.json" 'd["sites"][0]["line"] = 4294967304' \
  "sites[0].line: expected a non-negative integer up to 4294967295, found 4294967304"
bad column "$CASE/run.json" 'd["sites"][1]["column"] = 1 << 40' \
  "sites[1].column: expected a non-negative integer up to 4294967295, found 1099511627776"
bad oom_line "$REPORT/trainer.json" 'd["process"]["oom_events"][0]["line"] = 1 << 33' \
  "process.oom_events[0].line: expected a non-negative integer up to 4294967295, found 8589934592"
bad duration "$CASE/run.json" 'd["duration_ms"] = 9.3e12' \
  "telemetry.duration_ms: expected a number of milliseconds from 0 to 1e12, found 9.3e+12"
bad negative_duration "$CASE/run.json" 'd["duration_ms"] = -5' \
  "telemetry.duration_ms: expected a number of milliseconds from 0 to 1e12, found -5"
bad timeline "$REPORT/trainer.json" 'd["process"]["timeline"][1][0] = 1e13' \
  "process.timeline[1][0]: expected $MS, found 1e+13"
bad oom_time "$REPORT/trainer.json" 'd["process"]["oom_events"][0]["time_ms"] = -2e12' \
  "process.oom_events[0].time_ms: expected $MS, found -2e+12"
bad nvml_time "$REPORT/trainer.json" 'd["nvml"]["samples"][2][0] = 1.5e300' \
  "nvml.samples[2][0]: expected $MS, found 1.5e+300"
bad active "$CASE/run.json" 'd["sites"][0]["active_ms"] = [1.0, 1e15]' \
  "sites[0].active_ms[1]: expected $MS, found 1e+15"
bad nvml_device "$REPORT/trainer.json" 'd["nvml"]["samples"][0][1] = 2147483648' \
  "nvml.samples[0][1]: expected an integer from -2147483648 to 2147483647, found 2147483648"
bad oom_device "$REPORT/trainer.json" 'd["process"]["oom_events"][0]["device"] = -2147483649' \
  "process.oom_events[0].device: expected an integer from -2147483648 to 2147483647, found -2147483649"
bad percent "$REPORT/trainer.json" 'd["nvml"]["samples"][0][4] = 1 << 32' \
  "nvml.samples[0][4]: expected a non-negative integer up to 4294967295, found 4294967296"
bad bytes "$CASE/run.json" 'd["sites"][0]["bytes_total"] = -1' \
  "sites[0].bytes_total: expected a non-negative integer, found a negative integer"

# the join refuses the wrapped line instead of confirming line 8 with it
mutate "$CASE/run.json" "$WORK/wrap.json" \
  'd["sites"] = [dict(s, line=s["line"] + (1 << 32)) if s["line"] == 8 else s for s in d["sites"]]'
rc=0
(cd "$CASE" && "$GMEMLINT" --telemetry "$WORK/wrap.json" pipeline.cu) >"$WORK/out" 2>"$WORK/err" || rc=$?
expect_rc 2 "the join with a wrapped line"
expect_err "^gmemlint: error: $WORK/wrap.json: sites\[0\]\.line: expected a non-negative integer up to 4294967295, found 4294967304$" "the join names the line"
expect_no_out "confirmed" "no verdict from the wrapped line"

# the largest values that fit are read; the trace writes the largest time exactly
mutate "$REPORT/trainer.json" "$WORK/edge.json" '
d["sites"][0]["line"] = 4294967295
d["duration_ms"] = 1e12
d["process"]["timeline"].append([1e12, 4096])'
run report --trace "$WORK/edge.trace.json" "$WORK/edge.json"
expect_rc 0 "the largest values that fit"
run report "$WORK/edge.json"
expect_rc 0 "the largest values that fit, reported"
expect_out "trainer.cu:4294967295 cudaMalloc" "the largest line is reported as it is"
"$PY" - "$WORK/edge.trace.json" <<'PY' || fail "the trace of the largest time"
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
ts = [e["ts"] for e in ev if e["ph"] != "M"]
assert min(ts) >= 0, min(ts)
assert 1e15 in ts, max(ts)  # 1e12 ms, in microseconds
PY
finish
