#!/usr/bin/env bash
# bench/realcode's evaluation on a project written here: mine.py finds the commit that
# frees a leaked cudaMalloc and names the allocation at its parent; evaluate.py lints that parent
# as a program with the flags of the pinned commit's database, joins the run's findings with a
# ledger (one judged, one not) and checks a label read at the pinned commit and a clean function.
source "$(dirname "$0")/testlib.bash" "$@"
tools=$ROOT/bench/realcode
export REALCODE=$WORK/realcode MIRROR=$WORK/mirror
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
repo=$WORK/mirror/me+tiny/repo
mkdir -p "$repo" "$REALCODE/src" "$REALCODE/build/tiny/dryrun" "$REALCODE/out/run"
git -C "$repo" init -q

# The parent: 'b' leaks when run() returns 0.
cat >"$repo/prog.cu" <<'SRC'
#include <cuda_runtime.h>
int run(int n) {
  float *a = nullptr, *b = nullptr;
  if (cudaMalloc(&a, n) != cudaSuccess)
    return -1;
  if (cudaMalloc(&b, n) != cudaSuccess) {
    cudaFree(a);
    return -1;
  }
  cudaFree(a);
  return 0;
}
int ok(int n) {
  float *c = nullptr;
  if (cudaMalloc(&c, n) != cudaSuccess)
    return -1;
  cudaFree(c);
  return 0;
}
SRC
cat >"$repo/other.cu" <<'SRC'
#include <cuda_runtime.h>
void first(int n) {
  float *p = nullptr;
  cudaMalloc(&p, n);
}
void second(int n) {
  float *q = nullptr;
  cudaMalloc(&q, n);
}
SRC
git -C "$repo" add -A && git -C "$repo" commit -qm "the leak"
parent=$(git -C "$repo" rev-parse HEAD)
# The fix frees 'b'; a second commit adds memory and its free together (no defect at its parent).
sed -i 's/^  cudaFree(a);$/  cudaFree(a);\n  cudaFree(b);/' "$repo/prog.cu"
git -C "$repo" commit -qam "free b"
fix=$(git -C "$repo" rev-parse HEAD)
cat >>"$repo/other.cu" <<'SRC'
void third(int n) {
  float *r = nullptr;
  cudaMalloc(&r, n);
  cudaFree(r);
}
SRC
git -C "$repo" commit -qam "third"
head=$(git -C "$repo" rev-parse HEAD)

# ---- mine.py ----
"$PY" "$tools/mine.py" tiny "$repo" >"$WORK/mined.tsv" || fail "mine.py exited $?"
got=$(cut -f1-5,8-11 "$WORK/mined.tsv" | tail -n +2)
# Newest first; the second commit's memory is new in it, so it has no allocation at its parent.
want=$(printf 'tiny\t%s\t%s\tadd-free\tother.cu\t\t\t\tnew,no-alloc-at-parent\ntiny\t%s\t%s\tadd-free\tprog.cu\tprog.cu\t6\trun\t-' \
  "$head" "$fix" "$fix" "$parent")
[ "$got" = "$want" ] || fail "mine.py: expected
$want
got
$got"
"$PY" "$tools/mine.py" tiny "$WORK/nothing" >/dev/null 2>"$WORK/err" && fail "mine.py: a missing git directory exited 0"
grep -q "^mine.py: error: $WORK/nothing" "$WORK/err" || fail "mine.py: no error naming the directory: $(cat "$WORK/err")"

# ---- evaluate.py ----
git clone -q "$repo" "$REALCODE/src/tiny"
src=$REALCODE/src/tiny
printf '[{"directory": "%s", "arguments": ["nvcc", "-c", "prog.cu"], "file": "%s/prog.cu"},
 {"directory": "%s", "arguments": ["nvcc", "-c", "other.cu"], "file": "%s/other.cu"}]\n' \
  "$src" "$src" "$src" "$src" >"$REALCODE/build/tiny/dryrun/compile_commands.json"
(cd "$src" && "$GMEMLINT" -p "$REALCODE/build/tiny/dryrun" --format=json --explain --no-cache >"$REALCODE/out/run/tiny.make-n.json")
# what --explain says was kept out, as a run of run.sh records it: counted per rule and reason
"$PY" - "$REALCODE/out/run/tiny.make-n.json" <<'EOF' || fail "could not add suppressed entries"
import json, sys
doc = json.load(open(sys.argv[1]))
entry = lambda rule, reason: {"rule": rule, "reason": reason, "file": "x.cu", "line": 1, "column": 1,
                              "function": "f", "message": rule + " not reported (" + reason + "): x"}
doc["suppressed"] = [entry("GM010", "retry-loop"), entry("GM010", "retry-loop"), entry("", "cut-short")]
json.dump(doc, open(sys.argv[1], "w"))
EOF
printf '# name\trepo\tcommit\tkind\tbuild\trecipe\tneeds\thalf\ntiny\tme/tiny\t%s\tml\tmake\t.\t-\tmeasured\n' "$head" >"$WORK/repos.tsv"
fp=$("$PY" -c 'import json,sys; print([f["fingerprint"] for f in json.load(open(sys.argv[1]))["findings"] if f["function"] == "first"][0])' \
  "$REALCODE/out/run/tiny.make-n.json")
printf 'project\thalf\trule\tfile\tline\tfunction\tfingerprint\tverdict\twhy\ntiny\tmeasured\tGM001\tother.cu\t4\tfirst\t%s\ttrue\tnever freed\n' "$fp" >"$WORK/ledger.tsv"
{
  printf 'project\thalf\tsource\tparent\tfile\tline\tfunction\tkind\trule\tnote\n'
  printf 'tiny\tmeasured\t%s\t%s\tprog.cu\t6\trun\tleak\tGM001\tb is not freed when run succeeds\n' "$fix" "$parent"
  printf 'tiny\tmeasured\treading\t%s\tother.cu\t8\tsecond\tleak\tGM001\tq is never freed\n' "$head"
  printf 'tiny\tmeasured\treading\t%s\tother.cu\t10\tthird\tclean\t-\tallocates and frees\n' "$head"
  printf 'tiny\tmeasured\treading\t%s\tprog.cu\t13\tok\tclean\t-\tfrees on every path\n' "$head"
  # a label only an off-by-default rule finds: counted apart, neither found nor missed
  printf 'tiny\tmeasured\treading\t%s\tother.cu\t4\tfirst\tleak\tGM005\tp is still held at exit\n' "$head"
} >"$WORK/labels.tsv"
"$PY" "$tools/evaluate.py" --gmemlint="$GMEMLINT" --repos="$WORK/repos.tsv" --labels="$WORK/labels.tsv" \
  --ledger="$WORK/ledger.tsv" --tsv="$WORK/figures.tsv" --details="$WORK/details.tsv" "$REALCODE/out/run" \
  >"$WORK/table.txt" 2>"$WORK/err" || fail "evaluate.py exited $? ($(cat "$WORK/err"))"
want='project	half	run	findings	true	false	duplicate	debatable	unjudged	precision	precision_in	mined_found	mined_recall	read_found	clean_reported	off_default
tiny	measured	make-n	2	1	0	0	0	1	100%	100%	1/1	100%	1/1	0/2	1
measured	measured		2	1	0	0	0	1	100%	100%	1/1	100%	1/1	0/2	1'
[ "$(cat "$WORK/figures.tsv")" = "$want" ] || fail "evaluate.py: expected
$want
got
$(cat "$WORK/figures.tsv")"
grep -q "^precision = true/(true+false+duplicate); debatable and unjudged" "$WORK/table.txt" ||
  fail "evaluate.py: the table does not say how precision is counted"
grep -q "^precision_in = true/(true+false+duplicate+debatable): debatable counted as false$" "$WORK/table.txt" ||
  fail "evaluate.py: the table does not say how precision_in is counted"
want='rule	reason	times	projects	where
GM010	retry-loop	2	1	tiny 2
-	cut-short	1	1	tiny 1'
[ "$(cat "$WORK/figures-exemptions.tsv")" = "$want" ] || fail "evaluate.py: exemptions expected
$want
got
$(cat "$WORK/figures-exemptions.tsv" 2>&1)"
grep -q "^GM010  retry-loop  2  1  tiny 2$" "$WORK/table.txt" || fail "evaluate.py: the table lacks the exemption counts: $(cat "$WORK/table.txt")"
grep -q "^off-by-default	tiny	measured	GM005	other.cu	4	first	not-looked-for	reading$" "$WORK/details.tsv" ||
  fail "evaluate.py: the GM005 label is not counted apart: $(cat "$WORK/details.tsv")"
grep -q "^mined	tiny	measured	GM001	prog.cu	6	run	found	$fix$" "$WORK/details.tsv" ||
  fail "evaluate.py: the mined label is not found at its parent: $(cat "$WORK/details.tsv")"
[ -f "$REALCODE/parents/tiny-${parent:0:12}/prog.cu" ] || fail "evaluate.py: no worktree of the parent"
# categories.py: recall by category from the details; a label about a member is counted on the
# member-held line too (its note says so here)
sed -i 's/q is never freed/the struct member q is never freed/' "$WORK/labels.tsv"
"$PY" "$tools/categories.py" --labels="$WORK/labels.tsv" "$WORK/details.tsv" >"$WORK/categories.txt" \
  2>"$WORK/err" || fail "categories.py exited $? ($(cat "$WORK/err"))"
block='  A leaks                        2/2   100%
  B churn                        0/0   -
  C wrong/double free            0/0   -
  D managed                      0/0   -
  member-held (any category)     1/1   100%
  clean reported                 0/2   0%'
want="measured:
$block
all:
$block"
[ "$(cat "$WORK/categories.txt")" = "$want" ] || fail "categories.py: expected
$want
got
$(cat "$WORK/categories.txt")"
"$PY" "$tools/categories.py" --nope "$WORK/details.tsv" >/dev/null 2>"$WORK/err"
rc=$?
[ $rc = 2 ] || fail "categories.py: an unknown option exited $rc, expected 2"
grep -q "^categories.py: error: unknown option --nope" "$WORK/err" || fail "categories.py: $(cat "$WORK/err")"
# The pinned commit's database, moved onto the parent's tree (its directories too, so that
# relative include paths name the parent's headers).
"$PY" - "$REALCODE/parents/out/tiny-${parent:0:12}/compile_commands.json" "$REALCODE/parents/tiny-${parent:0:12}" <<'EOF' ||
import json, sys
db, tree = json.load(open(sys.argv[1])), sys.argv[2]
want = [{"directory": tree, "file": tree + "/prog.cu", "arguments": ["nvcc", "-c", "prog.cu"]},
        {"directory": tree, "file": tree + "/other.cu", "arguments": ["nvcc", "-c", "other.cu"]}]
sys.exit(0 if db == want else print(json.dumps(db), file=sys.stderr) or 1)
EOF
  fail "evaluate.py: the parent's database is not the pinned one moved onto the parent"
[ "$(git -C "$src" worktree list | wc -l)" = 1 ] || fail "evaluate.py: the shared clone got a worktree"
# Again with the same binary: the parent's lint is reused, the figures are the same.
"$PY" "$tools/evaluate.py" --gmemlint="$GMEMLINT" --repos="$WORK/repos.tsv" --labels="$WORK/labels.tsv" \
  --ledger="$WORK/ledger.tsv" --tsv="$WORK/figures2.tsv" --details="$WORK/details2.tsv" "$REALCODE/out/run" \
  >/dev/null 2>"$WORK/err" || fail "evaluate.py (again) exited $?"
grep -q "^evaluate.py: tiny@${parent:0:12}: 2 file(s), lint reused from $REALCODE/parents/out/tiny-${parent:0:12}$" "$WORK/err" ||
  fail "evaluate.py: the parent's lint was not reused: $(cat "$WORK/err")"
cmp -s "$WORK/figures.tsv" "$WORK/figures2.tsv" || fail "evaluate.py: the figures changed on a reused lint"
# a row the run never linted (added to repos.tsv after run.sh started) is named, shown, and left out
# of its half's totals: its labels are not misses
{ cat "$WORK/repos.tsv"; printf 'late\tme/late\t%s\tml\tmake\t.\t-\tmeasured\n' "$head"; } >"$WORK/repos-late.tsv"
{ cat "$WORK/labels.tsv"; printf 'late\tmeasured\treading\t%s\tx.cu\t3\tf\tleak\tGM001\tnever freed\n' "$head"; } >"$WORK/labels-late.tsv"
"$PY" "$tools/evaluate.py" --gmemlint="$GMEMLINT" --repos="$WORK/repos-late.tsv" --labels="$WORK/labels-late.tsv" \
  --ledger="$WORK/ledger.tsv" --tsv="$WORK/figures-late.tsv" --details="$WORK/details-late.tsv" "$REALCODE/out/run" \
  >/dev/null 2>"$WORK/err" || fail "evaluate.py (a late row) exited $?"
grep -qx "evaluate.py: warning: late has no run in $REALCODE/out/run; left out of its half's totals" "$WORK/err" ||
  fail "evaluate.py: no warning for the row without a run: $(cat "$WORK/err")"
want='project	half	run	findings	true	false	duplicate	debatable	unjudged	precision	precision_in	mined_found	mined_recall	read_found	clean_reported	off_default
tiny	measured	make-n	2	1	0	0	0	1	100%	100%	1/1	100%	1/1	0/2	1
late	measured	none	0	0	0	0	0	0	-	-	0/0	-	0/1	0/0	0
measured	measured		2	1	0	0	0	1	100%	100%	1/1	100%	1/1	0/2	1'
[ "$(cat "$WORK/figures-late.tsv")" = "$want" ] || fail "evaluate.py (a late row): expected
$want
got
$(cat "$WORK/figures-late.tsv")"
# A label's flags (what the parent's own build defined) reach every entry of the parent's lint.
awk -F'\t' 'BEGIN { OFS = "\t" } NR == 1 { print $0, "flags"; next } { print $0, ($3 == "reading" ? "-" : "-DOLD_BUILD=1") }' \
  "$WORK/labels.tsv" >"$WORK/labels-flags.tsv"
"$PY" "$tools/evaluate.py" --gmemlint="$GMEMLINT" --repos="$WORK/repos.tsv" --labels="$WORK/labels-flags.tsv" \
  --ledger="$WORK/ledger.tsv" --tsv="$WORK/figures3.tsv" --details="$WORK/details3.tsv" "$REALCODE/out/run" \
  >/dev/null 2>"$WORK/err" || fail "evaluate.py (flags) exited $?"
grep -q "^evaluate.py: tiny@${parent:0:12}: linted 2 file(s)" "$WORK/err" || fail "evaluate.py: new flags did not lint again: $(cat "$WORK/err")"
"$PY" -c 'import json, sys; sys.exit(0 if all(e["arguments"][-1] == "-DOLD_BUILD=1" for e in json.load(open(sys.argv[1]))) else 1)' \
  "$REALCODE/parents/out/tiny-${parent:0:12}/compile_commands.json" || fail "evaluate.py: the label's flags are not in the parent's database"

# A `.cu` file of a parent whose pinned database has no `.cu` entry (its CUDA sources became `.cpp`
# files compiled with `-x cu`) borrows the flags of such an entry, never those of a C++ entry.
"$PY" - "$tools" "$WORK/xcu" <<'EOF' || fail "evaluate.py: a .cu file did not borrow a -x cu entry's flags"
import json, os, sys
sys.path.insert(0, sys.argv[1])
import evaluate
w = sys.argv[2]
src, tree = w + "/src", w + "/tree"
db = [{"directory": w, "arguments": ["c++", "-c", src + "/host.cpp"], "file": src + "/host.cpp"},
      {"directory": w, "arguments": ["nvcc", "-x", "cu", "-c", src + "/gpu/dev.cpp"], "file": src + "/gpu/dev.cpp"}]
os.makedirs(w, exist_ok=True)
json.dump(db, open(w + "/db.json", "w"))
files = evaluate.parent_database(w + "/db.json", src, tree, ["old/kernels.cu"], w + "/out/cc.json")
want = [{"directory": w, "file": tree + "/old/kernels.cu",
         "arguments": ["nvcc", "-x", "cu", "-c", tree + "/old/kernels.cu"]}]
got = json.load(open(w + "/out/cc.json"))
sys.exit(0 if files == [tree + "/old/kernels.cu"] and got == want else print(json.dumps(got), file=sys.stderr) or 1)
EOF

# Bad input: a label of a project the repos table lacks, a verdict not in the list.
printf 'project\thalf\tsource\tparent\tfile\tline\tfunction\tkind\trule\tnote\nnope\tmeasured\treading\t-\ta.cu\t1\tf\tleak\tGM001\tx\n' >"$WORK/bad.tsv"
"$PY" "$tools/evaluate.py" --repos="$WORK/repos.tsv" --labels="$WORK/bad.tsv" --ledger="$WORK/ledger.tsv" \
  "$REALCODE/out/run" >/dev/null 2>"$WORK/err"
rc=$?
[ $rc = 2 ] || fail "evaluate.py: an unknown project exited $rc, expected 2"
grep -q "^evaluate.py: error: $WORK/bad.tsv:2: project 'nope' is not in $WORK/repos.tsv" "$WORK/err" ||
  fail "evaluate.py: the error does not name the label: $(cat "$WORK/err")"
sed 's/\ttrue\t/\tyes\t/' "$WORK/ledger.tsv" >"$WORK/badledger.tsv"
"$PY" "$tools/evaluate.py" --repos="$WORK/repos.tsv" --labels="$WORK/labels.tsv" --ledger="$WORK/badledger.tsv" \
  "$REALCODE/out/run" >/dev/null 2>"$WORK/err"
rc=$?
[ $rc = 2 ] || fail "evaluate.py: a bad verdict exited $rc, expected 2"
grep -q "^evaluate.py: error: $WORK/badledger.tsv:2: verdict 'yes' is not one of" "$WORK/err" ||
  fail "evaluate.py: the error does not name the verdict: $(cat "$WORK/err")"

# ---- evaluate.sh: usage and a binary that is not there ----
"$tools/evaluate.sh" >/dev/null 2>"$WORK/err"
rc=$?
[ $rc = 2 ] || fail "evaluate.sh: no binary exited $rc, expected 2"
grep -q "^usage: bench/realcode/evaluate.sh" "$WORK/err" || fail "evaluate.sh: no usage line: $(cat "$WORK/err")"
"$tools/evaluate.sh" --reuse "$WORK/nope" >/dev/null 2>"$WORK/err"
rc=$?
[ $rc = 2 ] || fail "evaluate.sh: a missing binary exited $rc, expected 2"
grep -q "^evaluate.sh: error: $WORK/nope is not executable" "$WORK/err" || fail "evaluate.sh: $(cat "$WORK/err")"
finish
