# With -p and a compile database: files with no entry are counted once in text (one line per
# kind, with a count and an example; a single file is named), listed one notice each in JSON and
# SARIF; the hint for a header not found says the database's flags lack its directory, never
# "-p build/" again. Warm output is cold output. The pre-commit hook refuses exit 3 with a
# message about flags, and takes --allow-parse-errors.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
mkdir -p src inc build
printf '#define SCALE 4\n' >inc/scale.h
for f in a b c d e; do
  printf '#include "scale.h"\n#include <cuda_runtime.h>\nint %s_setup(int n) {\n  float *p = nullptr;\n  cudaMalloc(&p, n * SCALE);\n  cudaFree(p);\n  return 0;\n}\n' $f >src/$f.cu
done
# a.cu has an entry with -I ../inc; c.cu has one without it; b, d and e have none
cat >build/compile_commands.json <<JSON
[
  {"directory": "$WORK/build", "command": "nvcc -I../inc -c ../src/a.cu -o a.o", "file": "../src/a.cu"},
  {"directory": "$WORK/build", "command": "nvcc -c ../src/c.cu -o c.o", "file": "../src/c.cu"}
]
JSON

run --no-cache -p build src/a.cu src/b.cu src/d.cu src/e.cu
expect_rc 0 "similar entries give the include path: clean"
cat >expected.err <<'TXT'
gmemlint: warning: 3 files have no entry in compile_commands.json; used the flags of a similar entry (e.g. src/b.cu)
TXT
diff expected.err "$WORK/err" >/dev/null || fail "one line for three files: $(diff expected.err "$WORK/err")"

run --no-cache -p build src/b.cu
expect_rc 0 "one file with no entry"
[ "$(cat "$WORK/err")" = "gmemlint: warning: src/b.cu: no entry in compile_commands.json; using the flags of a similar entry" ] ||
  fail "a single file is named: $(cat "$WORK/err")"

run --no-cache -p build src/a.cu src/b.cu src/c.cu src/d.cu src/e.cu
expect_rc 3 "c.cu's entry lacks the include directory"
cat >expected.err <<'TXT'
gmemlint: warning: src/c.cu: 2 parse error(s); findings may be incomplete; its only function, 'c_setup', holds an error, analysed with what clang could type
src/c.cu:1:10: note: clang: 'scale.h' file not found
src/c.cu:5:22: note: clang: use of undeclared identifier 'SCALE'
gmemlint: warning: 3 files have no entry in compile_commands.json; used the flags of a similar entry (e.g. src/b.cu)
gmemlint: warning: 1 of 5 files had parse errors; the first: src/c.cu:1:10: 'scale.h' file not found; 1 function holds an error, analysed with what clang could type
gmemlint: note: 'scale.h' was not found: the compile database's flags for src/c.cu lack its directory (add it with -- -I DIR)
TXT
diff expected.err "$WORK/err" >/dev/null || fail "with -p, stderr in full: $(diff expected.err "$WORK/err")"
! grep -q -- "-p build/" "$WORK/err" || fail "-p is not suggested to a run that uses it"

run --no-cache -p build src/c.cu -- -Iinc
expect_rc 0 "the directory given after --"

# default flags: an empty database has no entry like any file
cp src/c.cu src/lone.cu
echo '[]' >build/compile_commands.json
run --no-cache -p build src/lone.cu src/b.cu
expect_rc 3 "default flags lack the include directory"
cat >expected.tail <<'TXT'
gmemlint: warning: 2 files have no entry in compile_commands.json; used default flags (e.g. src/lone.cu)
gmemlint: warning: 2 of 2 files had parse errors; the first: src/lone.cu:1:10: 'scale.h' file not found; 2 functions hold errors, analysed with what clang could type
gmemlint: note: 'scale.h' was not found: src/lone.cu has no entry in the compile database and the default flags lack its directory (add it with -- -I DIR)
TXT
tail -3 "$WORK/err" | diff expected.tail - >/dev/null || fail "default flags, counted once: $(tail -3 "$WORK/err")"
run --no-cache -p build --format=json src/b.cu
"$PY" - "$WORK/out" <<'PY' || fail "JSON: a compdb-default-flags notice"
import json, sys
n = json.load(open(sys.argv[1]))["notices"]
assert [(x["kind"], x["file"], x["message"]) for x in n] == [
    ("compdb-default-flags", "src/b.cu", "no entry in compile_commands.json; using default flags"),
    ("parse-errors", "src/b.cu", "2 parse error(s); findings may be incomplete; the first: src/b.cu:1:10: 'scale.h' file not found; its only function, 'b_setup', holds an error, analysed with what clang could type")], n
PY
# a similar entry's flags that lack it
printf '[{"directory": "%s", "command": "nvcc -c ../src/a.cu", "file": "../src/a.cu"}]\n' "$WORK/build" >build/compile_commands.json
run --no-cache -p build src/lone.cu
expect_err "^gmemlint: note: 'scale.h' was not found: src/lone.cu has no entry in the compile database and the flags of a similar entry lack its directory \(add it with -- -I DIR\)$" "the hint for a similar entry's flags"
cat >build/compile_commands.json <<JSON
[
  {"directory": "$WORK/build", "command": "nvcc -I../inc -c ../src/a.cu -o a.o", "file": "../src/a.cu"},
  {"directory": "$WORK/build", "command": "nvcc -c ../src/c.cu -o c.o", "file": "../src/c.cu"}
]
JSON

# ---- JSON and SARIF list every file ----
ALL="src/a.cu src/b.cu src/c.cu src/d.cu src/e.cu"
run --no-cache -p build --format=json $ALL
expect_rc 3 "JSON with -p"
"$PY" - "$WORK/out" <<'PY' || fail "JSON compdb notices"
import json, sys
n = json.load(open(sys.argv[1]))["notices"]
similar = "no entry in compile_commands.json; using the flags of a similar entry"
assert [(x["kind"], x["file"], x["line"], x["column"], x["function"], x["message"]) for x in n if x["kind"] != "parse-errors"] == [
    ("compdb-similar-entry", f, 0, 0, "", similar) for f in ("src/b.cu", "src/d.cu", "src/e.cu")], n
assert [(x["file"], x["errors"]) for x in n if x["kind"] == "parse-errors"] == [("src/c.cu", 2)], n
PY
run --no-cache -p build --format=sarif $ALL
"$PY" - "$WORK/out" "$ROOT/../shared/sarif-schema-2.1.0.json" <<'PY' || fail "SARIF compdb notifications"
import json, sys, os
doc = json.load(open(sys.argv[1]))
if os.path.exists(sys.argv[2]):
    import jsonschema
    jsonschema.validate(doc, json.load(open(sys.argv[2])))
notes = doc["runs"][0]["invocations"][0]["toolExecutionNotifications"]
got = [(n["descriptor"]["id"], n["level"], n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])
       for n in notes]
assert got == [("compdb-similar-entry", "warning", "src/b.cu"), ("parse-errors", "warning", "src/c.cu"),
               ("compdb-similar-entry", "warning", "src/d.cu"), ("compdb-similar-entry", "warning", "src/e.cu")], got
assert "region" not in notes[0]["locations"][0]["physicalLocation"], notes[0]
PY

# ---- warm is cold ----
for fmt in text json sarif; do
  "$GMEMLINT" --no-cache -p build --format=$fmt $ALL >cold.$fmt 2>cold.$fmt.err || true
  run --cache-dir="$WORK/cache" -p build --format=$fmt $ALL
  run --cache-dir="$WORK/cache" -p build --format=$fmt $ALL
  cmp -s cold.$fmt "$WORK/out" || fail "$fmt: stdout differs warm: $(diff cold.$fmt "$WORK/out" | head)"
  cmp -s cold.$fmt.err "$WORK/err" || fail "$fmt: stderr differs warm: $(diff cold.$fmt.err "$WORK/err" | head)"
done
run --cache-dir="$WORK/cache" --cache-stats -p build $ALL
expect_err "4 hit\(s\), 1 miss\(es\)" "four files from the cache"

# ---- the pre-commit hook: exit 3 refuses the commit, saying why ----
git init -q repo
git -C repo config user.email t@example.com
git -C repo config user.name t
cp src/c.cu repo/c.cu
(cd repo && "$GMEMLINT" --install-hook --no-cache >/dev/null)
git -C repo add c.cu
crc=0
git -C repo commit -q -m c >commit.out 2>&1 || crc=$?
[ "$crc" -ne 0 ] || fail "the hook refuses a file with parse errors (status $crc): $(cat commit.out)"
grep -q "^gmemlint: commit refused (exit 3): files had parse errors, so findings may be missing; give the build's flags (-p build), install the hook again with --allow-parse-errors, or commit with --no-verify$" commit.out ||
  fail "the hook says why: $(cat commit.out)"
grep -q "^gmemlint: warning: 1 of 1 file had parse errors; the first: c.cu:1:10: 'scale.h' file not found; 1 function holds an error, analysed with what clang could type$" commit.out ||
  fail "the hook shows the summary: $(cat commit.out)"
(cd repo && "$GMEMLINT" --install-hook --no-cache --allow-parse-errors >/dev/null)
crc=0
git -C repo commit -q -m c >commit.out 2>&1 || crc=$?
[ "$crc" -eq 0 ] || fail "--allow-parse-errors in the hook accepts it (status $crc): $(cat commit.out)"
finish
