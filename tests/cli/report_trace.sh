# gmemlint report --trace: the timeline as Chrome trace / Perfetto JSON (Trace Event Format),
# from tests/report/trainer.json: metadata naming the processes, counters for live bytes, the top
# sites by step and NVML, instants for the out-of-memory event and each gmem_step(), timestamps
# in microseconds and in order; two files are two processes; --trace goes with --html.
source "$(dirname "$0")/testlib.bash"
REPORT="$ROOT/tests/report"

run report --trace "$WORK/trace.json" "$REPORT/trainer.json"
expect_rc 0 "report --trace"
[ ! -s "$WORK/out" ] || fail "report --trace printed: $(head -c 300 "$WORK/out")"
"$PY" - "$WORK/trace.json" "$REPORT/trainer.json" <<'PY' || fail "trace structure"
import json, sys
from collections import Counter
doc, tel = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
proc, pid = tel["process"], tel["pid"]
ev = doc["traceEvents"]
assert isinstance(ev, list) and doc["displayTimeUnit"] == "ms"
kinds = Counter(e["ph"] for e in ev)
assert set(kinds) == {"M", "C", "i"}, kinds
for e in ev:
    assert isinstance(e["name"], str) and isinstance(e["pid"], int) and e["tid"] == 0, e
    if e["ph"] != "M":
        assert isinstance(e["ts"], (int, float)) and e["ts"] >= 0, e
# metadata first, then every event in time order
first = next(i for i, e in enumerate(ev) if e["ph"] != "M")
assert all(e["ph"] == "M" for e in ev[:first]) and all(e["ph"] != "M" for e in ev[first:])
ts = [e["ts"] for e in ev[first:]]
assert ts == sorted(ts), "timestamps go back"
names = {(e["pid"], e["name"]): e["args"]["name"] for e in ev if e["ph"] == "M"}
assert names[(pid, "process_name")] == f"trainer (pid {pid})", names
STEP_PID = 4194304
assert "gmem_step" in names[(STEP_PID, "process_name")] and "not real time" in names[(STEP_PID, "process_name")]

def counters(name, p=pid):
    return [e for e in ev if e["ph"] == "C" and e["name"] == name and e["pid"] == p]
# live bytes: 0 at the start, every timeline sample, the live bytes at the end
live = counters("process live")
assert len(live) == len(proc["timeline"]) + 2, (len(live), len(proc["timeline"]))
assert live[0]["ts"] == 0 and live[0]["args"] == {"bytes": 0}
for e, (ms, b) in zip(live[1:], proc["timeline"]):
    assert abs(e["ts"] - ms * 1000) < 0.01 and e["args"] == {"bytes": b}, (e, ms, b)
assert live[-1]["args"]["bytes"] == proc["live_bytes"] and abs(live[-1]["ts"] - tel["duration_ms"] * 1000) < 0.01
# the OOM event, at its time, with its figures
ooms = [e for e in ev if e["ph"] == "i" and e["name"].startswith("out of memory")]
assert len(ooms) == len(proc["oom_events"]) == 1, ooms
o, want = ooms[0], proc["oom_events"][0]
assert o["name"] == "out of memory (fragmentation)" and o["s"] == "p" and o["pid"] == pid
assert abs(o["ts"] - want["time_ms"] * 1000) < 0.01
assert o["args"]["requested_bytes"] == want["requested_bytes"] and o["args"]["site"] == "tests/report/trainer.cu:77"
assert o["args"]["largest_block_bytes"] == want["largest_block_bytes"]
# one instant per gmem_step(), at the step number in ms on the step process
steps = [e for e in ev if e["ph"] == "i" and e["name"].startswith("gmem_step ")]
assert [e["ts"] for e in steps] == [1000.0 * k for k in range(1, proc["steps"] + 1)], steps
assert all(e["pid"] == STEP_PID for e in steps)
# per-site counters: the sites with step data, largest peak first, each value at each step
stepped = [s for s in tel["sites"] if s.get("step_live_bytes")]
assert len(stepped) == 5
for s in stepped:
    c = counters(f"{s['file']}:{s['line']} {s['api']} live", STEP_PID)
    assert [e["args"]["bytes"] for e in c] == s["step_live_bytes"], (s["line"], c[:2])
assert not counters("other sites live", STEP_PID), "every site with steps has its own track"
# NVML: one used-bytes and one utilization sample per row
rows = tel["nvml"]["samples"]
used, util = counters("device 0 NVML used"), counters("device 0 NVML utilization")
assert len(used) == len(util) == len(rows) > 0
assert used[0]["args"] == {"bytes": rows[0][2]}
assert util[0]["args"] == {"sm_percent": rows[0][4], "memory_bandwidth_percent": rows[0][5]}
PY

# two files: two processes; --top limits the site tracks; --html and --trace together
"$PY" -c '
import json, sys
d = json.load(open(sys.argv[1])); d["pid"] = 777
json.dump(d, open(sys.argv[2], "w"))' "$REPORT/trainer.json" "$WORK/rank1.json"
run report --top=2 --trace "$WORK/two.json" --html "$WORK/two.html" "$REPORT/trainer.json" "$WORK/rank1.json"
expect_rc 0 "report --trace --html with two files"
[ -s "$WORK/two.html" ] || fail "--html with --trace wrote no page"
"$PY" - "$WORK/two.json" <<'PY' || fail "trace of two files"
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
procs = sorted(e["pid"] for e in ev if e["ph"] == "M" and e["name"] == "process_name")
assert len(procs) == 3 and 777 in procs and 4194304 in procs, procs
assert sum(e["ph"] == "i" and e["name"].startswith("out of memory") for e in ev) == 2
site_tracks = {e["name"] for e in ev if e["ph"] == "C" and e["pid"] == 4194304}
assert site_tracks == {"tests/report/trainer.cu:87 cudaMalloc live",
                       "tests/report/trainer.cu:103 cudaMalloc live", "other sites live"}, site_tracks
# summed over the two files, step by step
steps = [e for e in ev if e["ph"] == "C" and e["name"] == "tests/report/trainer.cu:103 cudaMalloc live"]
assert steps[0]["args"]["bytes"] == 2 * 25165824, steps[0]
PY

# the run's GM140 verdict, an instant at its last NVML sample, in the rule's words
(cd "$REPORT" && "$GMEMLINT" --format=json --telemetry trainer.json) >"$WORK/join.json" 2>/dev/null || true
"$PY" - "$WORK/trace.json" "$REPORT/trainer.json" "$WORK/join.json" <<'PY' || fail "GM140 in the trace"
import json, sys
ev, tel = json.load(open(sys.argv[1]))["traceEvents"], json.load(open(sys.argv[2]))
gm140 = [f for f in json.load(open(sys.argv[3]))["findings"] if f["rule"] == "GM140"]
marks = [e for e in ev if e["ph"] == "i" and e["name"].startswith("GM140 ")]
assert len(marks) == 1 and marks[0]["name"] == "GM140 bandwidth-bound", marks
assert marks[0]["pid"] == tel["pid"] and abs(marks[0]["ts"] - tel["nvml"]["samples"][-1][0] * 1000) < 0.01
assert len(gm140) == 1 and marks[0]["args"]["verdict"] == gm140[0]["evidence"], (marks, gm140)
PY

# -o still writes the text view beside them
run report --trace "$WORK/t2.json" -o "$WORK/report.txt" "$REPORT/trainer.json"
expect_rc 0 "report --trace -o"
grep -q '^Out-of-memory events: 1$' "$WORK/report.txt" || fail "-o with --trace: $(head -c 300 "$WORK/report.txt")"
run report --trace "$WORK/no/dir/t.json" "$REPORT/trainer.json"
expect_rc 2 "unwritable trace"
expect_err "^gmemlint: error: $WORK/no/dir/t.json: cannot write" "unwritable trace message"
run --trace "$WORK/t.json" "$REPORT/trainer.json"
expect_rc 2 "--trace without report"
expect_err "^gmemlint: error: --trace is an option of 'gmemlint report'" "--trace without report message"
finish

# findings drawn over time: with sources, each confirmed finding whose pathology takes time
# (churn, regrowth, small copies, migration, ping-pong) is a slice on its process's "findings"
# track over its site's active window (for managed memory: its pages migrating)
JOIN="$ROOT/tests/join"
for c in "gm120 grow.cu" "gm131 solver.cu"; do
  set -- $c
  run report --trace "$WORK/$1.json" "$JOIN/$1/run.json" "$JOIN/$1/$2"
  expect_rc 0 "report --trace with sources ($1)"
done
"$PY" - "$WORK/gm120.json" "$WORK/gm131.json" <<'PY' || fail "finding slices"
import json, sys
def slices(path):
    ev = json.load(open(path))["traceEvents"]
    meta = [e for e in ev if e["ph"] == "M" and e["tid"] == 1]
    assert [m["args"]["name"] for m in meta] == ["findings"], meta
    return {e["name"]: e for e in ev if e["ph"] == "X"}
grow = slices(sys.argv[1])
assert set(grow) == {"GM120 runtime-growing-reallocation", "GM020 growing-concatenation"}, grow
g = grow["GM120 runtime-growing-reallocation"]
assert g["tid"] == 1 and g["cat"] == "finding" and g["ts"] == 12500 and g["dur"] == 167750, g
assert g["args"]["site"].endswith("grow.cu:10 cudaMalloc") and "chain of 63" in g["args"]["evidence"], g
s = grow["GM020 growing-concatenation"]
assert s["ts"] == 190000 and s["dur"] == 40500, s
pong = slices(sys.argv[2])
# the migration window, not the allocation's; the static GM030/GM031 site has no window
assert set(pong) == {"GM131 runtime-ping-pong"}, pong
p = pong["GM131 runtime-ping-pong"]
assert p["ts"] == 5000 and p["dur"] == 845000, p
PY
