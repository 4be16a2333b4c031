# tools/mutate/mutate.py on the tiny project of tests/mutate/tiny: the exact mutants (comments,
# strings, directives and an array's size left alone), the same sample for the same seed, every
# mutant's outcome (killed, survived, invalid, timed out), the tables, the survivors, the JSON,
# the checkout left untouched, bad usage and a failing unmutated suite.
set -euo pipefail
source "$(dirname "$0")/testlib.bash"
MUTATE="$ROOT/tools/mutate/mutate.py"
cp -a "$ROOT/tests/mutate/tiny" "$WORK/tiny"
TINY="$WORK/tiny"
before=$(cd "$TINY" && find . -type f | sort | xargs sha256sum)

# mut ARGS...: the mutator on the tiny project, stdout to $WORK/out, stderr to $WORK/err, status to $rc
mut() {
  rc=0
  "$PY" "$MUTATE" --root "$TINY" "$@" >"$WORK/out" 2>"$WORK/err" || rc=$?
}
# expect_file NAME GOT: the file $WORK/GOT is exactly $WORK/NAME.expected
expect_file() {
  diff -u "$WORK/$1.expected" "$WORK/$2" >"$WORK/diff" ||
    fail "$1: differs from expected: $(cat "$WORK/diff")"
}

# 1. every mutant of tiny.c, in file order
mut --list tiny.c
expect_rc 0 "--list"
cat >"$WORK/list.expected" <<'EOF'
mutate: 19 of 19 mutants in 1 file (seed 0)
tiny.c:11:29 rel-negate '==' -> '!='
tiny.c:11:32 int-const '1' -> '0'
tiny.c:13:32 int-const '2' -> '3'
tiny.c:13:35 int-const '3' -> '4'
tiny.c:13:38 int-const '5' -> '6'
tiny.c:21:3 delete-call 'trace();' -> ';'
tiny.c:22:9 rel-boundary '<' -> '<='
tiny.c:24:9 rel-boundary '>' -> '>='
tiny.c:30:7 drop-not '!' -> ''
tiny.c:31:12 bool-swap 'false' -> 'true'
tiny.c:32:24 rel-negate '!=' -> '=='
tiny.c:32:27 int-const '0' -> '1'
tiny.c:36:11 int-const '0' -> '1'
tiny.c:37:12 rel-boundary '>' -> '>='
tiny.c:37:14 int-const '0' -> '1'
tiny.c:38:13 int-const '2' -> '3'
tiny.c:49:9 logical '&&' -> '||'
tiny.c:50:5 return-swap 'return 1;' -> 'return 0;'
tiny.c:51:3 return-swap 'return 0;' -> 'return 1;'
EOF
expect_file list out

# 2. a seed picks the same sample every time, another seed another one
mut --list --seed 2 --max 4 tiny.c
cat >"$WORK/seed2.expected" <<'EOF'
mutate: 4 of 19 mutants in 1 file (seed 2)
tiny.c:11:32 int-const '1' -> '0'
tiny.c:13:35 int-const '3' -> '4'
tiny.c:22:9 rel-boundary '<' -> '<='
tiny.c:38:13 int-const '2' -> '3'
EOF
expect_file seed2 out
cp "$WORK/out" "$WORK/seed2.first"
mut --list --seed 2 --max 4 tiny.c
cmp -s "$WORK/seed2.first" "$WORK/out" ||
  fail "seed 2 gave another sample the second time: $(cat "$WORK/out")"
mut --list --seed 3 --max 4 tiny.c
! cmp -s "$WORK/seed2.first" "$WORK/out" || fail "seeds 2 and 3 gave the same sample"
mut --list --operators return-swap,logical tiny.c
[ "$(tail -n +2 "$WORK/out" | cut -d' ' -f2 | sort | uniq -c | awk '{print $2 "=" $1}' | paste -sd' ')" = \
  "logical=1 return-swap=2" ] ||
  fail "--operators return-swap,logical: $(cat "$WORK/out")"
mut --list --at tiny.c:37 --at tiny.c:13:38:int-const tiny.c
cat >"$WORK/at.expected" <<'EOF'
mutate: 3 of 19 mutants in 1 file (seed 0)
tiny.c:13:38 int-const '5' -> '6'
tiny.c:37:12 rel-boundary '>' -> '>='
tiny.c:37:14 int-const '0' -> '1'
EOF
expect_file at out

# 3. the whole run: each mutant's outcome, the tables, the survivors, the JSON
mut --timeout 2 --workdir "$WORK/scratch" --json "$WORK/run.json" tiny.c
expect_rc 0 "the run completed"
sed -n 's/^\(\[[0-9]*\/[0-9]*\] .*\) ([0-9.]* s)$/\1/p' "$WORK/out" >"$WORK/outcomes"
cat >"$WORK/outcomes.expected" <<'EOF'
[1/19] invalid  tiny.c:11:29 rel-negate '==' -> '!='
[2/19] invalid  tiny.c:11:32 int-const '1' -> '0'
[3/19] killed   tiny.c:13:32 int-const '2' -> '3'
[4/19] killed   tiny.c:13:35 int-const '3' -> '4'
[5/19] survived tiny.c:13:38 int-const '5' -> '6'
[6/19] survived tiny.c:21:3 delete-call 'trace();' -> ';'
[7/19] survived tiny.c:22:9 rel-boundary '<' -> '<='
[8/19] survived tiny.c:24:9 rel-boundary '>' -> '>='
[9/19] killed   tiny.c:30:7 drop-not '!' -> ''
[10/19] killed   tiny.c:31:12 bool-swap 'false' -> 'true'
[11/19] killed   tiny.c:32:24 rel-negate '!=' -> '=='
[12/19] killed   tiny.c:32:27 int-const '0' -> '1'
[13/19] killed   tiny.c:36:11 int-const '0' -> '1'
[14/19] timeout  tiny.c:37:12 rel-boundary '>' -> '>='
[15/19] killed   tiny.c:37:14 int-const '0' -> '1'
[16/19] killed   tiny.c:38:13 int-const '2' -> '3'
[17/19] killed   tiny.c:49:9 logical '&&' -> '||'
[18/19] killed   tiny.c:50:5 return-swap 'return 1;' -> 'return 0;'
[19/19] killed   tiny.c:51:3 return-swap 'return 0;' -> 'return 1;'
EOF
expect_file outcomes outcomes
sed -n '/^operator /,/^$/p' "$WORK/out" >"$WORK/operators"
cat >"$WORK/operators.expected" <<'EOF'
operator      killed  survived  invalid  timeout  kill rate
bool-swap          1         0        0        0     100.0%
delete-call        0         1        0        0       0.0%
drop-not           1         0        0        0     100.0%
int-const          6         1        1        0      85.7%
logical            1         0        0        0     100.0%
rel-boundary       0         2        0        1      33.3%
rel-negate         1         0        1        0     100.0%
return-swap        2         0        0        0     100.0%

EOF
expect_file operators operators
expect_out '^tiny\.c      12         4        2        1      76\.5%$' "the file's row"
expect_out '^total: 12 killed, 4 survived, 2 invalid, 1 timed out; kill rate 76\.5%$' "the total"
sed -n '/^survivors:$/,/^mutate: /p' "$WORK/out" >"$WORK/survivors"
cat >"$WORK/survivors.expected" <<'EOF'
survivors:
  tiny.c:13:38 int-const: 5 -> 6
  tiny.c:21:3 delete-call: trace(); -> ;
  tiny.c:22:9 rel-boundary: < -> <=
  tiny.c:24:9 rel-boundary: > -> >=
EOF
grep -v '^mutate: ' "$WORK/survivors" >"$WORK/survivors.got" || true
expect_file survivors survivors.got
"$PY" - "$WORK/run.json" >"$WORK/json" 2>&1 <<'PY' || fail "the JSON: $(cat "$WORK/json")"
import json, sys
d = json.load(open(sys.argv[1]))
t = d["summary"]["total"]
assert (t["killed"], t["survived"], t["invalid"], t["timeout"]) == (12, 4, 2, 1), t
assert abs(t["kill_rate"] - 13 / 17) < 1e-9, t
assert d["seed"] == 0 and d["candidates"] == 19 and d["sample"] == 19, d
m = d["mutants"][13]
assert (m["file"], m["line"], m["col"], m["operator"], m["original"], m["replacement"], m["status"]) == (
    "tiny.c", 37, 12, "rel-boundary", ">", ">=", "timeout"), m
assert [x["status"] for x in d["mutants"]].count("survived") == 4
PY

# 4. the checkout is as it was: nothing mutated, nothing built in it
after=$(cd "$TINY" && find . -type f | sort | xargs sha256sum)
[ "$before" = "$after" ] || fail "the project changed: $(diff <(echo "$before") <(echo "$after"))"

# 5. bad usage exits 2; a suite that fails (here: matches no test) before any mutant exits 1
mut --operators bogus tiny.c
expect_rc 2 "an unknown operator"
expect_err '^mutate: error: unknown operator .bogus.' "an unknown operator"
mut --list --max 3 --max-each 2 tiny.c
expect_rc 2 "--max with --max-each"
expect_err '^mutate: error: --max and --max-each' "--max with --max-each"
mut --list --at tiny.c:99 tiny.c
expect_rc 2 "--at where there is no mutant"
expect_err '^mutate: error: no mutant at tiny\.c:99$' "--at where there is no mutant"
mut --list missing.c
expect_rc 2 "a missing file"
expect_err '^mutate: error: missing\.c: no such file' "a missing file"
mut --workdir "$WORK/scratch" --tests '^no-such-test$' tiny.c
expect_rc 1 "no test to run"
expect_err '^mutate: error: the unmutated tests fail' "no test to run"
finish
