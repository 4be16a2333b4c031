# Out-of-memory verdicts are gmemlint's, judged from the figures the runtime records
# (analyzer/runtime_view/oom_verdict.c): `gmemlint report` names each event's verdict, one per
# way to reach it, for a version 2 file (no verdict written); a version 1 file's own verdict
# stands only where a figure it needs is missing; the reader rejects what it cannot judge.
source "$(dirname "$0")/testlib.bash"
JOIN="$ROOT/tests/join"

# the OOM section of the last report, without the lines around it
oom_lines() { sed -n '/^Out-of-memory events:/,/^$/p' "$WORK/out" | grep '^  ' | cut -d' ' -f3-4; }

run report "$JOIN/oom_verdicts/run.json"
expect_rc 0 "report, version 2"
got=$(oom_lines | tr '\n' ';')
[ "$got" = "fragmentation: batches.cu:8;fragmentation: batches.cu:14;fragmentation: batches.cu:20;capacity: batches.cu:26;transient: batches.cu:32;unknown: batches.cu:38;unknown: batches.cu:44;" ] ||
  fail "version 2 verdicts: $got"

# the largest block at the request's size is large enough; one byte less is not (both with free
# memory covering the request and with free memory short of it)
run report "$JOIN/oom_largest_block/run.json"
expect_rc 0 "report, largest block at the request"
got=$(oom_lines | tr '\n' ';')
[ "$got" = "transient: probe.cu:13;fragmentation: probe.cu:19;capacity: probe.cu:25;fragmentation: probe.cu:31;" ] ||
  fail "largest block at the request: $got"

run report "$JOIN/oom_old_file/run.json"
expect_rc 0 "report, version 1"
got=$(oom_lines | tr '\n' ';')
[ "$got" = "fragmentation: resize.cu:10;capacity: resize.cu:19;fragmentation: resize.cu:27;" ] || fail "version 1 verdicts: $got"

# a version 2 event without the held figure cannot be judged; a version 1 verdict must be one
# of the four names
bad_event() { # name, version, event JSON, expected message (ERE)
  printf '{"version": %s, "tool": "gmemrt", "process": {"peak_live_bytes": 0, "live_bytes": 0, "oom_events": [%s]}, "sites": []}\n' "$2" "$3" >"$WORK/$1.json"
  run report "$WORK/$1.json"
  expect_rc 2 "$1"
  grep -qE -- "$4" "$WORK/err" || fail "$1: stderr: $(cat "$WORK/err")"
}
bad_event noheld 2 '{"requested_bytes": 1, "free_bytes": 0, "total_bytes": 8}' \
  '^gmemlint: error: .*noheld\.json: process\.oom_events\[0\]: missing "held_unused_bytes" \(its verdict is judged from it\)$'
bad_event badverdict 1 '{"requested_bytes": 1, "free_bytes": 0, "total_bytes": 8, "verdict": "full"}' \
  '^gmemlint: error: .*badverdict\.json: process\.oom_events\[0\]\.verdict: expected "fragmentation", "capacity", "transient" or "unknown", found "full"$'
# versions before the first one are as unknown as those after the last
printf '{"version": 0, "tool": "gmemrt", "process": {"peak_live_bytes": 0, "live_bytes": 0}, "sites": []}\n' >"$WORK/v0.json"
run report "$WORK/v0.json"
expect_rc 2 "version 0"
grep -qE -- '^gmemlint: error: .*v0\.json: telemetry version 0 is not supported \(this gmemlint reads versions 1 to 2\)' "$WORK/err" ||
  fail "version 0: stderr: $(cat "$WORK/err")"
finish
