# gmemlint report --html and --trace on telemetry whose time span is degenerate (1e-20 ms, 0, a
# subnormal, negative) or whose byte figures are the largest a file can hold: every axis draws a
# bounded number of ticks and every coordinate stays a short number, so the page is written at
# once and small. Before the ticks were bounded, a span
# of 1e-20 ms wrote ticks without end (gigabytes in minutes).
source "$(dirname "$0")/testlib.bash"
REPORT="$ROOT/tests/report"

for span in 1e-20 0 5e-324 -5 huge-bytes; do
  "$PY" - "$REPORT/trainer.json" "$WORK/span.json" "$span" <<'PY' || fail "could not write the telemetry for $span"
import json, sys
d = json.load(open(sys.argv[1]))
if sys.argv[3] == "huge-bytes":
    big = (1 << 63) - 1
    d["process"]["peak_live_bytes"] = big
    d["process"]["timeline"] = [[p[0], big - i] for i, p in enumerate(d["process"]["timeline"])]
    for row in d.get("nvml", {}).get("samples", []):
        row[2], row[3] = big - 1, big
    for s in d["sites"]:
        s["peak_live_bytes"] = big
        s["step_live_bytes"] = [big] * len(s.get("step_live_bytes", []))
    space = d["process"].get("address_space_at_peak")
    if space:
        space["span_bytes"] = big
        space["blocks"] = [[0, 4096, -1], [big - 4096, 4096, -1]]
    json.dump(d, open(sys.argv[2], "w"))
    sys.exit(0)
span = float(sys.argv[3])
# every time in the file falls within [0, span] (or [span, 0]): the chart's range is the span
# (a duration is never negative: a negative span has its times below zero)
scale = span / max(d["duration_ms"], 1)
d["duration_ms"] = abs(span)
d["process"]["timeline"] = [[p[0] * scale, p[1]] for p in d["process"]["timeline"]]
for e in d["process"].get("oom_events", []):
    e["time_ms"] = e.get("time_ms", 0) * scale
for row in d.get("nvml", {}).get("samples", []):
    row[0] *= scale
json.dump(d, open(sys.argv[2], "w"))
PY
  rm -f "$WORK/span.html" "$WORK/span.trace.json"
  # a page past 4 MB is cut off by the file-size limit (the run fails) rather than fill the disk
  rc=0
  (ulimit -f 4096 && exec timeout 30 "$GMEMLINT" report --html "$WORK/span.html" \
    --trace "$WORK/span.trace.json" "$WORK/span.json") >"$WORK/out" 2>"$WORK/err" || rc=$?
  expect_rc 0 "report --html --trace, case $span"
  [ ! -s "$WORK/err" ] || fail "case $span: stderr: $(head -c 400 "$WORK/err")"
  size=$(stat -c %s "$WORK/span.html" 2>/dev/null || echo 0)
  [ "$size" -gt 0 ] && [ "$size" -lt 2000000 ] || fail "case $span: page of $size bytes, expected under 2 MB"
  ticks=$(grep -c 'text-anchor="middle">[^<]* ms</text>' "$WORK/span.html" || true)
  [ "${ticks:-0}" -le 64 ] || fail "case $span: $ticks ticks on the time axis, expected at most 64"
  ! grep -Eq '="[^"]*([0-9]{40}|inf|nan)' "$WORK/span.html" ||
    fail "case $span: a coordinate is not a short number: $(grep -Eo '="[^"]*([0-9]{40}|inf|nan)' "$WORK/span.html" | head -c 200)"
  "$PY" -c 'import json, sys; json.load(open(sys.argv[1]))' "$WORK/span.trace.json" ||
    fail "case $span: the trace is not JSON"
done
finish
