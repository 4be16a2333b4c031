# A function whose analysis was cut short (too many paths for the flow engine's budget) is named
# in every format: JSON "notices" and SARIF toolExecutionNotifications list each one; text counts
# them once, after every finding: the first one's note at its function, with how many more.
# Notices never change the exit status, and survive the result cache, --baseline and -j.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
# 40 independent branches, each holding an allocation to the end: 2^40 states; `leaky` leaks
write_many() {
  {
    echo '#include <cuda_runtime.h>'
    echo '#include <stdlib.h>'
    echo 'void many(size_t n) {'
    for i in $(seq 0 39); do echo "  float *p$i = nullptr;"; done
    for i in $(seq 0 39); do printf '  if (rand() & 1)\n    cudaMalloc(&p%d, n);\n' "$i"; done
    for i in $(seq 0 39); do echo "  cudaFree(p$i);"; done
    echo '}'
    if [ "${2:-}" = leak ]; then
      printf 'int leaky(int n) {\n  float *a = nullptr;\n  cudaMalloc(&a, n);\n  if (n > 4)\n    return 1;\n  cudaFree(a);\n  return 0;\n}\n'
    fi
  } >"$1"
}
write_many many.cu
NOTE="analysis of 'many' was cut short \(too many paths\); findings in it may be incomplete"

run --no-cache many.cu
expect_rc 0 "a notice alone does not fail the run"
expect_out "^many.cu:3:6: note: $NOTE$" "text note at the function"
[ "$(wc -l <"$WORK/out")" -eq 1 ] || fail "one line, no caret: $(cat "$WORK/out")"

write_many leak.cu leak
run --no-cache leak.cu
expect_rc 1 "findings still fail the run"
# counted once at the end: after the finding in leaky, though the function comes first
tail -1 "$WORK/out" | grep -qE "^leak.cu:3:6: note: $NOTE$" ||
  fail "the notice after every finding: $(cat "$WORK/out")"
[ "$(count_out 'warning: ')" -eq 1 ] || fail "the finding in leaky: $(cat "$WORK/out")"

# several: one line, the first one's note with how many more
run --no-cache many.cu leak.cu
expect_rc 1 "many.cu and leak.cu"
[ "$(count_out 'cut short')" -eq 1 ] || fail "counted once: $(cat "$WORK/out")"
tail -1 "$WORK/out" | grep -qxE "many.cu:3:6: note: $NOTE \(and 1 more function cut short; --format=json lists them\)" ||
  fail "the count line: $(tail -1 "$WORK/out")"

run --no-cache --format=json many.cu leak.cu
expect_rc 1 "json exit"
"$PY" - "$WORK/out" <<'PY' || fail "JSON notices"
import json, sys
d = json.load(open(sys.argv[1]))
n = d["notices"]
assert [(x["kind"], x["file"], x["line"], x["column"], x["function"]) for x in n] == [
    ("cut-short", "many.cu", 3, 6, "many"), ("cut-short", "leak.cu", 3, 6, "many")], n
assert n[0]["message"] == "analysis of 'many' was cut short (too many paths); findings in it may be incomplete", n[0]
assert [f["file"] for f in d["findings"]] == ["leak.cu"], d["findings"]
PY
write_clean clean.cu
run --no-cache --format=json clean.cu
"$PY" -c 'import json,sys; assert json.load(open(sys.argv[1]))["notices"] == []' "$WORK/out" ||
  fail "no notices: an empty array"

run --no-cache --format=sarif many.cu leak.cu
"$PY" - "$WORK/out" "$ROOT/../shared/sarif-schema-2.1.0.json" <<'PY' || fail "SARIF notifications"
import json, sys, os
doc = json.load(open(sys.argv[1]))
if os.path.exists(sys.argv[2]):
    import jsonschema
    jsonschema.validate(doc, json.load(open(sys.argv[2])))
inv = doc["runs"][0]["invocations"][0]
assert inv["executionSuccessful"] is True, inv
notes = inv["toolExecutionNotifications"]
assert len(notes) == 2, notes
for n, f in zip(notes, ("many.cu", "leak.cu")):
    assert n["level"] == "note" and n["descriptor"] == {"id": "cut-short"}, n
    assert "analysis of 'many' was cut short" in n["message"]["text"], n
    loc = n["locations"][0]
    assert loc["physicalLocation"]["artifactLocation"]["uri"] == f, loc
    assert loc["physicalLocation"]["region"] == {"startLine": 3, "startColumn": 6}, loc
    assert loc["logicalLocations"] == [{"name": "many", "kind": "function"}], loc
assert [r["ruleId"] for r in doc["runs"][0]["results"]] == ["GM001"]
PY

# the result cache: a hit gives the same notices in every format
C="--cache-dir=$WORK/cache --cache-stats"
for fmt in text json sarif; do
  "$GMEMLINT" --no-cache --format=$fmt many.cu leak.cu >cold.$fmt 2>/dev/null || true
  run $C --format=$fmt many.cu leak.cu
  run $C --format=$fmt many.cu leak.cu
  grep -qE '2 hit\(s\)' "$WORK/err" || fail "$fmt: cache hits: $(cat "$WORK/err")"
  cmp -s cold.$fmt "$WORK/out" || fail "$fmt differs between parse and hit: $(diff cold.$fmt "$WORK/out" | head)"
done

# --baseline filters findings, never notices
run --no-cache --write-baseline base.json leak.cu
run --no-cache --baseline base.json leak.cu
expect_rc 0 "baselined finding"
expect_no_out "warning:" "the finding is baselined"
expect_out "^leak.cu:3:6: note: $NOTE$" "the notice survives --baseline"
run --no-cache --baseline base.json --format=json leak.cu
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["findings"] == [] and len(d["notices"]) == 1, d' "$WORK/out" ||
  fail "JSON with --baseline: no findings, one notice"

# -j: the same output, in input order, as one job
for i in 1 2 3 4; do write_many "m$i.cu"; write_leak "l$i.cu"; done
run --no-cache -j 1 m1.cu l1.cu m2.cu l2.cu m3.cu l3.cu m4.cu l4.cu
cp "$WORK/out" serial.txt
run --no-cache -j 4 m1.cu l1.cu m2.cu l2.cu m3.cu l3.cu m4.cu l4.cu
cmp -s serial.txt "$WORK/out" || fail "-j 4 differs from -j 1: $(diff serial.txt "$WORK/out" | head)"
[ "$(grep -c 'was cut short' serial.txt)" -eq 1 ] || fail "one line for the cut-short notices"
tail -1 serial.txt | grep -qE "^m1.cu:3:6: note: .* \(and 3 more functions cut short; --format=json lists them\)$" ||
  fail "four cut-short functions counted once: $(tail -1 serial.txt)"
finish
