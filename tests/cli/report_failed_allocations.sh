# gmemlint report of runs whose allocations failed (tests/join/failed_allocations/run.json, and
# one where every allocation failed): a failed allocation made nothing to free, so the report
# says how many failed and with which error rather than "everything allocated was freed"; the
# HTML page says it beside the site; the reader checks "failures" as strictly as "frees".
source "$(dirname "$0")/testlib.bash"
RUN="$ROOT/tests/join/failed_allocations/run.json"

# expect_lines FILE LINE...: each LINE is a whole line of FILE
expect_lines() {
  local file=$1
  shift
  for want in "$@"; do
    grep -qxF -- "$want" "$file" || fail "no line '$want' in: $(cat "$file")"
  done
}

# 1. some failed, the ones that succeeded were freed
run report "$RUN"
expect_rc 0 "report"
expect_lines "$WORK/out" \
  "Top sites by live bytes at the end:" \
  '  none: every allocation that succeeded was freed (10 of 21 failed; see "Failed allocations")' \
  "Failed allocations: 10 of 21" \
  "  loader.cu:7 cudaMalloc: 3 of 3 allocations from this site failed (cudaErrorMemoryAllocation)" \
  "  loader.cu:29 cudaMalloc: 3 of 4 allocations from this site failed (cudaErrorMemoryAllocation 2, cudaErrorInvalidValue 1)" \
  "  loader.cu:18 cudaMalloc: 2 of 7 allocations from this site failed (cudaErrorMemoryAllocation)" \
  "  loader.cu:37 cudaMalloc: 2 of 2 allocations from this site failed (cudaErrorNoDevice)"
expect_no_out "everything allocated was freed" "report with failures"
[ "$(grep -c '^  loader.cu:.* from this site failed' "$WORK/out")" -eq 4 ] || fail "4 failing sites listed"

# 2. every allocation failed (no GPU): nothing succeeded, so nothing was freed either
"$PY" - "$RUN" "$WORK/none.json" <<'PY' || fail "could not write the all-failed telemetry"
import json, sys
d = json.load(open(sys.argv[1]))
d["sites"] = [s for s in d["sites"] if s["line"] == 37]
d["process"]["peak_live_bytes"] = 0
json.dump(d, open(sys.argv[2], "w"))
PY
run report "$WORK/none.json"
expect_rc 0 "report, all failed"
expect_lines "$WORK/out" \
  '  none: no allocation succeeded (2 of 2 failed; see "Failed allocations")' \
  "Failed allocations: 2 of 2" \
  "  loader.cu:37 cudaMalloc: 2 of 2 allocations from this site failed (cudaErrorNoDevice)"
expect_no_out "everything allocated was freed" "report, all failed"

# 3. nothing failed: everything allocated was freed, as before
"$PY" - "$RUN" "$WORK/clean.json" <<'PY' || fail "could not write the clean telemetry"
import json, sys
d = json.load(open(sys.argv[1]))
d["sites"] = [s for s in d["sites"] if s["calls"]]
for s in d["sites"]:
    s["failed_calls"], s["failures"] = 0, {}
json.dump(d, open(sys.argv[2], "w"))
PY
run report "$WORK/clean.json"
expect_lines "$WORK/out" "  none: everything allocated was freed" "Failed allocations: 0 of 11"

# 4. the HTML page says it beside each site that failed
run report --html "$WORK/page.html" "$RUN"
expect_rc 0 "report --html"
for want in '<div class="failed">3 of 3 allocations from this site failed (cudaErrorMemoryAllocation)</div>' \
  '<div class="failed">2 of 2 allocations from this site failed (cudaErrorNoDevice)</div>'; do
  grep -qF -- "$want" "$WORK/page.html" || fail "the page lacks $want"
done
[ "$(grep -o '<div class="failed">' "$WORK/page.html" | wc -l)" -eq 4 ] || fail "4 failing sites on the page"

# 5. a malformed "failures" is refused with the file and field, as "frees" is
"$PY" - "$RUN" "$WORK/bad.json" <<'PY' || fail "could not write the malformed telemetry"
import json, sys
d = json.load(open(sys.argv[1]))
d["sites"][0]["failures"] = {"cudaErrorMemoryAllocation": -3}
json.dump(d, open(sys.argv[2], "w"))
PY
run report "$WORK/bad.json"
expect_rc 2 "malformed failures"
expect_err "^gmemlint: error: $WORK/bad.json: sites\[0\]\.failures\.cudaErrorMemoryAllocation: expected a non-negative integer, found a negative integer$" "malformed failures"
finish
