# Parse errors in JSON and SARIF: one "parse-errors" notice per file (its file the analysed file;
# the count, the first error with its own location, whether anything was analysed), a SARIF
# toolExecutionNotifications entry (warning, or error when nothing was analysed) and
# executionSuccessful false; the SARIF validates against the 2.1.0 schema. The exit status is
# the same in every format. The result cache gives the same output warm as cold.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
mkdir -p inc
printf 'struct shape { undefined_t rows; };\n' >inc/shape.h
# a missing header, then a leak (GM001 at 6:3)
cat >header.cu <<'SRC'
#include "scale.h"
#include <cuda_runtime.h>
static int scale() { return SCALE; }
int setup(int n) {
  float *a = nullptr;
  cudaMalloc(&a, n);
  if (n > 3)
    return 2;
  cudaFree(a);
  return 0;
}
SRC
# its first error in a header
printf '#include "shape.h"\n' >in_header.cu
write_clean clean.cu
cat clean.cu >>in_header.cu
printf 'this is not C at all {{{ ]]\n' >garbage.cu
FILES="header.cu in_header.cu clean.cu"

run --no-cache --format=json $FILES -- -Iinc
expect_rc 3 "JSON: exit 3"
"$PY" - "$WORK/out" <<'PY' || fail "JSON parse-errors notices"
import json, sys
d = json.load(open(sys.argv[1]))
n = d["notices"]
assert n == [
    {"kind": "parse-errors", "file": "header.cu", "line": 1, "column": 10, "function": "",
     "message": "2 parse error(s); findings may be incomplete; the first: header.cu:1:10: 'scale.h' file not found; 1 of its 2 functions holds an error, analysed with what clang could type: 'scale'",
     "errors": 2,
     "first_error": {"file": "header.cu", "line": 1, "column": 10, "message": "'scale.h' file not found"},
     "analysed": True, "functions": 2, "functions_with_errors": ["scale"]},
    # the first error is in a header: the notice is the file's, with no line
    {"kind": "parse-errors", "file": "in_header.cu", "line": 0, "column": 0, "function": "",
     "message": "1 parse error(s); findings may be incomplete; the first: inc/shape.h:1:16: unknown type name 'undefined_t'; its only function holds none (the errors are outside it: what it uses may be missing)",
     "errors": 1,
     "first_error": {"file": "inc/shape.h", "line": 1, "column": 16, "message": "unknown type name 'undefined_t'"},
     "analysed": True, "functions": 1, "functions_with_errors": []},
], json.dumps(n, indent=1)
# what the run analysed and lost
assert d["summary"] == {"files": 3, "files_analysed": 3, "files_with_errors": 2,
                        "files_not_analysed": 0, "functions_with_errors": 1,
                        "analyses_cut_short": 0}, d["summary"]
assert [(f["file"], f["line"], f["rule"]) for f in d["findings"]] == [("header.cu", 6, "GM001")], d["findings"]
PY

run --no-cache --format=json garbage.cu clean.cu
expect_rc 2 "JSON: nothing analysed in garbage.cu"
"$PY" - "$WORK/out" <<'PY' || fail "JSON: a file with nothing analysed"
import json, sys
n = json.load(open(sys.argv[1]))["notices"]
assert n == [{"kind": "parse-errors", "file": "garbage.cu", "line": 1, "column": 1, "function": "",
              "message": "1 parse error(s) and no function could be analysed; the first: garbage.cu:1:1: expected unqualified-id",
              "errors": 1,
              "first_error": {"file": "garbage.cu", "line": 1, "column": 1, "message": "expected unqualified-id"},
              "analysed": False, "functions": 0, "functions_with_errors": []}], n
assert json.load(open(sys.argv[1]))["summary"] == {
    "files": 2, "files_analysed": 1, "files_with_errors": 0, "files_not_analysed": 1,
    "functions_with_errors": 0, "analyses_cut_short": 0}
PY

# an error with no place in any file (a flag clang refuses): named by the file alone, as in text
run --no-cache --format=json clean.cu -- --cuda-gpu-arch=sm_bogus
expect_rc 3 "JSON: a flag clang refuses"
"$PY" - "$WORK/out" <<'PY' || fail "JSON: an error with no location"
import json, sys
(n,) = json.load(open(sys.argv[1]))["notices"]
want = "1 parse error(s); findings may be incomplete; the first: clean.cu: unsupported CUDA gpu architecture: sm_bogus; the error is in the flags, not in a function"
assert n["message"] == want, n["message"]
assert (n["file"], n["line"], n["column"]) == ("clean.cu", 0, 0), n
PY

run --no-cache --format=json clean.cu
expect_rc 0 "JSON: clean"
"$PY" -c 'import json,sys; assert json.load(open(sys.argv[1]))["notices"] == []' "$WORK/out" ||
  fail "JSON: no notice for a clean file"
"$PY" -c 'import json,sys; s = json.load(open(sys.argv[1]))["summary"]; assert s == {"files": 1, "files_analysed": 1, "files_with_errors": 0, "files_not_analysed": 0, "functions_with_errors": 0, "analyses_cut_short": 0}, s' "$WORK/out" ||
  fail "JSON: the summary of a clean run"

SCHEMA="$ROOT/../shared/sarif-schema-2.1.0.json"
sarif_check() { # FILE EXPECTED_SUCCESS: the schema, executionSuccessful, then stdin's checks
  "$PY" - "$1" "$SCHEMA" "$2" <<PY
import json, sys, os
doc = json.load(open(sys.argv[1]))
if os.path.exists(sys.argv[2]):
    import jsonschema
    jsonschema.validate(doc, json.load(open(sys.argv[2])))
inv = doc["runs"][0]["invocations"][0]
assert inv["executionSuccessful"] is (sys.argv[3] == "true"), inv
notes = inv["toolExecutionNotifications"]
results = doc["runs"][0]["results"]
$(cat)
PY
}
run --no-cache --format=sarif $FILES garbage.cu -- -Iinc
expect_rc 2 "SARIF: exit 2 with garbage.cu"
sarif_check "$WORK/out" false <<'PY' || fail "SARIF notifications"
def where(n):
    pl = n["locations"][0]["physicalLocation"]
    return (pl["artifactLocation"]["uri"], pl.get("region"))
assert [(n["level"], n["descriptor"], where(n), n["properties"]) for n in notes] == [
    ("warning", {"id": "parse-errors"}, ("header.cu", {"startLine": 1, "startColumn": 10}),
     {"errors": 2, "functions": 2, "functionsWithErrors": ["scale"]}),
    ("warning", {"id": "parse-errors"}, ("in_header.cu", None),
     {"errors": 1, "functions": 1, "functionsWithErrors": []}),
    ("error", {"id": "parse-errors"}, ("garbage.cu", {"startLine": 1, "startColumn": 1}),
     {"errors": 1, "functions": 0, "functionsWithErrors": []}),
], json.dumps(notes, indent=1)
assert inv["properties"]["summary"] == {"files": 4, "files_analysed": 3, "files_with_errors": 2,
                                        "files_not_analysed": 1, "functions_with_errors": 1,
                                        "analyses_cut_short": 0}, inv["properties"]
assert notes[0]["message"]["text"] == "2 parse error(s); findings may be incomplete; the first: header.cu:1:10: 'scale.h' file not found; 1 of its 2 functions holds an error, analysed with what clang could type: 'scale'", notes[0]
assert notes[2]["message"]["text"] == "1 parse error(s) and no function could be analysed; the first: garbage.cu:1:1: expected unqualified-id", notes[2]
assert [r["ruleId"] for r in results] == ["GM001"], results
PY
run --no-cache --format=sarif header.cu clean.cu
expect_rc 3 "SARIF: exit 3"
sarif_check "$WORK/out" false <<'PY' || fail "SARIF: parsed in part is not a successful execution"
assert len(notes) == 1 and notes[0]["level"] == "warning", notes
PY
run --no-cache --allow-parse-errors --format=sarif header.cu clean.cu
expect_rc 1 "SARIF with --allow-parse-errors: the finding decides"
sarif_check "$WORK/out" false <<'PY' || fail "SARIF: --allow-parse-errors changes the status, not what is said"
assert len(notes) == 1 and notes[0]["descriptor"] == {"id": "parse-errors"}, notes
PY
run --no-cache --format=sarif clean.cu
expect_rc 0 "SARIF: clean"
sarif_check "$WORK/out" true <<'PY' || fail "SARIF: clean run"
assert notes == [] and results == [], (notes, results)
PY

# ---- the result cache: warm output is cold output, in every format and on stderr ----
for fmt in text json sarif; do
  "$GMEMLINT" --no-cache --format=$fmt $FILES >cold.$fmt 2>cold.$fmt.err && crc=0 || crc=$?
  run --cache-dir="$WORK/cache" --format=$fmt $FILES
  run --cache-dir="$WORK/cache" --format=$fmt $FILES
  [ "$rc" -eq "$crc" ] || fail "$fmt: warm exit $rc, cold $crc"
  cmp -s cold.$fmt "$WORK/out" || fail "$fmt: stdout differs warm: $(diff cold.$fmt "$WORK/out" | head)"
  cmp -s cold.$fmt.err "$WORK/err" || fail "$fmt: stderr differs warm: $(diff cold.$fmt.err "$WORK/err" | head)"
done
run --cache-dir="$WORK/cache" --cache-stats $FILES
expect_err "1 hit\(s\), 2 miss\(es\)" "the clean file hit, the files with parse errors are parsed again"
finish
