# Text, JSON and SARIF carry the same findings; SARIF validates against the official 2.1.0 schema
# and its fingerprints survive unrelated edits.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
write_leak leak.cu
cat >mismatch.cu <<'SRC'
#include <cuda_runtime.h>
void stage(int n) {
  float *h = nullptr;
  if (cudaMallocHost(&h, n) != cudaSuccess)
    return;
  cudaFree(h);
}
SRC

run leak.cu mismatch.cu
expect_rc 1 "findings give exit 1"
# write_leak's leak is on an error path: text still says warning (editors show those), the
# message says so; JSON and SARIF give it severity/level note
expect_out "^leak.cu:4:7: warning: 'a' \(device memory from cudaMalloc\) is not freed on an error path: a return after a failed call.* \[GM001 unpaired-allocation\]$" "GCC-style text line"
expect_out "^  if \(cudaMalloc\(&a, n\) != cudaSuccess\)$" "source line shown"
expect_out "^      \^$" "caret under the call"
expect_out "^leak.cu:7:5: note: this return after a failed call leaves without freeing 'a'$" "note at the return"
expect_out "^mismatch.cu:6:3: warning: .*released with cudaFree.*use cudaFreeHost \[GM002 mismatched-free\]$" "GM002 text"
expect_out "^mismatch.cu:4:7: note: allocated here with cudaMallocHost$" "GM002 note"
expect_no_out $'\033' "no colour when not a terminal"

run --color=always leak.cu
expect_out $'\033\\[1;35mwarning' "colour on request"
# on a terminal colour is on, and NO_COLOR turns it off
script -qec "$GMEMLINT leak.cu" /dev/null >"$WORK/tty" 2>&1 || true
grep -q $'\033' "$WORK/tty" || fail "colour on a terminal"
NO_COLOR=1 script -qec "$GMEMLINT leak.cu" /dev/null >"$WORK/tty" 2>&1 || true
! grep -q $'\033\[1;35m' "$WORK/tty" || fail "NO_COLOR turns colour off"

run --werror leak.cu
expect_rc 1 "--werror"
expect_out "^leak.cu:4:7: error: " "--werror prints errors"

write_clean clean.cu
run clean.cu
expect_rc 0 "clean file"
[ ! -s "$WORK/out" ] || fail "clean file printed output"

run --format=json leak.cu mismatch.cu
expect_rc 1 "json exit"
"$PY" - "$WORK/out" <<'PY' || fail "JSON structure"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["version"] == 1 and d["tool"] == "gmemlint", d
f = d["findings"]
assert [x["rule"] for x in f] == ["GM001", "GM002"], f
a = f[0]
for key in ("rule", "name", "severity", "file", "line", "column", "function", "message", "related"):
    assert key in a, key
assert (a["file"], a["line"], a["column"], a["function"], a["name"], a["severity"], a["path"]) == ("leak.cu", 4, 7, "setup", "unpaired-allocation", "note", "error"), a
assert a["related"] == [{"file": "leak.cu", "line": 7, "column": 5, "message": "this return after a failed call leaves without freeing 'a'"}], a["related"]
b = f[1]
assert (b["line"], b["column"], b["severity"]) == (6, 3, "warning") and b["related"][0]["line"] == 4, b
assert "path" not in b, b  # not a leak
PY

run --format=sarif -o result.sarif leak.cu mismatch.cu
expect_rc 1 "sarif exit"
[ -s result.sarif ] || fail "-o wrote nothing"
[ ! -s "$WORK/out" ] || fail "-o still printed to stdout"
"$PY" - result.sarif "$ROOT/../shared/sarif-schema-2.1.0.json" <<'PY' || fail "SARIF schema and GitHub requirements"
import json, sys, os
doc = json.load(open(sys.argv[1]))
schema_path = sys.argv[2]
if os.path.exists(schema_path):
    import jsonschema
    jsonschema.validate(doc, json.load(open(schema_path)))
else:
    print("note: SARIF schema not found beside the repo; structure checks only")
run = doc["runs"][0]
drv = run["tool"]["driver"]
assert drv["name"] == "gmemlint" and drv["version"]
ids = [r["id"] for r in drv["rules"]]
assert ids[:3] == ["GM001", "GM002", "GM003"], ids
for r in drv["rules"]:
    for k in ("shortDescription", "fullDescription", "help"):
        assert r[k]["text"].strip(), (r["id"], k)
    # GM005 and the runtime's notes (GM140, GM151, GM153) are notes by default; every other
    # rule warns
    notes = {"GM005", "GM140", "GM151", "GM153"}
    assert r["defaultConfiguration"]["level"] == ("note" if r["id"] in notes else "warning"), r
    assert r["defaultConfiguration"].get("enabled", True) == (r["id"] not in ("GM004", "GM005")), r
res = run["results"]
assert [r["ruleId"] for r in res] == ["GM001", "GM002"]
assert [r["level"] for r in res] == ["note", "warning"], res  # an error-path leak is a note
assert res[0]["properties"]["path"] == "error" and "properties" not in res[1], res
loc = res[0]["locations"][0]["physicalLocation"]
assert loc["artifactLocation"]["uri"] == "leak.cu" and loc["artifactLocation"]["uriBaseId"] == "SRCROOT"
assert loc["region"] == {"startLine": 4, "startColumn": 7}
assert res[0]["relatedLocations"][0]["physicalLocation"]["region"]["startLine"] == 7
for r in res:
    assert r["message"]["text"].strip() and r["partialFingerprints"]["primaryLocationLineHash"]
PY

# a leak on the normal path stays a warning everywhere; --werror makes every finding an error
cat >normal.cu <<'SRC'
#include <cuda_runtime.h>
int setup(int n, int early) {
  float *a = nullptr;
  if (cudaMalloc(&a, n) != cudaSuccess)
    return -1;
  if (early)
    return 1;
  cudaFree(a);
  return 0;
}
SRC
run normal.cu
expect_out "^normal.cu:4:7: warning: 'a' \(device memory from cudaMalloc\) is not freed on every path: a return leaves 'setup'" "normal-path leak text"
run --format=json normal.cu leak.cu
"$PY" -c '
import json, sys
f = json.load(open(sys.argv[1]))["findings"]
assert [(x["file"], x["severity"], x["path"]) for x in f] == [("normal.cu", "warning", "normal"), ("leak.cu", "note", "error")], f' "$WORK/out" || fail "JSON severity and path by path kind"
run --format=sarif --werror normal.cu leak.cu
"$PY" -c '
import json, sys
res = json.load(open(sys.argv[1]))["runs"][0]["results"]
assert [r["level"] for r in res] == ["error", "error"], res' "$WORK/out" || fail "--werror: every SARIF level is error"
run --format=json --werror leak.cu
"$PY" -c '
import json, sys
f = json.load(open(sys.argv[1]))["findings"]
assert [(x["severity"], x["path"]) for x in f] == [("error", "error")], f' "$WORK/out" || fail "--werror: JSON severity error, path kept"

# fingerprints: inserting unrelated lines above keeps them; the SARIF root makes URIs relative
fp() { "$PY" -c "import json,sys; print([r['partialFingerprints']['primaryLocationLineHash'] for r in json.load(open(sys.argv[1]))['runs'][0]['results']])" "$1"; }
before=$(fp result.sarif)
{ echo '// a new comment'; echo '#include <stdio.h>'; echo; cat leak.cu; } >moved.cu && mv moved.cu leak.cu
{ echo '// another'; cat mismatch.cu; } >moved.cu && mv moved.cu mismatch.cu
run --format=sarif -o result2.sarif leak.cu mismatch.cu
after=$(fp result2.sarif)
[ "$before" = "$after" ] || fail "fingerprints changed when unrelated lines moved: $before vs $after"
mkdir -p sub && cp leak.cu sub/
run --format=sarif --sarif-root="$WORK" sub/leak.cu
"$PY" -c "import json,sys; u=json.load(open(sys.argv[1]))['runs'][0]['results'][0]['locations'][0]['physicalLocation']['artifactLocation']['uri']; assert u=='sub/leak.cu', u" "$WORK/out" || fail "--sarif-root relative URI"
finish
