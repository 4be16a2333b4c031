# The join (--telemetry): every case under tests/join/ (a source, hand-written telemetry and
# expected.txt, the exact verdict notes and runtime-only findings it must print), each rule's
# verdicts, merging files, findings files (*.gmemlint.json), --only-confirmed, JSON and SARIF
# fields, `gmemlint report`, and telemetry that is missing or wrong.
source "$(dirname "$0")/testlib.bash"
JOIN="$ROOT/tests/join"
VERDICTS='note: (confirmed|dismissed|not-exercised|unverifiable): |\[GM1[0-9][0-9] '

# run_case DIR [ARGS...]: gmemlint in DIR with every *.json as --telemetry and every *.cu
run_case() {
  local dir=$1
  shift
  local args=()
  for t in "$dir"/*.json; do
    case $t in *.torch-*.json) continue ;; esac # PyTorch snapshots: their companion names them
    args+=(--telemetry "$(basename "$t")")
  done
  for s in "$dir"/*.cu; do [ -e "$s" ] && args+=("$(basename "$s")"); done
  rc=0
  (cd "$dir" && "$GMEMLINT" "$@" "${args[@]}") >"$WORK/out" 2>"$WORK/err" || rc=$?
}

# 1. each case prints exactly its expected verdicts and runtime-only findings, in order
ncases=0
for dir in "$JOIN"/*/; do
  dir=${dir%/}
  name=$(basename "$dir")
  [ -f "$dir/expected.txt" ] || continue
  ncases=$((ncases + 1))
  run_case "$dir"
  expect_rc 1 "$name: findings remain"
  [ ! -s "$WORK/err" ] || fail "$name: stderr: $(head -c 400 "$WORK/err")"
  grep -E -- "$VERDICTS" "$WORK/out" >"$WORK/got" || true
  diff -u "$dir/expected.txt" "$WORK/got" >"$WORK/diff" || fail "$name: verdicts differ from expected.txt: $(cat "$WORK/diff")"
  # every static finding has a verdict: one verdict note per warning, runtime-only ones included
  nwarn=$(grep -cE ': warning: ' "$WORK/out" || true)
  nverd=$(grep -cE 'note: (confirmed|dismissed|not-exercised|unverifiable): ' "$WORK/out" || true)
  [ "$nwarn" -eq "$nverd" ] || fail "$name: $nwarn warnings but $nverd verdicts"
done
[ "$ncases" -ge 10 ] || fail "only $ncases cases under tests/join"

# 2. every rule reaches each verdict that applies to it (collected from the JSON of all cases)
: >"$WORK/pairs"
for dir in "$JOIN"/*/; do
  [ -f "$dir/expected.txt" ] || continue
  run_case "${dir%/}" --format=json
  "$PY" -c '
import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    print(f["rule"], f["verdict"])' "$WORK/out" >>"$WORK/pairs" || fail "$dir: JSON output"
done
for want in "GM001 confirmed" "GM001 dismissed" "GM001 not-exercised" "GM001 unverifiable" \
  "GM002 confirmed" "GM002 dismissed" "GM002 not-exercised" "GM002 unverifiable" \
  "GM003 confirmed" "GM003 dismissed" "GM003 not-exercised" "GM003 unverifiable" \
  "GM010 confirmed" "GM010 dismissed" "GM010 not-exercised" \
  "GM020 confirmed" "GM020 dismissed" "GM020 not-exercised" "GM020 unverifiable" \
  "GM021 confirmed" "GM021 dismissed" "GM021 not-exercised" "GM021 unverifiable" \
  "GM030 confirmed" "GM030 dismissed" "GM030 not-exercised" "GM030 unverifiable" \
  "GM031 confirmed" "GM031 dismissed" "GM031 not-exercised" "GM031 unverifiable" \
  "GM101 confirmed" "GM102 confirmed" "GM103 confirmed" "GM104 confirmed" "GM105 confirmed" \
  "GM106 confirmed" "GM110 confirmed" "GM120 confirmed" "GM121 confirmed" "GM130 confirmed" \
  "GM131 confirmed" "GM140 confirmed" "GM150 confirmed" "GM151 confirmed" "GM152 confirmed" \
  "GM153 confirmed" "GM154 confirmed"; do
  grep -qx "$want" "$WORK/pairs" || fail "no case gives $want"
done

# 3. specific figures, spelled out here as well as in expected.txt
run_case "$JOIN/gm001"
expect_out '^pipeline.cu:8:7: note: confirmed: 3 of 5 allocations, 12.0 MiB still live at exit \(threshold: any block live at a normal exit\), stack: main > train > live_at_exit$' "GM001 evidence with stack"
expect_no_out '^pipeline.cu:51:' "a host leak is not GM001's"
run_case "$JOIN/gm001" --only=GM004
expect_out '^pipeline.cu:51:23: warning: .*\[GM004 unpaired-host-allocation\]$' "GM004 joined"
expect_out '^pipeline.cu:51:23: note: unverifiable: the runtime collects no evidence for GM004$' "GM004 has no runtime verdict"
# an end-of-main leak: GM101's at run time by default, GM005's verdict (and no GM101) when enabled
run_case "$JOIN/gm005" --enable=all
expect_out '^app.cu:8:3: note: confirmed: 1 of 1 allocation, 1.0 MiB still live at exit \(threshold: any block live at a normal exit\), stack: main$' "GM005 has GM001's verdict"
expect_out "^app.cu:8:3: warning: 'd' .*\\[GM005 unfreed-at-exit\\]$" "GM005 joined"
expect_no_out 'GM101' "no GM101 where GM005 has the verdict"
run_case "$JOIN/gm021"
expect_out '^upload.cu:8:5: note: confirmed: 4096 copies of mean 256 B, 1.0 MiB in 20.5 ms: 48.8 MiB/s achieved \(thresholds: at least 16 copies, mean below 64.0 KiB\)$' "GM021 bandwidth"
run_case "$JOIN/runtime_only"
expect_out '^trainer.cu:14: warning: memory from cudaMalloc is still allocated when the program exits.*\[GM101 leak-at-exit\]$' "GM101 named at the input file"
expect_no_out 'trainer.cu:45: warning: .*GM101' "no GM101 where GM001 has the verdict"
expect_no_out 'trainer.cu:26: warning: .*GM101' "no GM101 where wrong-family frees explain the live memory"
expect_out '^trainer.cu:38: note: confirmed: 2 out-of-memory errors here' "GM104 groups events by site"
expect_no_out 'transient' "transient OOM events raise no finding"
expect_out '^trainer.json: warning: allocation of 4.0 KiB failed' "an OOM event without a site is named at the telemetry file"
expect_out '^libplugin.so\+0x1a2b: warning: ' "a site without debug information is named by module and offset"

run_case "$JOIN/gm110"
expect_out '^stages.cu:10: warning: cudaMalloc here ran 4096 times and each block was freed before the next was made.*\[GM110 runtime-allocation-churn\]$' "GM110 through a function pointer"
expect_no_out 'stages.cu:17: warning' "GM110: 10 calls stay below the threshold"
expect_no_out 'stages.cu:33: warning: .*GM110' "GM110: the static GM010 has the verdict"
expect_no_out 'stages.cu:39: warning' "GM110: a setup loop keeps its buffers (64 live at once)"

# telemetry alone (a program whose sources are not at hand, a Python script): runtime-only findings
(cd "$JOIN/gm110" && "$GMEMLINT" --telemetry run.json) >"$WORK/out" 2>"$WORK/err" && rc=0 || rc=$?
expect_rc 1 "telemetry alone: findings remain"
expect_out '^src/stages.cu:10: warning: cudaMalloc here ran 4096 times .*\[GM110 ' "telemetry alone gives the runtime-only findings"
expect_no_out 'GM010' "telemetry alone: no static findings"

run_case "$JOIN/gm120"
expect_out '^grow.cu:10: warning: blocks from cudaMalloc here were replaced 63 times in a row .*\[GM120 runtime-growing-reallocation\]$' "GM120 through a function pointer"
expect_out '^grow.cu:10: note: confirmed: a chain of 63 replacements, each by a larger block \(threshold: 4\), .*63 copies from a block into its replacement \(504.0 MiB copied\)' "GM120's figures"
expect_no_out 'grow.cu:20: warning' "GM120: a chain of 2 stays below the threshold"
expect_no_out 'grow.cu:43:?[0-9]*: warning: .*GM1[12]0' "GM120: the static GM020 has the verdict"
expect_out 'grow.cu:43:5: note: confirmed: .*31 blocks replaced by a larger one \(a chain of 31\)' "GM020's verdict shows the run's replacements"

run_case "$JOIN/gm131"
expect_out '^solver.cu:27: warning: pages of this managed memory \(cudaMallocManaged\) moved between the host and the GPU 99 times.*\[GM131 runtime-ping-pong\]$' "GM131 through a function pointer"
expect_no_out 'solver.cu:28: warning: .*GM131' "GM131: blocks that each went over and back once (6 changes across the site, 1 for any block) stay below the threshold"
expect_no_out 'solver.cu:29: warning: .*GM131' "GM131: the static GM031 has the verdict"
expect_out 'solver.cu:29:3: note: confirmed: pages migrated both ways: .*99 changes of direction' "GM031's verdict shows the run's changes of direction"
run_case "$JOIN/gm130"
expect_out '^model.cu:29: warning: managed memory from cudaMallocManaged here migrated to the GPU on demand.*\[GM130 runtime-on-demand-migration\]$' "GM130 through a function pointer"
expect_out '^model.cu:29: note: confirmed: 0 GPU page-fault groups \(threshold: 64\), 64.0 MiB migrated host-to-device on demand \(threshold: 1.0 MiB; 13.0 MiB for the faults, 51.0 MiB by the driver.s speculative prefetch around them\), 0 B prefetched by the program: 0% of 64.0 MiB host-to-device \(threshold: below 50%\)' "GM130 evidence against its thresholds; the driver's speculative prefetch is not the program's"
expect_out '^model.cu:46: warning: .* was faulted in by the GPU page by page.*\[GM130 ' "GM130 on fault groups alone"
expect_no_out 'model.cu:34: warning' "GM130: 256 KiB and 4 fault groups stay below the thresholds"
expect_no_out 'model.cu:39: warning' "GM130: mostly prefetched (97% of host-to-device bytes)"
expect_no_out 'model.cu:50: warning: .*GM130' "GM130: the static GM030 has the verdict"
sed 's/"available": true/"available": false, "reason": "CUPTI not loaded"/' "$JOIN/gm130/run.json" >"$WORK/gm130-nocupti.json"
(cd "$JOIN/gm130" && "$GMEMLINT" --telemetry "$WORK/gm130-nocupti.json" model.cu) >"$WORK/out" 2>&1 || true
expect_no_out 'GM130' "GM130 needs the unified-memory counters collected"
run_case "$JOIN/gm131"
expect_no_out 'solver.cu:27: warning: .*GM130' "GM130 leaves memory that ping-pongs to GM131"

run_case "$JOIN/gm121"
expect_out '^loader.cu:11: warning: cudaMemcpy here made 4096 copies of mean 256 B: .*\[GM121 runtime-small-copies\]$' "GM121 through a function pointer"
expect_out '^loader.cu:11: note: confirmed: 4096 copies host-to-device \(threshold: 64\) of mean 256 B \(threshold: below 64.0 KiB\), 4094 of them moving on through a range by a constant step \(threshold: 50%\), 1.0 MiB in 20.5 ms: 48.8 MiB/s achieved, against 29.8 GiB/s for the 1.0 MiB copies at loader.cu:42: 625x slower' "GM121 against the large copy in its direction, not the faster device-to-device one"
expect_out '^loader.cu:15: note: confirmed: .*\(the telemetry does not say whether their addresses advanced\).*; no copy of 1.0 MiB or more device-to-host in the run to compare it with$' "GM121 with no large copy that way, from telemetry without copies_strided"
expect_out '^loader.cu:19: note: confirmed: 128 copies with cudaMemcpyDefault .* at loader.cu:44, the fastest large copy in any direction, as this site.s direction is not known: 1966x slower$' "GM121 with the direction unknown"
expect_no_out 'loader.cu:23: warning' "GM121: 32 copies stay below the threshold"
expect_no_out 'loader.cu:27: warning' "GM121: a flag read back to one place is not a range to batch"
expect_no_out 'loader.cu:4[24]: warning' "GM121: large copies are not small"
expect_no_out 'loader.cu:54: warning: .*GM121' "GM121: the static GM021 has the verdict"

run_case "$JOIN/gm140"
expect_out '^bound.cu:21: warning: the run of fit_model \(pid 5101\) was capacity-bound: device memory was nearly full .*\[GM140 runtime-memory-bound\]$' "GM140 capacity-bound at the site holding the most at the peak"
expect_out '^bound.cu:21: note: confirmed: capacity-bound: device 0 was at least 90% full while kernels ran less than 50% of the time in 27 of 30 samples \(90%; threshold 50%\), at most 132.6 GiB of 140.4 GiB \(94%\);.*; at the peak this site held 128.0 GiB of 132.0 GiB live$' "GM140 capacity figures"
expect_out '^bandwidth.json: warning: the run of stream \(pid 5102\) was bandwidth-bound: .*\[GM140 runtime-memory-bound\]$' "GM140 bandwidth-bound at the telemetry file"
expect_out '^bandwidth.json: note: confirmed: bandwidth-bound: on device 0 kernels ran \(SM >= 20%\) in 28 of 30 samples \(93%; threshold 25%\), and in 27 of those 28 \(96%; threshold 50%\)' "GM140 bandwidth figures"
expect_no_out 'pid 5103' "GM140: a compute-bound run (SM 100%, memory 2%) is neither; the full, busy device 1 is not the run's"
expect_no_out 'pid 5104' "GM140: 6 samples are too few for a verdict"
expect_no_out 'pid 5105' "GM140: memory-heavy kernels in 3 of 20 samples: the GPU waited on the host"
[ "$(count_out 'GM140')" -eq 2 ] || fail "GM140: $(count_out 'GM140') findings, expected 2"
run_case "$JOIN/gm140" --format=json
"$PY" - "$WORK/out" <<'PY' || fail "GM140 in JSON: a note, the bandwidth one without a line"
import json, sys
f = [x for x in json.load(open(sys.argv[1]))["findings"] if x["rule"] == "GM140"]
assert [(x["file"], x["line"], x["severity"]) for x in f] == [
    ("bandwidth.json", 0, "note"), ("bound.cu", 21, "note")], f
PY
run_case "$JOIN/gm140" --format=sarif
"$PY" - "$WORK/out" "$ROOT/../shared/sarif-schema-2.1.0.json" <<'PY' || fail "GM140 in SARIF"
import json, os, sys
doc = json.load(open(sys.argv[1]))
if os.path.exists(sys.argv[2]):
    import jsonschema
    jsonschema.validate(doc, json.load(open(sys.argv[2])))
res = [r for r in doc["runs"][0]["results"] if r["ruleId"] == "GM140"]
assert len(res) == 2 and all(r["level"] == "note" for r in res), res
assert res[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith("bandwidth.json"), res[0]
PY

# 4. merging: two ranks reach GM010's threshold together, not alone
run_case "$JOIN/merge_ranks" --only=GM010 # both rank files
expect_out 'note: confirmed: 20 calls \(threshold: 16\), 2 distinct sizes from 1.0 MiB to 2.0 MiB,' "merged calls and sizes"
(cd "$JOIN/merge_ranks" && "$GMEMLINT" --telemetry rank0.json --only=GM010 solver.cu) >"$WORK/out" 2>&1 || true
expect_out 'note: dismissed: ran only 10 times' "one rank alone stays below the threshold"
# the same file twice is read once
(cd "$JOIN/merge_ranks" && "$GMEMLINT" --telemetry rank0.json --telemetry ./rank0.json --only=GM010 solver.cu) >"$WORK/out" 2>"$WORK/err" || true
expect_out 'note: dismissed: ran only 10 times' "a file given twice is not counted twice"
expect_err '^gmemlint: warning: ./rank0.json: given more than once; read once$' "warning for a file given twice"

# 5. findings files: gmemlint's own JSON read instead of the source, no CUDA toolkit needed
mkdir -p "$WORK/objs"
(cd "$JOIN/gm001" && "$GMEMLINT" --format=json -o "$WORK/objs/pipeline.gmemlint.json" pipeline.cu) || true
[ -s "$WORK/objs/pipeline.gmemlint.json" ] || fail "could not write a findings file"
(cd "$JOIN/gm001" && "$GMEMLINT" --cuda-path=/nonexistent --telemetry run.json --telemetry crashed.json "$WORK/objs/pipeline.gmemlint.json") >"$WORK/out" 2>"$WORK/err" && rc=0 || rc=$?
expect_rc 1 "findings file joined"
grep -E -- "$VERDICTS" "$WORK/out" >"$WORK/got" || true
diff -u "$JOIN/gm001/expected.txt" "$WORK/got" >"$WORK/diff" || fail "findings file: verdicts differ from the source's: $(cat "$WORK/diff")"
run --only=GM002 "$WORK/objs/pipeline.gmemlint.json" --cuda-path=/nonexistent
expect_rc 0 "--enable applies to findings files"
echo '{"version": 1, "tool": "gmemlint", "findings": [{"rule": "GM999", "file": "a.cu", "line": 1, "message": "x"}]}' >"$WORK/bad.gmemlint.json"
run "$WORK/bad.gmemlint.json"
expect_rc 2 "unknown rule in a findings file"
expect_err "^gmemlint: error: $WORK/bad.gmemlint.json: findings\[0\].rule: unknown rule 'GM999'" "findings file error names the file"
echo '{"version": 1, "tool": "gmemlint", "findings": [{"rule": "GM001", "file": "a.cu", "line": "one", "message": "x"}]}' >"$WORK/bad.gmemlint.json"
run "$WORK/bad.gmemlint.json"
expect_rc 2 "wrong type in a findings file"
expect_err "bad.gmemlint.json: findings\[0\].line: expected a non-negative integer" "findings file type error"

# 6. --only-confirmed: only confirmed and runtime-only findings; exit 1 only if some remain
run_case "$JOIN/gm010" --only-confirmed
expect_rc 1 "--only-confirmed with a confirmed finding"
[ "$(count_out ': warning: ')" -eq 1 ] || fail "--only-confirmed kept $(count_out ': warning: ') warnings, expected 1"
expect_no_out 'dismissed|not-exercised' "--only-confirmed drops the rest"
(cd "$JOIN/merge_ranks" && "$GMEMLINT" --only-confirmed --telemetry rank0.json --only=GM010 solver.cu) >"$WORK/out" 2>"$WORK/err" && rc=0 || rc=$?
expect_rc 0 "--only-confirmed with nothing confirmed"
[ ! -s "$WORK/out" ] || fail "--only-confirmed printed: $(head -c 300 "$WORK/out")"
run_case "$JOIN/runtime_only" --only-confirmed --format=json
expect_rc 1 "--only-confirmed keeps runtime-only findings"
"$PY" - "$WORK/out" <<'PY' || fail "--only-confirmed JSON"
import json, sys
f = json.load(open(sys.argv[1]))["findings"]
assert f and all(x["verdict"] == "confirmed" for x in f), f
assert sum(x["rule"].startswith("GM1") for x in f) == 10, [x["rule"] for x in f]
PY
run --only-confirmed "$JOIN/gm010/batches.cu"
expect_rc 2 "--only-confirmed needs --telemetry"
expect_err "only-confirmed needs --telemetry" "--only-confirmed message"
run --verify --telemetry "$JOIN/gm010/batches.json" "$JOIN/gm010/batches.cu"
expect_rc 2 "--verify with --telemetry"
expect_err "verify checks the static pass alone" "--verify with --telemetry message"

# 7. JSON and SARIF carry verdict and evidence; a dismissed finding is an external suppression
run_case "$JOIN/gm002" --format=json
"$PY" - "$WORK/out" <<'PY' || fail "JSON verdict fields"
import json, sys
f = json.load(open(sys.argv[1]))["findings"]
assert [x["verdict"] for x in f] == ["confirmed", "dismissed", "not-exercised", "unverifiable"], f
assert f[0]["evidence"].startswith("1 wrong-family free of memory from cudaMallocHost at line 8"), f[0]
assert all(x["evidence"] for x in f)
PY
run_case "$JOIN/runtime_only" --format=sarif
"$PY" - "$WORK/out" "$ROOT/../shared/sarif-schema-2.1.0.json" <<'PY' || fail "SARIF with runtime-only findings"
import json, os, sys
doc = json.load(open(sys.argv[1]))
if os.path.exists(sys.argv[2]):
    import jsonschema
    jsonschema.validate(doc, json.load(open(sys.argv[2])))
run = doc["runs"][0]
ids = [r["id"] for r in run["tool"]["driver"]["rules"]]
assert all(i in ids for i in ("GM101", "GM102", "GM103", "GM104", "GM105", "GM106", "GM140")), ids
for r in run["tool"]["driver"]["rules"]:
    assert ("runtime" in r["properties"]["tags"]) == r["id"].startswith("GM1"), r["id"]
res = run["results"]
rt = [r for r in res if r["ruleId"].startswith("GM1")]
assert len(rt) == 10, [r["ruleId"] for r in res]
for r in res:
    assert r["properties"]["verdict"] == "confirmed" and r["properties"]["evidence"], r
    assert ids[r["ruleIndex"]] == r["ruleId"], r
    assert "suppressions" not in r
PY
run_case "$JOIN/gm030" --format=sarif
"$PY" - "$WORK/out" "$ROOT/../shared/sarif-schema-2.1.0.json" <<'PY' || fail "SARIF verdicts and suppressions"
import json, os, sys
doc = json.load(open(sys.argv[1]))
if os.path.exists(sys.argv[2]):
    import jsonschema
    jsonschema.validate(doc, json.load(open(sys.argv[2])))
res = doc["runs"][0]["results"]
verdicts = [r["properties"]["verdict"] for r in res]
assert verdicts == ["confirmed"] * 2 + ["dismissed"] * 2 + ["unverifiable"] * 2 + ["not-exercised"] * 2, verdicts
for r in res:
    if r["properties"]["verdict"] == "dismissed":
        assert r["suppressions"] == [{"kind": "external", "justification": r["properties"]["evidence"]}], r
    else:
        assert "suppressions" not in r, r
PY

# 8. gmemlint report: the runtime view alone
run report "$JOIN/runtime_only/trainer.json" "$JOIN/merge_ranks/rank0.json" "$JOIN/merge_ranks/rank1.json"
expect_rc 0 "report"
expect_out '^3 telemetry files:$' "report: files"
expect_out '^Process peak: 3.0 GiB \(pid 1010\); live at the end: 2.0 GiB in 9 allocations \(all files\)$' "report: process peak"
expect_out '^Top sites by live bytes at the end:$' "report: live table"
expect_out '^ +1.0 GiB  trainer.cu:14 cudaMalloc: 1 of 1 allocation live, stack: main > init_model$' "report: top live site"
expect_out '^Top sites by peak live bytes:$' "report: peak table"
expect_out '^Out-of-memory events: 5$' "report: OOM count"
expect_out '^  fragmentation: trainer.cu:38 cudaMalloc asked for 1.0 GiB with 2.0 GiB free of 4.0 GiB \(largest block 512.0 MiB' "report: OOM figures"
expect_out '^  capacity: cudaMalloc \(no site\)|^  capacity: allocation \(no site\)' "report: OOM without a site"
expect_out '^Steps \(gmem_step\): 5$' "report: steps"
expect_out '^    trainer.cu:20 cudaMalloc: 10.0 MiB -> 50.0 MiB \(\+10.0 MiB a step\)$' "report: growth per step"
expect_out '^Stream-ordered pools: 0$' "report: pools"
# the NVML samples and each run's GM140 verdict, in the rule's words
run report "$JOIN"/gm140/*.json
expect_out '^NVML samples \(in 5 of 5 files\) and the run.s verdict \(GM140\):$' "report: NVML heading"
expect_out '^    device 0: 30 samples, one every 50.0 ms from 40.0 to 1490.0 ms; used 640.0 MiB to 132.6 GiB of 140.4 GiB; SM mean 14% \(max 15%\), memory bandwidth mean 4% \(max 4%\)$' "report: a device's samples in figures"
expect_out '^    device 1: 30 samples.*; not the run.s device: not judged$' "report: a device the run did not use"
expect_out '^    verdict: capacity-bound: device 0 was at least 90% full while kernels ran less than 50% of the time in 27 of 30 samples' "report: capacity-bound"
expect_out '^    verdict: bandwidth-bound: on device 0 kernels ran \(SM >= 20%\) in 28 of 30 samples' "report: bandwidth-bound"
expect_out '^    verdict: neither: .*and in 0 of those 30 \(0%; threshold 50%\)' "report: compute-bound is neither"
expect_out '^    verdict: neither: .*kernels ran \(SM >= 20%\) in 3 of 20 samples \(15%; threshold 25%\)' "report: mostly idle is neither"
expect_out '^    verdict: no verdict: 6 NVML samples of device 0, fewer than the 10 a verdict needs' "report: too few samples"
(cd "$JOIN/gm140" && "$GMEMLINT" --format=json --telemetry bandwidth.json bound.cu) >"$WORK/j.json" 2>/dev/null || true
"$PY" - "$WORK/j.json" "$WORK/out" <<'PY' || fail "report: the verdict is the finding's evidence"
import json, sys
ev = [f["evidence"] for f in json.load(open(sys.argv[1]))["findings"] if f["rule"] == "GM140"]
assert len(ev) == 1 and "    verdict: " + ev[0] in open(sys.argv[2]).read().splitlines(), ev
PY
run report "$JOIN/runtime_only/trainer.json"
expect_out '^  .*/trainer.json \(pid 1010, trainer\): no samples \(the file has no nvml\)$' "report: a file without NVML"
expect_out '^    verdict: capacity-bound: 3 out-of-memory errors of capacity kind' "report: capacity from OOM events alone"
run report --top=1 "$JOIN/gm030/um.json" "$JOIN/gm030/sanitizer.json"
expect_out '^  saxpy.cu:14 cudaMallocManaged: 2893 GPU page-fault groups' "report: UM by site"
expect_out 'sanitizer.json: CUPTI is in use by another tool' "report: why UM counters are missing"
[ "$(grep -cE '^ +1.0 GiB  saxpy.cu' "$WORK/out")" -eq 1 ] || fail "--top=1 lists one site"
run report -o "$WORK/report.txt" "$JOIN/gm010/batches.json"
expect_rc 0 "report -o"
grep -q '^1 telemetry file:$' "$WORK/report.txt" || fail "report -o wrote: $(head -c 300 "$WORK/report.txt")"
[ ! -s "$WORK/out" ] || fail "report -o still printed to stdout"
run report --top=0 "$JOIN/gm010/batches.json"
expect_rc 2 "bad --top"
expect_err "bad --top value '0'" "bad --top message"
run report
expect_rc 2 "report without files"
expect_err "report: no telemetry files" "report usage message"
run report --format=json "$JOIN/gm030/um.json"
expect_rc 2 "report is text only"

# 9. telemetry that cannot be read: exit 2, the file named, never a crash
src="$JOIN/gm010/batches.cu"
bad_telemetry() { # bad_telemetry NAME JSON PATTERN
  printf '%s' "$2" >"$WORK/$1"
  run --telemetry "$WORK/$1" "$src"
  expect_rc 2 "$1"
  expect_err "^gmemlint: error: $WORK/$1$3" "$1 message"
  [ ! -s "$WORK/out" ] || fail "$1: printed findings anyway"
}
run --telemetry "$WORK/none.json" "$src"
expect_rc 2 "missing telemetry"
expect_err "^gmemlint: error: $WORK/none.json: cannot read: No such file or directory" "missing telemetry message"
bad_telemetry badjson.json '{"version": 1, "sites": [' ':1:[0-9]+: invalid JSON: '
bad_telemetry version.json '{"version": 3, "tool": "gmemrt", "process": {}, "sites": []}' ': telemetry version 3 is not supported \(this gmemlint reads versions 1 to 2\)'
bad_telemetry noversion.json '{"tool": "gmemrt", "process": {}, "sites": []}' ': missing "version"'
bad_telemetry array.json '[1, 2]' ': not a telemetry file: expected a JSON object, found an array'
bad_telemetry findings.json '{"version": 1, "tool": "gmemlint", "findings": []}' ': not a telemetry file: its tool is "gmemlint"'
bad_telemetry nosites.json '{"version": 1, "process": {"peak_live_bytes": 0, "live_bytes": 0}}' ': telemetry: missing "sites"'
bad_telemetry sitesobj.json '{"version": 1, "process": {"peak_live_bytes": 0, "live_bytes": 0}, "sites": {}}' ': telemetry.sites: expected an array, found an object'
bad_telemetry calls.json '{"version": 1, "process": {"peak_live_bytes": 0, "live_bytes": 0}, "sites": [{"file": "a.cu", "line": 3, "api": "cudaMalloc", "kind": "alloc", "calls": "many"}]}' ': sites\[0\].calls: expected a non-negative integer, found a string'
bad_telemetry negative.json '{"version": 1, "process": {"peak_live_bytes": -5, "live_bytes": 0}, "sites": []}' ': process.peak_live_bytes: expected a non-negative integer, found a negative integer'
bad_telemetry nocalls.json '{"version": 1, "process": {"peak_live_bytes": 0, "live_bytes": 0}, "sites": [{"file": "a.cu", "line": 3, "api": "cudaMalloc", "kind": "alloc"}]}' ': sites\[0\]: missing "calls" \(an alloc site\)'
bad_telemetry kind.json '{"version": 1, "process": {"peak_live_bytes": 0, "live_bytes": 0}, "sites": [{"file": "a.cu", "line": 3, "api": "cudaMalloc", "kind": "malloc", "calls": 1}]}' ': sites\[0\].kind: expected "alloc", "free" or "other", found "malloc"'
bad_telemetry sizes.json '{"version": 1, "process": {"peak_live_bytes": 0, "live_bytes": 0}, "sites": [{"file": "a.cu", "line": 3, "api": "cudaMalloc", "kind": "alloc", "calls": 1, "distinct_sizes": [1, "2"]}]}' ': sites\[0\].distinct_sizes\[1\]: expected a non-negative integer, found a string'
bad_telemetry oom.json '{"version": 1, "process": {"peak_live_bytes": 0, "live_bytes": 0, "oom_events": [{"requested_bytes": 1, "free_bytes": 0, "total_bytes": 1}]}, "sites": []}' ': process.oom_events\[0\]: missing "verdict"'
bad_telemetry um.json '{"version": 1, "process": {"peak_live_bytes": 0, "live_bytes": 0}, "sites": [], "unified_memory": {"available": "yes"}}' ': unified_memory.available: expected true or false, found a string'
: >"$WORK/empty.json"
run --telemetry "$WORK/empty.json" "$src"
expect_rc 2 "empty telemetry"
expect_err "^gmemlint: error: $WORK/empty.json:.*invalid JSON" "empty telemetry message"
# the first bad file stops the run, whatever comes after it; report reads the same way
run report "$JOIN/gm010/batches.json" "$WORK/version.json"
expect_rc 2 "report with a bad file"
expect_err "^gmemlint: error: $WORK/version.json: telemetry version 3" "report names the bad file"

# 10. the options and rules are listed
run --help
expect_out '--telemetry=FILE' "--help lists --telemetry"
expect_out '--only-confirmed' "--help lists --only-confirmed"
expect_out 'gmemlint report' "--help shows the report subcommand"
run --list-rules
for id in GM101 GM102 GM103 GM104 GM105 GM106 GM110 GM120 GM131 GM140; do expect_out "^$id " "--list-rules lists $id"; done
# runtime-only rules never fire without telemetry
run "$JOIN/runtime_only/trainer.cu"
expect_no_out '\[GM1[0-9][0-9] ' "no runtime-only findings without --telemetry"
finish
