# The join finds a finding's telemetry site through an index by line (gm_telemetry_find): the
# same site as a scan of every site would, among tens of thousands. tests/join/gm001 again, its
# telemetry padded with 30,000 sites on other files and lines (the index grows and is rebuilt
# while they merge) and with decoys on each real site's line that must not be chosen: a worse
# path match before it, a free site of the same file and line before it (the wrong kind), and
# an equally good path match after it (a tie goes to the first; placed before the index's last
# rebuild, which must keep the order). Each decoy reports other figures, so picking one changes
# the verdict notes, which must stay those of expected.txt.
source "$(dirname "$0")/testlib.bash"
CASE="$ROOT/tests/join/gm001"

mkdir -p "$WORK/gm001"
cp "$CASE/pipeline.cu" "$WORK/gm001/"
"$PY" - "$CASE/run.json" "$WORK/run.json" <<'PY' || fail "could not write the padded telemetry"
import copy, json, sys
d = json.load(open(sys.argv[1]))
real = d["sites"]
def decoy(s, path, **changes):
    c = copy.deepcopy(s)
    c["file"] = path
    c.update(calls=s.get("calls", 0) + 1000, live_bytes=0, live_count=0, frees={"cudaFree": 1},
             step_live_bytes=[])
    c.update(changes)
    return c
before = [decoy(s, "/decoy/pipeline.cu") for s in real]
before += [decoy(s, s["file"], api="cudaFree", kind="free", free_calls=9) for s in real]
filler = [{"file": f"/filler/part{i % 50}.cu", "line": 1 + i // 50 % 600, "api": "cudaMalloc",
           "kind": "alloc", "calls": 7, "peak_live_bytes": 4096, "live_bytes": 0, "live_count": 0,
           "frees": {"cudaFree": 7}} for i in range(30000)]
after = [decoy(s, "/late/gm001/pipeline.cu") for s in real]
d["sites"] = before + filler[:15000] + real + after + filler[15000:]
d["process"]["timeline"] = []
json.dump(d, open(sys.argv[2], "w"))
PY
cp "$CASE/crashed.json" "$WORK/"
rc=0
(cd "$WORK" && "$GMEMLINT" --telemetry run.json --telemetry crashed.json gm001/pipeline.cu) \
  >"$WORK/out" 2>"$WORK/err" || rc=$?
expect_rc 1 "padded telemetry: findings remain"
[ ! -s "$WORK/err" ] || fail "padded telemetry: stderr: $(head -c 400 "$WORK/err")"
grep -E 'note: (confirmed|dismissed|not-exercised|unverifiable): ' "$WORK/out" >"$WORK/got" || true
sed 's|^pipeline\.cu:|gm001/pipeline.cu:|' "$CASE/expected.txt" >"$WORK/want"
diff -u "$WORK/want" "$WORK/got" >"$WORK/diff" ||
  fail "padded telemetry: verdicts differ from expected.txt: $(cat "$WORK/diff")"
finish
