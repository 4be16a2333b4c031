#!/usr/bin/env bash
# bench/realcode/first_contact.py on inputs written here: `record` appends a project's row and its
# findings' rows from a run directory and the ledger's verdicts (matched as evaluate.py matches
# them), and refuses a second contact and an unjudged finding; `summary` gives precision both ways
# and recall; `check` fails when a committed row is rewritten and passes when one is appended.
# Last, `check` on the repository's own ledger: every committed row of it is still in place.
source "$(dirname "$0")/testlib.bash" "$@"
set -euo pipefail
fc=$ROOT/bench/realcode/first_contact.py
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1

# expect_same WHAT WANT GOT
expect_same() {
  [ "$2" = "$3" ] || fail "$1: expected
$2
got
$3"
}
# fcrun ARGS...: first_contact.py, stdout to $WORK/out, stderr to $WORK/err, status to $rc
fcrun() {
  rc=0
  "$PY" "$fc" "$@" >"$WORK/out" 2>"$WORK/err" || rc=$?
}

# ---- inputs: a ledger directory, a run of two projects, repos, labels and verdicts ----
led=$WORK/ledger
run=$WORK/realcode/out/r1
mkdir -p "$led" "$run"
cols='project	repo	commit	date	gmemlint	source	files	analysed	findings	true	false	duplicate	debatable	unjudged	labels	labels_found	note'
{
  echo "# a comment line"
  echo "$cols"
  printf 'old\tme/old\taaaa\t2026-12-01\tc0ffee0\thistory:somewhere\t5\t5\t4\t2\t1\t0\t1\t0\t2\t1\t-\n'
} >"$led/first_contact.tsv"
{
  echo "# findings"
  printf 'project\tgmemlint\trule\tfile\tline\tfunction\tfingerprint\tverdict\twhy\n'
  printf 'old\tc0ffee0\tGM001\ta.cu\t3\tf\tx:1\ttrue\tleaks\n'
} >"$led/first_contact_findings.tsv"
printf '# name\trepo\tcommit\tkind\tbuild\trecipe\tneeds\thalf\n' >"$WORK/repos.tsv"
printf 'tiny\tme/tiny\tbeef\tml\tcmake\t-\t-\tmeasured\n' >>"$WORK/repos.tsv"
printf 'raw\tme/raw\tf00d\tml\tmake\t.\t-\tmeasured\n' >>"$WORK/repos.tsv"
printf 'dev\tme/dev\tcafe\tml\tmake\t.\t-\tdevelopment\n' >>"$WORK/repos.tsv"
# tiny: three findings (one matched by fingerprint, one by line, one duplicate); raw: one unjudged
src=$WORK/realcode/src
cat >"$run/tiny.ninja.json" <<EOF
{"version": 1, "tool": "gmemlint", "findings": [
 {"rule": "GM001", "file": "$src/tiny/k.cu", "line": 10, "function": "run", "fingerprint": "aa:1", "message": "m"},
 {"rule": "GM010", "file": "$src/tiny/k.cu", "line": 20, "function": "loop", "fingerprint": "new:1", "message": "m"},
 {"rule": "GM001", "file": "$src/tiny/h.cu", "line": 5, "function": "g", "fingerprint": "cc:1", "message": "m"}]}
EOF
echo '{"version": 1, "tool": "gmemlint", "findings": []}' >"$run/tiny.make.json"
cat >"$run/raw.make-n.json" <<EOF
{"version": 1, "tool": "gmemlint", "findings": [
 {"rule": "GM002", "file": "$src/raw/w.cu", "line": 7, "function": "h", "fingerprint": "dd:1", "message": "m"}]}
EOF
printf 'project\tgenerator\tfiles\tmissing\tanalysed\tparse_errors\n' >"$run/results.tsv"
printf 'tiny\tmake\t9\t0\t9\t0\ntiny\tninja\t7\t1\t6\t2\nraw\tmake-n\t3\t0\t3\t0\n' >>"$run/results.tsv"
{
  printf 'project\thalf\trule\tfile\tline\tfunction\tfingerprint\tverdict\twhy\n'
  printf 'tiny\tmeasured\tGM001\tk.cu\t10\trun\taa:1\ttrue\tleaks on the error path\n'
  printf 'tiny\tmeasured\tGM010\tk.cu\t20\tloop\told:1\tdebatable\ta sweep run once\n'
  printf 'tiny\tmeasured\tGM001\th.cu\t5\tg\tcc:1\tduplicate\tthe leak at k.cu:10 again\n'
  printf 'raw\tmeasured\tGM002\tw.cu\t7\th\tdd:1\tunjudged\t-\n'
} >"$WORK/ledger.tsv"
{
  printf 'project\thalf\tsource\tparent\tfile\tline\tfunction\tkind\trule\tnote\n'
  printf 'tiny\tmeasured\treading\tbeef\tk.cu\t12\trun\tleak\tGM001\tread\n'
  printf 'tiny\tmeasured\treading\tbeef\th.cu\t40\tg2\tleak\tGM001\tmissed\n'
  printf 'tiny\tmeasured\treading\tbeef\tk.cu\t30\tok\tclean\t-\tnot a defect\n'
  printf 'tiny\tmeasured\t0abc\t0123\tk.cu\t50\tend\tleak\tGM001\tmined\n'
} >"$WORK/labels.tsv"
# the mined label's outcome, as evaluate.py writes it after linting the parent
printf 'what\tproject\thalf\trule\tfile\tline\tfunction\toutcome\tsource_or_fingerprint\n' >"$run/evaluation-details.tsv"
printf 'mined\ttiny\tmeasured\tGM001\tk.cu\t50\tend\tfound\t0abc\n' >>"$run/evaluation-details.tsv"
opts=(--dir "$led" --repos "$WORK/repos.tsv" --labels "$WORK/labels.tsv" --ledger "$WORK/ledger.tsv")

# ---- record ----
fcrun record tiny --label r1 --realcode "$WORK/realcode" --gmemlint-commit 1234567abc --date 2026-12-06 \
  --note "first run" "${opts[@]}"
expect_rc 0 "record tiny"
expect_same "record tiny: its message" \
  "first_contact: recorded tiny (r1, gmemlint 1234567abc): 3 finding(s), 1 true, 0 false, 1 duplicate, 1 debatable; labels found 2/3" \
  "$(cat "$WORK/out")"
expect_same "record tiny: the contact row" \
  "old	me/old	aaaa	2026-12-01	c0ffee0	history:somewhere	5	5	4	2	1	0	1	0	2	1	-
tiny	me/tiny	beef	2026-12-06	1234567abc	run:r1	7	6	3	1	0	1	1	0	3	2	first run" \
  "$(grep -v '^#' "$led/first_contact.tsv" | tail -n +2)"
expect_same "record tiny: the findings rows (sorted by file and line; ninja's run, not make's)" \
  "old	c0ffee0	GM001	a.cu	3	f	x:1	true	leaks
tiny	1234567abc	GM001	h.cu	5	g	cc:1	duplicate	the leak at k.cu:10 again
tiny	1234567abc	GM001	k.cu	10	run	aa:1	true	leaks on the error path
tiny	1234567abc	GM010	k.cu	20	loop	new:1	debatable	a sweep run once" \
  "$(grep -v '^#' "$led/first_contact_findings.tsv" | tail -n +2)"
cp "$led/first_contact.tsv" "$WORK/before.tsv"
cp "$led/first_contact_findings.tsv" "$WORK/before-findings.tsv"

# a second contact is refused, and nothing is written
fcrun record tiny --label r1 --realcode "$WORK/realcode" --gmemlint-commit 1234567abc "${opts[@]}"
expect_rc 2 "record tiny again"
expect_same "record tiny again: the refusal" \
  "first_contact: error: tiny already has a first-contact row (run:r1, gmemlint 1234567abc): a first contact is recorded once" \
  "$(cat "$WORK/err")"
# an unjudged finding is refused
fcrun record raw --label r1 --realcode "$WORK/realcode" --gmemlint-commit 1234567abc "${opts[@]}"
expect_rc 2 "record raw (unjudged)"
expect_same "record raw: the refusal" \
  "first_contact: error: raw: 1 of 1 finding(s) unjudged in $WORK/ledger.tsv (first: GM002 w.cu:7 in h): judge every finding by reading before recording a first contact" \
  "$(cat "$WORK/err")"
# a development project is refused
fcrun record dev --label r1 --realcode "$WORK/realcode" --gmemlint-commit 1234567abc "${opts[@]}"
expect_rc 2 "record dev"
expect_same "record dev: the refusal" \
  "first_contact: error: dev is in the development half: a first contact is a measured project's, before any fix is drawn from it" \
  "$(cat "$WORK/err")"
cmp -s "$led/first_contact.tsv" "$WORK/before.tsv" || fail "a refused record changed first_contact.tsv"
cmp -s "$led/first_contact_findings.tsv" "$WORK/before-findings.tsv" || fail "a refused record changed the findings"

# ---- summary ----
fcrun summary "${opts[@]}"
expect_rc 0 "summary"
expect_same "summary" \
  "project         gmemlint  from     findings  true  false  duplicate  debatable  unjudged  precision  precision_all  labels_found
old             c0ffee0   history  4         2     1      0          1          0         67%        50%            1/2
tiny            1234567   run:r1   3         1     0      1          1          0         50%        33%            2/3
total (2 rows)                     7         3     1      1          2          0         60%        43%            3/5
precision, debatable left out: true/(true+false+duplicate) = 3/5 = 60%
precision, debatable counted as not useful: true/(true+false+duplicate+debatable) = 3/7 = 43%
recall: labels found/labels = 3/5 = 60%" \
  "$(cat "$WORK/out")"
fcrun summary --tsv "${opts[@]}"
expect_same "summary --tsv" \
  "project	gmemlint	from	findings	true	false	duplicate	debatable	unjudged	precision	precision_all	labels_found
old	c0ffee0	history	4	2	1	0	1	0	67%	50%	1/2
tiny	1234567	run:r1	3	1	0	1	1	0	50%	33%	2/3
total (2 rows)			7	3	1	1	2	0	60%	43%	3/5" \
  "$(cat "$WORK/out")"

# ---- check, in a git repository of its own ----
repo=$WORK/repo
mkdir -p "$repo/sub"
git -C "$repo" init -q
cp "$WORK/before.tsv" "$repo/sub/first_contact.tsv"
cp "$WORK/before-findings.tsv" "$repo/sub/first_contact_findings.tsv"
git -C "$repo" add -A && git -C "$repo" commit -qm one
printf 'new\tme/new\tbbbb\t2026-12-06\tc0ffee0\trun:r2\t1\t1\t0\t0\t0\t0\t0\t0\t0\t0\t-\n' >>"$repo/sub/first_contact.tsv"
git -C "$repo" commit -qam two
# an appended row, committed or not, passes
printf 'later\tme/later\tcccc\t2026-12-07\tc0ffee0\trun:r3\t1\t1\t0\t0\t0\t0\t0\t0\t0\t0\t-\n' >>"$repo/sub/first_contact.tsv"
fcrun check --dir "$repo/sub"
expect_rc 0 "check after appending"
expect_same "check after appending" \
  "first_contact: first_contact.tsv: 4 row(s); every row of 2 committed version(s) kept in order
first_contact: first_contact_findings.tsv: 4 row(s); every row of 1 committed version(s) kept in order" \
  "$(cat "$WORK/out")"
# a rewritten row of the first commit fails, naming the row (--git-dir names the repository)
sed -i 's/^tiny\tme\/tiny\tbeef\t2026-12-06\t1234567abc\trun:r1\t7\t6\t3\t1\t0/tiny\tme\/tiny\tbeef\t2026-12-06\t1234567abc\trun:r1\t7\t6\t3\t2\t0/' \
  "$repo/sub/first_contact.tsv"
fcrun check --dir "$repo/sub" --git-dir "$repo"
expect_rc 1 "check after rewriting a row"
expect_same "check after rewriting a row: the error" \
  "first_contact: error: first_contact.tsv: data row 2 of commit $(git -C "$repo" rev-parse --short=12 HEAD) is changed or removed in the working copy: tiny	me/tiny	beef	2026-12-06	1234567abc	run:r1	7	6	3	1	0	1	1	0	3	2	first run" \
  "$(cat "$WORK/err")"
# a removed findings row fails too
git -C "$repo" checkout -q -- sub/first_contact.tsv
sed -i '/\tGM010\t/d' "$repo/sub/first_contact_findings.tsv"
fcrun check --dir "$repo/sub"
expect_rc 1 "check after removing a findings row"
expect_same "check after removing a findings row: the error" \
  "first_contact: error: first_contact_findings.tsv: data row 4 of commit $(git -C "$repo" rev-parse --short=12 HEAD~1) is removed in the working copy: tiny	1234567abc	GM010	k.cu	20	loop	new:1	debatable	a sweep run once" \
  "$(cat "$WORK/err")"

# ---- the repository's own first-contact ledger: every committed row still in place ----
if git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1; then
  fcrun check --git-dir "$ROOT" --dir "$ROOT/bench/realcode"
  expect_rc 0 "check on bench/realcode's first-contact ledger"
  [ "$rc" = 0 ] || cat "$WORK/err" >&2
else
  echo "bench/realcode's own ledger not checked: $ROOT is not a git checkout"
fi
finish
