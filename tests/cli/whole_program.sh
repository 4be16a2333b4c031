# Whole-program analysis from the command line: a finding in one file with its related locations
# in another (text notes, SARIF relatedLocations into both files); the result cache keeps each
# file's summary, so an edit re-parses only that file and the join still sees the others; a file
# that does not parse leaves the others' program-wide findings intact (exit 2 as for any input
# error).
source "$(dirname "$0")/testlib.bash"
CASE=$ROOT/tests/program/helper_allocates_called_in_loop
cp "$CASE"/*.cu "$CASE"/*.cuh "$WORK"/
cd "$WORK"

run --no-cache batch.cu train.cu
expect_rc 1 "cross-file GM010"
expect_out '^batch.cu:13:3: warning: cudaMalloc in .process_batch. runs on every call, and .process_batch. is called in a loop in train.cu' "GM010 at the allocation"
expect_out "^train.cu:10:5: note: 'process_batch' is called in a loop here, in 'main'" "note at the call, in the other file"
expect_out '^train.cu:9:3: note: the loop' "note at the loop"

run --no-cache batch.cu
expect_rc 0 "the helper's file alone: no loop calls it"

run --no-cache --format=sarif batch.cu train.cu
"$PY" - "$WORK/out" <<'PY' || fail "SARIF: the finding in batch.cu, related locations in train.cu"
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
res = [r for r in run["results"] if r["ruleId"] == "GM010"]
assert len(res) == 1, res
loc = res[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
rel = [r["physicalLocation"]["artifactLocation"]["uri"] for r in res[0]["relatedLocations"]]
assert loc.endswith("batch.cu"), loc
assert rel and all(u.endswith("train.cu") for u in rel), rel
PY

# the cache: cold, warm, then one file edited
mkdir cache
run --cache-dir=cache --cache-stats batch.cu train.cu
expect_err 'cache: 0 hit\(s\), 2 miss\(es\), 2 stored' "cold run stores both files"
cp out cold.txt
run --cache-dir=cache --cache-stats batch.cu train.cu
expect_err 'cache: 2 hit\(s\), 0 miss\(es\)' "warm run parses nothing"
cmp -s out cold.txt || fail "warm run prints what the cold run printed"
sed -i 's/const int n = 1 << 20, steps = 100;/const int n = 1 << 21, steps = 100;/' train.cu
run --cache-dir=cache --cache-stats batch.cu train.cu
expect_err 'cache: 1 hit\(s\), 1 miss\(es\), 1 stored' "after an edit only that file is parsed"
expect_out 'is called in a loop in train.cu' "the join still sees the cached file's summary"

# pass two (a file that calls another file's releasing helper is analysed again with its
# summary) is cached too: cold, each file is parsed once (the model is kept for pass two);
# warm, nothing is parsed
mkdir pass2 cache2
cp "$ROOT"/tests/program/helpers_release_in_other_file/*.cu* pass2/
run --cache-dir=cache2 --cache-stats pass2/buffers.cu pass2/main.cu
expect_rc 1 "pass two: findings"
expect_out "main.cu:13:3: warning: 'weights' .* is freed twice: release already released it" "GM003 after another file's releasing helper"
expect_err 'cache: 0 hit\(s\), 2 miss\(es\), 3 stored' "cold: each file parsed once, main.cu analysed twice"
cp out pass2_cold.txt
run --cache-dir=cache2 --cache-stats pass2/buffers.cu pass2/main.cu
expect_err 'cache: 3 hit\(s\), 0 miss\(es\)' "warm: both passes from the cache"
cmp -s out pass2_cold.txt || fail "warm pass two prints what the cold one printed"
sed -i 's/void release(float \*buffer) { cudaFree(buffer); }/void release(float *buffer) { (void)buffer; }/' pass2/buffers.cu
run --cache-dir=cache2 --cache-stats pass2/buffers.cu pass2/main.cu
expect_no_out "freed twice" "a helper that no longer frees: its callers are judged again"

# a file that does not parse: the others still make their program, exit 2
printf 'int broken( {\n' >broken.cu
run --no-cache batch.cu train.cu broken.cu
expect_rc 2 "an unparsable file is an input error"
expect_out 'runs on every call, and .process_batch. is called in a loop' "the others' cross-file finding stays"
expect_err 'broken.cu' "the error names the file"
# the same through a compile database (every entry, no files named)
mkdir db
cat >db/compile_commands.json <<JSON
[
  {"directory": "$WORK", "arguments": ["/usr/local/cuda/bin/nvcc", "-c", "batch.cu"], "file": "batch.cu"},
  {"directory": "$WORK", "arguments": ["/usr/local/cuda/bin/nvcc", "-c", "train.cu"], "file": "train.cu"},
  {"directory": "$WORK", "arguments": ["/usr/local/cuda/bin/nvcc", "-c", "broken.cu"], "file": "broken.cu"}
]
JSON
run --no-cache -p db
expect_rc 2 "compile database with an unparsable entry"
expect_out 'runs on every call, and .process_batch. is called in a loop' "-p: the others' cross-file finding stays"
expect_err 'broken.cu' "-p: the error names the file"
finish
