#!/usr/bin/env bash
# Generated code: 8000 namespaces, each with a function f that leaks eight buffers on one line,
# written in three shapes: two that differ only in whitespace (one fingerprint hash) and one that
# names its buffers otherwise (a second hash). A fingerprint is the hash and the finding's ordinal
# among those of equal hash; each finding counted the earlier ones by scanning every earlier hash:
# N^2 compares, 0.7 s of the unit stage (where findings are settled) for these 64000 findings.
# Now the hashes are sorted once with their places: 0.07 s. Every finding is checked in full, its
# fingerprint included: the hashes are those --baseline files already hold, and the ordinals run
# 1, 2, ... in the report's order.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
count=8000
leaks() { # a function that leaks buffers $2 .. $9; $1: a blank between some tokens, or none
  local s=$1 line="void f(int n) {${1}float *$2" v
  for v in "${@:3}"; do line+=",$s*$v"; done
  line+=";"
  for v in "${@:2}"; do line+=" cudaMalloc(&$v,${s}n);"; done
  echo "$line$s}"
}
shapes=("$(leaks ' ' a b c d e g h k)" "$(leaks '' a b c d e g h k)" "$(leaks ' ' p q r s t u v w)")
{
  echo '#include <cuda_runtime.h>'
  for ((i = 0; i < count; i++)); do
    echo "namespace n$i {"
    echo "${shapes[i % 3]}"
    echo '}'
  done
} >many.cu
run_capped 60 --no-cache -j 1 --time-report --format=json many.cu
expect_rc 1 "$((8 * count)) findings"
cat >check.py <<'PYCHECK'
import json, re, sys
count, shapes = int(sys.argv[1]), sys.argv[2:]
hashes = {"a": "4557df8d2ddfda72", "p": "4267ad855b11b44c"}  # GM001, 'f', the line's non-blanks
ordinal = {"a": 0, "p": 0}
findings = json.load(sys.stdin)["findings"]
if len(findings) != 8 * count:
    sys.exit(f"{len(findings)} findings, expected {8 * count}")
for i, got in enumerate(findings):
    shape = shapes[i // 8 % 3]
    names = re.findall(r"cudaMalloc\(&(\w)", shape)
    var, group = names[i % 8], names[0]
    ordinal[group] += 1
    line = 3 * (i // 8) + 3
    want = {
        "rule": "GM001", "name": "unpaired-allocation", "severity": "warning", "file": "many.cu",
        "line": line, "column": shape.index(f"cudaMalloc(&{var}") + 1, "function": "f",
        "message": f"'{var}' (device memory from cudaMalloc) is not freed on every path through "
                   "'f'; call cudaFree when it is no longer needed",
        "related": [{"file": "many.cu", "line": line, "column": shape.rindex("}") + 1,
                     "message": f"'f' ends here without freeing '{var}'"}],
        "path": "normal", "fingerprint": f"{hashes[group]}:{ordinal[group]}",
    }
    if got != want:
        sys.exit(f"finding {i}: {json.dumps(got)}\n  expected {json.dumps(want)}")
PYCHECK
check=$("$PY" check.py "$count" "${shapes[@]}" <"$WORK/out" 2>&1) ||
  fail "every finding with its note and fingerprint: $(head -c 900 <<<"$check")"
expect_stage_under "unit summary" 0.6
finish
