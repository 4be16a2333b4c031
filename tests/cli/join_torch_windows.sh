# GM150 for loops that are not training steps, judged from the repetitions in the allocator's
# history (torch_verdict.c: gm_torch_judge_repeats), and the report's live blocks by line:
# 1. the recorded serving loop (tests/join/torch_serve) with its history cut to its last entries,
#    as an overflowed ring keeps them: judged on the window, the exit snapshot's blocks counted
#    whole; cut to fewer repetitions than the verdict needs, no finding, but the report still
#    says which line holds the 300 blocks;
# 2. a loop that only allocates and keeps (a model's layers built one by one: nothing freed)
#    is not a leak; the same allocations in a loop that also makes and drops a temporary are;
# 3. that loop between training steps (an evaluation loop) is judged too, and said to be apart
#    from the steps;
# 4. the step verdict on an overflowed history: the recorded training run (tests/join/torch_gpu,
#    12 steps) cut to its last entries is judged on the steps the window holds whole, and with
#    too few of them is partial and says why.
source "$(dirname "$0")/testlib.bash"
SERVE="$ROOT/tests/join/torch_serve"
cd "$WORK"

# cut_history SRC_BASE DST_BASE N [DIR]: the run with only the history's last N entries, marked
# overflowed
cut_history() {
  "$PY" - "${4:-$SERVE}/$1" "$2" "$3" <<'PY'
import json, sys
src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
companion = json.load(open(src + ".torch.json"))
snapshot = json.load(open(src + ".torch-exit.json"))
snapshot["device_traces"] = [t[-n:] for t in snapshot["device_traces"]]
companion["history"].update(max_entries=n, entries=n, overflowed=True)
companion["snapshots"] = [dict(s, file=dst + ".torch-exit.json")
                          for s in companion["snapshots"] if s["reason"] == "exit"]
companion["telemetry"] = None
json.dump(companion, open(dst + ".torch.json", "w"))
json.dump(snapshot, open(dst + ".torch-exit.json", "w"))
PY
}
site=/work/main/tests/gpu/torch_serve_leak.py:24
cut_history tv_serve_leak-975 window 1000
run --no-cache --telemetry window.torch.json
expect_rc 1 "an overflowed history: judged on what it kept"
cat >expected <<TXT
$site: warning: tensors allocated here on each repetition of a loop in torch_serve_leak.py (pid 975), a loop without training steps (serving or evaluation), are still allocated at exit: 302 blocks, 2.0 MiB a repetition; keep what a request returns on the host (.cpu(), .item()) or drop it, and bound caches that grow with each request [GM150 torch-leak-per-step]
$site: note: confirmed: survivors from 99 of the line's 99 repetitions in the 1000 entries the allocator's history kept (it overflowed; threshold: all but one, at least 8), 2.0 MiB a repetition (median), 633.0 MiB in 302 blocks from this line still allocated at exit; at that rate the device's 79.2 GiB is full after about 40213 more repetitions
TXT
diff -u expected out >diff || fail "the window's verdict: $(cat diff)"

cut_history tv_serve_leak-975 short 60
run --no-cache --telemetry short.torch.json
expect_rc 0 "6 repetitions in the history: too few for a verdict"
[ ! -s out ] || fail "too few repetitions: no finding: $(cat out)"
run report short.torch.json
expect_rc 0 "report on the short history"
cat >expected <<TXT
  history: 60 entries, overflowed at 60 (the oldest were dropped): partial
  allocated at exit: 651.0 MiB in 307 blocks; by line, most first:
    $site: 633.0 MiB in 302 blocks, 300 of 2.0 MiB
    /work/main/tests/gpu/torch_serve_leak.py:19: 16.0 MiB in 4 blocks, 2 of 8.0 MiB
    /work/main/tests/gpu/torch_serve_leak.py:23: 2.0 MiB in 1 blocks
TXT
grep -E '^  (history|allocated at exit)|^    ' out >got
diff -u expected got >diff || fail "the report's live blocks by line: $(cat diff)"
run report "$SERVE/tv_serve_leak-975.torch.json"
expect_out "^  kept across repetitions \(GM150\): $site, 2.0 MiB a repetition, 300 of 300$" \
  "report: the repetitions' verdict"

# 2. and 3.: runs made here. make RUN LOOP STEPS: LOOP "build" allocates a layer's weight (line
# 10, 4 MiB) and bias (line 11, 4 KiB) 24 times and keeps them; "serve" allocates an input (line
# 20, 1 MiB, dropped the next time round) and keeps an output (line 21, 2 MiB) 24 times; STEPS
# optimizer steps come before the loop
make_run() {
  "$PY" - "$@" <<'PY'
import json, sys
name, loop, steps = sys.argv[1], sys.argv[2], int(sys.argv[3])
MiB = 1 << 20
traces, live, clock, addr = [], {}, [1000], [0x7f0000000000]
def frame(line):
    return [{"name": "<module>", "filename": "/srv/app.py", "line": line}]
def event(action, a, size, line):
    clock[0] += 10
    traces.append({"action": action, "addr": a, "size": size, "stream": 0,
                   "time_us": clock[0], "frames": frame(line)})
def alloc(size, line):
    a = addr[0]
    addr[0] += size
    event("alloc", a, size, line)
    live[a] = (size, line)
    return a
def free(a):
    size, line = live.pop(a)
    event("free_requested", a, size, line)
    event("free_completed", a, size, line)
step_list = []
for k in range(1, steps + 1):
    t = alloc(8 * MiB, 5)  # the step's own temporary
    free(t)
    step_list.append({"step": k, "source": "optimizer", "time_us": clock[0], "device": 0,
                      "allocated_bytes": 0, "reserved_bytes": 64 * MiB})
previous = None
for i in range(24):
    if loop == "build":
        alloc(4 * MiB, 10)
        alloc(4096, 11)
    else:
        x = alloc(MiB, 20)
        if previous is not None:
            free(previous)
        previous = x
        alloc(2 * MiB, 21)
blocks = [{"address": a, "size": s, "requested_size": s, "state": "active_allocated",
           "frames": frame(line)} for a, (s, line) in sorted(live.items())]
total = sum(b["size"] for b in blocks)
for s in step_list:
    s["allocated_bytes"] = 0
segment = {"device": 0, "address": 0x7f0000000000, "total_size": total, "allocated_size": total,
           "active_size": total, "requested_size": total, "stream": 0, "segment_type": "large",
           "is_expandable": False, "frames": [], "blocks": blocks}
json.dump({"segments": [segment], "device_traces": [traces]}, open(name + ".torch-exit.json", "w"))
json.dump({"format": "gmemlint-torch", "version": 1, "pid": 77, "argv": ["/srv/app.py"],
           "rank": None, "world_size": None, "torch_version": "2.11.0", "telemetry": None,
           "allocator": {"backend": "native", "caching": True, "expandable_segments": False,
                         "settings": None},
           "devices": [{"index": 0, "name": "GPU", "total_bytes": 80 << 30}],
           "history": {"recorded": True, "reason": None, "stacks": "python",
                       "max_entries": 200000, "entries": len(traces), "overflowed": False},
           "steps": step_list, "ooms": [],
           "snapshots": [{"reason": "exit", "file": name + ".torch-exit.json", "pickle": None,
                          "step": steps, "traces": True}],
           "errors": []}, open(name + ".torch.json", "w"))
PY
}
make_run build build 0
run --no-cache --telemetry build.torch.json
expect_rc 0 "a loop building layers, freeing nothing, is no leak"
[ ! -s out ] || fail "the loop that builds: no finding: $(cat out)"

make_run serve serve 0
run --no-cache --telemetry serve.torch.json
expect_rc 1 "a loop that works and keeps one output each time round"
cat >expected <<'TXT'
/srv/app.py:21: warning: tensors allocated here on each repetition of a loop in app.py (pid 77), a loop without training steps (serving or evaluation), are still allocated at exit: 24 blocks, 2.0 MiB a repetition; keep what a request returns on the host (.cpu(), .item()) or drop it, and bound caches that grow with each request [GM150 torch-leak-per-step]
/srv/app.py:21: note: confirmed: survivors from 24 of the line's 24 repetitions in the allocator's history (threshold: all but one, at least 8), 2.0 MiB a repetition (median), 48.0 MiB in 24 blocks from this line still allocated at exit; at that rate the device's 80.0 GiB is full after about 40935 more repetitions
TXT
diff -u expected out >diff || fail "the serving loop: $(cat diff)"

make_run evaluate serve 8
run --no-cache --telemetry evaluate.torch.json
expect_rc 1 "the same loop after 8 training steps"
cat >expected <<'TXT'
/srv/app.py:21: warning: tensors allocated here on each repetition of a loop in app.py (pid 77), a loop apart from the training steps (evaluation or serving), are still allocated at exit: 24 blocks, 2.0 MiB a repetition; keep what a request returns on the host (.cpu(), .item()) or drop it, and bound caches that grow with each request [GM150 torch-leak-per-step]
/srv/app.py:21: note: confirmed: survivors from 24 of the line's 24 repetitions in the allocator's history (threshold: all but one, at least 8), 2.0 MiB a repetition (median), 48.0 MiB in 24 blocks from this line still allocated at exit; at that rate the device's 80.0 GiB is full after about 40935 more repetitions
TXT
diff -u expected out >diff || fail "the evaluation loop between steps: $(cat diff)"
# 4.
train=/work/main/tests/gpu/torch_leak_steps.py:33
cut_history tv_leak_steps-622 steps 450 "$ROOT/tests/join/torch_gpu"
run --no-cache --telemetry steps.torch.json
expect_rc 1 "steps in an overflowed history"
cat >expected <<TXT
$train: warning: tensors allocated here in each training step of torch_leak_steps.py (pid 622) are still allocated at exit (64.0 MiB a step): memory kept across steps; a tensor kept with its autograd graph keeps the whole step alive (losses.append(loss) keeps every step's graph: keep loss.item() or loss.detach()), or a list or cache grows each step: drop what the next step does not need [GM150 torch-leak-per-step]
$train: note: confirmed: survivors from 7 of the 7 steps the allocator's history kept whole in its last 450 entries (it overflowed) (threshold: all but one, at least 5 steps), 64.0 MiB a step (median), 448.2 MiB still allocated at exit; allocated bytes over the 10 steps after the warm-up: 64.0 MiB a step (least squares); at that rate the device's 79.2 GiB is full around step 1260
TXT
diff -u expected out >diff || fail "the steps the window kept: $(cat diff)"
cut_history tv_leak_steps-622 few 200 "$ROOT/tests/join/torch_gpu"
run --no-cache --telemetry few.torch.json
expect_rc 1 "too few whole steps in the window: partial"
expect_out "^few.torch.json: warning: allocated memory of torch_leak_steps.py \(pid 622\) grows step after step: .*the line is not known: the allocator's history overflowed \(its oldest entries were dropped\) and kept too few whole steps \[GM150 torch-leak-per-step\]$" \
  "a window of 3 steps: partial, and why"
finish
