#!/usr/bin/env bash
# bench/inject/inject.py, the injected-defect measure: on a tiny program of its own
# (tests/inject/tiny), the real gmemlint against every mutant of a fixed seed, the exact table;
# the same seed gives the same mutants and another seed other variants; the program is left as
# it was, also after a run killed midway (the journal); each outcome (found, elsewhere, missed,
# unanalysed, invalid, cascade) from a stand-in gmemlint whose findings follow the mutant's text; bad usage.
source "$(dirname "$0")/testlib.bash" "$@"
inject=$ROOT/bench/inject/inject.py

make_db() { # DIR FILE...: a compile database of nvcc commands for FILE... in DIR
  local dir=$1
  shift
  "$PY" - "$dir" "$@" >"$dir/compile_commands.json" <<'EOF'
import json, sys
d = sys.argv[1]
print(json.dumps([{"directory": d, "file": f,
                   "command": f"/usr/local/cuda/bin/nvcc -I{d} -c {f} -o {f}.o"}
                  for f in sys.argv[2:]], indent=1))
EOF
}

cp -r "$ROOT/tests/inject/tiny" "$WORK/tiny"
make_db "$WORK/tiny" pairs.cu pool.cu
# pool.cu with CRLF line ends: restored byte for byte, not with its line ends translated
sed -i 's/$/\r/' "$WORK/tiny/pool.cu"
cp -r "$WORK/tiny" "$WORK/pristine"

# ---- the mutants of seed 7, listed ----
"$PY" "$inject" --db "$WORK/tiny" --gmemlint "$GMEMLINT" --seed 7 --jobs 1 --list \
  --out "$WORK/o-list" >"$WORK/list7" 2>"$WORK/err" || fail "--list exited $?: $(cat "$WORK/err")"
grep -qx 'tiny: 2 files, 8 allocations, 11 frees, 48 mutants (seed 7); unmutated run [0-9.]* s' \
  "$WORK/err" || fail "--list's count line: $(cat "$WORK/err")"
cat >"$WORK/want-list" <<'EOF'
leak pairs.cu:26 (deleted)
leak-branch pairs.cu:26 (pointer-bit)
wrong-family pairs.cu:26 (cudaFree)
double-free pairs.cu:26 (twice)
double-free-helper pairs.cu:26 (helper)
churn pairs.cu:26 (100 trips)
EOF
head -6 "$WORK/list7" | diff "$WORK/want-list" - >&2 || fail "seed 7's first mutants"
[ "$(wc -l <"$WORK/list7")" -eq 48 ] || fail "48 mutants listed: $(wc -l <"$WORK/list7")"
"$PY" "$inject" --db "$WORK/tiny" --gmemlint "$GMEMLINT" --seed 7 --jobs 1 --list \
  --out "$WORK/o-list" >"$WORK/list7b" 2>/dev/null
cmp -s "$WORK/list7" "$WORK/list7b" || fail "the same seed gave other mutants"
"$PY" "$inject" --db "$WORK/tiny" --gmemlint "$GMEMLINT" --seed 8 --jobs 1 --list \
  --out "$WORK/o-list" >"$WORK/list8" 2>/dev/null
[ "$(wc -l <"$WORK/list8")" -eq 48 ] || fail "seed 8: 48 mutants: $(wc -l <"$WORK/list8")"
cmp -s "$WORK/list7" "$WORK/list8" && fail "seed 8 picked the same variants as seed 7"
"$PY" "$inject" --db "$WORK/tiny" --gmemlint "$GMEMLINT" --seed 7 --jobs 1 --list --max 5 \
  --out "$WORK/o-list" >"$WORK/list-max" 2>/dev/null
[ "$(wc -l <"$WORK/list-max")" -eq 5 ] || fail "--max 5: $(wc -l <"$WORK/list-max") mutants"

# ---- every mutant of seed 7 against the real gmemlint ----
# The misses are today's analyzer: members whose teardown free was dropped while an error path in
# their init still frees them. (A member freed twice in its release function was missed until
# members of parameters got objects of their own for what they hold on entry.)
"$PY" "$inject" --db "$WORK/tiny" --gmemlint "$GMEMLINT" --seed 7 --jobs 1 --out "$WORK/o7" \
  >"$WORK/table7" 2>"$WORK/err" || fail "the run exited $?: $(tail -5 "$WORK/err")"
cat >"$WORK/want7" <<'EOF'
seed 7
kind                       mutants invalid  found elsewhere missed unanalysed  recall cascades
leak                             4       0      4         0      0          0    100%   0 (0%)
leak-branch                      4       0      4         0      0          0    100%   0 (0%)
member-leak                      6       0      1         0      5          0     17%   0 (0%)
wrong-family                    10       0     10         0      0          0    100%   0 (0%)
double-free                     10       0     10         0      0          0    100%   0 (0%)
double-free-helper              10       0     10         0      0          0    100%   0 (0%)
churn                            3       1      2         0      0          0    100%   0 (0%)
managed                          1       0      1         0      0          0    100%   0 (0%)
all                             48       1     42         0      5          0     89%   0 (0%)

leaks, wrong and double frees: recall 89% (39/44), goal 90%
churn and managed access: recall 100% (3/3), goal 80%
mutants with cascades: 0.0% (0/47), goal under 5%
EOF
diff "$WORK/want7" "$WORK/table7" >&2 || fail "seed 7's table against gmemlint"
grep -q '^\[46/48\] double-free pool.cu:21 (twice): found$' "$WORK/err" ||
  fail "the progress line of a found double free: $(grep '46/48' "$WORK/err")"
grep -q '^\[44/48\] member-leak pool.cu:21 (member): missed$' "$WORK/err" ||
  fail "the progress line of a missed member leak: $(grep '44/48' "$WORK/err")"
grep -q '^\[23/48\] churn pairs.cu:51 (10 trips): invalid$' "$WORK/err" ||
  fail "the churn mutant that hides a declaration is invalid: $(grep "churn pairs.cu:51" "$WORK/err")"
diff -r "$WORK/pristine" "$WORK/tiny" >&2 || fail "the program was left mutated"
"$PY" "$inject" --summarize "$WORK/o7/tiny.results.json" >"$WORK/again" ||
  fail "--summarize exited $?"
diff "$WORK/want7" "$WORK/again" >&2 || fail "--summarize gave another table"

# ---- a run killed midway leaves the journal; the next run restores the file first ----
"$PY" "$inject" --db "$WORK/tiny" --gmemlint "$GMEMLINT" --seed 7 --jobs 1 \
  --out "$WORK/o-kill" >/dev/null 2>"$WORK/err-kill" &
pid=$!
for _ in $(seq 100); do
  grep -q '^\[3/' "$WORK/err-kill" 2>/dev/null && break
  sleep 0.2
done
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
if diff -rq "$WORK/pristine" "$WORK/tiny" >/dev/null; then
  : # killed between two mutants: nothing to restore, still a valid outcome
else
  "$PY" "$inject" --db "$WORK/tiny" --gmemlint "$GMEMLINT" --seed 7 --jobs 1 --list \
    --out "$WORK/o-kill" >/dev/null 2>"$WORK/err"
  grep -q "^inject: restored $WORK/tiny/pairs.cu from an interrupted run$" "$WORK/err" ||
    fail "the restore message: $(cat "$WORK/err")"
fi
diff -r "$WORK/pristine" "$WORK/tiny" >&2 || fail "the killed run's file was not restored"
# and a SIGTERM restores at once
"$PY" "$inject" --db "$WORK/tiny" --gmemlint "$GMEMLINT" --seed 7 --jobs 1 \
  --out "$WORK/o-term" >/dev/null 2>"$WORK/err-term" &
pid=$!
for _ in $(seq 100); do
  grep -q '^\[3/' "$WORK/err-term" 2>/dev/null && break
  sleep 0.2
done
kill -TERM "$pid"
wait "$pid" 2>/dev/null || true
diff -r "$WORK/pristine" "$WORK/tiny" >&2 || fail "SIGTERM left the program mutated"

# ---- each outcome, from the stand-in gmemlint ----
cp -r "$ROOT/tests/inject/stub" "$WORK/stub"
make_db "$WORK/stub" stub.cu
"$PY" "$inject" --db "$WORK/stub" --gmemlint "$WORK/stub/gmemlint" --seed 3 --jobs 1 \
  --out "$WORK/o-stub" >"$WORK/table-stub" 2>"$WORK/err" || fail "the stub run exited $?"
cat >"$WORK/want-stub" <<'EOF'
seed 3
kind                       mutants invalid  found elsewhere missed unanalysed  recall cascades
leak                             1       0      0         0      0          1      0%   0 (0%)
leak-branch                      1       0      0         1      0          0      0%   0 (0%)
wrong-family                     1       0      1         0      0          0    100%   0 (0%)
double-free                      1       0      0         1      0          0      0%   0 (0%)
double-free-helper               1       1      0         0      0          0       -        0
churn                            1       0      1         0      0          0    100% 1 (100%)
all                              6       1      2         2      0          1     40%  1 (20%)

leaks, wrong and double frees: recall 25% (1/4), goal 90%
churn and managed access: recall 100% (1/1), goal 80%
in main: 5 valid mutants, recall 40%; elsewhere: 0, recall -
mutants with cascades: 20.0% (1/5), goal under 5%
EOF
diff "$WORK/want-stub" "$WORK/table-stub" >&2 || fail "the stand-in's outcomes"
"$PY" - "$WORK/o-stub/stub.results.json" <<'EOF' || fail "the churn mutant's cascade in the results"
import json, os, sys
rows = {r["kind"]: r for r in json.load(open(sys.argv[1]))["mutants"]}
c = rows["churn"]["cascades"]
assert len(c) == 1 and c[0][0] == "GM021" and os.path.basename(c[0][1]) == "stub.cu" and c[0][2] == 2, c
assert rows["leak"]["cascades"] == [], rows["leak"]
EOF

# ---- run.sh over a corpus of one project, the database where bench/realcode/run.sh puts it ----
mkdir -p "$WORK/realcode/build/tiny/ninja"
cp -r "$ROOT/tests/inject/tiny" "$WORK/realcode/tiny-src"
make_db "$WORK/realcode/tiny-src" pairs.cu pool.cu
mv "$WORK/realcode/tiny-src/compile_commands.json" "$WORK/realcode/build/tiny/ninja/"
printf '# name\trepo\tcommit\tkind\tbuild\trecipe\tneeds\thalf\n' >"$WORK/repos.tsv"
printf 'tiny\tnone/tiny\t0\tlibrary-tests\tcmake\t-\t-\tmeasured\n' >>"$WORK/repos.tsv"
printf 'absent\tnone/absent\t0\tlibrary-tests\tcmake\t-\t-\tmeasured\n' >>"$WORK/repos.tsv"
rc=0
REALCODE=$WORK/realcode REPOS=$WORK/repos.tsv bash "$ROOT/bench/inject/run.sh" --seed 7 \
  --kinds wrong-family,churn "$GMEMLINT" >"$WORK/corpus" 2>"$WORK/err" || rc=$?
[ $rc -eq 0 ] || fail "run.sh exited $rc: $(cat "$WORK/err")"
grep -qx "seed 7; results in $WORK/realcode/inject/seed-7" "$WORK/err" || fail "run.sh's first line: $(cat "$WORK/err")"
grep -qx "run.sh: absent: no compile database under $WORK/realcode/build/absent (run bench/realcode/run.sh first); skipped" "$WORK/err" ||
  fail "run.sh on a project without a database: $(cat "$WORK/err")"
cat >"$WORK/want-corpus" <<'EOF2'
seed 7
kind                       mutants invalid  found elsewhere missed unanalysed  recall cascades
wrong-family                    10       0     10         0      0          0    100%   0 (0%)
churn                            3       1      2         0      0          0    100%   0 (0%)
all                             13       1     12         0      0          0    100%   0 (0%)

leaks, wrong and double frees: recall 100% (10/10), goal 90%
churn and managed access: recall 100% (2/2), goal 80%
mutants with cascades: 0.0% (0/12), goal under 5%
EOF2
diff "$WORK/want-corpus" "$WORK/corpus" >&2 || fail "run.sh's summary"
rc=0
bash "$ROOT/bench/inject/run.sh" --seed x7 "$GMEMLINT" 2>"$WORK/err" || rc=$?
[ $rc -eq 2 ] && grep -qx "run.sh: error: --seed takes a number, not 'x7'" "$WORK/err" ||
  fail "run.sh --seed x7: exit $rc, $(cat "$WORK/err")"

# ---- bad usage ----
rc=0
"$PY" "$inject" --gmemlint "$GMEMLINT" >/dev/null 2>"$WORK/err" || rc=$?
[ $rc -eq 2 ] && grep -q '^inject: error: --db and --gmemlint are required$' "$WORK/err" ||
  fail "no --db: exit $rc, $(cat "$WORK/err")"
rc=0
"$PY" "$inject" --db "$WORK/nowhere" --gmemlint "$GMEMLINT" 2>"$WORK/err" || rc=$?
[ $rc -eq 2 ] && grep -qx "inject: error: $WORK/nowhere: no compile_commands.json there" "$WORK/err" ||
  fail "a missing database: exit $rc, $(cat "$WORK/err")"
echo '{"not": "a list"}' >"$WORK/bad.json"
rc=0
"$PY" "$inject" --db "$WORK/bad.json" --gmemlint "$GMEMLINT" 2>"$WORK/err" || rc=$?
[ $rc -eq 2 ] && grep -qx "inject: error: $WORK/bad.json: a compile database is a JSON array of entries" "$WORK/err" ||
  fail "a database that is no list: exit $rc, $(cat "$WORK/err")"
rc=0
"$PY" "$inject" --db "$WORK/tiny" --gmemlint "$GMEMLINT" --kinds leak,typo 2>"$WORK/err" || rc=$?
[ $rc -eq 2 ] && grep -q "^inject: error: unknown kind 'typo'" "$WORK/err" ||
  fail "an unknown kind: exit $rc, $(cat "$WORK/err")"
finish
