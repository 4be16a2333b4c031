# The PyTorch view (--telemetry with T.torch.json): the companion found beside its telemetry
# file or given alone, its snapshots read relative to it, and what is wrong in them: exit 2 with
# the file and field named, a missing snapshot a warning and a partial verdict, never a crash.
# The verdicts of GM150-GM154 are the join cases tests/join/torch_* (join.sh).
source "$(dirname "$0")/testlib.bash"
JOIN="$ROOT/tests/join"

# 1. the cache is not a leak: PyTorch's libc10_cuda site live at exit is GM101's and GM102's
# only without the view that says it is the cache
cp "$JOIN/torch_cache_leak/run.json" "$WORK/alone.json"
run --telemetry "$WORK/alone.json"
expect_rc 1 "telemetry alone"
expect_out '^/opt/venv/lib/python3.12/site-packages/torch/lib/libc10_cuda.so\+0x44bec: warning: memory from cudaMalloc is still allocated when the program exits: 3 allocations were never freed; .*\[GM101 leak-at-exit\]$' "alone: the cache's site is GM101's"
expect_out '^/opt/venv/lib/python3.12/site-packages/torch/lib/libc10_cuda.so\+0x44bec: warning: live memory from cudaMalloc grows .*\[GM102 growth-across-steps\]$' "alone: the cache's site is GM102's"
(cd "$JOIN/torch_cache_leak" && "$GMEMLINT" --telemetry run.json) >"$WORK/out" 2>"$WORK/err" && rc=0 || rc=$?
expect_rc 1 "with the companion beside it"
expect_no_out 'libc10_cuda' "with the view: the cache is neither GM101's nor GM102's"
expect_out '^ext.cu:9:3: warning: .*\[GM101 leak-at-exit\]$' "with the view: a leak elsewhere is still GM101's"
[ ! -s "$WORK/err" ] || fail "companion found beside: stderr $(cat "$WORK/err")"
# a view without caching (PYTORCH_NO_CUDA_MEMORY_CACHING=1): the runtime's sites are the view
mkdir -p "$WORK/nocache"
cp "$JOIN/torch_cache_leak/run.json" "$WORK/nocache/run.json"
sed 's/"caching": true/"caching": false/' "$JOIN/torch_cache_leak/run.torch.json" >"$WORK/nocache/run.torch.json"
run --telemetry "$WORK/nocache/run.json"
expect_out 'libc10_cuda.so\+0x44bec: warning: .*\[GM101 leak-at-exit\]$' "caching off: every allocation is the program's"
# the companion given as well as found: read once, silently
(cd "$JOIN/torch_leak" && "$GMEMLINT" --telemetry leak.torch.json --telemetry ./leak.torch.json) >"$WORK/out" 2>"$WORK/err" && rc=0 || rc=$?
expect_rc 1 "a companion given twice"
[ "$(count_out '\[GM150 ')" -eq 1 ] || fail "a companion given twice is judged once: $(count_out '\[GM150 ')"

# 2. findings in JSON: at the Python line, or the companion with line 0; notes for GM151/GM153
(cd "$JOIN/torch_oom" && "$GMEMLINT" --format=json --telemetry run.torch.json) >"$WORK/out" 2>/dev/null || true
"$PY" - "$WORK/out" <<'PY' || fail "GM152 in JSON"
import json, sys
f = [(x["rule"], x["file"], x["line"], x["severity"]) for x in json.load(open(sys.argv[1]))["findings"]]
assert f == [("GM152", "/home/ana/proj/model.py", 15, "warning"),
             ("GM152", "/home/ana/proj/model.py", 52, "warning"),
             ("GM152", "run.torch.json", 0, "warning"),
             ("GM152", "/home/ana/proj/model.py", 60, "warning"),
             ("GM152", "/home/ana/proj/model.py", 66, "warning")], f
PY
(cd "$JOIN/torch_cache" && "$GMEMLINT" --format=sarif --telemetry grow.torch.json) >"$WORK/out" 2>/dev/null || true
"$PY" - "$WORK/out" <<'PY' || fail "GM151 in SARIF"
import json, sys
doc = json.load(open(sys.argv[1]))
res = [r for r in doc["runs"][0]["results"] if r["ruleId"] == "GM151"]
assert len(res) == 1 and res[0]["level"] == "note", res
ids = [r["id"] for r in doc["runs"][0]["tool"]["driver"]["rules"]]
assert all(i in ids for i in ("GM150", "GM151", "GM152", "GM153", "GM154")), ids
PY

# 3. gmemlint report: a "PyTorch view" section per process, in the rules' verdicts
run report "$JOIN/torch_oom/run.torch.json" "$JOIN/torch_leak/leak.torch.json" "$JOIN/torch_cache_leak/run.json" "$JOIN/torch_frag/frag.torch.json"
expect_rc 0 "report with PyTorch views"
expect_out '^PyTorch view: 4 processes$' "report: the section"
expect_out "^  $JOIN/torch_oom/run.torch.json: serve.py \(pid 7101\)$" "report: the process"
expect_out '^  allocator: native, caching on: the snapshots are the view; PyTorch.s cudaMalloc sites \(libc10_cuda\) are its cache, not leaks \(GM101 and GM102 leave them\)$' "report: which view"
expect_out '^  out of memory: 2.0 GiB asked for on device 0 with 512.0 MiB free of 80.0 GiB: pending-free$' "report: OOM cause"
expect_out '^  out of memory: 8.0 GiB asked for on device 0 with 512.0 MiB free of 80.0 GiB: external \(from the record.s figures: no snapshot\)$' "report: OOM without snapshot"
expect_out '^  steps: 8; allocated 104.0 MiB -> 132.0 MiB, reserved 1.2 GiB -> 8.2 GiB$' "report: steps"
expect_out '^  kept across steps \(GM150\): /home/ana/proj/train.py:40, 4.0 MiB a step$' "report: GM150"
expect_out '^  history: not recorded \(off for this test\): line-level verdicts are partial$' "report: history"
expect_out '^  device 0 at the peak: 2.0 GiB free in 8 holes of partly used large segments, largest 256.0 MiB \(score 0.88: fragmented, GM153\)$' "report: fragmentation"
[ "$(count_out 'at the exit: 0 B free')" -eq 0 ] || fail "report: a device without holes says nothing"
sed 's/"caching": true/"caching": false/' "$JOIN/torch_cache_leak/run.torch.json" >"$WORK/nocache.torch.json"
run report "$WORK/nocache.torch.json"
expect_out '^  allocator: native, caching off: every tensor is a cudaMalloc; the runtime telemetry.s hooks are the view$' "report: caching off"

# the page: the verdicts over a picture of each snapshot's segments, bounded
run report --html "$WORK/torch.html" "$JOIN/torch_frag/frag.torch.json" "$JOIN/torch_oom/run.torch.json"
expect_rc 0 "report --html with PyTorch views"
"$PY" - "$WORK/torch.html" <<'PY' || fail "the page's PyTorch section"
import re, sys
page = open(sys.argv[1]).read()
sec = page[page.index('<section id="torch">'):]
sec = sec[:sec.index("</section>")]
assert "<h3>pretrain.py (pid 7201)</h3>" in sec and "<h3>serve.py (pid 7101)</h3>" in sec, sec[:400]
assert "<li>GM153 torch-fragmentation: the caching allocator of pretrain.py (pid 7201) was fragmented" in sec
assert sec.count("<li>GM152 torch-oom: ") == 5, sec.count("<li>GM152 ")
assert "<h4>At the peak (frag.torch-peak.json): 5 segments</h4>" in sec
assert "<h4>At out-of-memory error 1 (run.torch-oom-1.json): 1 segment</h4>" in sec
assert sec.count("(the largest free block)") == 3, sec.count("(the largest free block)")
assert '<rect x="310.0" y="2" width="160.0" height="13" fill="#e4e4e4" stroke="#d62728" stroke-width="2"><title>256.0 MiB free (the largest free block)</title></rect>' in sec
assert "pending free, from model.py:31" in sec
PY
"$PY" - "$WORK/many.torch-peak.json" <<'PY'
import json, sys
segs = [{"device": 0, "address": (i + 1) << 32, "total_size": (i + 1) << 21, "segment_type": "large",
         "blocks": [{"address": ((i + 1) << 32) + k * 512, "size": 512, "state": "inactive" if k % 2 else "active_allocated"}
                    for k in range(100)]} for i in range(60)]
json.dump({"segments": segs}, open(sys.argv[1], "w"))
PY
echo '{"format": "gmemlint-torch", "version": 1, "pid": 9, "allocator": {"backend": "native", "caching": true, "expandable_segments": false}, "history": {"recorded": false}, "steps": [], "snapshots": [{"reason": "peak", "file": "many.torch-peak.json"}]}' >"$WORK/many.torch.json"
run report --html "$WORK/many.html" "$WORK/many.torch.json"
expect_rc 0 "report --html, many segments"
grep -q '<p class="caption">The 48 largest segments drawn; 12 left out.</p>' "$WORK/many.html" || fail "the page caps the segments drawn"
grep -q '<p class="caption">4000 blocks drawn; 800 left out.</p>' "$WORK/many.html" || fail "the page caps the blocks drawn"
grep -q '<text x="0" y="13" font-size="11">120.0 MiB large, dev 0</text>' "$WORK/many.html" || fail "the largest segment first"

# 4. a missing snapshot: a warning naming it, the verdict partial, no crash
mkdir -p "$WORK/partial"
cp "$JOIN/torch_leak/leak.torch.json" "$WORK/partial/"
run --telemetry "$WORK/partial/leak.torch.json"
expect_rc 1 "missing exit snapshot"
expect_err "^gmemlint: warning: $WORK/partial/leak.torch.json: the snapshot $WORK/partial/leak.torch-exit.json it names is missing; the PyTorch view of pid 7001 is partial$" "missing snapshot warning"
expect_out "^$WORK/partial/leak.torch.json: warning: allocated memory of train.py \(pid 7001\) grows step after step: .*the line is not known: the exit snapshot is missing \[GM150 torch-leak-per-step\]$" "GM150 partial at the companion"
expect_out "^$WORK/partial/leak.torch.json: note: confirmed: partial: the exit snapshot is missing; allocated bytes rose in 6 of the 6 steps after the warm-up of 2 \(threshold: all but one, at least 5 steps\); allocated bytes over the 6 steps after the warm-up: 4.0 MiB a step \(least squares\); at that rate the device's 80.0 GiB is full around step 18376$" "GM150 partial evidence"
mkdir -p "$WORK/oomless"
cp "$JOIN/torch_oom/run.torch.json" "$JOIN/torch_oom/run.torch-oom-1.json" "$WORK/oomless/"
run --telemetry "$WORK/oomless/run.torch.json"
expect_rc 1 "missing OOM snapshots"
[ "$(grep -c 'warning: .*is missing' "$WORK/err")" -eq 4 ] || fail "one warning per missing OOM snapshot: $(cat "$WORK/err")"
expect_out "^$WORK/oomless/run.torch.json: note: confirmed: 2 out-of-memory errors here \(capacity\); .*no snapshot of it \(its file is missing\): judged from the record's figures alone, 0 B cached beyond the allocated bytes$" "GM152 without its snapshot: the record's figures"

# the snapshot is read a trace entry at a time: key order, spacing and keys not judged do not matter
mkdir -p "$WORK/order"
cp "$JOIN/torch_regrow/cat.torch.json" "$WORK/order/"
"$PY" - "$JOIN/torch_regrow/cat.torch-exit.json" "$WORK/order/cat.torch-exit.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
text = json.dumps({"allocator_settings": {"n": -5, "x": [1.5, None, True]}, "device_traces": d["device_traces"] + [[]],
                   "external_annotations": [], "segments": d["segments"]}, indent=3, separators=(" ,", " : "))
open(sys.argv[2], "w").write("\n " + text + " \n")
PY
(cd "$JOIN/torch_regrow" && "$GMEMLINT" --telemetry cat.torch.json) >"$WORK/want" 2>&1 || true
(cd "$WORK/order" && "$GMEMLINT" --telemetry cat.torch.json) >"$WORK/out" 2>&1 || true
diff "$WORK/want" "$WORK/out" >/dev/null || fail "the snapshot's key order or spacing changed the findings: $(diff "$WORK/want" "$WORK/out" | head -5)"
expect_out '\[GM154 torch-regrowth\]$' "reordered snapshot: GM154"
printf '{"segments": [], "device_traces": [[{"action": "alloc", "size": 1}] [ ]]}' >"$WORK/order/cat.torch-exit.json"
run --telemetry "$WORK/order/cat.torch.json"
expect_rc 2 "a missing comma between devices"
expect_err "^gmemlint: error: $WORK/order/cat.torch-exit.json:1:69: invalid JSON: ',' or ']' expected in device_traces$" "the place of a syntax error in the stream"

# 5. what cannot be read: exit 2, the file and field named
bad_companion() { # bad_companion NAME PYTHON-EDIT PATTERN: the leak case's companion, edited
  mkdir -p "$WORK/bad"
  cp "$JOIN/torch_leak/leak.torch-exit.json" "$WORK/bad/leak.torch-exit.json"
  "$PY" - "$JOIN/torch_leak/leak.torch.json" "$WORK/bad/$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PY
  run --telemetry "$WORK/bad/$1"
  expect_rc 2 "$1"
  expect_err "^gmemlint: error: $WORK/bad/$3" "$1 message"
  [ ! -s "$WORK/out" ] || fail "$1: printed findings anyway"
}
bad_companion version.torch.json 'd["version"] = 2' 'version.torch.json: PyTorch view version 2 is not supported \(this gmemlint reads version 1\); use the gmemlint that matches the shim$'
bad_companion type.torch.json 'd["steps"][1]["allocated_bytes"] = "many"' 'type.torch.json: steps\[1\].allocated_bytes: expected a non-negative integer or null, found a string$'
bad_companion negative.torch.json 'd["devices"][0]["total_bytes"] = -1' 'negative.torch.json: devices\[0\].total_bytes: expected a non-negative integer, found a negative integer$'
bad_companion nohistory.torch.json 'del d["history"]' 'nohistory.torch.json: torch: missing "history"$'
bad_companion backend.torch.json 'd["allocator"]["backend"] = "pluggable"' 'backend.torch.json: allocator.backend: expected "native" or "cudaMallocAsync", found "pluggable"$'
bad_companion reason.torch.json 'd["snapshots"][0]["reason"] = "oom"' 'reason.torch.json: snapshots\[0\].reason: expected "peak" or "exit", found "oom"$'
# a bad snapshot names the snapshot file and its field
mkdir -p "$WORK/badsnap"
cp "$JOIN/torch_leak/leak.torch.json" "$WORK/badsnap/"
sed 's/"active_allocated"/"freed"/' "$JOIN/torch_leak/leak.torch-exit.json" >"$WORK/badsnap/leak.torch-exit.json"
run --telemetry "$WORK/badsnap/leak.torch.json"
expect_rc 2 "bad block state"
expect_err "^gmemlint: error: $WORK/badsnap/leak.torch-exit.json: segments\[0\].blocks\[0\].state: expected \"active_allocated\", \"active_pending_free\" or \"inactive\", found \"freed\"$" "bad block state message"
"$PY" - "$JOIN/torch_leak/leak.torch-exit.json" "$WORK/badsnap/leak.torch-exit.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["device_traces"][0][3]["frames"][0]["line"] = "forty"
json.dump(d, open(sys.argv[2], "w"))
PY
run --telemetry "$WORK/badsnap/leak.torch.json"
expect_rc 2 "bad frame line"
expect_err "^gmemlint: error: $WORK/badsnap/leak.torch-exit.json: device_traces\[0\]\[3\].frames\[0\].line: expected an integer, found a string$" "bad frame message"
echo '{"segments": {}}' >"$WORK/badsnap/leak.torch-exit.json"
run --telemetry "$WORK/badsnap/leak.torch.json"
expect_rc 2 "segments not a list"
expect_err "^gmemlint: error: $WORK/badsnap/leak.torch-exit.json: not a PyTorch snapshot: expected an array for \"segments\"$" "segments message"
echo '{"segments": [' >"$WORK/badsnap/leak.torch-exit.json"
run --telemetry "$WORK/badsnap/leak.torch.json"
expect_rc 2 "snapshot not JSON"
expect_err "^gmemlint: error: $WORK/badsnap/leak.torch-exit.json:[0-9]+:[0-9]+: invalid JSON" "snapshot JSON message"
# a snapshot given as telemetry: its companion is the file to give
run --telemetry "$JOIN/torch_leak/leak.torch-exit.json"
expect_rc 2 "a snapshot given as telemetry"
expect_err "^gmemlint: error: $JOIN/torch_leak/leak.torch-exit.json: a PyTorch snapshot, not a telemetry file: give its companion \(T.torch.json, which names it\) or the telemetry file beside that$" "a snapshot given as telemetry: message"
# a bad companion beside a good telemetry file stops the run too
mkdir -p "$WORK/beside"
cp "$JOIN/torch_cache_leak/run.json" "$WORK/beside/run.json"
echo '{"format": "gmemlint-torch", "version": 1, "pid": "7501"}' >"$WORK/beside/run.torch.json"
run --telemetry "$WORK/beside/run.json"
expect_rc 2 "bad companion beside"
expect_err "^gmemlint: error: $WORK/beside/run.torch.json: torch.pid: expected an integer, found a string$" "bad companion beside message"
finish
