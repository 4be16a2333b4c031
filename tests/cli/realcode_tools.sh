#!/usr/bin/env bash
# bench/realcode's two helpers on inputs written here: make_db.py turns a Make dry run into a
# compile database (directories from make -w, continued lines, `cd DIR &&`, nvcc's
# compile-and-link commands, one entry a file), and count.py counts a run's parse errors from
# standard error (any binary) or from JSON "parse-errors" notices (when a run has them); and
# run.sh's choice of projects by their half of the split (--list --half=...), which rejects a row
# that names no half.
source "$(dirname "$0")/testlib.bash" "$@"
tools=$ROOT/bench/realcode

# ---- make_db.py ----
cat >"$WORK/dryrun.txt" <<'EOF'
make: Entering directory '/p'
nvcc -O3 -Iinc -c a.cu -o a.o
make[1]: Entering directory '/p/sub'
/usr/local/cuda/bin/nvcc -DX=1 \
    -Iinc b.cu c.cpp -o app
cd lib && gcc -c d.c -o d.o
echo nvcc e.cu
make[1]: Leaving directory '/p/sub'
g++ -c a.cu -o again.o
make: Leaving directory '/p'
EOF
"$PY" "$tools/make_db.py" /p <"$WORK/dryrun.txt" >"$WORK/db.json" || fail "make_db.py exited $?"
"$PY" - "$WORK/db.json" <<'EOF' || fail "make_db.py: the database above is not the one expected"
import json, sys
got = json.load(open(sys.argv[1]))
want = [
    {"directory": "/p", "arguments": ["nvcc", "-O3", "-Iinc", "-c", "a.cu", "-o", "a.o"], "file": "/p/a.cu"},
    {"directory": "/p/sub", "arguments": ["/usr/local/cuda/bin/nvcc", "-DX=1", "-Iinc", "b.cu", "c.cpp", "-o", "app"], "file": "/p/sub/b.cu"},
    {"directory": "/p/sub", "arguments": ["/usr/local/cuda/bin/nvcc", "-DX=1", "-Iinc", "b.cu", "c.cpp", "-o", "app"], "file": "/p/sub/c.cpp"},
    {"directory": "/p/sub/lib", "arguments": ["gcc", "-c", "d.c", "-o", "d.o"], "file": "/p/sub/lib/d.c"},
]
if got != want:
    print(json.dumps(got, indent=1), file=sys.stderr)
    sys.exit(1)
EOF

# ---- count.py from standard error ----
mkdir -p "$WORK/src"
src=$WORK/src
printf '__global__ void k() {}\nvoid f() {\n  k << < 1, 1 >> > ();\n}\n' >"$src/launch.cu"
printf '#include "x.h"\n' >"$src/header.cu"
printf 'void g() {}\n' >"$src/clean.cu"
cat >"$WORK/db2.json" <<EOF
[{"directory": "$src", "command": "nvcc -c launch.cu", "file": "launch.cu"},
 {"directory": "$src", "command": "nvcc -c header.cu", "file": "header.cu"},
 {"directory": "$src", "command": "nvcc -c clean.cu", "file": "clean.cu"},
 {"directory": "$src", "command": "nvcc -c clean.cu -DAGAIN", "file": "clean.cu"},
 {"directory": "$src", "command": "nvcc -c generated.cu", "file": "generated.cu"}]
EOF
cat >"$WORK/run.err" <<EOF
$src/launch.cu:3:9: note: clang: expected expression
$src/launch.cu:3:20: note: clang: expected expression
gmemlint: warning: $src/launch.cu: 2 parse error(s); findings may be incomplete (check the include paths: -p build/ or -- -I...)
$src/header.cu:1:10: note: clang: 'x.h' file not found
gmemlint: error: $src/header.cu: 1 parse error(s) and no function could be analysed
gmemlint: error: $src/generated.cu: No such file or directory
EOF
echo '{"version": 1, "findings": [], "notices": []}' >"$WORK/run.json"
echo 3 >"$WORK/run.rc"
"$PY" "$tools/count.py" "$WORK/db2.json" "$WORK/run.json" "$WORK/run.err" proj make "$WORK/errors.tsv" \
  >"$WORK/row" || fail "count.py exited $?"
# files 4 (clean.cu once), missing 1, analysed 2 (clean, launch), broken 2: a missing header, a launch
want=$(printf 'proj\tmake\t4\t1\t2\t2\t1\t0\t1\t0\t0\t0\t0\t3')
[ "$(cat "$WORK/row")" = "$want" ] || fail "count.py from stderr: row '$(cat "$WORK/row")', expected '$want'"
want=$(printf 'proj\tmake\tmissing_header\t%s\t%s\t%s\n' "$src/header.cu" "$src/header.cu:1" "'x.h' file not found"
  printf 'proj\tmake\tlaunch_syntax\t%s\t%s\t%s' "$src/launch.cu" "$src/launch.cu:3" "expected expression")
[ "$(cat "$WORK/errors.tsv")" = "$want" ] || fail "count.py: errors.tsv '$(cat "$WORK/errors.tsv")', expected '$want'"

# ---- count.py prefers JSON notices: here one file, whose first error is an old API; and the
# absent file is not analysed though standard error no longer names it ----
grep -v 'No such file' "$WORK/run.err" >"$WORK/run2.err"
cat >"$WORK/run.json" <<EOF
{"version": 1, "findings": [], "notices": [{"kind": "parse-errors", "file": "$src/clean.cu",
 "line": 1, "column": 1, "function": "", "message": "1 parse error(s); findings may be incomplete",
 "errors": 1, "first_error": {"file": "$src/clean.cu", "line": 1, "column": 1,
 "message": "no template named 'texture'"}, "analysed": true}]}
EOF
: >"$WORK/errors.tsv"
"$PY" "$tools/count.py" "$WORK/db2.json" "$WORK/run.json" "$WORK/run2.err" proj ninja "$WORK/errors.tsv" \
  >"$WORK/row" || fail "count.py exited $?"
want=$(printf 'proj\tninja\t4\t1\t3\t1\t0\t1\t0\t0\t0\t0\t0\t3')
[ "$(cat "$WORK/row")" = "$want" ] || fail "count.py from JSON: row '$(cat "$WORK/row")', expected '$want'"

# ---- run.sh --list: the projects of one half, and a row without a valid half ----
{
  printf '# name\trepo\tcommit\tkind\tbuild\trecipe\tneeds\thalf\n'
  printf 'dev1\to/d1\tc1\tml\tmake\t. -- A=1\t-\tdevelopment\n'
  printf 'meas1\to/m1\tc2\tminer\tcmake\t-DX=ON\tapt:p,sub:a=o/a@c\tmeasured\n'
  printf 'dev2\to/d2\tc3\tgraph\tcmake\t-\t-\tdevelopment\n'
} >"$WORK/repos.tsv"
list() { REPOS=$WORK/repos.tsv "$tools/run.sh" --list "$@"; }
[ "$(list --half=development | tr '\n' ' ')" = "dev1 dev2 " ] ||
  fail "run.sh --list --half=development: '$(list --half=development | tr '\n' ' ')', expected 'dev1 dev2 '"
[ "$(list --half=measured)" = meas1 ] || fail "run.sh --list --half=measured: '$(list --half=measured)'"
[ "$(list | tr '\n' ' ')" = "dev1 meas1 dev2 " ] || fail "run.sh --list: '$(list | tr '\n' ' ')'"
[ "$(list --half=measured dev1 meas1)" = meas1 ] || fail "run.sh --list with names and a half"
list --half=both >"$WORK/out" 2>&1 && fail "run.sh --half=both exited 0"
[ "$(cat "$WORK/out")" = "run.sh: error: --half takes development or measured, not 'both'" ] ||
  fail "run.sh --half=both said '$(cat "$WORK/out")'"
printf 'nohalf\to/n\tc4\tml\tmake\t.\t-\n' >>"$WORK/repos.tsv"
list >"$WORK/out" 2>&1
rc=$?
[ $rc = 2 ] || fail "run.sh with a row lacking its half exited $rc, expected 2"
[ "$(cat "$WORK/out")" = "run.sh: error: $WORK/repos.tsv:5: nohalf: the column half must be development or measured" ] ||
  fail "run.sh with a row lacking its half said '$(cat "$WORK/out")'"
finish
