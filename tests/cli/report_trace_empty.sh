# gmemlint report --trace on telemetry with nothing over time (no timeline, out-of-memory event,
# NVML sample or gmem_step()): a trace of the processes' names only, and no event array to sort.
# qsort was once handed that array (NULL) with a count of 0, which is undefined: a sanitizer
# build (-DGMEMLINT_SANITIZE=undefined) reported it on stderr, which must stay empty.
source "$(dirname "$0")/testlib.bash"

"$PY" - "$ROOT/tests/join/gm001/run.json" "$WORK/quiet.json" <<'PY' || fail "could not write the telemetry"
import json, sys
d = json.load(open(sys.argv[1]))
d["process"]["timeline"] = []
d["process"]["oom_events"] = []
d.pop("nvml", None)
for s in d["sites"]:
    s["step_live_bytes"] = []
json.dump(d, open(sys.argv[2], "w"))
PY
run report --trace "$WORK/quiet.trace.json" "$WORK/quiet.json"
expect_rc 0 "a trace with no events"
[ ! -s "$WORK/err" ] || fail "a trace with no events: stderr: $(head -c 400 "$WORK/err")"
"$PY" - "$WORK/quiet.trace.json" <<'PY' || fail "a trace with no events: its content"
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
assert [(e["ph"], e["name"], e["args"]["name"]) for e in ev] == [
    ("M", "process_name", "pipeline (pid 4101)"), ("M", "thread_name", "gmemrt")], ev
PY
finish
